// The step-time model against measurements it was not fitted to. Every row of
// engine/data/speed-validation.json (and the calibration rows it names) is estimated once; then the
// step model's calibrated constants (SpeedParams) are fitted, robustly and within each one's physical
// range, on every software lineage but one, and that lineage's rows are predicted with them: the
// held-out error. The in-sample fit uses every source; the engine's own constants are reported beside
// both.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "estimate/estimators.hpp"
#include "contract/json_fields.hpp"
#include "catalog/specs.hpp"
#include "estimate/stats.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"
#include "validation/records.hpp"

namespace traincalc {

using detail::json;
using detail::largest;
using detail::mean;
using detail::median;
using detail::SpeedParams;

namespace {

// One calibrated constant: where it lives, its name, and its physical range (step_time.cpp).
struct Knob {
  const char* name;
  double SpeedParams::*field;
  double low, high;
};
const std::vector<Knob>& knobs() {
  static const std::vector<Knob> all = {
      {"ampere_matmul_efficiency", &SpeedParams::ampere_matmul_efficiency, 0.4, 0.95},
      {"hopper_matmul_efficiency", &SpeedParams::hopper_matmul_efficiency, 0.3, 0.9},
      {"sustained_fraction", &SpeedParams::sustained_fraction, 0.5, 1.0},
      {"gemm_half_rate_dimension", &SpeedParams::gemm_half_rate_dimension, 16, 512},
      {"ampere_flash_efficiency", &SpeedParams::ampere_flash_efficiency, 0.15, 0.75},
      {"hopper_flash_efficiency", &SpeedParams::hopper_flash_efficiency, 0.15, 0.75},
      // Bounds measured, the fit moving only within them: PyTorch 2.11's cuDNN attention (cuDNN 9.19) ran
      // 1.73-1.77x its FlashAttention-2 forward + backward at head width 128 on an H200, sequences
      // 1,024-8,192 (1.54-1.62x at width 64; tests/data/device/h200-2026-12-01.json). FlashAttention-3's
      // paper reports 1.5-2.0x forward and 1.5-1.75x backward on H100 (Shah et al. 2024, sec. 4.1).
      {"flash3_speedup", &SpeedParams::flash3_speedup, 1.7, 1.8},
      {"flash_relative_rate", &SpeedParams::flash_relative_rate, 0.3, 0.9},
      // Measured: cuBLAS fp8 (torch._scaled_mm, e4m3, tensor-wise scales) ran 0.87-0.96 of twice bf16's
      // rate on the same H200 at the 20 shapes with every dimension >= 4,096 (median 0.885, 10th-90th
      // percentile 0.83-0.92, over the 39 with every dimension >= 2,048; same file, section gemm).
      {"fp8_matmul_relative_rate", &SpeedParams::fp8_matmul_relative_rate, 0.85, 0.96},
      {"memory_efficiency", &SpeedParams::memory_efficiency, 0.5, 0.95},
      {"link_efficiency", &SpeedParams::link_efficiency, 0.4, 0.95},
      {"layer_dispatch_seconds", &SpeedParams::layer_dispatch_seconds, 20e-6, 2e-3},
      {"collective_latency_seconds", &SpeedParams::collective_latency_seconds, 2e-6, 100e-6},
      {"micro_batch_host_seconds", &SpeedParams::micro_batch_host_seconds, 100e-6, 50e-3},
      {"pipeline_host_share", &SpeedParams::pipeline_host_share, 0.2, 1.0},
  };
  return all;
}

// A row estimated once: what predict_step needs to re-time it under other constants.
struct Prepared {
  Scenario scenario;
  Report report;
  double batch = 0;
};

// Predicted over measured step time of a row under `params`; NaN when it cannot be timed.
double step_ratio(const Prepared& p, const SpeedValidationRow& row, const SpeedParams& params, double* predicted) {
  const detail::StepHardware machine = detail::step_hardware(p.scenario, p.report.hardware, params);
  const auto step = detail::predict_step(p.scenario, p.report.compute, machine, p.report.parallelism,
                                         p.report.memory.explain, p.batch);
  if (!step || !(step->step_seconds > 0)) return std::nan("");
  if (row.metric == "step_seconds") {
    if (predicted) *predicted = step->step_seconds;
    return step->step_seconds / row.measured;
  }
  const double utilisation = row.metric == "hfu" ? step->hfu : step->mfu;
  if (predicted) *predicted = utilisation;
  return row.measured / utilisation;  // the same FLOPs: step time scales inversely
}

// The fit's objective: the mean over sources of each source's mean |log(predicted / measured)|, each
// row's capped at 0.4 (a row 1.5x too long or 0.67x too short counts as an outlier, whatever its size;
// a row the constants cannot time counts 10), so that a source with
// 1,440 rows weighs what one with 9 does. Robust like a median, but every row moves it: with the
// median, most single steps of a constant leave the objective flat and the coordinate search stalled
// wherever it began (held-out fits wandered to the edges of the ranges).
constexpr double row_error_cap = 0.4;
constexpr double untimed_row_error = 10.0;
double objective(const std::vector<Prepared>& prepared, const std::vector<SpeedValidationRow>& rows,
                 const std::vector<std::size_t>& use, const SpeedParams& params) {
  std::map<std::string, std::vector<double>> by_group;
  for (std::size_t i : use) {
    const double ratio = step_ratio(prepared[i], rows[i], params, nullptr);
    // A row the constants cannot time is marked infinite and weighs far more than an outlier.
    by_group[rows[i].source_group].push_back(std::isfinite(ratio) ? std::abs(std::log(ratio))
                                                                  : std::numeric_limits<double>::infinity());
  }
  std::vector<double> per_source;
  for (auto& [group, errors] : by_group) {
    double sum = 0;
    for (double e : errors) sum += std::isfinite(e) ? std::min(e, row_error_cap) : untimed_row_error;
    per_source.push_back(sum / errors.size());
  }
  return mean(per_source);
}

// Coordinate descent, each constant kept in its physical range: first each constant over a grid of
// `grid` steps spanning its range (a constant behind a max(), like the launch cost, is flat until it
// matters, so small steps from a low start would never find it), then in shrinking multiplicative
// steps. A constant the fitting rows cannot move (a GPU family they do not contain) stays where it
// starts. The objective is rugged (maxima, capped errors), so the search ends in a local minimum
// that depends on the grid: validate_speed's search_grid, whose effect on the held-out figures
// scripts/fit-noise.mjs measures (docs/validation.md, "The fit's own noise").
SpeedParams fit(const std::vector<Prepared>& prepared, const std::vector<SpeedValidationRow>& rows,
                const std::vector<std::size_t>& use, SpeedParams params, int grid) {
  double best = objective(prepared, rows, use, params);
  for (int sweep = 0; sweep < 2; ++sweep) {
    for (const Knob& k : knobs()) {
      for (int i = 0; i <= grid; ++i) {
        SpeedParams trial = params;
        trial.*k.field = k.low * std::pow(k.high / k.low, double(i) / grid);
        const double value = objective(prepared, rows, use, trial);
        if (value < best - 1e-9) {
          best = value;
          params = trial;
        }
      }
    }
  }
  for (double step : {1.3, 1.1, 1.03, 1.01}) {
    for (int sweep = 0; sweep < 6; ++sweep) {
      bool moved = false;
      for (const Knob& k : knobs()) {
        for (double factor : {step, 1 / step}) {
          while (true) {
            SpeedParams trial = params;
            trial.*k.field = std::clamp(params.*k.field * factor, k.low, k.high);
            if (trial.*k.field == params.*k.field) break;
            const double value = objective(prepared, rows, use, trial);
            if (!(value < best - 1e-9)) break;
            best = value;
            params = trial;
            moved = true;
          }
        }
      }
      if (!moved) break;
    }
  }
  return params;
}

std::vector<std::pair<std::string, double>> values_of(const SpeedParams& p) {
  std::vector<std::pair<std::string, double>> out;
  for (const Knob& k : knobs()) out.emplace_back(k.name, p.*k.field);
  return out;
}

// Spearman's rank correlation, ties given their average rank.
double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  auto ranks = [](const std::vector<double>& v) {
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < order.size();) {
      std::size_t j = i;
      while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
      for (std::size_t k = i; k <= j; ++k) r[order[k]] = (i + j) / 2.0 + 1;
      i = j + 1;
    }
    return r;
  };
  const std::vector<double> rx = ranks(x), ry = ranks(y);
  const double mx = mean(rx), my = mean(ry);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0.0;
}

// A dotted path ("strategy.tp") set in a scenario.
void set_path(json& root, const std::string& path, const json& value) {
  json* at = &root;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    if (dot == std::string::npos) {
      (*at)[path.substr(start)] = value;
      return;
    }
    at = &(*at)[path.substr(start, dot - start)];
    start = dot + 1;
  }
}

std::string number(double x) {
  return detail::format_number(x);
}

// What a source gives each of its rows: its group, framework and lineage, and whether fits use it.
struct SourceInfo {
  std::string group, framework, lineage;
  bool fitted = true;
};

// A row of `source`, its source's fields set.
SpeedValidationRow source_row(const SourceInfo& source) {
  SpeedValidationRow out;
  out.source_group = source.group;
  out.lineage = source.lineage;
  out.framework = source.framework;
  out.fitted = source.fitted;
  return out;
}

// Estimates rows once each, appending a row to the table and its estimate to `prepared` together.
struct RowReader {
  const Catalog& catalog;
  SpeedValidationTable& table;
  std::vector<Prepared>& prepared;

  // One row and its scenario; a row whose scenario does not parse or cannot be timed is left out.
  void add(SpeedValidationRow row, const json& scenario) {
    const ScenarioParse parse = detail::parse_scenario_value(scenario, catalog);
    if (!parse.scenario) return;  // the built-in rows are valid (a test checks it)
    Prepared p{*parse.scenario, estimate(*parse.scenario, &catalog), 0};
    if (!p.report.valid() || !p.report.time.step) return;
    p.batch = p.report.time.step->global_batch_sequences;
    detail::describe_run(row, p.scenario, p.report);
    row.global_batch_sequences = p.batch;
    row.layer_stream_seconds = p.report.time.step->layer_stream_seconds;
    row.range_basis = detail::speed_range_basis(*p.report.time.step);
    table.rows.push_back(std::move(row));
    prepared.push_back(std::move(p));
  }
};

// Rows of calibration.json, whose IDs start with one of the source's calibration_ids.
void read_calibration_rows(RowReader& reader, const json& source, const SourceInfo& info, const json& calibration) {
  for (const json& row : calibration.at("rows")) {
    const std::string id = row.at("id").get<std::string>();
    bool named = false;
    for (const json& prefix : source.at("calibration_ids"))
      named = named || id.rfind(prefix.get<std::string>(), 0) == 0;
    if (!named) continue;
    SpeedValidationRow out = source_row(info);
    out.id = id;
    out.label = row.at("label").get<std::string>();
    out.metric = row.at("published").at("metric").get<std::string>();
    out.measured = row.at("published").at("value").get<double>();
    reader.add(std::move(out), row.at("scenario"));
  }
}

// Rows with their own scenarios: {"id", "label", "scenario", "step_ms"}, or in place of step_ms a
// published utilisation, {"published": {"metric": "mfu" | "hfu", "value"}}.
void read_scenario_rows(RowReader& reader, const json& source, const SourceInfo& info) {
  for (const json& row : source.at("scenarios")) {
    SpeedValidationRow out = source_row(info);
    out.id = row.at("id").get<std::string>();
    out.label = row.at("label").get<std::string>();
    if (row.contains("published")) {
      out.metric = row.at("published").at("metric").get<std::string>();
      if (out.metric != "mfu" && out.metric != "hfu")
        throw std::runtime_error("speed validation row " + out.id + ": published metric \"" + out.metric +
                                 "\" is neither mfu nor hfu");
      out.measured = row.at("published").at("value").get<double>();
    } else {
      out.metric = "step_seconds";
      out.measured = row.at("step_ms").get<double>() / 1000;
    }
    reader.add(std::move(out), row.at("scenario"));
  }
}

// Rows as columns over a shared scenario: each row's values set these dotted paths of the
// template, the measured figure last.
void read_column_rows(RowReader& reader, const json& source, const SourceInfo& info) {
  const std::string& group = info.group;
  const json& columns = source.at("columns");
  const std::string label = source.at("label").get<std::string>();
  const std::string measured = source.at("measured").get<std::string>();
  const std::vector<std::string> rank_by = source.value("rank_by", std::vector<std::string>{});
  int index = 0;
  for (const json& values : source.at("rows")) {
    json scenario = source.at("template");
    std::map<std::string, double> by_name;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string path = columns[c].get<std::string>();
      set_path(scenario, path, values[c]);
      by_name[path] = values[c].get<double>();
    }
    SpeedValidationRow out = source_row(info);
    out.id = group + "#" + std::to_string(index++);
    out.metric = "step_seconds";
    const double value = values[columns.size()].get<double>();
    out.measured = measured == "step_ms" ? value / 1000 : value;
    // "vTrain multi-node: 40 layers, h 6144, 256 GPUs, TP 8 PP 2 DP 16, micro-batch 2"
    out.label = label + ": " + number(by_name["model.layers"]) + " layers, h " + number(by_name["model.hidden"]) +
                ", " + number(by_name["hardware.count"]) + " GPUs, TP " + number(by_name["strategy.tp"]) + " PP " +
                number(by_name["strategy.pp"]) + " DP " + number(by_name["strategy.dp"]) + ", micro-batch " +
                number(by_name["strategy.micro_batch"]);
    out.width = by_name.count("model.hidden") ? by_name["model.hidden"] : 0.0;
    for (const std::string& key : rank_by) out.rank_group += (out.rank_group.empty() ? "" : " ") + number(by_name[key]);
    if (!out.rank_group.empty()) out.rank_group = group + " " + out.rank_group;
    reader.add(std::move(out), scenario);
  }
}

// Every row of the speed validation set (and the calibration rows its sources name), each estimated
// once: the rows go to the table, their estimates are returned in the same order.
std::vector<Prepared> read_rows(const Catalog& catalog, SpeedValidationTable& table) {
  const json data = json::parse(builtin_speed_validation_json(), nullptr, false);
  const json calibration = json::parse(builtin_calibration_json(), nullptr, false);
  table.description = data.at("description").get<std::string>();
  std::vector<Prepared> prepared;
  RowReader reader{catalog, table, prepared};
  for (const json& source : data.at("sources")) {
    SourceInfo info;
    info.group = source.at("group").get<std::string>();
    info.framework = source.at("framework").get<std::string>();
    info.lineage = source.at("lineage").get<std::string>();
    // A source marked "fit": false is predicted like every other but never fitted on (its notes say why).
    info.fitted = source.value("fit", true);
    if (source.contains("calibration_ids"))
      read_calibration_rows(reader, source, info, calibration);
    else if (source.contains("scenarios"))
      read_scenario_rows(reader, source, info);
    else
      read_column_rows(reader, source, info);
  }
  return prepared;
}

// The rows' source groups and lineages, each once, in the order the rows first name them.
struct RowNames {
  std::vector<std::string> groups, lineages;
};
RowNames names_of(const std::vector<SpeedValidationRow>& rows) {
  RowNames names;
  std::vector<std::string>& groups = names.groups;
  std::vector<std::string>& lineages = names.lineages;
  for (const SpeedValidationRow& row : rows) {
    if (std::find(groups.begin(), groups.end(), row.source_group) == groups.end()) groups.push_back(row.source_group);
    if (std::find(lineages.begin(), lineages.end(), row.lineage) == lineages.end()) lineages.push_back(row.lineage);
  }
  return names;
}

// What every fit shares: the rows and their estimates, each source's size, the point every search
// starts from and the search's grid.
struct Fitter {
  const std::vector<Prepared>& prepared;
  const std::vector<SpeedValidationRow>& rows;
  int grid;
  std::map<std::string, std::size_t> group_size;
  SpeedParams start;

  Fitter(const std::vector<Prepared>& prepared_rows, const std::vector<SpeedValidationRow>& all_rows, int search_grid)
      : prepared(prepared_rows), rows(all_rows), grid(search_grid) {
    for (const SpeedValidationRow& row : rows) ++group_size[row.source_group];
    // Every fit starts from the same data-free point, each constant at the geometric middle of its
    // physical range: started from the engine's constants (the fit on every source) a left-out
    // lineage's own information would carry into its held-out fit through where the search begins.
    for (const Knob& k : knobs()) start.*k.field = std::sqrt(k.low * k.high);
  }

  // The rows a fit weighs: every row not left out, a large source thinned to every k-th (at most 240 of
  // it) so a fit stays fast; the objective weighs sources equally anyway.
  std::vector<std::size_t> fit_rows(const std::function<bool(const SpeedValidationRow&)>& left_out) const {
    std::vector<std::size_t> use;
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::string& g = rows[i].source_group;
      if (!rows[i].fitted || left_out(rows[i])) continue;
      const std::size_t stride = std::max<std::size_t>(1, group_size.at(g) / 240);
      if (seen[g]++ % stride == 0) use.push_back(i);
    }
    return use;
  }

  // The constants fitted on every fitted row but those left out.
  SpeedParams fit_without(const std::function<bool(const SpeedValidationRow&)>& left_out) const {
    return fit(prepared, rows, fit_rows(left_out), start, grid);
  }
};

// The constants fitted on every source, and those fitted without each lineage.
struct Fits {
  SpeedParams in_sample;
  std::map<std::string, SpeedParams> without_lineage;
};

// Fits the constants on every source and without each lineage in turn (the engine's own constants
// when not fitting), records each fit in the table, and predicts each lineage's rows held out.
Fits fit_held_out(SpeedValidationTable& table, const Fitter& fitter, const std::vector<std::string>& lineages,
                  bool fit_constants) {
  std::vector<SpeedValidationRow>& rows = table.rows;
  const std::vector<Prepared>& prepared = fitter.prepared;
  const SpeedParams built_in;
  Fits fits;
  fits.in_sample = fit_constants ? fitter.fit_without([](const SpeedValidationRow&) { return false; }) : built_in;
  table.fits.push_back({"", values_of(fits.in_sample)});
  // Each lineage predicted with the constants fitted without every source of it: a new publisher's
  // code shares nothing with the rows the constants saw.
  for (const std::string& lineage : lineages) {
    const SpeedParams without =
        fit_constants ? fitter.fit_without([&](const SpeedValidationRow& r) { return r.lineage == lineage; })
                      : built_in;
    table.fits.push_back({lineage, values_of(without)});
    fits.without_lineage[lineage] = without;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      SpeedValidationRow& row = rows[i];
      if (row.lineage != lineage) continue;
      const double held = step_ratio(prepared[i], row, without, &row.predicted);
      row.error_pct = 100 * (held - 1);
    }
  }
  return fits;
}

// Each source's held-out, in-sample and built-in errors, and the summaries of them over all rows and
// over sources.
void tabulate_sources(SpeedValidationTable& table, const std::vector<Prepared>& prepared,
                      const std::vector<std::string>& groups, const SpeedParams& in_sample) {
  std::vector<SpeedValidationRow>& rows = table.rows;
  const SpeedParams built_in;
  std::vector<double> held_out_all, in_sample_all, built_in_all;
  std::vector<double> source_medians, source_medians_in_sample;  // each source's held-out and in-sample median
  for (const std::string& group : groups) {
    SpeedValidationSource source;
    source.group = group;
    std::vector<double> errors, errors_in, signed_errors;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      SpeedValidationRow& row = rows[i];
      if (row.source_group != group) continue;
      source.framework = row.framework;
      source.lineage = row.lineage;
      source.fitted = row.fitted;
      ++source.rows;
      const double in = step_ratio(prepared[i], row, in_sample, &row.predicted_in_sample);
      const double own = step_ratio(prepared[i], row, built_in, &row.predicted_built_in);
      row.error_in_sample_pct = 100 * (in - 1);
      errors.push_back(std::abs(row.error_pct));
      errors_in.push_back(std::abs(row.error_in_sample_pct));
      signed_errors.push_back(row.error_pct);
      held_out_all.push_back(std::abs(row.error_pct));
      // A source never fitted on has no in-sample error (its "in sample" is its held-out error): the
      // in-sample summaries are over the sources fitted on.
      if (row.fitted) in_sample_all.push_back(std::abs(row.error_in_sample_pct));
      built_in_all.push_back(std::abs(100 * (own - 1)));
    }
    source.median_abs_error_pct = median(errors);
    source.mean_abs_error_pct = mean(errors);
    source.max_abs_error_pct = largest(errors);
    source.median_abs_error_in_sample_pct = median(errors_in);
    source.mean_abs_error_in_sample_pct = mean(errors_in);
    source.mean_error_pct = mean(signed_errors);
    source_medians.push_back(source.median_abs_error_pct);
    if (source.fitted) source_medians_in_sample.push_back(source.median_abs_error_in_sample_pct);
    table.sources.push_back(source);
  }
  table.median_abs_error_pct = median(held_out_all);
  table.mean_abs_error_pct = mean(held_out_all);
  table.median_abs_error_in_sample_pct = median(in_sample_all);
  table.mean_abs_error_in_sample_pct = mean(in_sample_all);
  table.median_abs_error_built_in_pct = median(built_in_all);
  table.median_of_sources_abs_error_pct = median(std::move(source_medians));
  table.median_of_sources_abs_error_in_sample_pct = median(std::move(source_medians_in_sample));
}

// The bases a likely range is kept for, in order from the most launch-bound step to a mixture of experts.
const std::vector<std::string>& range_bases() {
  static const std::vector<std::string> all = {"launch_bound", "launch_near", "compute_bound", "mixture_of_experts"};
  return all;
}

// Each row's measured / predicted step time, held out (range_ratio): by lineage, or for a kind of
// step only one lineage measures, by model width within that lineage.
void set_range_ratios(std::vector<SpeedValidationRow>& rows, const Fitter& fitter, bool fit_constants) {
  const std::vector<Prepared>& prepared = fitter.prepared;
  for (SpeedValidationRow& row : rows) row.range_ratio = 1 / (1 + row.error_pct / 100);
  // A kind of step only one lineage measures: held out by lineage, the constant it turns on (the
  // launch cost) is never learnt and stays where the fit starts, so those residuals describe no fit at
  // all. Within that lineage each model width is held out instead: the rows of one hidden size
  // predicted with the constants fitted on everything else.
  for (const std::string& basis : range_bases()) {
    std::set<std::string> measured_by;
    for (const SpeedValidationRow& row : rows)
      if (row.range_basis == basis) measured_by.insert(row.lineage);
    if (measured_by.size() != 1 || !fit_constants) continue;
    const std::string& only = *measured_by.begin();
    // A lineage never fitted on is held out of every fit already.
    if (std::any_of(rows.begin(), rows.end(), [&](const SpeedValidationRow& r) { return r.lineage == only && !r.fitted; }))
      continue;
    std::set<double> widths;
    for (const SpeedValidationRow& row : rows)
      if (row.lineage == only && row.width > 0) widths.insert(row.width);
    if (widths.size() < 2) continue;
    for (double width : widths) {
      const SpeedParams without =
          fitter.fit_without([&](const SpeedValidationRow& r) { return r.lineage == only && r.width == width; });
      for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].lineage == only && rows[i].width == width && rows[i].range_basis == basis)
          rows[i].range_ratio = 1 / step_ratio(prepared[i], rows[i], without, nullptr);
    }
  }
}

// Likely ranges: by basis, the 80% range of measured / predicted step time for a row from a new
// lineage, over the held-out rows but those of lineage `without`, each lineage weighing the same
// (1 / its rows of that basis), widened to contain 1.
std::vector<LikelyRange> ranges_without(const std::vector<SpeedValidationRow>& rows, const std::string& without) {
  const std::vector<std::string>& bases = range_bases();
  std::map<std::pair<std::string, std::string>, detail::GroupLogs> cells;
  std::map<std::string, std::set<std::string>> sources;
  for (const SpeedValidationRow& row : rows) {
    if (row.lineage == without || !std::isfinite(row.range_ratio)) continue;
    detail::GroupLogs& cell = cells[{row.range_basis, row.lineage}];
    cell.basis = row.range_basis;
    cell.group = row.lineage;
    cell.logs.push_back(std::log(row.range_ratio));
    sources[row.range_basis].insert(row.source_group);
  }
  std::vector<detail::GroupLogs> list;
  for (auto& [key, cell] : cells) list.push_back(std::move(cell));
  const auto by_basis = detail::ranges_for_new_group(list);
  std::vector<LikelyRange> out;
  for (const std::string& basis : bases) {
    const auto it = by_basis.find(basis);
    if (it == by_basis.end()) continue;
    LikelyRange r;
    r.basis = basis;
    r.low = it->second.low;
    r.high = it->second.high;
    r.rows = it->second.rows;
    r.sources = double(sources[basis].size());
    r.lineages = it->second.groups;
    out.push_back(r);
  }
  return out;
}

// The range a row is checked against: its basis's (a basis the ranges lack: the nearest one they have).
const LikelyRange* range_for(const SpeedValidationRow& row, const std::vector<LikelyRange>& ranges) {
  const std::vector<std::string>& bases = range_bases();
  const auto index = [&](const std::string& b) { return std::find(bases.begin(), bases.end(), b) - bases.begin(); };
  const LikelyRange* best = nullptr;
  for (const LikelyRange& r : ranges)
    if (!best || std::abs(index(r.basis) - index(row.range_basis)) < std::abs(index(best->basis) - index(row.range_basis)))
      best = &r;
  return best;
}

// Whether a row's measured / predicted step time lies inside the range it is checked against.
bool covered(const SpeedValidationRow& row, const std::vector<LikelyRange>& ranges) {
  const LikelyRange* range = range_for(row, ranges);
  const double ratio = row.range_ratio;  // measured / predicted step time
  return range && std::isfinite(ratio) && ratio >= range->low * (1 - 1e-12) && ratio <= range->high * (1 + 1e-12);
}

// The likely ranges over every lineage, and the share of rows inside them by source, overall and
// nested (each row checked against the ranges computed without its lineage). Returns the nested
// ranges by lineage.
std::map<std::string, std::vector<LikelyRange>> tabulate_ranges(SpeedValidationTable& table,
                                                                const std::vector<std::string>& lineages) {
  std::vector<SpeedValidationRow>& rows = table.rows;
  table.ranges = ranges_without(rows, "");
  std::map<std::string, std::vector<LikelyRange>> nested;
  for (const std::string& lineage : lineages) nested[lineage] = ranges_without(rows, lineage);
  double inside_rows = 0;
  std::vector<double> inside_sources, inside_nested;
  for (SpeedValidationSource& source : table.sources) {
    double inside = 0, inside_nest = 0;
    for (SpeedValidationRow& row : rows) {
      if (row.source_group != source.group) continue;
      row.in_range = covered(row, table.ranges);
      inside += row.in_range;
      inside_nest += covered(row, nested.at(row.lineage));
    }
    inside_rows += inside;
    source.range_coverage_pct = 100 * inside / source.rows;
    source.range_coverage_nested_pct = 100 * inside_nest / source.rows;
    inside_sources.push_back(source.range_coverage_pct);
    inside_nested.push_back(source.range_coverage_nested_pct);
  }
  table.range_coverage_rows_pct = rows.empty() ? 0 : 100 * inside_rows / rows.size();
  table.range_coverage_sources_pct = mean(inside_sources);
  table.range_coverage_nested_pct = mean(inside_nested);
  return nested;
}

// By lineage: what a publisher the constants and the ranges never saw meets.
void tabulate_lineages(SpeedValidationTable& table, const std::vector<std::string>& lineages,
                       const std::map<std::string, std::vector<LikelyRange>>& nested) {
  const std::vector<SpeedValidationRow>& rows = table.rows;
  std::vector<double> lineage_medians, lineage_coverages, lineage_widths;
  for (const std::string& lineage : lineages) {
    const std::vector<LikelyRange>& ranges = nested.at(lineage);
    SpeedValidationLineage out;
    out.name = lineage;
    std::set<std::string> sources;
    std::vector<double> abs_errors, errors, widths;
    double inside = 0;
    for (const SpeedValidationRow& row : rows) {
      if (row.lineage != lineage) continue;
      sources.insert(row.source_group);
      abs_errors.push_back(std::abs(row.error_pct));
      errors.push_back(row.error_pct);
      inside += covered(row, ranges);
      if (const LikelyRange* range = range_for(row, ranges)) widths.push_back(range->high / range->low);
    }
    out.sources = double(sources.size());
    out.rows = double(errors.size());
    out.median_abs_error_pct = median(abs_errors);
    out.median_error_pct = median(errors);
    out.range_coverage_pct = 100 * inside / out.rows;
    out.range_median_width = widths.empty() ? 1.0 : median(widths);
    lineage_medians.push_back(out.median_abs_error_pct);
    lineage_coverages.push_back(out.range_coverage_pct);
    lineage_widths.push_back(out.range_median_width);
    table.lineages.push_back(out);
  }
  table.median_of_lineages_abs_error_pct = median(lineage_medians);
  table.range_coverage_lineages_pct = mean(lineage_coverages);
  table.range_median_width = median(lineage_widths);
}

// One dimension of the envelope: its name, a row's value along it, and which edge is stepped past.
struct Dimension {
  const char* name;
  double (*of)(const SpeedValidationRow&);
  bool above;
};

// One dimension's experiment, and its source-weighted sums of squared moves and squared doublings.
struct DimensionResult {
  SpeedEnvelopeDimension out;
  double moved = 0, far = 0;
};

// The envelope along one dimension, and how far the rows past its edge move when fitted without.
DimensionResult envelope_dimension(const Dimension& d, const Fitter& fitter, const SpeedParams& in_sample) {
  const std::vector<Prepared>& prepared = fitter.prepared;
  const std::vector<SpeedValidationRow>& rows = fitter.rows;
  DimensionResult result;
  SpeedEnvelopeDimension& out = result.out;
  out.dimension = d.name;
  out.above = d.above;
  std::map<std::string, double> count;
  out.low = std::numeric_limits<double>::infinity();
  out.high = 0;
  for (const SpeedValidationRow& row : rows) {
    out.low = std::min(out.low, d.of(row));
    out.high = std::max(out.high, d.of(row));
    ++count[row.source_group];
  }
  std::vector<std::pair<double, double>> weighted;
  for (const SpeedValidationRow& row : rows) weighted.emplace_back(std::log(d.of(row)), 1.0 / count[row.source_group]);
  out.edge = std::exp(detail::weighted_quantile_interpolated(weighted, d.above ? 0.8 : 0.2));
  auto past = [&](const SpeedValidationRow& r) { return d.above ? d.of(r) > out.edge : d.of(r) < out.edge; };
  const SpeedParams without = fitter.fit_without(past);
  std::map<std::string, std::pair<double, double>> by_source;  // moved^2, doublings^2
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!past(rows[i])) continue;
    double edge_predicted = 0, all_predicted = 0;
    const double a = step_ratio(prepared[i], rows[i], without, &edge_predicted);
    const double b = step_ratio(prepared[i], rows[i], in_sample, &all_predicted);
    if (!std::isfinite(a) || !std::isfinite(b)) continue;
    const double doublings = std::abs(std::log2(d.of(rows[i]) / out.edge));
    auto& [moved, far] = by_source[rows[i].source_group];
    moved += std::log(a / b) * std::log(a / b);
    far += doublings * doublings;
    ++out.rows;
  }
  double& moved = result.moved;
  double& far = result.far;
  for (const auto& [source, m] : by_source) {
    moved += m.first / count[source];
    far += m.second / count[source];
  }
  out.sources = double(by_source.size());
  out.per_doubling = far > 0 ? std::sqrt(moved / far) : 0.0;
  return result;
}

// The validated envelope, and what stepping beyond it costs. Along each dimension the lowest and
// highest values a measured row has bound the envelope. Then the rows past an edge (the source-weighted 80th percentile, or
// the 20th for the smallest models) are fitted without, as rows beyond the envelope would be, and
// each one's prediction compared with the fit on every row: the change of log(predicted), over
// doublings past the edge, is what the constants could not know about going that far (RMS per
// doubling, each source weighing the same). Pooled, it widens the range of a run outside.
void envelope_experiment(SpeedValidationTable& table, const Fitter& fitter, const SpeedParams& in_sample) {
  const Dimension dimensions[] = {
      {"params", [](const SpeedValidationRow& r) { return r.params; }, true},
      {"params", [](const SpeedValidationRow& r) { return r.params; }, false},
      {"gpus", [](const SpeedValidationRow& r) { return r.gpus; }, true},
      {"pp", [](const SpeedValidationRow& r) { return r.layout.pp; }, true},
      {"dp", [](const SpeedValidationRow& r) { return r.layout.dp; }, true},
  };
  double pooled_moved = 0, pooled_doublings = 0;
  for (const Dimension& d : dimensions) {
    const DimensionResult result = envelope_dimension(d, fitter, in_sample);
    pooled_moved += result.moved;
    pooled_doublings += result.far;
    table.envelope.push_back(result.out);
  }
  table.extrapolation_per_doubling = pooled_doublings > 0 ? std::sqrt(pooled_moved / pooled_doublings) : 0.0;
}

// Each row's step predicted with the constants fitted without its lineage.
std::vector<std::optional<StepPrediction>> held_out_steps(const std::vector<SpeedValidationRow>& rows,
                                                          const std::vector<Prepared>& prepared,
                                                          const std::map<std::string, SpeedParams>& without_lineage) {
  std::vector<std::optional<StepPrediction>> held(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Prepared& p = prepared[i];
    const detail::StepHardware machine = detail::step_hardware(p.scenario, p.report.hardware, without_lineage.at(rows[i].lineage));
    held[i] = detail::predict_step(p.scenario, p.report.compute, machine, p.report.parallelism, p.report.memory.explain, p.batch);
  }
  return held;
}

// How much of one measured row's departure from the model is its source's (its code's, its
// machine's) and how much its own: the held-out rows' log(measured / predicted), the sources'
// means spread by tau (their variance less what their own rows' scatter adds, DerSimonian & Laird
// 1986), a row about its source's mean by sigma. A measured row's departure carries to another run
// of the same code in the share tau^2 / (tau^2 + sigma^2 / n) for n measured rows (the posterior
// mean of a normal random effect; calibration_weight in the engine).
void record_source_effect(SpeedValidationTable& table) {
  std::map<std::string, std::vector<double>> by;
  for (const SpeedValidationRow& row : table.rows)
    if (std::isfinite(row.error_pct)) by[row.source_group].push_back(-std::log1p(row.error_pct / 100));
  const detail::SourceEffect effect = detail::source_effect(by);
  table.calibration_between_sd = effect.between_sd;
  table.calibration_within_sd = effect.within_sd;
  table.calibration_weight = effect.weight;
}

// Up to `at_most` of `all`, evenly spaced from the first.
std::vector<std::size_t> evenly_spaced(const std::vector<std::size_t>& all, std::size_t at_most) {
  std::vector<std::size_t> out;
  const std::size_t stride = std::max<std::size_t>(1, (all.size() + at_most - 1) / at_most);
  for (std::size_t k = 0; k < all.size(); k += stride) out.push_back(all[k]);
  return out;
}

// A row's measured step time; a published utilisation as the step it implies (the same FLOPs).
double measured_seconds(const SpeedValidationRow& row, const StepPrediction& step) {
  return row.metric == "step_seconds" ? row.measured
                                      : step.step_seconds * (row.metric == "hfu" ? step.hfu : step.mfu) / row.measured;
}

// Calibration within each source: one measured row (up to 12 of each source, evenly spaced) fits the
// speed multipliers (calibration.cpp), and the source's other rows (up to 240, evenly spaced) are
// predicted with them, as a user of a lineage the constants never saw who measured that one row
// would: from the constants fitted without the row's lineage, and beside that prediction uncalibrated.
void calibration_by_distance(SpeedValidationTable& table, const std::vector<Prepared>& prepared,
                             const std::map<std::string, SpeedParams>& without_lineage) {
  const std::vector<SpeedValidationRow>& rows = table.rows;
  const std::vector<std::optional<StepPrediction>> held = held_out_steps(rows, prepared, without_lineage);
  std::map<std::string, std::vector<std::size_t>> by_source;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (held[i] && held[i]->step_seconds > 0) by_source[rows[i].source_group].push_back(i);
  record_source_effect(table);
  const double carried = table.calibration_weight;
  const std::vector<std::string> distances = {"layout", "gpus", "model"};
  std::map<std::string, std::map<std::string, std::vector<double>>> logs;  // distance -> source -> log ratios
  std::map<std::string, std::map<std::string, std::vector<double>>> plain;  // the same, uncalibrated
  std::map<std::string, std::map<std::string, std::vector<double>>> full;   // the same, carried in full
  auto measured = [&](std::size_t i) { return measured_seconds(rows[i], *held[i]); };
  for (const auto& [source, members] : by_source) {
    if (members.size() < 2) continue;
    const std::vector<std::size_t> targets = evenly_spaced(members, 240);
    for (std::size_t c : evenly_spaced(members, 12)) {
      const SpeedCalibration k = detail::fit_speed({{held[c]->seconds, measured(c)}});
      const SpeedCalibration shrunk = detail::carried_calibration(k, carried);
      for (std::size_t q : targets) {
        if (q == c) continue;
        const double calibrated = detail::calibrated_seconds(held[q]->seconds, shrunk);
        const double in_full = detail::calibrated_seconds(held[q]->seconds, k);
        if (!(calibrated > 0) || !(in_full > 0)) continue;
        const bool same_model = rows[q].params == rows[c].params && rows[q].layers == rows[c].layers;
        const std::string distance = !same_model ? "model" : rows[q].gpus == rows[c].gpus ? "layout" : "gpus";
        logs[distance][source].push_back(std::log(measured(q) / calibrated));
        plain[distance][source].push_back(
            100 * std::abs(held[q]->step_seconds / measured(q) - 1));
        full[distance][source].push_back(100 * std::abs(in_full / measured(q) - 1));
      }
    }
  }
  for (const std::string& distance : distances)
    if (auto d = detail::calibration_distance(distance, logs[distance], plain[distance], full[distance]))
      table.calibration.push_back(*d);
}

// How much slower than the group's fastest measured layout is the one predicted fastest (percent).
double pick_slower(const std::vector<double>& measured, const std::vector<double>& predicted) {
  const std::size_t pick = std::min_element(predicted.begin(), predicted.end()) - predicted.begin();
  return 100 * (measured[pick] / *std::min_element(measured.begin(), measured.end()) - 1);
}

// Within each rank group (one model on one GPU count, different layouts), how well the held-out
// predictions order the layouts.
// And how much slower than the group's fastest measured layout is the one predicted fastest.
void tabulate_rank_groups(SpeedValidationTable& table) {
  struct Group {
    std::vector<double> measured, held_out, built_in;
  };
  std::map<std::string, Group> ranked;
  for (const SpeedValidationRow& row : table.rows)
    if (!row.rank_group.empty() && row.metric == "step_seconds") {
      Group& g = ranked[row.rank_group];
      g.measured.push_back(row.measured);
      g.held_out.push_back(row.predicted);
      g.built_in.push_back(row.predicted_built_in);
    }
  for (const auto& [key, g] : ranked)
    if (g.measured.size() >= 3)
      table.rank_groups.push_back({key, double(g.measured.size()), spearman(g.measured, g.held_out),
                                   pick_slower(g.measured, g.held_out), pick_slower(g.measured, g.built_in)});
}

}  // namespace

SpeedValidationTable validate_speed(const Catalog& catalog, bool fit_constants, int search_grid) {
  SpeedValidationTable table;
  // The search's grid sweeps: 12 steps across each constant's range unless asked otherwise, within 4-48.
  table.search_grid = std::clamp(search_grid, 4, 48);
  const std::vector<Prepared> prepared = read_rows(catalog, table);
  const RowNames names = names_of(table.rows);
  const Fitter fitter(prepared, table.rows, table.search_grid);
  const Fits fits = fit_held_out(table, fitter, names.lineages, fit_constants);
  tabulate_sources(table, prepared, names.groups, fits.in_sample);
  set_range_ratios(table.rows, fitter, fit_constants);
  const auto nested = tabulate_ranges(table, names.lineages);
  tabulate_lineages(table, names.lineages, nested);
  if (fit_constants) envelope_experiment(table, fitter, fits.in_sample);
  calibration_by_distance(table, prepared, fits.without_lineage);
  tabulate_rank_groups(table);
  return table;
}

std::string speed_validation_to_json(const SpeedValidationTable& table, int indent) {
  return contract::write_record(contract::validation_tables::speed, table)
      .dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace traincalc
