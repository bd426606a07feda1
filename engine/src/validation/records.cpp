// The validation tables' records (`traincalc validate ... --json`), field by field: each field is
// written from its member of the table's structs (traincalc/json_api.hpp), and documented from the
// same row in docs/reference.md. The page's validation view and scripts/doc-tables.mjs read them.
#include "validation/records.hpp"

#include "contract/declare.hpp"
#include "contract/records.hpp"
#include "traincalc/json_api.hpp"

namespace traincalc::contract {

namespace {

// A signed figure (an error, a bias, a correlation).
constexpr Field signed_out(std::string_view name, std::string_view unit, std::string_view description) {
  Field field = out(name, unit, description);
  field.rule = {-1e300, false, 1e300, false};
  return field;
}

// ---- What a row ran ----

constexpr Field run_fields[] = {
    written<&ValidationRun::gpu>(required(text("gpu", "The GPU's catalog ID, else its name."))),
    written<&ValidationRun::gpu_name>(required(text("gpu_name", "The GPU's catalog name."))),
    written<&ValidationRun::gpus>(required(out("gpus", "GPUs", "GPUs the run used."))),
    written<&ValidationRun::model>(required(text("model", "The model's name."))),
    written<&ValidationRun::layers>(required(out("layers", "layers", "Transformer layers (both stacks of an encoder-decoder); 0 without an architecture."))),
    written<&ValidationRun::params>(required(out("params", "parameters", "The model's parameters."))),
    written<&ValidationRun::method>(required(text("method", "How it trained: \"pretrain\", \"full\", \"lora\" or \"qlora\"."))),
    written<&ValidationRun::precision>(required(text("precision", "The training precision."))),
    written<&ValidationRun::seq_len>(required(out("seq_len", "tokens", "Sequence length."))),
    written<&ValidationRun::layout, layout_of>(required(holds("layout", Type::object, "The parallel layout."))),
};
const Record run{"validation.run",
                 doc("What a validation row ran, as the engine read the row's scenario: the page describes the row "
                     "from these in the reader's language."),
                 run_fields};

// ---- Published utilisation (traincalc validate) ----

constexpr Field planner_fields[] = {
    written_from<PlannerPick, &LayoutOption::step_seconds>(required(out("step_seconds", "s", "The planner's layout's predicted step."))),
    written_from<PlannerPick, &LayoutOption::mfu>(required(out("mfu", "fraction", "Its predicted utilisation."))),
    written_from<PlannerPick, &LayoutOption::fits>(required(flag("fits", {}, "Whether it fits in the GPU's memory."))),
    written<&PlannerPick::layouts_evaluated>(required(out("layouts_evaluated", "layouts", "Layouts the planner weighed."))),
};
constexpr Include planner_includes[] = {included<PlannerPick, LayoutChoices, layout_fields>(layout)};
const Record planner{"validation.published.rows[].planner",
                     doc("With --planner: the layout the planner picks for the same GPUs."), planner_fields,
                     planner_includes};
constexpr RecordOf<PlannerPick> planner_of = typed<PlannerPick, planner_fields>(planner);

constexpr Field published_row_fields[] = {
    written<&ValidationRow::id>(required(text("id", "The row's ID in engine/data/calibration.json."))),
    written<&ValidationRow::label>(required(text("label", "The source's own name for the run."))),
    written<&ValidationRow::source>(required(text("source", "Where the figure was published."))),
    written<&ValidationRow::assumptions>(required(text("assumptions", "What the row assumes that its source does not say."))),
    written<&ValidationRow::metric>(required(text("metric", "\"mfu\", or \"hfu\" where the source counts recomputed FLOPs."))),
    written<&ValidationRow::published>(required(out("published", "fraction", "The published utilisation."))),
    written<&ValidationRow::predicted>(required(out("predicted", "fraction", "The engine's."))),
    written<&ValidationRow::error_pp>(required(signed_out("error_pp", "percentage points", "Predicted - published."))),
    written<&ValidationRow::global_batch_sequences>(required(out("global_batch_sequences", "sequences", "Sequences a step."))),
    written<&ValidationRow::step_seconds>(required(out("step_seconds", "s", "The predicted step."))),
    written<&ValidationRow::tokens_per_second_per_gpu>(required(out("tokens_per_second_per_gpu", "tokens/s", "The predicted throughput per GPU."))),
    written<&ValidationRow::fits>(required(flag("fits", {}, "Whether the published layout fits in the GPU's memory, as the memory model predicts."))),
    written<&ValidationRow::planner, planner_of>(holds("planner", Type::object, "With --planner: the planner's own layout for the same GPUs.")),
};
constexpr Include published_row_includes[] = {included<ValidationRow, ValidationRun, run_fields>(run)};
const Record published_row{"validation.published.rows[]", doc("A published run, predicted."), published_row_fields,
                           published_row_includes};
constexpr RecordOf<ValidationRow> published_row_of = typed<ValidationRow, published_row_fields>(published_row);

constexpr Field published_fields[] = {
    written<&ValidationTable::description>(required(text("description", "What the table is."))),
    written<&ValidationTable::rows, published_row_of>(required(holds("rows", Type::list, "Each published run."))),
    written<&ValidationTable::median_abs_error_pp>(required(out("median_abs_error_pp", "percentage points", "The median over rows of |error_pp|."))),
    written<&ValidationTable::max_abs_error_pp>(required(out("max_abs_error_pp", "percentage points", "The largest |error_pp|."))),
};
const Record published{"validation.published",
                       doc("`traincalc validate --json`: the engine's utilisation against the published utilisation of "
                           "the runs in engine/data/calibration.json."),
                       published_fields};

// ---- Calibrated on one measured row (speed's and memory's) ----

constexpr Field calibration_fields[] = {
    written<&CalibrationDistance::distance>(required(text("distance", "How far the predicted row is from the measured one: \"layout\" (the same model on as many GPUs), \"gpus\" (another count) or \"model\" (another model)."))),
    written<&CalibrationDistance::pairs>(required(out("pairs", "pairs", "Pairs of a measured row and another of its source at that distance."))),
    written<&CalibrationDistance::sources>(required(out("sources", "sources", "Sources with such pairs."))),
    written<&CalibrationDistance::median_abs_error_pct>(required(out("median_abs_error_pct", "%", "Calibrated: the median over sources of each one's median |error|."))),
    written<&CalibrationDistance::median_abs_error_uncalibrated_pct>(required(out("median_abs_error_uncalibrated_pct", "%", "The same pairs, uncalibrated."))),
    written<&CalibrationDistance::median_abs_error_full_pct>(required(out("median_abs_error_full_pct", "%", "The same pairs, the measured row's departure carried in full."))),
    written<&CalibrationDistance::low>(required(out("low", "ratio", "Measured / calibrated: the 10th percentile."))),
    written<&CalibrationDistance::high>(required(out("high", "ratio", "Measured / calibrated: the 90th percentile."))),
};
const Record calibration{"validation.calibration[]",
                         doc("Calibrated on one measured row of a source, its other rows predicted, by how far they are "
                             "from the measured one."),
                         calibration_fields};
constexpr RecordOf<CalibrationDistance> calibration_of = typed<CalibrationDistance, calibration_fields>(calibration);

// ---- Measured memory peaks (traincalc validate --memory) ----

constexpr bool measured_a_peak(const MemoryValidationRow& r) { return r.measured_bytes > 0; }
constexpr bool ran_out(const MemoryValidationRow& r) { return r.out_of_memory; }
constexpr bool is_bound(const MemoryValidationRow& r) { return r.upper_bound; }
constexpr bool has_error(const MemoryValidationRow& r) { return r.measured_bytes > 0 && !r.out_of_memory && !r.upper_bound; }
constexpr Field memory_row_fields[] = {
    written<&MemoryValidationRow::id>(required(text("id", "The row's ID in engine/data/memory-validation.json."))),
    written<&MemoryValidationRow::label>(required(text("label", "The source's own name for the run."))),
    written<&MemoryValidationRow::source_group>(required(text("source_group", "The source the row belongs to, held out whole."))),
    written<&MemoryValidationRow::lineage>(required(text("lineage", "The framework lineage whose code ran."))),
    written<&MemoryValidationRow::framework>(required(text("framework", "The framework the scenario names."))),
    written<&MemoryValidationRow::source>(required(text("source", "Where the peak was published or measured."))),
    written<&MemoryValidationRow::counter>(required(text("counter", "What was measured: \"allocated\", \"reserved\" or \"device\" (nvidia-smi)."))),
    written<&MemoryValidationRow::capacity_bytes>(required(out("capacity_bytes", "bytes", "The GPU's memory."))),
    written<&MemoryValidationRow::predicted_bytes>(required(out("predicted_bytes", "bytes", "Predicted, the fragmentation allowance fitted without the row's lineage."))),
    written<&MemoryValidationRow::predicted_in_sample_bytes>(required(out("predicted_in_sample_bytes", "bytes", "Predicted, the allowance fitted on every source."))),
    written<&MemoryValidationRow::predicted_fits>(required(flag("predicted_fits", {}, "Whether the prediction fits in the GPU."))),
    written_when<&MemoryValidationRow::measured_bytes, &measured_a_peak>(out("measured_bytes", "bytes", "The measured peak; absent where the run only says it ran out of memory.")),
    written_when<&MemoryValidationRow::out_of_memory, &ran_out>(flag("out_of_memory", {}, "Present (true) where the run ran out of memory.")),
    written_when<&MemoryValidationRow::upper_bound, &is_bound>(flag("upper_bound", {}, "Present (true) where the figure is a capacity the run fitted in.")),
    written_when<&MemoryValidationRow::error_pct, &has_error>(signed_out("error_pct", "%", "With a measured peak: held out, predicted / measured - 1.")),
    written_when<&MemoryValidationRow::error_in_sample_pct, &has_error>(signed_out("error_in_sample_pct", "%", "With a measured peak: in sample.")),
};
constexpr Include memory_row_includes[] = {included<MemoryValidationRow, ValidationRun, run_fields>(run)};
const Record memory_row{"validation.memory.rows[]", doc("A measured peak, predicted."), memory_row_fields,
                        memory_row_includes};
constexpr RecordOf<MemoryValidationRow> memory_row_of = typed<MemoryValidationRow, memory_row_fields>(memory_row);

constexpr Field memory_source_fields[] = {
    written<&MemoryValidationSource::group>(required(text("group", "The source."))),
    written<&MemoryValidationSource::lineage>(required(text("lineage", "Its framework lineage."))),
    written<&MemoryValidationSource::rows>(required(out("rows", "rows", "Its rows."))),
    written<&MemoryValidationSource::fragmentation>(required(out("fragmentation", "fraction", "The fragmentation allowance fitted without its lineage."))),
    written<&MemoryValidationSource::peaks>(required(out("peaks", "rows", "Its rows with a measured peak (not out of memory, not a bound)."))),
    written<&MemoryValidationSource::median_abs_error_pct>(required(out("median_abs_error_pct", "%", "Over those peaks, held out; 0 where there are none."))),
    written<&MemoryValidationSource::max_abs_error_pct>(required(out("max_abs_error_pct", "%", "The largest, held out."))),
};
const Record memory_source{"validation.memory.sources[]", doc("A source's peaks, held out."), memory_source_fields};
constexpr RecordOf<MemoryValidationSource> memory_source_of = typed<MemoryValidationSource, memory_source_fields>(memory_source);

constexpr Field memory_fields[] = {
    written<&MemoryValidationTable::description>(required(text("description", "What the table is."))),
    written<&MemoryValidationTable::rows, memory_row_of>(required(holds("rows", Type::list, "Each measured run."))),
    written<&MemoryValidationTable::sources, memory_source_of>(required(holds("sources", Type::list, "Each source."))),
    written<&MemoryValidationTable::fragmentation_in_sample>(required(out("fragmentation_in_sample", "fraction", "The fragmentation allowance fitted on every source."))),
    written<&MemoryValidationTable::median_abs_error_pct>(required(out("median_abs_error_pct", "%", "Held out: the median over measured peaks of |error|."))),
    written<&MemoryValidationTable::max_abs_error_pct>(required(out("max_abs_error_pct", "%", "Held out: the largest |error|."))),
    written<&MemoryValidationTable::median_abs_error_in_sample_pct>(required(out("median_abs_error_in_sample_pct", "%", "In sample: the median |error|."))),
    written<&MemoryValidationTable::max_abs_error_in_sample_pct>(required(out("max_abs_error_in_sample_pct", "%", "In sample: the largest |error|."))),
    written<&MemoryValidationTable::out_of_memory_rows>(required(out("out_of_memory_rows", "rows", "Runs that ran out of memory."))),
    written<&MemoryValidationTable::out_of_memory_predicted>(required(out("out_of_memory_predicted", "rows", "Of those, the ones predicted not to fit."))),
    written<&MemoryValidationTable::bound_rows>(required(out("bound_rows", "rows", "Runs known only to fit in a capacity."))),
    written<&MemoryValidationTable::bound_respected>(required(out("bound_respected", "rows", "Of those, the ones predicted within it."))),
    written<&MemoryValidationTable::range, memory_likely_of>(required(holds("range", Type::object, "The likely range of a peak for a new lineage (measured / predicted, held out, each lineage a group)."))),
    written<&MemoryValidationTable::range_coverage_lineages_pct>(required(out("range_coverage_lineages_pct", "%", "The mean over lineages of the share of their measured peaks inside the range built without them."))),
    written<&MemoryValidationTable::range_median_width>(required(out("range_median_width", "ratio", "The median width (high / low) of those ranges."))),
    written<&MemoryValidationTable::calibration, calibration_of>(required(holds("calibration", Type::list, "Each source calibrated on one measured peak, its other peaks predicted."))),
    written<&MemoryValidationTable::calibration_between_sd>(required(out("calibration_between_sd", "log ratio", "The spread of the sources' biases."))),
    written<&MemoryValidationTable::calibration_within_sd>(required(out("calibration_within_sd", "log ratio", "The spread of a peak about its source's bias."))),
    written<&MemoryValidationTable::calibration_weight>(required(out("calibration_weight", "fraction", "The share of a measured peak's departure that carries to another run."))),
    written<&MemoryValidationTable::median_of_lineages_abs_error_pct>(required(out("median_of_lineages_abs_error_pct", "%", "The median over lineages of their held-out median |error|."))),
};
const Record memory{"validation.memory",
                    doc("`traincalc validate --memory --json`: the memory model against measured peaks "
                        "(engine/data/memory-validation.json), each framework lineage held out."),
                    memory_fields};

// ---- Measured steps (traincalc validate --speed) ----

constexpr Field speed_row_fields[] = {
    written<&SpeedValidationRow::id>(required(text("id", "The row's ID in engine/data/speed-validation.json or calibration.json."))),
    written<&SpeedValidationRow::label>(required(text("label", "The source's own name for the run."))),
    written<&SpeedValidationRow::source_group>(required(text("source_group", "The source the row belongs to."))),
    written<&SpeedValidationRow::lineage>(required(text("lineage", "Whose training code ran: the unit held out."))),
    written<&SpeedValidationRow::framework>(required(text("framework", "The framework the scenario names."))),
    written<&SpeedValidationRow::global_batch_sequences>(required(out("global_batch_sequences", "sequences", "Sequences a step."))),
    written<&SpeedValidationRow::metric>(required(text("metric", "What was measured: \"step_seconds\", \"mfu\" or \"hfu\"."))),
    written<&SpeedValidationRow::measured>(required(out("measured", "metric's unit", "The measured figure."))),
    written<&SpeedValidationRow::predicted>(required(out("predicted", "metric's unit", "Held out: with the constants fitted without the row's lineage."))),
    written<&SpeedValidationRow::predicted_in_sample>(required(out("predicted_in_sample", "metric's unit", "With the constants fitted on every lineage."))),
    written<&SpeedValidationRow::predicted_built_in>(required(out("predicted_built_in", "metric's unit", "With the engine's own constants."))),
    written<&SpeedValidationRow::error_pct>(required(signed_out("error_pct", "%", "Held out, in step time: predicted / measured - 1."))),
    written<&SpeedValidationRow::error_in_sample_pct>(required(signed_out("error_in_sample_pct", "%", "In sample."))),
    written<&SpeedValidationRow::layer_stream_seconds>(required(out("layer_stream_seconds", "s", "The engine's own prediction of the GPU work per layer and micro-batch."))),
    written<&SpeedValidationRow::range_basis>(required(text("range_basis", "The kind of step, for its likely range (report.time.range's basis)."))),
    written<&SpeedValidationRow::range_ratio>(required(out("range_ratio", "ratio", "Measured / predicted step time behind the likely ranges: held out by lineage, or, for a kind of step only one lineage measures, by model width within that source."))),
    written<&SpeedValidationRow::in_range>(required(flag("in_range", {}, "Whether its held-out error lies inside the likely range of its kind."))),
};
constexpr Include speed_row_includes[] = {included<SpeedValidationRow, ValidationRun, run_fields>(run)};
const Record speed_row{"validation.speed.rows[]", doc("A measured step or published utilisation, predicted."),
                       speed_row_fields, speed_row_includes};
constexpr RecordOf<SpeedValidationRow> speed_row_of = typed<SpeedValidationRow, speed_row_fields>(speed_row);

constexpr Field speed_source_fields[] = {
    written<&SpeedValidationSource::group>(required(text("group", "The source."))),
    written<&SpeedValidationSource::framework>(required(text("framework", "The framework its scenarios name."))),
    written<&SpeedValidationSource::lineage>(required(text("lineage", "Its software lineage."))),
    written<&SpeedValidationSource::rows>(required(out("rows", "rows", "Its rows."))),
    written<&SpeedValidationSource::median_abs_error_pct>(required(out("median_abs_error_pct", "%", "Held out: the median |error|."))),
    written<&SpeedValidationSource::mean_abs_error_pct>(required(out("mean_abs_error_pct", "%", "Held out: the mean |error|."))),
    written<&SpeedValidationSource::max_abs_error_pct>(required(out("max_abs_error_pct", "%", "Held out: the largest |error|."))),
    written<&SpeedValidationSource::mean_error_pct>(required(signed_out("mean_error_pct", "%", "Held out, signed: the source's bias."))),
    written<&SpeedValidationSource::median_abs_error_in_sample_pct>(required(out("median_abs_error_in_sample_pct", "%", "In sample: the median |error|."))),
    written<&SpeedValidationSource::mean_abs_error_in_sample_pct>(required(out("mean_abs_error_in_sample_pct", "%", "In sample: the mean |error|."))),
    written<&SpeedValidationSource::range_coverage_pct>(required(out("range_coverage_pct", "%", "Its rows whose held-out error lies in the likely range built from every lineage's held-out rows."))),
    written<&SpeedValidationSource::range_coverage_nested_pct>(required(out("range_coverage_nested_pct", "%", "The same, the ranges built from the other lineages' rows only."))),
    written<&SpeedValidationSource::fitted>(required(flag("fitted", {}, "Whether its rows enter the fits of the other sources' constants (false: kept for validation only)."))),
};
const Record speed_source{"validation.speed.sources[]", doc("A source's rows, held out and in sample."),
                          speed_source_fields};
constexpr RecordOf<SpeedValidationSource> speed_source_of = typed<SpeedValidationSource, speed_source_fields>(speed_source);

constexpr Field lineage_fields[] = {
    written<&SpeedValidationLineage::name>(required(text("name", "The software lineage."))),
    written<&SpeedValidationLineage::sources>(required(out("sources", "sources", "Its sources."))),
    written<&SpeedValidationLineage::rows>(required(out("rows", "rows", "Their rows."))),
    written<&SpeedValidationLineage::median_abs_error_pct>(required(out("median_abs_error_pct", "%", "Held out: the median over its rows of |error|."))),
    written<&SpeedValidationLineage::median_error_pct>(required(signed_out("median_error_pct", "%", "Held out, signed: its bias."))),
    written<&SpeedValidationLineage::range_coverage_pct>(required(out("range_coverage_pct", "%", "Its rows inside the likely ranges built without it."))),
    written<&SpeedValidationLineage::range_median_width>(required(out("range_median_width", "ratio", "The median over its rows of that range's high / low."))),
};
const Record lineage{"validation.speed.lineages[]",
                     doc("A software lineage held out: its rows predicted with the constants fitted without it, and "
                         "checked against the likely ranges built from the other lineages' rows (what a new "
                         "publisher meets)."),
                     lineage_fields};
constexpr RecordOf<SpeedValidationLineage> lineage_of = typed<SpeedValidationLineage, lineage_fields>(lineage);

constexpr Field envelope_fields[] = {
    written<&SpeedEnvelopeDimension::dimension>(required(text("dimension", "\"params\", \"gpus\", \"pp\" or \"dp\"."))),
    written<&SpeedEnvelopeDimension::low>(required(out("low", "", "The lowest value the measured rows span."))),
    written<&SpeedEnvelopeDimension::high>(required(out("high", "", "The highest."))),
    written<&SpeedEnvelopeDimension::edge>(required(out("edge", "", "The experiment's threshold: the source-weighted 80th percentile (or 20th)."))),
    written<&SpeedEnvelopeDimension::above>(required(flag("above", {}, "Whether the rows above the edge were held out (false: below)."))),
    written<&SpeedEnvelopeDimension::rows>(required(out("rows", "rows", "Rows held out."))),
    written<&SpeedEnvelopeDimension::sources>(required(out("sources", "sources", "Their sources."))),
    written<&SpeedEnvelopeDimension::per_doubling>(required(out("per_doubling", "log ratio", "RMS change of log(predicted) per doubling past the edge, fitted without them."))),
};
const Record envelope{"validation.speed.envelope[]",
                      doc("The validated envelope along one dimension of a run, and what stepping beyond it costs."),
                      envelope_fields};
constexpr RecordOf<SpeedEnvelopeDimension> envelope_of = typed<SpeedEnvelopeDimension, envelope_fields>(envelope);

constexpr Field rank_group_fields[] = {
    written<&SpeedRankGroup::key>(required(text("key", "The group: one model on one GPU count of one source."))),
    written<&SpeedRankGroup::rows>(required(out("rows", "layouts", "Its layouts."))),
    written<&SpeedRankGroup::spearman>(required(signed_out("spearman", "", "Rank correlation of measured and held-out predicted step times."))),
    written<&SpeedRankGroup::pick_slower_pct>(required(out("pick_slower_pct", "%", "The layout predicted fastest (held out), measured against the fastest measured: measured(pick) / measured(best) - 1."))),
    written<&SpeedRankGroup::pick_slower_built_in_pct>(required(out("pick_slower_built_in_pct", "%", "The same, picked with the engine's own constants (what the planner uses)."))),
};
const Record rank_group{"validation.speed.rank_groups[]", doc("A group's layouts, ranked against each other."),
                        rank_group_fields};
constexpr RecordOf<SpeedRankGroup> rank_group_of = typed<SpeedRankGroup, rank_group_fields>(rank_group);

nlohmann::ordered_json fitted_values(const SpeedFittedParams& fit) {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (const auto& [name, value] : fit.values) values[name] = value;
  return values;
}
constexpr Field fit_fields[] = {
    written<&SpeedFittedParams::without>(required(text("without", "The lineage left out; empty for the in-sample fit."))),
    derived<&fitted_values>(required(holds("params", Type::number_map, "Each calibrated constant (detail::SpeedParams), by name."))),
};
const Record fit{"validation.speed.fits[]", doc("The step model's calibrated constants, fitted without one lineage."),
                 fit_fields};
constexpr RecordOf<SpeedFittedParams> fit_of = typed<SpeedFittedParams, fit_fields>(fit);

constexpr Field speed_fields[] = {
    written<&SpeedValidationTable::description>(required(text("description", "What the table is."))),
    written<&SpeedValidationTable::rows, speed_row_of>(required(holds("rows", Type::list, "Each measured row."))),
    written<&SpeedValidationTable::sources, speed_source_of>(required(holds("sources", Type::list, "Each source."))),
    written<&SpeedValidationTable::lineages, lineage_of>(required(holds("lineages", Type::list, "Each software lineage, held out."))),
    written<&SpeedValidationTable::calibration, calibration_of>(required(holds("calibration", Type::list, "Each source calibrated on one measured row, its other rows predicted."))),
    written<&SpeedValidationTable::envelope, envelope_of>(required(holds("envelope", Type::list, "The envelope experiment, one entry per dimension and edge."))),
    written<&SpeedValidationTable::extrapolation_per_doubling>(required(out("extrapolation_per_doubling", "log ratio", "Pooled over the envelope's experiments."))),
    written<&SpeedValidationTable::calibration_between_sd>(required(out("calibration_between_sd", "log ratio", "The spread of the sources' mean log(measured / predicted)."))),
    written<&SpeedValidationTable::calibration_within_sd>(required(out("calibration_within_sd", "log ratio", "The spread of a row about its source's mean."))),
    written<&SpeedValidationTable::calibration_weight>(required(out("calibration_weight", "fraction", "The share of a measured row's departure that carries to another run: tau^2 / (tau^2 + sigma^2)."))),
    written<&SpeedValidationTable::rank_groups, rank_group_of>(required(holds("rank_groups", Type::list, "Each rank group's ordering of its layouts."))),
    written<&SpeedValidationTable::fits, fit_of>(required(holds("fits", Type::list, "The in-sample fit first, then one per lineage left out."))),
    written<&SpeedValidationTable::median_abs_error_pct>(required(out("median_abs_error_pct", "%", "Held out, all rows: the median |error|."))),
    written<&SpeedValidationTable::mean_abs_error_pct>(required(out("mean_abs_error_pct", "%", "Held out, all rows: the mean |error|."))),
    written<&SpeedValidationTable::median_abs_error_in_sample_pct>(required(out("median_abs_error_in_sample_pct", "%", "In sample, all rows: the median |error|."))),
    written<&SpeedValidationTable::median_of_sources_abs_error_pct>(required(out("median_of_sources_abs_error_pct", "%", "The median over sources of each source's held-out median (each source weighing the same)."))),
    written<&SpeedValidationTable::median_of_sources_abs_error_in_sample_pct>(required(out("median_of_sources_abs_error_in_sample_pct", "%", "The same, in sample."))),
    written<&SpeedValidationTable::mean_abs_error_in_sample_pct>(required(out("mean_abs_error_in_sample_pct", "%", "In sample, all rows: the mean |error|."))),
    written<&SpeedValidationTable::median_abs_error_built_in_pct>(required(out("median_abs_error_built_in_pct", "%", "With the engine's own constants (no refit): the median |error|."))),
    written<&SpeedValidationTable::search_grid>(required(out("search_grid", "steps", "Steps of the fit's grid sweeps across each constant's range."))),
    written<&SpeedValidationTable::ranges, likely_of>(required(holds("ranges", Type::list, "The likely range of each kind of step, from the held-out rows."))),
    written<&SpeedValidationTable::range_coverage_rows_pct>(required(out("range_coverage_rows_pct", "%", "Of all held-out rows, the share inside their range."))),
    written<&SpeedValidationTable::range_coverage_sources_pct>(required(out("range_coverage_sources_pct", "%", "The mean of the sources' shares."))),
    written<&SpeedValidationTable::range_coverage_nested_pct>(required(out("range_coverage_nested_pct", "%", "The mean of the sources' nested shares (each source's ranges built without its lineage)."))),
    written<&SpeedValidationTable::median_of_lineages_abs_error_pct>(required(out("median_of_lineages_abs_error_pct", "%", "What a new publisher meets: the median over lineages of their held-out medians."))),
    written<&SpeedValidationTable::range_coverage_lineages_pct>(required(out("range_coverage_lineages_pct", "%", "The mean of the lineages' nested coverages (each lineage weighing the same)."))),
    written<&SpeedValidationTable::range_median_width>(required(out("range_median_width", "ratio", "The median over lineages of the median width (high / low) of the ranges their rows were checked against."))),
};
const Record speed{"validation.speed",
                   doc("`traincalc validate --speed --json`: the step model against measured steps and published "
                       "utilisation, each software lineage held out."),
                   speed_fields};

// ---- Whole runs (traincalc validate --runs) ----

constexpr Field whole_run_fields[] = {
    written<&RunValidationRow::name>(required(text("name", "The run."))),
    written<&RunValidationRow::publisher>(required(text("publisher", "Who published it: the unit held out."))),
    written<&RunValidationRow::confidence>(required(text("confidence", "How sure the published figure is, as its source and note justify."))),
    written<&RunValidationRow::source>(required(text("source", "Where it was published."))),
    written<&RunValidationRow::note>(required(text("note", "What the row reads from the source, and what it assumes."))),
    written<&RunValidationRow::gpu>(required(text("gpu", "The GPU's catalog ID."))),
    written<&RunValidationRow::gpu_name>(required(text("gpu_name", "The GPU's catalog name."))),
    written<&RunValidationRow::gpus>(required(out("gpus", "GPUs", "GPUs the run used."))),
    written<&RunValidationRow::count_assumed>(required(flag("count_assumed", {}, "Whether the source gives no GPU count and the row assumes one."))),
    written<&RunValidationRow::tokens>(required(out("tokens", "tokens", "Tokens trained on."))),
    written<&RunValidationRow::mfu>(required(out("mfu", "fraction", "The utilisation used: published, else predicted."))),
    written<&RunValidationRow::mfu_source>(required(text("mfu_source", "Where the utilisation comes from."))),
    written<&RunValidationRow::goodput>(required(out("goodput", "fraction", "The expected run's steady-state wall-clock / expected wall-clock."))),
    written<&RunValidationRow::interruptions>(required(out("interruptions", "interruptions", "Expected interruptions."))),
    written<&RunValidationRow::published_gpu_hours>(required(out("published_gpu_hours", "GPU-hours", "As published."))),
    written<&RunValidationRow::steady_gpu_hours>(required(out("steady_gpu_hours", "GPU-hours", "The steady state, as the report's time.gpu_hours."))),
    written<&RunValidationRow::rule_of_thumb_gpu_hours>(required(out("rule_of_thumb_gpu_hours", "GPU-hours", "6 N T at rule_of_thumb_mfu of the dense peak."))),
    written<&RunValidationRow::run_efficiency>(required(out("run_efficiency", "fraction", "Fitted without its publisher's runs (1 where the utilisation is not predicted)."))),
    written<&RunValidationRow::expected_gpu_hours>(required(out("expected_gpu_hours", "GPU-hours", "The expected run, held out."))),
    written<&RunValidationRow::expected_in_sample_gpu_hours>(required(out("expected_in_sample_gpu_hours", "GPU-hours", "The expected run, run_efficiency fitted on every run."))),
    written<&RunValidationRow::error_pct>(required(signed_out("error_pct", "%", "Held out: expected / published - 1."))),
    written<&RunValidationRow::error_in_sample_pct>(required(signed_out("error_in_sample_pct", "%", "In sample."))),
    written<&RunValidationRow::steady_error_pct>(required(signed_out("steady_error_pct", "%", "The steady state / published - 1."))),
    written<&RunValidationRow::rule_of_thumb_error_pct>(required(signed_out("rule_of_thumb_error_pct", "%", "The rule of thumb / published - 1."))),
};
const Record whole_run{"validation.runs.rows[]", doc("A published whole pre-training run, predicted."), whole_run_fields};
constexpr RecordOf<RunValidationRow> whole_run_of = typed<RunValidationRow, whole_run_fields>(whole_run);

constexpr Field by_confidence_fields[] = {
    written<&RunValidationTable::ByConfidence::confidence>(required(text("confidence", "How sure the published figures are."))),
    written<&RunValidationTable::ByConfidence::runs>(required(out("runs", "runs", "Runs of that confidence."))),
    written<&RunValidationTable::ByConfidence::median_abs_error_pct>(required(out("median_abs_error_pct", "%", "Held out: the median |error|."))),
    written<&RunValidationTable::ByConfidence::median_error_pct>(required(signed_out("median_error_pct", "%", "Held out, signed: the bias."))),
    written<&RunValidationTable::ByConfidence::within_12_pct>(required(out("within_12_pct", "runs", "Runs within 12% of the published."))),
};
const Record by_confidence{"validation.runs.by_confidence[]",
                           doc("The held-out errors by how sure each published figure is, from the surest down."),
                           by_confidence_fields};
constexpr RecordOf<RunValidationTable::ByConfidence> by_confidence_of =
    typed<RunValidationTable::ByConfidence, by_confidence_fields>(by_confidence);

constexpr Field runs_fields[] = {
    written<&RunValidationTable::description>(required(text("description", "What the table is."))),
    written<&RunValidationTable::rows, whole_run_of>(required(holds("rows", Type::list, "Each published run."))),
    written<&RunValidationTable::run_efficiency_in_sample>(required(out("run_efficiency_in_sample", "fraction", "A real run's steady speed as a fraction of the step model's, fitted on every predicted run."))),
    written<&RunValidationTable::runs_predicted>(required(out("runs_predicted", "runs", "Runs whose utilisation the engine predicts (those the fit uses)."))),
    written<&RunValidationTable::median_abs_error_pct>(required(out("median_abs_error_pct", "%", "The expected run, held out: the median |error|."))),
    written<&RunValidationTable::median_abs_error_in_sample_pct>(required(out("median_abs_error_in_sample_pct", "%", "The expected run, in sample."))),
    written<&RunValidationTable::median_abs_steady_error_pct>(required(out("median_abs_steady_error_pct", "%", "The steady state."))),
    written<&RunValidationTable::median_abs_rule_of_thumb_error_pct>(required(out("median_abs_rule_of_thumb_error_pct", "%", "The rule of thumb."))),
    written<&RunValidationTable::median_error_pct>(required(signed_out("median_error_pct", "%", "Held out, signed: the bias."))),
    written<&RunValidationTable::rule_of_thumb_mfu>(required(out("rule_of_thumb_mfu", "fraction", "The rule of thumb's utilisation (6 N T at this fraction of the dense peak)."))),
    written<&RunValidationTable::range_low>(required(out("range_low", "ratio", "The likely range of published / expected for a new publisher: its low end."))),
    written<&RunValidationTable::range_high>(required(out("range_high", "ratio", "Its high end."))),
    written<&RunValidationTable::publishers>(required(out("publishers", "publishers", "Publishers, each held out whole."))),
    written<&RunValidationTable::range_coverage_publishers_pct>(required(out("range_coverage_publishers_pct", "%", "The share of each publisher's runs inside the range built without it (publishers weighing the same)."))),
    written<&RunValidationTable::range_median_width>(required(out("range_median_width", "ratio", "That range's median width (high / low)."))),
    written<&RunValidationTable::median_of_publishers_abs_error_pct>(required(out("median_of_publishers_abs_error_pct", "%", "The median over publishers of their held-out median |error|."))),
    written<&RunValidationTable::by_confidence, by_confidence_of>(required(holds("by_confidence", Type::list, "The same held-out errors by how sure each published figure is."))),
};
const Record runs{"validation.runs",
                  doc("`traincalc validate --runs --json`: published whole pre-training runs' GPU-hours against the "
                      "expected run, each publisher held out."),
                  runs_fields};

}  // namespace

namespace validation_tables {
const RecordOf<ValidationTable> published = typed<ValidationTable, published_fields>(contract::published);
const RecordOf<MemoryValidationTable> memory = typed<MemoryValidationTable, memory_fields>(contract::memory);
const RecordOf<SpeedValidationTable> speed = typed<SpeedValidationTable, speed_fields>(contract::speed);
const RecordOf<RunValidationTable> runs = typed<RunValidationTable, runs_fields>(contract::runs);
}  // namespace validation_tables

}  // namespace traincalc::contract

namespace traincalc {

std::string validation_reference() {
  using namespace contract::validation_tables;
  const contract::Record* roots[] = {&published.record, &memory.record, &speed.record, &runs.record};
  return contract::markdown_sections(
      "Validation tables",
      "What `traincalc validate --json` (and `--planner`, `--memory`, `--speed`, `--runs`) writes, from the same "
      "kind of field tables (`engine/src/validation/records.cpp`); the page's validation view reads them.",
      roots);
}

}  // namespace traincalc
