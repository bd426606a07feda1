// The engine against published throughput: every row of engine/data/calibration.json estimated as a
// scenario, its predicted MFU (or HFU, where the source counts recomputed FLOPs) against the published
// figure; optionally the planner's own layout for the same GPUs against the published one. And the
// memory model against measured peaks (engine/data/memory-validation.json), each lineage held out.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "estimate/estimators.hpp"
#include "contract/json_fields.hpp"
#include "catalog/specs.hpp"
#include "estimate/stats.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"
#include "traincalc/units.hpp"
#include "validation/records.hpp"

namespace traincalc {

using detail::json;
using detail::largest;
using detail::median;

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
    detail::describe_run(out, *parse.scenario, report);
    out.global_batch_sequences = step.global_batch_sequences;
    out.step_seconds = step.step_seconds;
    out.tokens_per_second_per_gpu = report.time.tokens_per_second / report.plan.gpus;
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
      st.pp_first_stage_layers.reset();
      st.pp_last_stage_layers.reset();
      st.sequence_parallel.reset();
      const Report best = estimate(planned, &catalog);
      if (best.valid() && best.time.step) {
        const ParallelismReport& p = best.parallelism;
        out.planner = PlannerPick{{static_cast<const LayoutChoices&>(p), best.time.step->step_seconds,
                                   best.time.step->mfu, best.memory.per_gpu_bytes.total, best.memory.fits},
                                  p.layouts_evaluated};
      }
    }
    table.rows.push_back(std::move(out));
  }
  table.median_abs_error_pp = median(errors);
  table.max_abs_error_pp = largest(errors);
  return table;
}

std::string validation_to_json(const ValidationTable& table, int indent) {
  return contract::write_record(contract::validation_tables::published, table)
      .dump(indent, ' ', false, json::error_handler_t::replace);
}

namespace {

// One measured row, estimated once: what is allocated, what comes and goes within a step (what the
// fragmentation allowance multiplies) and what sits outside the allocator (CUDA context, NCCL).
struct MemoryParts3 {
  double allocated = 0, dynamic = 0, outside = 0;
};

// A measured peak's held-out error, in percent of the measured.
double row_error(const MemoryValidationRow& row) { return 100 * (row.predicted_bytes / row.measured_bytes - 1); }

double predicted_for(const MemoryValidationRow& row, const MemoryParts3& p, double fragmentation) {
  if (row.counter == "allocated") return p.allocated;
  const double reserved = p.allocated + fragmentation * p.dynamic;
  return row.counter == "reserved" ? reserved : reserved + p.outside;
}

// The fragmentation allowance that fits the reserved and device peaks of the rows `use` admits best:
// the median absolute relative error, minimised over 0 ... 0.5 in steps of 0.005. Only rows whose
// prediction the allowance moves count (not those run with expandable segments, which reserve what
// they allocate): a row it cannot move would only shift which median the fit lands on.
double fit_fragmentation(const std::vector<MemoryValidationRow>& rows, const std::vector<MemoryParts3>& parts,
                         const std::function<bool(const MemoryValidationRow&)>& use) {
  double best = detail::default_fragmentation, best_error = 1e300;
  for (int step = 0; step <= 100; ++step) {
    const double f = step * 0.005;
    std::vector<double> errors;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const MemoryValidationRow& row = rows[i];
      if (row.counter == "allocated" || row.measured_bytes <= 0 || row.upper_bound || parts[i].dynamic <= 0 ||
          !use(row))
        continue;
      errors.push_back(std::abs(predicted_for(row, parts[i], f) / row.measured_bytes - 1));
    }
    if (errors.empty()) return best;
    const double error = median(errors);
    if (error < best_error - 1e-12) {
      best_error = error;
      best = f;
    }
  }
  return best;
}

// Every measured peak estimated once, into the table's rows, and each one's parts (returned in the
// same order).
std::vector<MemoryParts3> read_memory_rows(const Catalog& catalog, MemoryValidationTable& table) {
  const json data = json::parse(builtin_memory_validation_json(), nullptr, false);
  table.description = data.at("description").get<std::string>();
  std::vector<MemoryParts3> parts;
  for (const json& row : data.at("rows")) {
    MemoryValidationRow out;
    out.id = row.at("id").get<std::string>();
    out.label = row.at("label").get<std::string>();
    out.source_group = row.at("source_group").get<std::string>();
    out.lineage = row.at("lineage").get<std::string>();
    out.framework = row.at("framework").get<std::string>();
    out.source = row.at("source").get<std::string>();
    out.counter = row.at("counter").get<std::string>();
    out.measured_bytes = row.value("measured_gib", 0.0) * units::bytes_per_gib;
    out.out_of_memory = row.value("out_of_memory", false);
    out.upper_bound = row.value("upper_bound", false);
    // Estimated once with the whole dynamic share as fragmentation, to read the three parts apart.
    json scenario = row.at("scenario");
    scenario["memory"]["fragmentation"] = 1.0;
    const ScenarioParse parse = detail::parse_scenario_value(scenario, catalog);
    if (!parse.scenario) continue;  // the built-in rows are valid (a test checks it)
    const Report report = estimate(*parse.scenario, &catalog);
    if (!report.valid()) continue;
    const MemoryReport& m = report.memory;
    const double outside = m.per_gpu_bytes.total - m.reserved_bytes;
    MemoryParts3 p{m.allocated_bytes, m.reserved_bytes - m.allocated_bytes, outside};
    // A peak logged by one pipeline stage (Megatron-LM's golden values: the last rank) is that stage's.
    out.rank = row.value("rank", std::string());
    const auto& allocated = m.stage_allocated_bytes;
    const auto rank = contract::value_of(contract::pipeline_stages, out.rank);
    const auto stage = std::find_if(allocated.begin(), allocated.end(), [&](const auto& s) { return rank && s.first == *rank; });
    if (stage != allocated.end()) {
      const double reserved = m.stage_bytes[stage - allocated.begin()].second - outside;
      p = {stage->second, reserved - stage->second, outside};
    }
    parts.push_back(p);
    out.capacity_bytes = m.capacity_bytes;
    detail::describe_run(out, *parse.scenario, report);
    table.rows.push_back(std::move(out));
  }
  return parts;
}

// The held-out and in-sample errors of the measured peaks, and the held-out log(measured /
// predicted) by lineage.
struct MemoryErrors {
  std::vector<double> held_out, in_sample;
  std::map<std::string, std::vector<double>> logs_by_lineage;  // log(measured / predicted), held out
};

// Each source's rows predicted with the fragmentation fitted without their lineage (and in sample),
// the out-of-memory and upper-bound rows checked, and each source's errors tabulated.
MemoryErrors tabulate_memory_sources(MemoryValidationTable& table, const std::vector<MemoryParts3>& parts,
                                     const std::vector<std::string>& groups,
                                     const std::map<std::string, double>& fragmentation_without) {
  std::vector<MemoryValidationRow>& rows = table.rows;
  MemoryErrors e;
  for (const std::string& group : groups) {
    MemoryValidationSource source;
    source.group = group;
    std::vector<double> errors;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      MemoryValidationRow& row = rows[i];
      if (row.source_group != group) continue;
      source.lineage = row.lineage;
      source.fragmentation = fragmentation_without.at(row.lineage);
      ++source.rows;
      row.predicted_bytes = predicted_for(row, parts[i], source.fragmentation);
      row.predicted_in_sample_bytes = predicted_for(row, parts[i], table.fragmentation_in_sample);
      // What must fit: the reserved peak plus what sits outside the allocator.
      const double device = parts[i].allocated + source.fragmentation * parts[i].dynamic + parts[i].outside;
      row.predicted_fits = device <= row.capacity_bytes;
      if (row.out_of_memory) {
        ++table.out_of_memory_rows;
        table.out_of_memory_predicted += row.predicted_fits ? 0 : 1;
      } else if (row.upper_bound) {
        ++table.bound_rows;
        table.bound_respected += row.predicted_fits ? 1 : 0;
      } else if (row.measured_bytes > 0) {
        row.error_pct = 100 * (row.predicted_bytes / row.measured_bytes - 1);
        row.error_in_sample_pct = 100 * (row.predicted_in_sample_bytes / row.measured_bytes - 1);
        errors.push_back(std::abs(row.error_pct));
        e.held_out.push_back(std::abs(row.error_pct));
        e.in_sample.push_back(std::abs(row.error_in_sample_pct));
        e.logs_by_lineage[row.lineage].push_back(std::log(row.measured_bytes / row.predicted_bytes));
      }
    }
    source.peaks = static_cast<double>(errors.size());
    source.median_abs_error_pct = median(errors);
    source.max_abs_error_pct = largest(errors);
    table.sources.push_back(source);
  }
  return e;
}

// Calibration within each source: one measured peak sets the allocated factor that makes it come
// out (calibration.cpp: with the allocator's gap and what sits outside it as predicted), and each of
// the source's other measured peaks is predicted with the share of it that carries to another run
// (the sources' effect, as for speed): its own prediction plus that factor's change of its
// allocated bytes. Every peak of a source calibrates in turn.
void memory_calibration_by_distance(MemoryValidationTable& table, const std::vector<MemoryParts3>& parts) {
  const std::vector<MemoryValidationRow>& rows = table.rows;
  std::map<std::string, std::vector<std::size_t>> by_source;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].measured_bytes > 0 && !rows[i].out_of_memory && !rows[i].upper_bound && parts[i].allocated > 0)
      by_source[rows[i].source_group].push_back(i);
  std::map<std::string, std::vector<double>> by;
  for (const auto& [source, members] : by_source)
    for (std::size_t i : members) by[source].push_back(std::log(rows[i].measured_bytes / rows[i].predicted_bytes));
  const detail::SourceEffect effect = detail::source_effect(by);
  table.calibration_between_sd = effect.between_sd;
  table.calibration_within_sd = effect.within_sd;
  table.calibration_weight = effect.weight;
  // distance -> source -> log(measured / calibrated), |error| uncalibrated and carried in full
  std::map<std::string, detail::BySource> logs, plain, full;
  for (const auto& [source, members] : by_source)
    for (std::size_t c : members) {
      const double factor = std::max(0.2, 1 + (rows[c].measured_bytes - rows[c].predicted_bytes) / parts[c].allocated);
      const double carried = std::pow(factor, effect.weight);
      for (std::size_t q : members) {
        if (q == c) continue;
        const double calibrated = rows[q].predicted_bytes + (carried - 1) * parts[q].allocated;
        const double in_full = rows[q].predicted_bytes + (factor - 1) * parts[q].allocated;
        if (!(calibrated > 0) || !(in_full > 0)) continue;
        const bool same_model = rows[q].params == rows[c].params && rows[q].layers == rows[c].layers;
        const std::string distance = !same_model ? "model" : rows[q].gpus == rows[c].gpus ? "layout" : "gpus";
        logs[distance][source].push_back(std::log(rows[q].measured_bytes / calibrated));
        plain[distance][source].push_back(std::abs(row_error(rows[q])));
        full[distance][source].push_back(100 * std::abs(in_full / rows[q].measured_bytes - 1));
      }
    }
  for (const std::string distance : {"layout", "gpus", "model"})
    if (auto d = detail::calibration_distance(distance, logs[distance], plain[distance], full[distance]))
      table.calibration.push_back(*d);
}

}  // namespace

MemoryValidationTable validate_memory(const Catalog& catalog) {
  MemoryValidationTable table;
  const std::vector<MemoryParts3> parts = read_memory_rows(catalog, table);
  std::vector<MemoryValidationRow>& rows = table.rows;
  table.fragmentation_in_sample = fit_fragmentation(rows, parts, [](const MemoryValidationRow&) { return true; });
  std::vector<std::string> groups;
  for (const MemoryValidationRow& row : rows)
    if (std::find(groups.begin(), groups.end(), row.source_group) == groups.end()) groups.push_back(row.source_group);
  // Each source predicted with the fragmentation fitted without its lineage: a framework's allocator
  // habits are shared by every source that runs it.
  std::map<std::string, double> fragmentation_without;
  for (const MemoryValidationRow& row : rows)
    if (!fragmentation_without.count(row.lineage))
      fragmentation_without[row.lineage] =
          fit_fragmentation(rows, parts, [&](const MemoryValidationRow& r) { return r.lineage != row.lineage; });
  const MemoryErrors errors = tabulate_memory_sources(table, parts, groups, fragmentation_without);
  // The likely range for a new lineage, and each lineage's peaks against the range built without it.
  const detail::HeldOutGroups held = detail::held_out_groups(errors.logs_by_lineage, "memory");
  table.range = {"memory", held.range.low, held.range.high, held.range.rows, double(groups.size()), held.range.groups};
  table.range_coverage_lineages_pct = held.coverage_pct;
  table.range_median_width = held.median_width;
  table.median_of_lineages_abs_error_pct = held.median_abs_error_pct;
  memory_calibration_by_distance(table, parts);
  table.median_abs_error_pct = median(errors.held_out);
  table.max_abs_error_pct = largest(errors.held_out);
  table.median_abs_error_in_sample_pct = median(errors.in_sample);
  table.max_abs_error_in_sample_pct = largest(errors.in_sample);
  return table;
}

std::string memory_validation_to_json(const MemoryValidationTable& table, int indent) {
  return contract::write_record(contract::validation_tables::memory, table)
      .dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string validation_json(const Catalog& catalog, bool with_planner, int indent) {
  return validation_to_json(validate_calibration(catalog, with_planner), indent);
}

}  // namespace traincalc
