// The report as JSON: each section from its record's bindings (contract.cpp), what is derived or
// conditional passed by name, and every report checked against its declaration before it leaves.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

#include "catalog/specs.hpp"
#include "contract/json_fields.hpp"
#include "traincalc/contract.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"

namespace traincalc {

using detail::json;

namespace {

json report_json_value(const Report& r);

json error_report(const Issues& errors, const Issues& warnings = {}) {
  return {{"errors", detail::issues_to_json(errors)}, {"warnings", detail::issues_to_json(warnings)}};
}

}  // namespace

Report detail::estimate_scenario_value(const json& scenario, const Catalog& catalog) {
  ScenarioParse parse = detail::parse_scenario_value(scenario, catalog);
  if (!parse.scenario) {
    Report refused;
    refused.errors = std::move(parse.errors);
    refused.warnings = std::move(parse.warnings);
    return refused;
  }
  Report report = estimate(*parse.scenario, &catalog);
  report.warnings.insert(report.warnings.begin(), parse.warnings.begin(), parse.warnings.end());
  return report;
}

json detail::report_value(const Report& report) {
  return report.valid() ? report_json_value(report) : error_report(report.errors, report.warnings);
}

json detail::estimate_value(const json& scenario, const Catalog& catalog, bool& valid) {
  json out = report_value(estimate_scenario_value(scenario, catalog));
  if (!out["errors"].empty()) valid = false;
  return out;
}

namespace {

// A figure's span under its likely range: the figure times the range's ends.
json span_json(double value, const LikelyRange& lr) { return {{"low", value * lr.low}, {"high", value * lr.high}}; }

// Whole numbers print as integers ("gpus": 64, not 64.0); exact below 2^53.
void integers_as_integers(json& value) {
  if (value.is_number_float()) {
    const double x = value.get<double>();
    if (std::isfinite(x) && std::floor(x) == x && std::abs(x) < 9007199254740992.0)
      value = static_cast<std::int64_t>(x);
    return;
  }
  if (value.is_structured())
    for (auto& child : value) integers_as_integers(child);
}

// Every number in a report is checked: a non-finite or negative amount is an engine bug, and the
// user gets an error instead of a wrong figure.
bool all_finite_non_negative(const json& value) {
  if (value.is_number()) {
    const double x = value.get<double>();
    return std::isfinite(x) && x >= 0;
  }
  if (value.is_structured())
    for (const auto& child : value)
      if (!all_finite_non_negative(child)) return false;
  return true;
}

namespace sections = contract::report_sections;

// Each section is its record's object: the fields bound to the section's struct (contract.cpp's
// written<...>), and here only what is derived from other members or conditional on them.

// The model: embedding and head parameters where counted, an image network's resolution.
json model_json(const Report& r) {
  json extras = json::object();
  if (r.model.forward_macs_per_image) extras["image_resolution"] = r.model.image_resolution;
  if (r.model.breakdown) {
    extras["embedding_params"] = r.model.breakdown->embedding;
    extras["output_head_params"] = r.model.breakdown->output_head;
  }
  return contract::write_record(sections::model, r.model, std::move(extras));
}

// The training compute: where the bytes per token came from, and for an image network, images and
// FLOPs per image.
json compute_json(const Report& r) {
  const ComputeReport& c = r.compute;
  json extras = json::object();
  if (c.bytes_per_token) {
    extras["bytes_per_token_from"] = c.bytes_per_token_from;
    extras["bytes_per_token_source"] = c.bytes_per_token_source;
  }
  if (c.images_per_epoch) {
    extras["images"] = c.tokens;
    extras["flops_per_image"] = c.flops_per_token;
  }
  return contract::write_record(sections::compute, c, std::move(extras));
}

// The expected run: its likely range, and the GPU-hours and days under it.
json expected_run_json(const ExpectedRun& e) {
  json extras = json::object();
  if (e.range) {
    extras["gpu_hours_range"] = span_json(e.gpu_hours, *e.range);
    extras["wall_clock_days_range"] = span_json(e.wall_clock_days, *e.range);
  }
  return contract::write_record(sections::expected_run, e, std::move(extras));
}

// The time: the predicted step beside the reported speed, and its likely range.
json time_json(const Report& r) {
  const TimeReport& t = r.time;
  json extras = json::object();
  if (t.step) {
    const StepPrediction& st = *t.step;
    // With a given utilisation the predicted step is reported beside the reported one (and the
    // breakdown is always the predicted one).
    if (t.mfu_source != MfuSource::predicted) extras["step_seconds_predicted"] = st.step_seconds;
    extras["global_batch_sequences"] = st.global_batch_sequences;
    extras["micro_batches_per_step"] = st.micro_batches;
    if (t.mfu_source == MfuSource::predicted) {
      extras["hfu"] = st.hfu;
    } else {
      extras["mfu_predicted"] = st.mfu;
      extras["hfu_predicted"] = st.hfu;
    }
    extras["breakdown_seconds"] = contract::write_record(sections::breakdown_seconds, st.seconds);
  }
  if (t.range) {
    // The prediction times the likely range's ends: a slower step (high) is a lower utilisation.
    const LikelyRange& lr = *t.range;
    extras["mfu_range"] = {{"low", t.mfu / lr.high}, {"high", t.mfu / lr.low}};
    if (t.step_seconds) extras["step_seconds_range"] = span_json(*t.step_seconds, lr);
    extras["gpu_hours_range"] = span_json(t.gpu_hours, lr);
    extras["wall_clock_days_range"] = span_json(t.wall_clock_days, lr);
  }
  if (t.expected) {
    extras["goodput"] = t.expected->goodput;
    extras["expected"] = expected_run_json(*t.expected);
  }
  return contract::write_record(sections::time, t, std::move(extras));
}

// The memory per GPU: the stages, phases and parts at the peak by name, the suggestions, the range.
json memory_json(const Report& r) {
  const MemoryReport& m = r.memory;
  // Named figures as an object: by their name, or a pipeline stage by its contract name.
  const auto by_name = [](const auto& pairs) {
    json out = json::object();
    for (const auto& [name, bytes] : pairs) {
      if constexpr (std::is_same_v<std::decay_t<decltype(name)>, PipelineStage>)
        out[std::string(contract::name_of(contract::pipeline_stages, name))] = bytes;
      else
        out[name] = bytes;
    }
    return out;
  };
  json phases = json::object();
  for (const auto& phase : m.phases) phases[phase.name] = phase.bytes;
  json suggestions = json::array();
  for (const auto& sug : m.suggestions) {
    json changes = json::object();
    for (const ScenarioChange& change : sug.changes)
      changes[change.path] = std::visit([](const auto& value) { return json(value); }, change.value);
    suggestions.push_back({{"changes", changes}, {"total_bytes", sug.total_bytes}, {"fits", sug.fits}});
  }
  json extras = {{"stage_bytes", by_name(m.stage_bytes)},
                 {"stage_allocated_bytes", by_name(m.stage_allocated_bytes)},
                 {"phases_bytes", phases},
                 {"at_peak_bytes", by_name(m.at_peak)},
                 {"suggestions", suggestions},
                 {"per_gpu_total_range", span_json(m.per_gpu_bytes.total, m.range)}};
  if (m.max_seq_len) extras["max_seq_len_micro_batch"] = m.max_seq_len_micro_batch;
  return contract::write_record(sections::memory, m, std::move(extras));
}

// The layout and, where the planner chose it, the alternatives it weighed.
json parallelism_json(const Report& r) {
  const ParallelismReport& p = r.parallelism;
  json extras = json::object();
  if (p.first_stage_layers > 0) {
    extras["first_stage_layers"] = p.first_stage_layers;
    if (p.pp > 2) extras["middle_stage_layers"] = p.middle_stage_layers;
    extras["last_stage_layers"] = p.last_stage_layers;
  }
  if (p.chosen_by == ChosenBy::planner) {
    extras["layouts_evaluated"] = p.layouts_evaluated;
    extras["layouts_fitting"] = p.layouts_fitting;
    json alternatives = json::array();
    for (const LayoutOption& o : p.alternatives)
      alternatives.push_back(contract::write_record(sections::alternative, o));
    extras["alternatives"] = std::move(alternatives);
  }
  return contract::write_record(sections::parallelism, p, std::move(extras));
}

// The user's measured runs: each point, and the speed and memory calibrations fitted on them.
json calibration_json(const CalibrationReport& c) {
  json extras = json::object();
  if (c.speed.runs > 0) {
    json nearest = json::object();
    if (c.step_seconds_uncalibrated) nearest = {{"distance", c.speed_distance}, {"carried", c.speed_carried}};
    extras["speed"] = contract::write_record(sections::speed_calibration, c.speed, std::move(nearest));
  }
  if (c.memory.runs > 0) {
    extras["memory"] = contract::write_record(sections::memory_calibration, c.memory,
                                              {{"distance", c.memory_distance}, {"carried", c.memory_carried}});
    extras["per_gpu_bytes_uncalibrated"] = c.per_gpu_bytes_uncalibrated;
  }
  return contract::write_record(sections::calibration, c, std::move(extras));
}

// The cost: its likely ranges, and any currency conversion.
json cost_json(const Report& r) {
  const CostReport& c = *r.cost;
  json extras = json::object();
  if (r.time.range) extras["total_range"] = span_json(c.total, *r.time.range);
  if (c.expected_total && r.time.expected && r.time.expected->range)
    extras["expected_total_range"] = span_json(*c.expected_total, *r.time.expected->range);
  return contract::write_record(sections::cost, c, std::move(extras));
}

// The energy and CO2 of the run, and of the expected run with its likely range.
json energy_json(const EnergyReport& e) {
  json extras = json::object();
  if (e.expected) {
    const EnergyReport::Expected& x = *e.expected;
    json ranges = json::object();
    if (x.range) {
      ranges["kwh_range"] = span_json(x.kwh, *x.range);
      ranges["co2_kg_range"] = span_json(x.co2_kg, *x.range);
    }
    extras["expected"] = contract::write_record(sections::energy_expected, x, std::move(ranges));
  }
  return contract::write_record(sections::energy, e, std::move(extras));
}

// The whole report: each section, then checked against its declaration.
json report_json_value(const Report& r) {
  json extras = {{"model", model_json(r)},
                 {"compute", compute_json(r)},
                 {"time", time_json(r)},
                 {"memory", memory_json(r)},
                 {"parallelism", parallelism_json(r)},
                 {"warnings", detail::issues_to_json(r.warnings)},
                 {"errors", detail::issues_to_json(r.errors)}};
  if (r.calibration) extras["calibration"] = calibration_json(*r.calibration);
  if (r.cost) extras["cost"] = cost_json(r);
  if (r.energy) extras["energy"] = energy_json(*r.energy);
  if (r.scaling_law) extras["scaling_law"] = contract::write_record(sections::scaling_law, *r.scaling_law);
  json out = contract::write_record(sections::report, r, std::move(extras));
  integers_as_integers(out);
  if (!all_finite_non_negative(out))
    return error_report({{"", "internal_non_finite",
                          "The engine produced a number it cannot stand behind (not finite or negative) for this "
                          "input; please report the scenario."}});
  // What is written is what the contract declares (contract.cpp's report records), checked on every
  // report as the readers check every key.
  if (const auto departures = contract::departures(out, contract::report); !departures.empty()) {
    std::string list;
    for (const auto& d : departures) list += (list.empty() ? "" : "; ") + d;
    return error_report(
        {{"", "internal_undeclared_field",
          "The engine wrote a report its contract does not declare (" + list + "); please report this."}});
  }
  return out;
}

}  // namespace

std::string error_report_json(const Issues& errors, int indent) {
  return error_report(errors).dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string report_to_json(const Report& report, int indent) {
  return report_json_value(report).dump(indent, ' ', false, json::error_handler_t::replace);
}

JsonOutput estimate_json(std::string_view json_text, const Catalog& catalog, int indent) {
  JsonOutput out;
  Issues errors;
  auto value = detail::parse_json_text(json_text, errors);
  json result;
  if (!value) {
    out.all_valid = false;
    result = error_report(errors);
  } else if (value->is_array()) {
    result = json::array();
    for (const auto& scenario : *value) result.push_back(detail::estimate_value(scenario, catalog, out.all_valid));
  } else {
    result = detail::estimate_value(*value, catalog, out.all_valid);
  }
  out.text = result.dump(indent, ' ', false, json::error_handler_t::replace);
  return out;
}

}  // namespace traincalc
