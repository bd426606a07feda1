// The scenario, catalog and report contract, declared once. Each record (a scenario section, a GPU,
// an offer, a model preset, a report section) is a table of fields: name, type, unit, range, default
// and a one-line description. The same tables drive reading and range checks (json_fields.hpp),
// the JSON Schemas (`traincalc schema`), and the reference in docs/reference.md; enum names are
// declared once here and read, written and documented from these tables.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "traincalc/hardware.hpp"
#include "traincalc/json_api.hpp"
#include "traincalc/report.hpp"
#include "traincalc/scenario.hpp"
#include "traincalc/strategy.hpp"

namespace traincalc::detail {
class Fields;  // the strict reader (engine/src/contract/json_fields.hpp)
}

namespace traincalc::contract {

// The range a number may take. Each bound is far outside any real run and keeps every product the
// estimate forms finite and meaningful, so a report only holds numbers the engine stands behind.
struct NumberRule {
  double min = 0;
  bool min_exclusive = true;  // default rule: strictly positive
  double max = 1e300;
  bool integer = false;
};

enum class Type {
  number,          // a JSON number within rule
  integer,         // a whole number within rule
  boolean,         //
  text,            // a string
  choice,          // one of choices
  number_or_word,  // a number within rule, or one of choices (e.g. "auto")
  object,          // an object of record `record`
  id_or_object,    // a catalog ID (string) or an object of record `record` (an inline GPU)
  list,            // an array of objects of record `record`
  number_map,      // an object whose values are numbers (keys named by the engine)
  text_map,        // an object whose values are strings
  text_list,       // an array of strings
  any,             // any JSON value (a suggestion's new value)
};

struct Record;
struct Field;

// How a declared field reaches its member of the section's struct: `read` takes the field's value
// from the strict reader into the struct the section's reader passes (Fields::read_bound). Declared
// with the field (contract.cpp, bound<&Section::member>), so one row gives a field's name, type,
// range, default, description and where it lands.
struct Binding {
  void (*read)(detail::Fields& fields, const Field& field, void* target);
};

struct Field {
  std::string_view name;
  Type type = Type::number;
  std::string_view unit = {};  // "tokens", "bytes", "GB", "s", "FLOPs", ... ("" where dimensionless)
  NumberRule rule = {};
  std::string_view default_value = {};  // in words, where absent means something ("1", "the GPU's")
  std::string_view description = {};
  std::span<const std::string_view> choices = {};       // choice; number_or_word's words
  const Record* record = nullptr;                       // object, id_or_object, list
  bool required = false;                                // always required (conditional needs are in the reader)
  std::span<const std::string_view> row_requires = {};  // list: keys each row needs beyond its record's
  const Binding* binding = nullptr;                     // read by Fields::read_bound; nullptr: by its reader
};

struct Record {
  std::string_view name;  // "training", "gpu", "report.time", ...
  std::string_view description;
  std::span<const Field> fields;
  std::span<const Record* const> includes = {};  // records whose fields also belong here (architecture in model)
  // A report: with errors it holds only warnings and errors, so its other required fields are
  // required only when errors is empty.
  bool errors_only_form = false;
};

// The field named `name` in the record or its includes; nullptr when none.
const Field* find(const Record& record, std::string_view name);

// Every field of the record, then of its includes, in declared order.
template <class Visit>
void for_each_field(const Record& record, const Visit& visit) {
  for (const Field& field : record.fields) visit(field);
  for (const Record* included : record.includes) for_each_field(*included, visit);
}

// ---- Enumerations: each name spelled once, here ----

template <class E>
struct Named {
  std::string_view name;
  E value;
};

template <class E, std::size_t N>
constexpr std::array<std::string_view, N> names_of(const Named<E> (&table)[N]) {
  std::array<std::string_view, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = table[i].name;
  return names;
}

template <class E, std::size_t N>
constexpr std::string_view name_of(const Named<E> (&table)[N], E value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  return table[0].name;
}

template <class E, std::size_t N>
constexpr std::optional<E> value_of(const Named<E> (&table)[N], std::string_view name) {
  for (const auto& entry : table)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

// In the order a page offers them: the usual training precisions first.
inline constexpr Named<Precision> precisions[] = {{"bf16", Precision::bf16},
                                                  {"fp16", Precision::fp16},
                                                  {"fp8", Precision::fp8},
                                                  {"tf32", Precision::tf32},
                                                  {"fp32", Precision::fp32}};
// What gradients are reduced in across data-parallel ranks.
inline constexpr Named<Precision> reduce_precisions[] = {
    {"fp32", Precision::fp32}, {"bf16", Precision::bf16}, {"fp16", Precision::fp16}};
inline constexpr Named<Optimizer> optimizers[] = {{"adamw", Optimizer::adamw},
                                                  {"adam", Optimizer::adam},
                                                  {"adamw-8bit", Optimizer::adamw_8bit},
                                                  {"sgd", Optimizer::sgd},
                                                  {"sgd-momentum", Optimizer::sgd_momentum},
                                                  {"adafactor", Optimizer::adafactor},
                                                  {"lion", Optimizer::lion},
                                                  {"paged-adamw", Optimizer::paged_adamw},
                                                  {"paged-adamw-8bit", Optimizer::paged_adamw_8bit}};
inline constexpr Named<Framework> frameworks[] = {
    {"megatron", Framework::megatron}, {"deepspeed", Framework::deepspeed}, {"fsdp2", Framework::fsdp2},
    {"hf", Framework::hf},             {"litgpt", Framework::litgpt},       {"torchtune", Framework::torchtune},
    {"unsloth", Framework::unsloth}};
inline constexpr Named<Regime> regimes[] = {{"mixed", Regime::mixed},
                                            {"megatron_mixed", Regime::megatron_mixed},
                                            {"fsdp_mixed", Regime::fsdp_mixed},
                                            {"amp", Regime::amp},
                                            {"pure", Regime::pure}};
inline constexpr Named<AttentionKernel> attention_kernels[] = {{"flash", AttentionKernel::flash},
                                                               {"memory_efficient", AttentionKernel::memory_efficient},
                                                               {"fused_softmax", AttentionKernel::fused_softmax},
                                                               {"eager", AttentionKernel::eager},
                                                               {"flash3", AttentionKernel::flash3}};
inline constexpr Named<CrossEntropy> cross_entropies[] = {{"eager", CrossEntropy::eager},
                                                          {"fused", CrossEntropy::fused},
                                                          {"chunked", CrossEntropy::chunked},
                                                          {"fused_linear", CrossEntropy::fused_linear},
                                                          {"compiled", CrossEntropy::compiled},
                                                          {"megatron_native", CrossEntropy::megatron_native}};
inline constexpr Named<AdapterPrecision> adapter_precisions[] = {{"compute", AdapterPrecision::compute},
                                                                 {"fp32", AdapterPrecision::fp32}};
inline constexpr Named<Quantization> quantizations[] = {{"nf4", Quantization::nf4},
                                                        {"nf4_double", Quantization::nf4_double}};
inline constexpr Named<Recompute> recomputes[] = {
    {"none", Recompute::none}, {"selective", Recompute::selective}, {"full", Recompute::full}};
inline constexpr Named<ExpertDispatch> expert_dispatches[] = {{"all_to_all", ExpertDispatch::all_to_all},
                                                                {"per_node", ExpertDispatch::per_node}};
inline constexpr Named<PipelineSchedule> pipeline_schedules[] = {{"1f1b", PipelineSchedule::one_f_one_b},
                                                                 {"zero_bubble", PipelineSchedule::zero_bubble},
                                                                 {"dualpipe", PipelineSchedule::dualpipe}};
inline constexpr Named<Offload> offloads[] = {
    {"none", Offload::none}, {"optimizer", Offload::optimizer}, {"optimizer+params", Offload::optimizer_and_params}};
inline constexpr Named<TrainingType> training_types[] = {{"pretrain", TrainingType::pretrain},
                                                         {"finetune", TrainingType::finetune}};
inline constexpr Named<FinetuneMethod> finetune_methods[] = {
    {"full", FinetuneMethod::full}, {"lora", FinetuneMethod::lora}, {"qlora", FinetuneMethod::qlora}};
inline constexpr Named<LoraTargets> lora_targets[] = {{"attention", LoraTargets::attention},
                                                      {"all_linear", LoraTargets::all_linear},
                                                      {"query_value", LoraTargets::query_value}};
inline constexpr Named<Objective> objectives[] = {{"language_model", Objective::language_model},
                                                  {"classification", Objective::classification}};
inline constexpr Named<TextKind> text_kinds[] = {{"english", TextKind::english},
                                                 {"chinese", TextKind::chinese},
                                                 {"chinese-english-tokenizer", TextKind::chinese_english_tokenizer},
                                                 {"code", TextKind::code}};
inline constexpr Named<OfferCluster> offer_clusters[] = {
    {"rdma", OfferCluster::rdma}, {"ethernet", OfferCluster::ethernet}, {"none", OfferCluster::none}};
inline constexpr Named<NormKind> norm_kinds[] = {{"rmsnorm", NormKind::rms}, {"layernorm", NormKind::layer}};
// How training.* gives the amount of data; "chinchilla" is tokens given as that word.
inline constexpr Named<DataKind> data_amount_keys[] = {
    {"tokens", DataKind::tokens}, {"dataset_gb", DataKind::dataset_gb},   {"samples", DataKind::samples},
    {"steps", DataKind::steps},   {"total_flops", DataKind::total_flops}, {"images", DataKind::images}};

inline constexpr Named<Recovery> recoveries[] = {
    {"automated", Recovery::automated}, {"manual", Recovery::manual}, {"in_memory", Recovery::in_memory}};

inline constexpr Named<MfuSource> mfu_sources[] = {
    {"given", MfuSource::given}, {"assumed", MfuSource::assumed}, {"predicted", MfuSource::predicted}};
inline constexpr Named<CompareKind> compare_kinds[] = {{"offers", CompareKind::offers}, {"gpus", CompareKind::gpus}};

// ---- The records ----

// Scenario: the top level and its sections.
extern const Record scenario, model, architecture, training, hardware, gpu, strategy, pricing, budget, energy,
    memory_options, operations, exchange_rates, measured_run, measured;
// Catalog: the file (or a scenario's inline "catalog") and its rows.
extern const Record catalog, offer, model_preset;
// The comparison request (`traincalc compare`, the module's compare()).
extern const Record compare_request;
// Report: the top level and its sections.
extern const Record report, issue;

// ---- Checked against the records ----

// Where a JSON object departs from its record: keys the record does not declare and required keys
// that are missing, as dotted paths ("time.step_secs: undeclared"). Empty when it conforms. The engine
// checks every report it writes this way, as the readers check every key they read.
std::vector<std::string> departures(const nlohmann::ordered_json& value, const Record& record,
                                    const std::string& path = "");

// ---- Generated from the records ----

// JSON Schema (draft 2020-12) for "scenario", "catalog" or "report"; empty for another name.
std::string json_schema(std::string_view which, int indent = 2);
// The Markdown reference of every record (docs/reference.md).
std::string markdown_reference();
// The scenario's choices by dotted path, as an ES module for the page (web/js/contract.js):
// export const CHOICES = {"strategy.precision": ["bf16", ...], ...}.
std::string javascript_choices();

}  // namespace traincalc::contract
