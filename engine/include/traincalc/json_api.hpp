// JSON in, JSON out: the contract shared by the CLI, the WebAssembly module and the tests.
#pragma once

#include <optional>
#include <string>
#include <map>
#include <string_view>
#include <vector>

#include "traincalc/catalog.hpp"
#include "traincalc/issue.hpp"
#include "traincalc/report.hpp"
#include "traincalc/scenario.hpp"

namespace traincalc {

struct ScenarioParse {
  std::optional<Scenario> scenario;  // present only when errors is empty
  Issues errors;
  Issues warnings;
};

// Validates one scenario given as JSON text against a catalog (plus the scenario's own inline
// "catalog" key). Never throws; bad input becomes errors.
ScenarioParse parse_scenario(std::string_view json_text, const Catalog& catalog);

// Scenario (or array of scenarios) in, report (or array of reports) out. indent < 0: compact.
struct JsonOutput {
  std::string text;
  bool all_valid = true;
};
JsonOutput estimate_json(std::string_view json_text, const Catalog& catalog, int indent = -1);

// {"errors": [...], "warnings": []}: the report of an input that cannot be estimated.
std::string error_report_json(const Issues& errors, int indent = -1);

// Serialises a report (finite numbers only) into the report-v1 JSON.
std::string report_to_json(const Report& report, int indent = -1);

// A vendor catalog merged over a base catalog: rows with a known ID replace, others are added. A GPU
// row's missing figures (memory bandwidth, links, power, ...) come from the closest built-in GPU of its
// architecture (GpuSpec::filled_from); the built-in catalog's own files are read as written
// (CatalogRows::builtin, or builtin_without_texts where their sources are kept apart: CatalogFile).
struct CatalogLoad {
  Catalog catalog;
  Issues errors;  // fields as "gpus[2].bf16_tflops"
};
CatalogLoad merge_catalog_json(std::string_view json_text, const Catalog& base, CatalogRows whose = CatalogRows::vendor);

// Training frameworks' configs read into the scenario's terms (import/framework_config.cpp): each one a
// JSON object (a YAML or TOML file converted by a library where it is read) or a Megatron-LM launch
// script; `format` names the framework ("megatron", "torchtitan", "deepspeed", "hf", "accelerate"), or
// is empty to tell it from the keys. Read together, as the files of one run:
// {"formats": [...], "scenario": {...the fields taken...}, "taken": [{"config", "key", "field", "value"}],
//  "ignored": [{"config", "key", "why": "no_cost" | "not_read" | "auto"}], "missing": ["hardware.gpu", ...],
//  "warnings": [...], "errors": [...]}.
struct ConfigText {
  std::string text;
  std::string format;
};
std::string import_configs_json(const std::vector<ConfigText>& configs, const Catalog& catalog, int indent = -1);
// Each framework's keys the import reads, as Markdown tables (docs/configs.md).
std::string config_keys_markdown();
// The run a scenario estimates, as a framework's config ("megatron": a launch script's arguments;
// "torchtitan": a TOML), the planner's layout included, each line commented with what the estimate
// assumed; `errors` instead of `text` where the scenario does not estimate or the format cannot say it.
struct ConfigExport {
  std::string text;
  Issues errors;
};
ConfigExport export_config(std::string_view scenario_json, std::string_view format, const Catalog& catalog);

// A Hugging Face config.json read into the scenario's architecture form ({"layers": ..., ...}),
// with a warning for every default the importer supplied. architecture is set when errors is empty.
struct HfImport {
  std::optional<Architecture> architecture;
  std::string name;  // the config's _name_or_path, else its first architectures entry
  double params = 0;
  double active_params = 0;
  double seq_len = 0;  // the learned-position context, 0 when the config does not fix one
  Issues errors;
  Issues warnings;
};
HfImport import_hf_config(std::string_view config_json);
// {"model": {...}, "params": N, "active_params": N, "warnings": [...], "errors": [...]}
std::string hf_import_to_json(const HfImport& imported, int indent = -1);

// The engine against published throughput (engine/data/calibration.json): for each row the published
// MFU (or HFU), the predicted one and the error in percentage points; with the planner, also the step
// time of the layout the planner picks for the same GPUs, against the published layout's.
// {"rows": [...], "median_abs_error_pp": x, "max_abs_error_pp": y}
std::string validation_json(const Catalog& catalog, bool with_planner, int indent = -1);
// What a validation row ran, as the engine read its scenario: the GPU (its catalog ID, else its name,
// and its name), how many, the model, its size and depth, how it trained ("pretrain", "full", "lora"
// or "qlora"), the precision, the sequence and the layout. The page describes each row from these in
// the reader's language; the row's `label` is its source's own name for it.
struct ValidationRun {
  std::string gpu, gpu_name;
  double gpus = 0;
  std::string model;
  double layers = 0, params = 0;
  std::string method, precision;
  double seq_len = 0;
  LayoutChoices layout;
};
// The layout the planner picks for a validation row's GPUs, and how many it weighed.
struct PlannerPick : LayoutOption {
  double layouts_evaluated = 0;
};
struct ValidationRow : ValidationRun {
  std::string id, label, source, assumptions;
  std::string metric;  // "mfu", or "hfu" where the source counts recomputed FLOPs
  double published = 0, predicted = 0, error_pp = 0;
  double step_seconds = 0, tokens_per_second_per_gpu = 0;
  double global_batch_sequences = 0;
  bool fits = false;
  std::optional<PlannerPick> planner;  // with_planner: the planner's own layout for the same GPUs
};
struct ValidationTable {
  std::string description;
  std::vector<ValidationRow> rows;
  double median_abs_error_pp = 0, max_abs_error_pp = 0;
};
ValidationTable validate_calibration(const Catalog& catalog, bool with_planner);
std::string validation_to_json(const ValidationTable& table, int indent = -1);

// Calibrated on one measured row of a source, its other rows predicted: the error by how far the
// predicted row is from the measured one ("layout": the same model on as many GPUs; "gpus": the
// same model on another count; "model": another model).
struct CalibrationDistance {
  std::string distance;
  double pairs = 0, sources = 0;
  double median_abs_error_pct = 0;  // the median over sources of each one's median
  double median_abs_error_uncalibrated_pct = 0;  // the same pairs, uncalibrated
  double median_abs_error_full_pct = 0;  // the same pairs, the measured row's departure carried in full
  double low = 1, high = 1;         // measured / calibrated: the 10th and 90th percentiles
};
// The memory model against measured peaks (engine/data/memory-validation.json), held out by source:
// the one calibrated constant, the allocator's fragmentation allowance, is fitted on the other
// sources' reserved peaks for each source's rows, and on all of them for the in-sample figures.
struct MemoryValidationRow : ValidationRun {
  std::string id, label, source_group, lineage, framework, source;
  std::string counter;  // what was measured: "allocated", "reserved" or "device" (nvidia-smi)
  std::string rank;     // which pipeline stage reported it: "last", or empty for the worst
  double measured_bytes = 0;  // 0 where the run only says it ran out of memory
  bool out_of_memory = false;
  bool upper_bound = false;  // the measured figure is a capacity the run fitted in
  double predicted_bytes = 0;            // held out
  double predicted_in_sample_bytes = 0;  // fragmentation fitted on every source
  double error_pct = 0, error_in_sample_pct = 0;
  double capacity_bytes = 0;
  bool predicted_fits = false;
};
struct MemoryValidationSource {
  std::string group, lineage;
  double rows = 0;
  double fragmentation = 0;  // fitted without this source's lineage
  double peaks = 0;          // its rows with a measured peak (not out of memory, not a bound)
  double median_abs_error_pct = 0, max_abs_error_pct = 0;  // over those peaks; 0 where there are none
};
struct MemoryValidationTable {
  std::string description;
  std::vector<MemoryValidationRow> rows;
  std::vector<MemoryValidationSource> sources;
  double fragmentation_in_sample = 0;
  double median_abs_error_pct = 0, max_abs_error_pct = 0;  // held out
  double median_abs_error_in_sample_pct = 0, max_abs_error_in_sample_pct = 0;
  double out_of_memory_rows = 0, out_of_memory_predicted = 0;
  double bound_rows = 0, bound_respected = 0;
  // The likely range of a peak for a new lineage (measured / predicted, held out, each lineage a group:
  // detail::ranges_for_new_group; memory.cpp keeps the same numbers), the lineages behind it, and,
  // nested, the mean over lineages of the share of their measured peaks inside the range built
  // without them and the median of that range's width (high / low).
  LikelyRange range;
  double range_coverage_lineages_pct = 0, range_median_width = 1;
  double median_of_lineages_abs_error_pct = 0;
  // Each source calibrated on one measured peak (the allocated factor that makes it come out, as
  // calibration.cpp fits it) and its other peaks predicted; the sources' biases' spread, a peak's own
  // about its source's, and the share of a measured peak's departure that carries to another run.
  std::vector<CalibrationDistance> calibration;
  double calibration_between_sd = 0, calibration_within_sd = 0, calibration_weight = 1;
};
MemoryValidationTable validate_memory(const Catalog& catalog);
std::string memory_validation_to_json(const MemoryValidationTable& table, int indent = -1);

// The step-time model against measured step times and published utilisation (engine/data/
// speed-validation.json, which also takes calibration.json's rows by ID), held out by software lineage:
// the step model's calibrated constants (SpeedParams) are fitted on every other lineage's sources to
// predict each lineage's rows, and on all of them for the in-sample figures. Errors are in step time:
// predicted / measured - 1 (for a published MFU, measured MFU / predicted MFU - 1).
struct SpeedValidationRow : ValidationRun {
  std::string id, label, source_group, framework;
  std::string lineage;  // whose training code ran ("megatron", "pytorch", ...): the unit held out
  double global_batch_sequences = 0;
  std::string metric;  // what was measured: "step_seconds", "mfu" or "hfu"
  double measured = 0;
  double predicted = 0, predicted_in_sample = 0;  // in the metric's unit; held out and in sample
  double predicted_built_in = 0;                   // with the engine's own constants
  double error_pct = 0, error_in_sample_pct = 0;  // step time, signed
  std::string rank_group;  // rows ranked against each other (vTrain: one model on one GPU count)
  double layer_stream_seconds = 0;  // the engine's own prediction: GPU work per layer and micro-batch
  std::string range_basis;          // the kind of step (LikelyRange::basis), from the engine's own prediction
  double width = 0;                 // the model's hidden size, where the source varies it (else 0)
  // Measured / predicted step time behind the likely ranges: held out by lineage, or, for a kind of
  // step only one lineage measures, by model width within that source.
  double range_ratio = 1;
  bool in_range = false;            // its held-out error lies inside the likely range of its basis
  bool fitted = true;               // its source enters the fits of the other sources (false: validation only)
};
struct SpeedValidationSource {
  std::string group, framework, lineage;
  double rows = 0;
  double median_abs_error_pct = 0, mean_abs_error_pct = 0, max_abs_error_pct = 0;  // held out
  double median_abs_error_in_sample_pct = 0, mean_abs_error_in_sample_pct = 0;
  double mean_error_pct = 0;  // held out, signed: the source's bias
  // Of its rows, the share whose held-out error lies in the likely range: with the ranges from every
  // lineage's held-out rows, and (nested) from the other lineages' only.
  double range_coverage_pct = 0, range_coverage_nested_pct = 0;
  // Whether its rows enter the fits of the other sources' constants; false for a source kept for
  // validation only (its held-out error means the same either way).
  bool fitted = true;
};
// One software lineage held out: its rows predicted with the constants fitted without it, and checked
// against the likely ranges built from the other lineages' rows only (what a new publisher meets).
struct SpeedValidationLineage {
  std::string name;
  double sources = 0, rows = 0;
  double median_abs_error_pct = 0;  // held out, the median over its rows
  double median_error_pct = 0;      // held out, signed: its bias
  double range_coverage_pct = 0;    // its rows inside the ranges built without it
  double range_median_width = 1;    // the median over its rows of that range's high / low
};
struct SpeedRankGroup {
  std::string key;
  double rows = 0;
  double spearman = 0;  // measured against held-out predicted step times
  // The layout predicted fastest among the group's, measured against the group's fastest measured:
  // measured(pick) / measured(best) - 1, picked with held-out predictions and with the engine's own
  // constants (what the planner uses).
  double pick_slower_pct = 0, pick_slower_built_in_pct = 0;
};
struct SpeedFittedParams {
  std::string without;  // the lineage left out; empty for the in-sample fit
  std::vector<std::pair<std::string, double>> values;
};
// The validated envelope along one dimension of a run, and what stepping beyond it costs: the values
// the measured rows span (`low`-`high`), and with the rows past the source-weighted 80th
// percentile (or below the 20th) fitted without, how far their predictions moved per doubling past it.
struct SpeedEnvelopeDimension {
  std::string dimension;  // "params", "gpus", "pp" or "dp"
  double low = 0, high = 0;
  double edge = 0;        // the experiment's threshold
  bool above = true;      // rows above the edge held out (false: below)
  double rows = 0, sources = 0;
  double per_doubling = 0;  // RMS change of log(predicted) per doubling past the edge
};
struct SpeedValidationTable {
  std::string description;
  std::vector<SpeedEnvelopeDimension> envelope;
  double extrapolation_per_doubling = 0;  // pooled over the dimensions' experiments
  std::vector<CalibrationDistance> calibration;
  // What one measured row says about a source's other rows (empirical Bayes over the held-out rows):
  // the spread of the sources' mean log(measured / predicted) and of a row about its source's mean,
  // and the share of a measured row's departure that carries to another run, tau^2 / (tau^2 + sigma^2).
  double calibration_between_sd = 0, calibration_within_sd = 0, calibration_weight = 1;
  std::vector<SpeedValidationRow> rows;
  std::vector<SpeedValidationSource> sources;
  std::vector<SpeedValidationLineage> lineages;
  std::vector<SpeedRankGroup> rank_groups;
  std::vector<SpeedFittedParams> fits;  // the in-sample fit first, then one per lineage left out
  double median_abs_error_pct = 0, mean_abs_error_pct = 0;  // held out, all rows
  // The median over sources of each source's held-out median (each source weighing the same, as in
  // the fit): the headline held-out error, which 1,440 rows of one source cannot swamp.
  double median_of_sources_abs_error_pct = 0, median_of_sources_abs_error_in_sample_pct = 0;
  double median_abs_error_in_sample_pct = 0, mean_abs_error_in_sample_pct = 0;
  double median_abs_error_built_in_pct = 0;  // with the engine's own constants (no refit)
  std::vector<LikelyRange> ranges;  // the likely range of each basis, from the held-out rows
  // Shares of held-out rows inside their range: of all rows, the mean of the sources' shares, and
  // the mean of the sources' nested shares (each source's ranges computed without its lineage).
  double range_coverage_rows_pct = 0, range_coverage_sources_pct = 0, range_coverage_nested_pct = 0;
  // What a new publisher meets: the median over lineages of their held-out medians, the mean of their
  // nested coverages (each lineage weighing the same), and the median over lineages of the median
  // width (high / low) of the ranges their rows were checked against.
  double median_of_lineages_abs_error_pct = 0, range_coverage_lineages_pct = 0, range_median_width = 1;
  // Steps of the fit's grid sweeps across each constant's range. The search ends in a local minimum
  // that moves with it, and the held-out figures with that (scripts/fit-noise.mjs, docs/validation.md).
  int search_grid = 12;
};
// fit=false skips the refits (every figure then uses the engine's own constants); search_grid (4-48,
// clamped) sets the steps of the fit's grid sweeps.
SpeedValidationTable validate_speed(const Catalog& catalog, bool fit = true, int search_grid = 12);
std::string speed_validation_to_json(const SpeedValidationTable& table, int indent = -1);

// A training log read for what calibration can use (log_parse.cpp): every reading with the line it
// came from, and per measured key the median of its readings (the first left out of three or more).
struct LogReading {
  struct Reading {
    std::string framework;  // whose format matched: "megatron", "nemo", "torchtitan", "deepspeed", "hf", "litgpt", "nanogpt", "pytorch"
    std::string key;        // the measured report key (scenario.calibration's)
    double printed = 0;     // the number as printed
    double value = 0;       // in the key's unit (s, bytes, TFLOP/s, tokens or sequences a second)
    double line = 0;        // 1-based
    std::string text;       // the part of the line read
    std::string note;       // what the number means in that framework
  };
  std::vector<std::string> frameworks;
  std::vector<Reading> readings;
  std::map<std::string, double> measured;
  std::vector<std::string> notes;
};
LogReading parse_log(std::string_view text);
std::string log_reading_to_json(const LogReading& reading, int indent = -1);

// Whole published pre-training runs (engine/data/whole-runs.json) against the expected run's GPU-hours,
// each held out with every run of its publisher: the one fitted term, a real run's steady speed as a fraction of the step model's
// (operations.run_efficiency), is fitted on every other run whose utilisation the engine predicts (the
// geometric median of expected / published GPU-hours), and on all of them for the in-sample figures.
// Errors: predicted / published GPU-hours - 1.
struct RunValidationRow {
  std::string name, publisher, confidence, source, note, gpu, mfu_source;
  std::string gpu_name;  // the GPU's catalog name (the page shows it)
  bool count_assumed = false;  // the source gives no GPU count; the row assumes one
  double gpus = 0, tokens = 0, mfu = 0, goodput = 1, interruptions = 0;
  double published_gpu_hours = 0;
  double steady_gpu_hours = 0;       // the steady state, as the report's time.gpu_hours
  double rule_of_thumb_gpu_hours = 0;  // 6 N T at 40% of the dense peak
  double run_efficiency = 1;  // fitted without its publisher's runs (1 where the utilisation is not predicted)
  double expected_gpu_hours = 0, expected_in_sample_gpu_hours = 0;
  double error_pct = 0, error_in_sample_pct = 0, steady_error_pct = 0, rule_of_thumb_error_pct = 0;
};
struct RunValidationTable {
  std::string description;
  std::vector<RunValidationRow> rows;
  double rule_of_thumb_mfu = 0.4;  // the rule of thumb's utilisation: 6 N T at 40% of the dense peak
  double run_efficiency_in_sample = 1;
  double runs_predicted = 0;  // rows whose utilisation the engine predicts (those the fit uses)
  // Median absolute errors over all rows: the expected run held out and in sample, the steady state,
  // and the rule of thumb.
  double median_abs_error_pct = 0, median_abs_error_in_sample_pct = 0;
  double median_abs_steady_error_pct = 0, median_abs_rule_of_thumb_error_pct = 0;
  double median_error_pct = 0;  // signed, held out: the bias
  // The likely range of the expected run for a new publisher: published / expected (held out) over
  // the predicted runs, each publisher a group (detail::ranges_for_new_group), widened to contain 1
  // (goodput.cpp keeps the same numbers); and, nested, the share of each publisher's runs inside the
  // range built without it (publishers weighing the same), and that range's median width (high / low).
  double range_low = 1, range_high = 1;
  double publishers = 0, range_coverage_publishers_pct = 0, range_median_width = 1;
  double median_of_publishers_abs_error_pct = 0;
  // The same held-out errors by how sure each published figure is (the run's `confidence`, as its
  // source and note in engine/data/whole-runs.json justify it), from the surest down: how much of the
  // error is the model's and how much the published figures' own.
  struct ByConfidence {
    std::string confidence;
    double runs = 0, median_abs_error_pct = 0, median_error_pct = 0, within_12_pct = 0;
  };
  std::vector<ByConfidence> by_confidence;
};
RunValidationTable validate_runs(const Catalog& catalog);
std::string run_validation_to_json(const RunValidationTable& table, int indent = -1);

// The validation tables' part of docs/reference.md, after contract::markdown_reference()'s: each table's
// fields (validation/records.cpp), as `traincalc schema reference` prints them.
std::string validation_reference();

// The scenario on each of the catalog's cloud offers (their GPU and price; the user's count or
// budget) or on each GPU (the user's count, gpus_when_unset where a budget or deadline chose it),
// ranked: rows that run and fit first, then fewest days, then lowest cost. With a fixed
// strategy.mfu each of those rows also carries "at_engine_utilisation", the same run at the
// engine's own. Or the scenario at each of a list of GPU counts (the scaling curve), in the order
// asked, one estimate each.
// {"kind", "ranked_by", "fixed_utilisation", "rows": [{"id", "provider", "name", "date", "gpu",
//  "gpu_name", "report", "at_engine_utilisation"?}], "errors": []}
enum class CompareKind { offers, gpus, counts };
struct CompareRequest {
  CompareKind kind = CompareKind::offers;
  std::optional<std::vector<std::string>> ids;  // only these rows (the page asks a few at a time)
  double gpus_when_unset = 8;
  std::vector<double> counts;  // kind counts: the GPU counts, each a row
};
// One offer or GPU with the user's workload on it.
struct ComparisonRow {
  std::string id, provider, name, date, gpu, gpu_name;
  Report report;  // errors when the workload cannot run there
  std::optional<Report> at_engine_utilisation;
};
struct Comparison {
  CompareKind kind = CompareKind::offers;
  bool fixed_utilisation = false;
  std::vector<ComparisonRow> rows;  // ranked
  Issues errors;                    // the scenario or request itself is unusable
};
Comparison compare(std::string_view scenario_json, const Catalog& catalog, const CompareRequest& request);
std::string comparison_to_json(const Comparison& comparison, int indent = -1);
std::string compare_json(std::string_view scenario_json, const Catalog& catalog, const CompareRequest& request,
                         int indent = -1);
// The request as JSON ({"kind": "gpus", "ids": [...], "gpus_when_unset": 64}; empty text: defaults).
std::string compare_json(std::string_view scenario_json, const Catalog& catalog, std::string_view request_json,
                         int indent = -1);

// {"gpus": [...], "offers": [...], "models": [...]} in the same field names that inputs use.
std::string catalog_to_json(const Catalog& catalog, int indent = -1);

}  // namespace traincalc
