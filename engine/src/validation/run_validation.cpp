// Whole published runs against the expected run (goodput.cpp): each run's scenario is estimated once
// with run_efficiency 1; the expected wall-clock is proportional to the work (Daly's T_w is T_s times a
// factor of the interruption terms alone, and the interval does not depend on T_s while it is shorter
// than the run), so the run at efficiency e is that estimate divided by e. Each run is then predicted
// with e fitted on the other publishers' runs: a publisher's runs share its cluster, software and habits.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "estimate/estimators.hpp"
#include "contract/json_fields.hpp"
#include "catalog/specs.hpp"
#include "estimate/stats.hpp"
#include "traincalc/catalog.hpp"
#include "traincalc/contract.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"
#include "traincalc/units.hpp"
#include "validation/records.hpp"

namespace traincalc {

namespace {

using detail::json;

// The confidence words of engine/data/whole-runs.json, surest first (a test checks every run uses one).
constexpr const char* confidence_levels[] = {"high", "medium", "medium-low", "low-medium", "low"};

// The run efficiency that makes the median run exact: the geometric median of expected (at efficiency
// 1) over published GPU-hours, over the predicted rows of every publisher but `without`.
double fit_run_efficiency(const std::vector<RunValidationRow>& rows, const std::vector<double>& at_one,
                          const std::string& without) {
  std::vector<double> logs;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].publisher != without && rows[i].mfu_source == "predicted")
      logs.push_back(std::log(at_one[i] / rows[i].published_gpu_hours));
  return logs.empty() ? 1.0 : std::min(1.0, std::exp(detail::median(logs)));
}

}  // namespace

RunValidationTable validate_runs(const Catalog& catalog) {
  const json data = json::parse(builtin_whole_runs_json(), nullptr, false);
  RunValidationTable table;
  table.description = data.at("about").get<std::string>();
  std::vector<double> at_one;  // expected GPU-hours at run_efficiency 1
  for (const json& run : data.at("runs")) {
    RunValidationRow row;
    row.name = run.at("name").get<std::string>();
    row.publisher = run.at("publisher").get<std::string>();
    row.confidence = run.at("confidence").get<std::string>();
    row.source = run.at("source").get<std::string>();
    row.note = run.value("note", std::string());
    row.count_assumed = run.value("count_assumed", false);
    row.published_gpu_hours = run.at("published").at("time.gpu_hours").get<double>();
    json scenario = run.at("scenario");
    scenario["operations"]["run_efficiency"] = 1.0;
    const ScenarioParse parse = detail::parse_scenario_value(scenario, catalog);
    if (!parse.scenario) continue;  // the built-in rows are valid (a test checks it)
    const Report report = estimate(*parse.scenario, &catalog);
    if (!report.valid() || !report.time.expected) continue;
    const TimeReport& t = report.time;
    row.gpu = report.hardware.gpu_id.empty() ? report.hardware.gpu_name : report.hardware.gpu_id;
    row.gpu_name = report.hardware.gpu_name;
    row.gpus = report.plan.gpus;
    row.tokens = report.compute.tokens;
    row.mfu = t.mfu;
    row.mfu_source = std::string(contract::name_of(contract::mfu_sources, t.mfu_source));
    row.goodput = t.expected->interruption_goodput * (1 - t.expected->overhead_fraction);
    row.interruptions = t.expected->interruptions;
    row.steady_gpu_hours = t.gpu_hours;
    // The rule of thumb: 6 x parameters (active) x tokens at 40% of the dense peak.
    row.rule_of_thumb_gpu_hours =
        report.compute.total_flops_6n / (table.rule_of_thumb_mfu * units::tflops_to_flops(report.hardware.peak_tflops)) /
        units::seconds_per_hour;
    at_one.push_back(t.expected->gpu_hours);
    table.rows.push_back(std::move(row));
  }
  std::vector<RunValidationRow>& rows = table.rows;
  table.run_efficiency_in_sample = fit_run_efficiency(rows, at_one, "");
  std::vector<double> held_out, in_sample, steady, rule, signed_held_out;
  std::map<std::string, std::vector<double>> by_publisher;  // log(published / expected), held out; predicted runs
  for (std::size_t i = 0; i < rows.size(); ++i) {
    RunValidationRow& row = rows[i];
    const bool predicted = row.mfu_source == "predicted";
    table.runs_predicted += predicted ? 1 : 0;
    row.run_efficiency = predicted ? fit_run_efficiency(rows, at_one, row.publisher) : 1.0;
    row.expected_gpu_hours = at_one[i] / row.run_efficiency;
    row.expected_in_sample_gpu_hours = at_one[i] / (predicted ? table.run_efficiency_in_sample : 1.0);
    const double published = row.published_gpu_hours;
    row.error_pct = 100 * (row.expected_gpu_hours / published - 1);
    row.error_in_sample_pct = 100 * (row.expected_in_sample_gpu_hours / published - 1);
    row.steady_error_pct = 100 * (row.steady_gpu_hours / published - 1);
    row.rule_of_thumb_error_pct = 100 * (row.rule_of_thumb_gpu_hours / published - 1);
    if (predicted) by_publisher[row.publisher].push_back(std::log(published / row.expected_gpu_hours));
    held_out.push_back(std::abs(row.error_pct));
    signed_held_out.push_back(row.error_pct);
    in_sample.push_back(std::abs(row.error_in_sample_pct));
    steady.push_back(std::abs(row.steady_error_pct));
    rule.push_back(std::abs(row.rule_of_thumb_error_pct));
  }
  table.median_abs_error_pct = detail::median(held_out);
  table.median_abs_error_in_sample_pct = detail::median(in_sample);
  table.median_abs_steady_error_pct = detail::median(steady);
  table.median_abs_rule_of_thumb_error_pct = detail::median(rule);
  table.median_error_pct = detail::median(signed_held_out);
  // As the step's ranges: the 80% range for a run of a new publisher, each publisher a group.
  const detail::HeldOutGroups held = detail::held_out_groups(by_publisher, "whole_runs");
  table.range_low = held.range.low;
  table.range_high = held.range.high;
  table.publishers = held.range.groups;
  table.range_coverage_publishers_pct = held.coverage_pct;
  table.range_median_width = held.median_width;
  table.median_of_publishers_abs_error_pct = held.median_abs_error_pct;
  for (const char* level : confidence_levels) {
    std::vector<double> abs_errors, errors;
    for (const RunValidationRow& row : rows)
      if (row.confidence == level) {
        abs_errors.push_back(std::abs(row.error_pct));
        errors.push_back(row.error_pct);
      }
    if (errors.empty()) continue;
    const double within = static_cast<double>(
        std::count_if(abs_errors.begin(), abs_errors.end(), [](double x) { return x <= 12; }));
    table.by_confidence.push_back({level, static_cast<double>(errors.size()), detail::median(abs_errors),
                                   detail::median(errors), within});
  }
  return table;
}

std::string run_validation_to_json(const RunValidationTable& table, int indent) {
  return contract::write_record(contract::validation_tables::runs, table)
      .dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace traincalc
