// The engine against published throughput: every row of engine/data/calibration.json estimated as a
// scenario, its predicted MFU (or HFU, where the source counts recomputed FLOPs) against the published
// figure; optionally the planner's own layout for the same GPUs against the published one.
#include <algorithm>
#include <cmath>

#include "estimators.hpp"
#include "json_fields.hpp"
#include "specs.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"

namespace traincalc {

using detail::json;

namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

ValidationTable validate_calibration(const Catalog& catalog, bool with_planner) {
  const json data = json::parse(builtin_calibration_json(), nullptr, false);
  ValidationTable table;
  table.description = data.at("description").get<std::string>();
  std::vector<double> errors;
  for (const json& row : data.at("rows")) {
    ValidationRow out;
    out.id = row.at("id").get<std::string>();
    out.label = row.at("label").get<std::string>();
    out.source = row.at("source").get<std::string>();
    out.assumptions = row.at("assumptions").get<std::string>();
    out.metric = row.at("published").at("metric").get<std::string>();
    out.published = row.at("published").at("value").get<double>();
    const ScenarioParse parse = detail::parse_scenario_value(row.at("scenario"), catalog);
    if (!parse.scenario) continue;  // the built-in rows are valid (a test checks it)
    const Report report = estimate(*parse.scenario, &catalog);
    if (!report.valid() || !report.time.step) continue;
    const StepPrediction& step = *report.time.step;
    out.predicted = out.metric == "hfu" ? step.hfu : step.mfu;
    out.error_pp = 100 * (out.predicted - out.published);
    errors.push_back(std::abs(out.error_pp));
    out.gpu = report.hardware.gpu_id;
    out.gpus = report.plan.gpus;
    out.step_seconds = step.step_seconds;
    out.tokens_per_second_per_gpu = report.time.tokens_per_second / report.plan.gpus;
    out.layout = report.parallelism;
    out.fits = report.memory.fits;
    if (with_planner) {
      // The same run with every layout choice left to the planner (GPU count, batch and software kept).
      Scenario planned = *parse.scenario;
      Strategy& st = planned.strategy;
      st.tp.reset();
      st.pp.reset();
      st.dp.reset();
      st.cp.reset();
      st.ep.reset();
      st.micro_batch.reset();
      st.zero.reset();
      st.recompute.reset();
      st.pp_virtual_stages.reset();
      st.sequence_parallel.reset();
      const Report best = estimate(planned, &catalog);
      if (best.valid() && best.time.step) {
        const ParallelismReport& p = best.parallelism;
        out.planner = LayoutOption{p.tp,
                                   p.pp,
                                   p.dp,
                                   p.cp,
                                   p.ep,
                                   p.zero,
                                   p.micro_batch,
                                   p.virtual_stages,
                                   p.recompute,
                                   best.time.step->step_seconds,
                                   best.time.step->mfu,
                                   best.memory.per_gpu_bytes.total,
                                   best.memory.fits};
        out.planner_layouts_evaluated = p.layouts_evaluated;
      }
    }
    table.rows.push_back(std::move(out));
  }
  table.median_abs_error_pp = median(errors);
  table.max_abs_error_pp = errors.empty() ? 0.0 : *std::max_element(errors.begin(), errors.end());
  return table;
}

std::string validation_to_json(const ValidationTable& table, int indent) {
  json rows = json::array();
  for (const ValidationRow& row : table.rows) {
    json out = {{"id", row.id},
                {"label", row.label},
                {"source", row.source},
                {"assumptions", row.assumptions},
                {"metric", row.metric},
                {"published", row.published},
                {"predicted", row.predicted},
                {"error_pp", row.error_pp},
                {"gpu", row.gpu},
                {"gpus", row.gpus},
                {"step_seconds", row.step_seconds},
                {"tokens_per_second_per_gpu", row.tokens_per_second_per_gpu},
                {"layout", detail::layout_to_json(row.layout)},
                {"fits", row.fits}};
    if (row.planner) {
      json planner = detail::layout_to_json(*row.planner);
      planner.update(json{{"step_seconds", row.planner->step_seconds},
                          {"mfu", row.planner->mfu},
                          {"fits", row.planner->fits},
                          {"layouts_evaluated", row.planner_layouts_evaluated}});
      out["planner"] = planner;
    }
    rows.push_back(std::move(out));
  }
  json result = {{"description", table.description},
                 {"rows", rows},
                 {"median_abs_error_pp", table.median_abs_error_pp},
                 {"max_abs_error_pp", table.max_abs_error_pp}};
  return result.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string validation_json(const Catalog& catalog, bool with_planner, int indent) {
  return validation_to_json(validate_calibration(catalog, with_planner), indent);
}

}  // namespace traincalc
