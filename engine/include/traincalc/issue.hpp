// User errors and warnings are data: a dotted field path, a stable machine code (the page
// translates by code), and an English message that says what to change.
//
// Every code and every reason (params.reason: the check that failed, where a code has several) is
// declared here, once. An issue's code is an IssueCode and a reason is written reason("...") (a test
// refuses a bare literal): both are checked against these tables when the engine compiles, so an
// undeclared one does not build.
// `traincalc schema issues` lists them, the report's JSON Schema enumerates the codes, and the page's
// messages are tested against them (tests/node/page-modules.test.mjs).
#pragma once

#include <cstddef>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace traincalc {

struct IssueCodeInfo {
  std::string_view code;
  std::string_view meaning;
};

inline constexpr IssueCodeInfo issue_codes[] = {
    // Reading the input.
    {"parse_error", "The text is not valid JSON, or holds a number too large to read (params.reason)."},
    {"too_large", "The text is larger than any scenario, catalog or config needs."},
    {"too_deep", "The JSON nests deeper than any scenario, catalog or config needs."},
    {"unknown_key", "A key the contract does not declare (params.suggestion: the nearest declared one)."},
    {"required", "A field the input needs is missing."},
    {"wrong_type", "A value of the wrong JSON type (params.expected: the type wanted)."},
    {"not_positive", "A number that must be above zero is not."},
    {"not_integer", "A count that must be whole is not."},
    {"not_finite", "A number too large to compute with."},
    {"out_of_range", "A number outside the field's declared range (params.min, params.max), or a derived one outside what it allows (params.reason)."},
    {"unknown_choice", "A word that is not one of the field's choices (params.allowed)."},
    {"unknown_id", "A catalog ID that is not in the catalog (params.suggestion: the nearest one)."},
    {"invalid_id", "A catalog ID with characters IDs do not use."},
    {"invalid", "A value of the right type that the field cannot take."},
    {"too_many", "More entries than the engine uses (params.max)."},
    // Fields that do not agree.
    {"conflict", "Fields that cannot be given together (params.reason names which)."},
    {"inconsistent", "Fields that cannot all hold (params.reason names the check)."},
    {"unsupported", "Something the engine cannot do with this input: a precision the GPU has no peak for, a scenario version it does not know, a measured speed without the architecture (params.reason)."},
    // Money and the cluster.
    {"budget_too_small", "The budget does not rent one GPU, or one model-parallel group, at the price."},
    {"no_exchange_rate", "A currency the engine cannot convert: give the price and the budget in one currency."},
    {"offer_group_too_large", "One model-parallel group needs more GPUs than the offer joins into one job."},
    {"offer_single_instance", "The offer cannot join instances, and one holds fewer GPUs than asked."},
    {"offer_cluster_max", "More GPUs than the offer joins into one cluster."},
    {"offer_partial_instance", "The GPU count leaves part of a rented instance idle."},
    {"offer_single_instance_capped", "The budget or deadline wants more GPUs than one instance of the offer holds: planned on one."},
    {"offer_cluster_max_capped", "The budget or deadline wants more GPUs than the offer joins into a cluster: planned on its maximum."},
    {"offer_ethernet_cluster", "The offer joins its instances over ordinary Ethernet, not an RDMA fabric."},
    // What the estimate assumed.
    {"assumed", "A value the input did not give, assumed (params.reason says which)."},
    {"ignored", "A field given but not used in this scenario (params.reason says why)."},
    {"approximated", "A layout the engine times approximately (params.reason says how)."},
    {"seq_len_assumed", "The sequence length is not given: a typical one is assumed."},
    {"currency_assumed", "The price's currency is not given: US dollars are assumed."},
    {"chinchilla_moe", "The tokens-per-parameter rule, fitted on dense models, applied to a mixture of experts' total parameters."},
    {"mfu_assumed", "No architecture to predict the speed from: a typical utilisation is assumed."},
    {"mfu_extrapolated", "A GPU the step model was not fitted on: its utilisation is extrapolated."},
    {"layout_assumed", "Without the architecture the layout is not planned: tp, pp and micro-batch default to 1."},
    {"no_layout", "No layout of these GPUs matches the strategy and the global batch."},
    {"planner_truncated", "The layout search stopped before trying every layout."},
    {"global_batch_assumed", "The global batch is not given: one typical of the training type is assumed."},
    {"bytes_per_token_assumed", "The dataset's size in GB is read as English text to count its tokens."},
    {"lora_params_unknown", "The adapters' size is unknown without the architecture."},
    {"activation_memory_unknown", "The activations' memory is unknown without the architecture."},
    {"energy_assumed", "The energy uses assumed power draw, PUE or grid intensity; set them to replace the assumptions."},
    {"energy_unknown", "The GPU lists no power (tdp_w), so the energy is not estimated."},
    {"offload_time_assumed", "The optimizer step on the CPU is timed with assumed PCIe and CPU rates."},
    {"gpu_fields_filled", "A catalog GPU's missing figures are taken from the closest built-in GPU."},
    {"framework_assumed", "The framework is not given: one is assumed, and the others would move the estimate."},
    {"framework_assumed_step", "As framework_assumed, where only the step time would move."},
    {"framework_assumed_memory", "As framework_assumed, where only the memory would move."},
    {"framework_fit_depends", "It fits under the assumed framework and would not under another."},
    // How far the prediction can be trusted.
    {"outside_envelope", "The run lies outside what the validation's measured runs cover."},
    {"speed_moe_range", "A mixture-of-experts step, modelled without constants of its own: a wider range."},
    {"speed_uncalibrated", "A feature no measured step covers, modelled from first principles."},
    {"calibration_speed_unused", "A measured speed not used: strategy.mfu is given, or the architecture is not (params.reason)."},
    {"softmax_fallback", "Attention falls back to an unfused softmax that keeps the scores."},
    {"softmax_fallback_precision", "As softmax_fallback, because of the precision."},
    {"softmax_fallback_length", "As softmax_fallback, because of the sequence length."},
    {"batch_padded", "The global batch does not split into whole micro-batches on every rank: steps run padded."},
    {"batch_cannot_fill", "The global batch is too small to keep every GPU busy."},
    {"bitsandbytes_gpu", "bitsandbytes' kernels (QLoRA's 4-bit layers, the 8-bit optimizer) are not fully supported on this GPU."},
    {"checkpoint_before_persisted", "A checkpoint starts before the previous one is on storage."},
    {"interruptions_dominate", "Interruptions come so often that little of the run is progress."},
    // Against a plan.
    {"over_budget", "The run costs more than the budget."},
    {"over_budget_expected", "The expected run (with interruptions) costs more than the budget."},
    {"budget_at_risk", "The run fits the budget, but its likely range does not."},
    {"deadline_missed", "The run takes longer than the deadline."},
    {"deadline_missed_expected", "The expected run (with interruptions) takes longer than the deadline."},
    {"deadline_at_risk", "The run meets the deadline, but its likely range does not."},
    // The engine's own failures: a report of one is a bug.
    {"internal_non_finite", "The engine computed a number that is not finite."},
    {"internal_error", "The engine failed on this input."},
    {"internal_undeclared_field", "The engine wrote a report key its contract does not declare."},
    {"internal_unread_field", "The engine did not read a field its contract declares."},
    {"unreadable", "The file cannot be read (the command-line tool)."},
};

// The checks behind an issue, where a code has several: the page words each in the reader's language.
inline constexpr std::string_view issue_reasons[] = {
    "active_params", "active_params_total", "architecture_and_params", "architecture_or_params",
    "attention_bias_qkv", "attention_kernel", "batch_too_small", "both_prices", "budget_gpus", "budget_kind",
    "budget_price", "bytes_given", "calibration_above_capacity", "calibration_above_peak",
    "calibration_below_weights", "calibration_needs_architecture", "calibration_nested", "calibration_run",
    "calibration_runs", "config_batch", "config_format", "config_layout", "count_and_budget", "cp_sequence", "currency_code", "currency_known", "data_amount",
    "dataset_only", "deadline_gpus", "dense_layers", "dp_plan", "dp_product", "dualpipe_even",
    "ep_comm_unused", "ep_dense", "ep_divides", "epochs_total_flops", "expert_groups",
    "expert_groups_missing", "expert_groups_per_token", "expert_groups_too_few", "experts_per_token",
    "ffn_assumed", "fragmentation_expandable", "gated_assumed", "gpu_count", "gpu_id", "gpu_id_or_spec",
    "gpu_peak", "hf_missing", "hidden_heads", "image_data", "images_network", "instance_gpus", "json",
    "kv_heads", "kv_heads_assumed", "latent_dims", "lora_only", "lora_pretrain", "loss_kernel",
    "max_below_instance", "measured_empty", "mfu_given", "model_parallel_divides", "monthly_budget",
    "months_and_deadline", "months_without_monthly", "native_llama", "no_architecture", "no_type",
    "not_empty", "number_overflow", "offer_currency", "offer_gpu", "offer_gpu_id", "offer_has_gpu",
    "offload_params", "overlap_p2p_unused", "pp_layers", "pp_schedule_interleaved", "pp_schedule_unused",
    "precision_peak", "preset_and_params", "preset_architecture", "price", "pricing_price", "qlora_only",
    "qlora_precision", "region", "region_and_grid", "resolution_images", "shared_expert_width",
    "stage_chunks", "stage_chunks_rounded", "stage_layers", "stages_one_stage", "stages_without_layers",
    "steps_batch", "text_config", "tied_assumed", "token_total", "tp_heads", "two_amounts", "two_batches",
    "two_budgets", "unknown_type", "untied_assumed", "version",
};

namespace detail {
consteval bool each_once() {
  for (std::size_t i = 0; i < std::size(issue_codes); ++i)
    for (std::size_t j = i + 1; j < std::size(issue_codes); ++j)
      if (issue_codes[i].code == issue_codes[j].code) return false;
  for (std::size_t i = 0; i < std::size(issue_reasons); ++i)
    for (std::size_t j = i + 1; j < std::size(issue_reasons); ++j)
      if (issue_reasons[i] == issue_reasons[j]) return false;
  return true;
}
static_assert(each_once(), "an issue code or reason is declared twice");

// Called only when a code or reason is not declared: not constexpr, so the compiler stops there.
inline void undeclared_issue_code_or_reason() {}

consteval std::string_view declared_code(std::string_view code) {
  for (const IssueCodeInfo& info : issue_codes)
    if (info.code == code) return info.code;
  undeclared_issue_code_or_reason();
  return {};
}
}  // namespace detail

// A declared code; built from a string literal, checked when the engine compiles.
class IssueCode {
 public:
  consteval IssueCode(const char* code) : name_(detail::declared_code(code)) {}
  constexpr std::string_view name() const { return name_; }
  friend constexpr bool operator==(IssueCode a, std::string_view b) { return a.name_ == b; }

 private:
  std::string_view name_;
};

// A declared reason, for params["reason"]; checked when the engine compiles.
consteval const char* reason(const char* name) {
  for (std::string_view declared : issue_reasons)
    if (declared == name) return name;
  detail::undeclared_issue_code_or_reason();
  return name;
}

struct Issue {
  std::string field;  // dotted scenario path, e.g. "training.tokens"; empty for the whole input
  IssueCode code;     // declared in issue_codes, e.g. "not_positive", "unknown_key"
  std::string message;
  // What a message in another language needs, as text: "got", "min", "max", "allowed",
  // "suggestion", "expected" (number, text, choice, boolean, object, list, number-or-word); "reason"
  // names the check that failed (a page has a message per reason), beside the values that message gives.
  std::map<std::string, std::string> params = {};
};

using Issues = std::vector<Issue>;

}  // namespace traincalc
