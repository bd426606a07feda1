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

std::string validation_json(const Catalog& catalog, bool with_planner, int indent) {
  const json data = json::parse(builtin_calibration_json(), nullptr, false);
  json rows = json::array();
  std::vector<double> errors;
  for (const json& row : data.at("rows")) {
    json out = {{"id", row.at("id")},
                {"label", row.at("label")},
                {"source", row.at("source")},
                {"assumptions", row.at("assumptions")},
                {"metric", row.at("published").at("metric")},
                {"published", row.at("published").at("value")}};
    const json& scenario = row.at("scenario");
    const ScenarioParse parse = detail::parse_scenario_value(scenario, catalog);
    if (!parse.scenario) continue;  // the built-in rows are valid (a test checks it)
    const Report report = estimate(*parse.scenario, &catalog);
    if (!report.valid() || !report.time.step) continue;
    const StepPrediction& step = *report.time.step;
    const bool hfu = out["metric"] == "hfu";
    const double predicted = hfu ? step.hfu : step.mfu;
    const double error_pp = 100 * (predicted - out["published"].get<double>());
    errors.push_back(std::abs(error_pp));
    out["predicted"] = predicted;
    out["error_pp"] = error_pp;
    out["gpu"] = report.hardware.gpu_id;
    out["gpus"] = report.plan.gpus;
    out["step_seconds"] = step.step_seconds;
    out["tokens_per_second_per_gpu"] = report.time.tokens_per_second / report.plan.gpus;
    out["layout"] = detail::layout_to_json(report.parallelism);
    out["fits"] = report.memory.fits;
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
        json planner = detail::layout_to_json(p);
        planner.update(json{{"step_seconds", best.time.step->step_seconds},
                            {"mfu", best.time.step->mfu},
                            {"fits", best.memory.fits},
                            {"layouts_evaluated", p.layouts_evaluated}});
        out["planner"] = planner;
      }
    }
    rows.push_back(out);
  }
  json result = {{"description", data.at("description")},
                 {"rows", rows},
                 {"median_abs_error_pp", median(errors)},
                 {"max_abs_error_pp", errors.empty() ? 0.0 : *std::max_element(errors.begin(), errors.end())}};
  return result.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace traincalc
