// The names of every enumeration the scenario, catalog and report use, each spelled once: what the
// reader accepts, the report writes, the schema lists and the page offers. No JSON: the estimators
// word their warnings with these.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "traincalc/json_api.hpp"
#include "traincalc/report.hpp"
#include "traincalc/scenario.hpp"
#include "traincalc/strategy.hpp"

namespace traincalc::contract {

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
inline constexpr Named<PipelineStage> pipeline_stages[] = {{"only", PipelineStage::only},
                                                          {"first", PipelineStage::first},
                                                          {"middle", PipelineStage::middle},
                                                          {"last", PipelineStage::last}};
inline constexpr Named<ChosenBy> chosen_bys[] = {
    {"given", ChosenBy::given}, {"default", ChosenBy::default_layout}, {"planner", ChosenBy::planner}};
inline constexpr Named<GpusFrom> gpus_froms[] = {{"count", GpusFrom::count},
                                                {"budget.per_month", GpusFrom::monthly_budget},
                                                {"budget.deadline_days", GpusFrom::deadline}};
inline constexpr Named<PowerFrom> power_froms[] = {{"given", PowerFrom::given}, {"utilisation", PowerFrom::utilisation}};
inline constexpr Named<CompareKind> compare_kinds[] = {
    {"offers", CompareKind::offers}, {"gpus", CompareKind::gpus}, {"counts", CompareKind::counts}};

}  // namespace traincalc::contract
