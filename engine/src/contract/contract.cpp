// The contract's records, field by field. Ranges are the engine's input limits: each bound is far
// outside any real run and keeps every product the estimate forms finite (no zero, denormal or
// overflowing intermediate). Descriptions are one line; the methodology behind them is in docs/.
#include <array>
#include <optional>
#include <type_traits>
#include <vector>

#include "contract/declare.hpp"
#include "contract/json_fields.hpp"
#include "contract/records.hpp"
#include "traincalc/contract.hpp"
#include "traincalc/currencies.hpp"
#include "traincalc/grids.hpp"

namespace traincalc::contract {

namespace {

// ---- Ranges ----
//                                      min   min excl.  max   integer
constexpr NumberRule params_range{1, false, 1e16, false};
constexpr NumberRule tokens_range{1, false, 1e20, false};
constexpr NumberRule dataset_gb_range{1e-6, false, 1e9, false};
constexpr NumberRule bytes_per_token_range{0.1, false, 100, false};
constexpr NumberRule samples_range{1, false, 1e13, false};
constexpr NumberRule steps_range{1, false, 1e10, false};
constexpr NumberRule total_flops_range{1, false, 1e40, false};
constexpr NumberRule epochs_range{1e-3, false, 1e6, false};
constexpr NumberRule seq_len_range{1, false, 1e7, true};
constexpr NumberRule batch_tokens_range{1, false, 1e10, false};
constexpr NumberRule batch_sequences_range{1, false, 1e8, true};
constexpr NumberRule lora_rank_range{1, false, 65536, true};
constexpr NumberRule probability_range{0, false, 0.99, false};  // a dropout probability
constexpr NumberRule images_range{1, false, 1e13, false};
constexpr NumberRule resolution_range{8, false, 65536, true};
constexpr NumberRule macs_per_image_range{1, false, 1e16, false};
constexpr NumberRule mfu_range{1e-3, false, 1, false};  // 0.1% to 100% of the dense peak
constexpr NumberRule gpu_count_range{1, false, 1e7, true};
constexpr NumberRule layout_range{1, false, 1e6, true};
constexpr NumberRule data_parallel_range{1, false, 1e7, true};
constexpr NumberRule zero_stage_range{0, false, 3, true};
constexpr NumberRule virtual_stages_range{1, false, 1024, true};
constexpr NumberRule tflops_range{1e-3, false, 1e6, false};  // up to an EFLOP/s per GPU
constexpr NumberRule memory_gb_range{1e-3, false, 1e6, false};
constexpr NumberRule bandwidth_range{1e-3, false, 1e6, false};
constexpr NumberRule watts_range{1, false, 1e5, false};
constexpr NumberRule efficiency_range{0.01, false, 1, false};  // a fraction of the peak
constexpr NumberRule gpus_per_node_range{1, false, 1e6, true};
constexpr NumberRule release_year_range{1990, false, 2100, true};
constexpr NumberRule compute_capability_range{1, false, 20, false};
constexpr NumberRule money_range{1e-6, false, 1e15, false};
constexpr NumberRule hours_per_month_range{1, false, 744, false};
constexpr NumberRule deadline_days_range{1e-3, false, 1e6, false};
constexpr NumberRule months_range{1e-3, false, 1200, false};
constexpr NumberRule pue_range{1, false, 5, false};
constexpr NumberRule grid_range{0, false, 5, false};
constexpr NumberRule power_fraction_range{0.01, false, 1, false};
constexpr NumberRule host_fraction_range{0, false, 5, false};
constexpr NumberRule allowance_gb_range{0, false, 100, false};
constexpr NumberRule fraction_range{0, false, 1, false};
constexpr NumberRule layers_range{1, false, 1e5, true};
constexpr NumberRule dimension_range{1, false, 1e8, true};
constexpr NumberRule heads_range{1, false, 1e6, true};
constexpr NumberRule experts_range{1, false, 1e5, true};
constexpr NumberRule positions_range{0, false, 1e8, true};
constexpr NumberRule count_or_zero_range{0, false, 1e5, true};
constexpr NumberRule zero_or_dimension_range{0, false, 1e8, true};
constexpr NumberRule norms_range{0, false, 8, true};
constexpr NumberRule version_range{1, false, 1, true};
constexpr NumberRule interruption_rate_range{0, false, 1000, false};  // per 1000 GPU-days
constexpr NumberRule restart_minutes_range{0, false, 1e5, false};
constexpr NumberRule interval_hours_range{1e-3, false, 1e5, false};
constexpr NumberRule overhead_fraction_range{0, false, 0.9, false};
constexpr NumberRule run_efficiency_range{0.05, false, 1, false};
constexpr NumberRule compare_gpus_range{0, true, 1e7, true};
constexpr NumberRule measured_seconds_range{1e-6, false, 1e6, false};
constexpr NumberRule measured_rate_range{1e-3, false, 1e15, false};
constexpr NumberRule measured_fraction_range{0, true, 1, false};
constexpr NumberRule measured_tflops_range{1e-3, false, 1e5, false};
constexpr NumberRule measured_bytes_range{1e3, false, 1e15, false};
constexpr auto framework_names = names_of(frameworks);
constexpr auto training_type_names = names_of(training_types);
constexpr auto offer_cluster_names = names_of(offer_clusters);
constexpr auto grid_names = grid_region_names();
constexpr std::string_view auto_word[] = {"auto"};
constexpr std::string_view chinchilla_word[] = {"chinchilla"};
constexpr std::string_view fsdp_word[] = {"fsdp"};
constexpr std::string_view recompute_or_auto[] = {"auto", "none", "selective", "full"};
constexpr auto compare_kind_names = names_of(compare_kinds);
constexpr std::string_view compute_methods[] = {"detailed", "6n", "given", "per_image"};

// ---- Scenario ----

constexpr Field architecture_fields[] = {
    bound<&Architecture::layers>(num("layers", "layers", layers_range, {}, "Transformer layers (the encoder's, in an encoder-decoder).")),
    bound<&Architecture::hidden>(num("hidden", "", dimension_range, {}, "Hidden size (model width).")),
    bound<&Architecture::heads>(num("heads", "", heads_range, {}, "Attention heads.")),
    bound<&Architecture::kv_heads>(num("kv_heads", "", heads_range, "heads", "Key/value heads (grouped-query or multi-query attention).")),
    bound<&Architecture::head_dim>(num("head_dim", "", dimension_range, "hidden / heads", "Width of each attention head.")),
    bound<&Architecture::ffn_hidden>(num("ffn_hidden", "", dimension_range, {}, "Inner width of the MLP.")),
    bound<&Architecture::vocab>(num("vocab", "tokens", dimension_range, {}, "Vocabulary size.")),
    bound<&Architecture::gated_mlp>(flag("gated_mlp", "false", "SwiGLU/GeGLU MLP: gate, up and down matrices.")),
    bound<&Architecture::tied_embeddings>(flag("tied_embeddings", "false", "The output projection shares the input embedding.")),
    bound<&Architecture::experts>(num("experts", "", experts_range, "1", "Experts per mixture-of-experts layer.")),
    bound<&Architecture::experts_per_token>(num("experts_per_token", "", experts_range, "1", "Routed experts each token passes through.")),
    bound<&Architecture::encoder_only>(flag("encoder_only", "false", "BERT-style: token-type embeddings and a pooler.")),
    bound<&Architecture::bias>(flag("bias", "false", "Biases on every linear layer (GPT-2, GPT-3, BERT).")),
    bound<&Architecture::norm, norm_kinds>(choice("norm", "rmsnorm", "Normalisation: LayerNorm has a bias vector, RMSNorm does not.")),
    bound<&Architecture::position_embeddings>(num("position_embeddings", "positions", positions_range, "0", "Learned absolute positions (0 for rotary/ALiBi).")),
    bound<&Architecture::qkv_bias>(flag("qkv_bias", "false", "Biases on Q, K and V only (Qwen2).")),
    bound<&Architecture::qk_norm>(flag("qk_norm", "false", "A norm over each head of Q and K (Qwen3, Gemma 3).")),
    bound<&Architecture::norms_per_layer>(num("norms_per_layer", "", norms_range, "2", "Norms per layer: 4 in Gemma 2/3, 1 with one shared norm.")),
    bound<&Architecture::embedding_norm>(flag("embedding_norm", "false", "A norm right after the embedding (BLOOM).")),
    bound<&Architecture::lm_head_bias>(flag("lm_head_bias", "false", "A bias on the output projection (Phi-2).")),
    bound<&Architecture::moe_ffn_hidden>(num("moe_ffn_hidden", "", dimension_range, "ffn_hidden", "Each expert's MLP width.")),
    bound<&Architecture::shared_experts>(num("shared_experts", "", count_or_zero_range, "0", "Experts every token passes through (DeepSeek).")),
    bound<&Architecture::dense_layers>(num("dense_layers", "layers", count_or_zero_range, "0", "Leading layers with a dense MLP in a mixture of experts.")),
    bound<&Architecture::expert_groups>(num("expert_groups", "", count_or_zero_range, "0",
        "Group-limited routing (DeepSeek's n_group): the experts form this many groups (0: no groups).")),
    bound<&Architecture::expert_groups_per_token>(num("expert_groups_per_token", "", count_or_zero_range, "0",
        "Group-limited routing (DeepSeek's topk_group): each token's experts come from at most this many groups.")),
    bound<&Architecture::q_lora_rank>(num("q_lora_rank", "", zero_or_dimension_range, "0",
        "Latent attention: the query's low-rank projection (0: none).")),
    bound<&Architecture::kv_lora_rank>(num("kv_lora_rank", "", zero_or_dimension_range, "0",
        "Latent attention: the key/value compression rank (0: none).")),
    bound<&Architecture::qk_nope_head_dim>(num("qk_nope_head_dim", "", zero_or_dimension_range, "0", "Latent attention: query/key head width without rotary.")),
    bound<&Architecture::qk_rope_head_dim>(num("qk_rope_head_dim", "", zero_or_dimension_range, "0", "Latent attention: query/key head width with rotary.")),
    bound<&Architecture::v_head_dim>(num("v_head_dim", "", zero_or_dimension_range, "0", "Latent attention: value head width.")),
    bound<&Architecture::decoder_layers>(num("decoder_layers", "layers", count_or_zero_range, "0", "Decoder layers of an encoder-decoder (T5).")),
    bound<&Architecture::dropout>(flag("dropout", "false", "Dropout in training: its masks are kept for the backward pass.")),
};

constexpr Field image_network_fields[] = {
    num("forward_macs_per_image", "multiply-adds", macs_per_image_range, {},
        "An image network's published forward multiply-adds per image."),
    num("image_resolution", "pixels", resolution_range, {},
        "The image side at which forward_macs_per_image was counted."),
};

}  // namespace

const Record architecture{"architecture", doc("A transformer's shape; the engine derives the parameter counts from it."),
                          architecture_fields};
namespace {
const Record image_network{"image_network", doc("An image network, by its published cost per image."), image_network_fields};
constexpr Include model_includes[] = {{&architecture}, {&image_network}};

constexpr Field model_fields[] = {
    text("preset", "A catalog model ID (e.g. \"llama-2-7b\"); fields beside it override the preset's architecture."),
    text("name", "A display name."),
    num("params", "parameters", params_range, {}, "Parameter count, when no architecture is given."),
    num("active_params", "parameters", params_range, "params",
        "Parameters each token passes through (a mixture of experts)."),
};

constexpr Field training_fields[] = {
    required(pick("type", training_type_names, {}, "Pre-training or fine-tuning.")),
    bound<&Training::method, finetune_methods>(choice("method", "full", "Fine-tuning method.")),
    bound<&Training::lora_rank>(num("lora_rank", "", lora_rank_range, "16", "LoRA rank.")),
    bound<&Training::lora_targets, lora_targets>(choice("lora_targets", "all_linear",
         "The matrices LoRA adapts: Q and V, every attention projection, or every linear layer.")),
    bound<&Training::lora_dropout>(num("lora_dropout", "", probability_range, "the framework's",
        "Dropout on the adapters' input (LitGPT 0.05; PEFT, torchtune and Unsloth 0): each adapted layer then "
        "keeps the dropped-out copy and its mask for the backward pass.")),
    bound<&Training::adapter_precision, adapter_precisions>(choice("adapter_precision", "the framework's",
         "How LoRA adapters are stored: in the compute precision, or fp32 (PEFT's default).")),
    bound<&Training::quantization, quantizations>(choice("quantization", "the framework's",
         "QLoRA's base weights: NF4, or NF4 with double-quantised constants.")),
    number_or("tokens", chinchilla_word, "tokens", tokens_range, {},
              "Tokens seen per epoch, or \"chinchilla\" (20 per parameter). One of tokens, dataset_gb, samples, "
              "steps, total_flops, images."),
    num("dataset_gb", "GB", dataset_gb_range, {}, "A text dataset's size, turned into tokens by bytes_per_token."),
    num("samples", "sequences", samples_range, {}, "Sequences of seq_len per epoch."),
    num("steps", "steps", steps_range, {}, "Optimizer steps, each of the global batch."),
    num("total_flops", "FLOPs", total_flops_range, {}, "All the run's work, stated directly (skips the FLOPs count)."),
    num("images", "images", images_range, {}, "Images per epoch (image networks)."),
    bound<&Training::resolution>(num("resolution", "pixels", resolution_range, "the network's", "Training image side.")),
    bound<&Training::bytes_per_token>(num("bytes_per_token", "bytes", bytes_per_token_range, "from text", "Bytes of text per token, for dataset_gb.")),
    bound<&Training::text, text_kinds>(choice("text", "english", "What dataset_gb is made of, for its bytes per token.")),
    bound<&Training::objective, objectives>(choice("objective", "language_model",
         "What the model predicts: tokens over the vocabulary, or a few classes.")),
    bound<&Training::epochs>(num("epochs", "epochs", epochs_range, "1", "Passes over the data.")),
    bound<&Training::seq_len>(num("seq_len", "tokens", seq_len_range, "the preset's, else 2048", "Sequence length.")),
    bound<&Training::global_batch_tokens>(num("global_batch_tokens", "tokens", batch_tokens_range, "a typical batch", "Tokens per optimizer step.")),
    bound<&Training::global_batch_sequences>(num("global_batch_sequences", "sequences", batch_sequences_range, "a typical batch",
        "Sequences per optimizer step.")),
};

constexpr Field gpu_fields[] = {
    text("id", "Catalog ID: lower-case letters, digits, '.', '_' and '-'."),
    required(text("name", "Display name.")),
    text("vendor", "Maker."),
    text("form_factor", "SXM, PCIe, OAM, ..."),
    required(
        num("memory_gb", "GiB", memory_gb_range, {},
            "Memory per GPU as the vendor states it; vendors' \"80 GB\" of HBM or GDDR is 80 GiB.")),
    num("usable_memory_gib", "GiB", memory_gb_range, "memory_gb",
        "What the CUDA driver gives a process (torch's total_memory): memory_gb less the driver's reserve."),
    text("memory_type", "HBM3, GDDR6X, ..."),
    num("memory_bandwidth_tbs", "TB/s", bandwidth_range, {}, "Memory bandwidth."),
    num("fp32_tflops", "TFLOPS", tflops_range, {}, "Dense FP32 peak."),
    num("tf32_tflops", "TFLOPS", tflops_range, {}, "Dense TF32 tensor peak (no 2:4 sparsity)."),
    num("bf16_tflops", "TFLOPS", tflops_range, {}, "Dense BF16 tensor peak (no 2:4 sparsity)."),
    num("fp16_tflops", "TFLOPS", tflops_range, {}, "Dense FP16 tensor peak (no 2:4 sparsity)."),
    num("fp8_tflops", "TFLOPS", tflops_range, {}, "Dense FP8 tensor peak (no 2:4 sparsity)."),
    num("fp4_tflops", "TFLOPS", tflops_range, {}, "Dense FP4 peak (informational)."),
    num("int8_tops", "TOPS", tflops_range, {}, "Dense INT8 peak (informational)."),
    num("tdp_w", "W", watts_range, {}, "Board power."),
    text("interconnect", "The intra-node link, in words."),
    num("gpus_per_node", "GPUs", gpus_per_node_range, "8", "GPUs in one server."),
    num("link_domain_gpus", "GPUs", gpus_per_node_range, "gpus_per_node",
        "GPUs that reach each other over the fast link (intra_node_gbs): a server's unless it spans servers, as "
        "a TPU pod's inter-chip interconnect does."),
    num("intra_node_gbs", "GB/s", bandwidth_range, {}, "Intra-node bandwidth per GPU, per direction."),
    num("inter_node_gbps", "Gbit/s", bandwidth_range, {}, "Inter-node bandwidth per GPU."),
    num("matmul_efficiency", "", efficiency_range, {},
        "Fraction of the dense peak the best-shaped matrix multiplication reaches, measured."),
    num("release_year", "", release_year_range, {}, "Year of release."),
    num("compute_capability", "", compute_capability_range, {},
        "NVIDIA CUDA compute capability (9.0 for Hopper); sizes the cuBLAS workspaces (absent: none counted) "
        "and tells whether fp8 weights need a transposed copy."),
    text("source", "Where the numbers come from (datasheet, paper, page)."),
    text("confidence", "How sure the numbers are."),
    text("notes", "Anything else worth knowing."),
};

}  // namespace

const Record gpu{"gpu", doc("An accelerator: peaks are dense, per GPU, in vendor TFLOPS."), gpu_fields};

namespace {

constexpr Field hardware_fields[] = {
    holds("gpu", Type::id_or_object, &gpu, "A catalog GPU ID (e.g. \"h100-sxm\") or an inline GPU spec."),
    bound<&HardwareChoice::count>(num("count", "GPUs", gpu_count_range, {}, "GPUs used; required unless budget.per_month or deadline_days decides.")),
    bound<&HardwareChoice::gpus_per_node>(num("gpus_per_node", "GPUs", gpus_per_node_range, "the GPU's, else 8", "GPUs in one server.")),
    bound<&HardwareChoice::intra_node_gbs>(num("intra_node_gbs", "GB/s", bandwidth_range, "the GPU's", "Intra-node bandwidth per GPU, per direction.")),
    bound<&HardwareChoice::inter_node_gbps>(num("inter_node_gbps", "Gbit/s", bandwidth_range, "the GPU's", "Inter-node bandwidth per GPU.")),
};

constexpr Field strategy_fields[] = {
    bound<&Strategy::precision, precisions>(choice("precision", "the GPU's: bf16 where it has it", "Numeric precision of the matmuls.")),
    bound<&Strategy::framework, frameworks>(choice("framework", "megatron to pre-train, hf to fine-tune",
         "The training framework: its defaults for the regime, kernels and adapters.")),
    bound<&Strategy::regime, regimes>(choice("regime", "the framework's",
         "How weights, gradients and optimizer states are held (bytes per parameter).")),
    bound<&Strategy::optimizer, optimizers>(choice("optimizer", "adamw", "Optimizer (decides the optimizer states' bytes).")),
    bound<&Strategy::optimizer_in_backward>(flag("optimizer_in_backward", "false", "Each parameter updated as its gradient arrives: gradients never all held.")),
    bound<&Strategy::mfu>(number_or("mfu", auto_word, "fraction", mfu_range, "auto",
              "Model-FLOPs utilisation in (0, 1], or \"auto\" to predict it.")),
    bound<&Strategy::tp>(number_or("tp", auto_word, "GPUs", layout_range, "auto", "Tensor-parallel degree.")),
    bound<&Strategy::pp>(number_or("pp", auto_word, "stages", layout_range, "auto", "Pipeline stages.")),
    bound<&Strategy::cp>(number_or("cp", auto_word, "GPUs", layout_range, "auto", "Context-parallel degree.")),
    bound<&Strategy::ep>(number_or("ep", auto_word, "GPUs", layout_range, "auto", "Expert-parallel degree.")),
    bound<&Strategy::dp>(number_or("dp", auto_word, "GPUs", data_parallel_range, "the rest", "Data-parallel degree.")),
    bound<&Strategy::micro_batch>(number_or("micro_batch", auto_word, "sequences", layout_range, "auto", "Sequences per micro-batch.")),
    number_or("zero", fsdp_word, "", zero_stage_range, "planned", "ZeRO stage 0-3 (\"fsdp\" = 3); absent, the planner chooses."),
    bound<&Strategy::pp_virtual_stages>(number_or("pp_virtual_stages", auto_word, "", virtual_stages_range, "auto",
              "Interleaved 1F1B chunks per stage (1: plain 1F1B).")),
    bound<&Strategy::pp_first_stage_layers>(number_or("pp_first_stage_layers", auto_word, "layers", layout_range, "auto",
              "Layers on the first pipeline stage (the stages between split the rest evenly); auto: even, or one "
              "lighter where the layers do not divide the stages.")),
    bound<&Strategy::pp_last_stage_layers>(number_or("pp_last_stage_layers", auto_word, "layers", layout_range, "auto",
              "Layers on the last pipeline stage, which also runs the output head and the loss.")),
    pick("recompute", recompute_or_auto, "auto", "Activation recomputation."),
    bound<&Strategy::attention, attention_kernels>(choice("attention", "the framework's on this GPU",
         "Attention kernel: flash, flash3 and memory_efficient keep no scores (flash needs Ampere or newer; flash3, "
         "FlashAttention-3 or cuDNN's fused attention, is faster on Hopper and Megatron's default from Hopper on).")),
    bound<&Strategy::flash_attention>(flag("flash_attention", "from attention", "Version 1: false means eager attention (see attention).")),
    bound<&Strategy::fused_softmax>(flag("fused_softmax", "false", "Version 1: with flash_attention false, Megatron's fused softmax (16-bit scores).")),
    bound<&Strategy::activation_offload>(flag("activation_offload", "false", "Activations kept for the backward pass wait in CPU memory.")),
    bound<&Strategy::compile>(flag("compile", "false",
         "torch.compile: norms and activation functions fuse into kernels that keep only their 16-bit inputs.")),
    bound<&Strategy::no_sync_accumulation>(flag("no_sync_accumulation", "the framework's: true for litgpt",
         "Gradient accumulation under FSDP's no_sync: each GPU holds the whole unsharded gradients until the last "
         "micro-batch.")),
    bound<&Strategy::sequence_parallel>(flag("sequence_parallel", "true when tp > 1", "Megatron sequence parallelism.")),
    bound<&Strategy::offload, offloads>(choice("offload", "none", "CPU offload (ZeRO-Offload, ZeRO-Infinity).")),
    bound<&Strategy::cross_entropy, cross_entropies>(choice("cross_entropy", "the framework's",
         "The loss kernel: eager (fp32 copies), fused (in place: Transformer Engine's), chunked, fused_linear "
         "(no whole logits), compiled (torch.compile: 16-bit logits and gradient), or megatron_native "
         "(Megatron-LM's --cross-entropy-loss-fusion with its default native implementation).")),
    bound<&Strategy::fused_cross_entropy>(flag("fused_cross_entropy", "from cross_entropy", "Version 1: true means cross_entropy \"fused\".")),
    bound<&Strategy::overlap_grad_reduce>(flag("overlap_grad_reduce", "true", "Gradient reduction overlapped with the backward pass.")),
    bound<&Strategy::grad_reduce_precision, reduce_precisions>(choice("grad_reduce_precision",
         "the regime's: fp32 for megatron_mixed (bf16, fp8), fsdp_mixed and amp; else 16 bits",
         "The precision gradients are reduced in across data-parallel ranks (fp32 moves twice the bytes).")),
    bound<&Strategy::overlap_tp_comm>(flag("overlap_tp_comm", "false", "Tensor-parallel collectives overlapped with the matmuls.")),
    bound<&Strategy::overlap_p2p_comm>(flag("overlap_p2p_comm", "false",
         "Interleaved pipeline stages (pp_virtual_stages > 1) send and receive while the next chunk computes, "
         "without synchronising the host after each exchange (Megatron-Core's overlap_p2p_comm, which "
         "Megatron-LM and NeMo turn on with interleaving).")),
    bound<&Strategy::pp_schedule, pipeline_schedules>(choice("pp_schedule", "1f1b",
         "The pipeline schedule: 1f1b (interleaved with pp_virtual_stages > 1); zero_bubble (ZB-H1: weight-gradient "
         "passes fill the bubble, DeepSeek-V2); dualpipe (DeepSeek-V3: two stages a rank, a smaller bubble, twice the "
         "parameters).")),
    bound<&Strategy::ep_dispatch, expert_dispatches>(choice("ep_dispatch", "all_to_all",
         "How expert parallelism sends tokens: all_to_all, a copy per routed expert (Megatron-Core's alltoall "
         "dispatcher); per_node, once over the network to each node holding its experts, then over NVLink "
         "(DeepSeek-V3, DeepEP).")),
    bound<&Strategy::overlap_ep_comm>(flag("overlap_ep_comm", "false",
         "The expert all-to-alls overlapped with another micro-batch's compute (DeepSeek's DualPipe, Megatron-Core's "
         "--overlap-moe-expert-parallel-comm).")),
};

// The currency codes the reference rates know: the examples of every currency field.
constexpr auto currency_codes = [] {
  std::array<std::string_view, reference_rates.size()> out{};
  for (std::size_t i = 0; i < reference_rates.size(); ++i) out[i] = reference_rates[i].code;
  return out;
}();
constexpr Field currency_text(std::string_view name, std::string_view description) {
  return {name, Type::text, {}, {}, {}, doc(description), currency_codes};
}

constexpr Field pricing_fields[] = {
    text("offer",
         "A catalog cloud offer ID: its GPU, instance size and network, and its price and currency unless "
         "per_gpu_hour or per_gpu_month gives the user's own price for its instances."),
    num("per_gpu_hour", "money", money_range, {}, "Price per GPU-hour."),
    num("per_gpu_month", "money", money_range, {}, "Price per GPU-month."),
    currency_text("currency", "ISO code of the price (converted into the report's currency where they differ)."),
    num("hours_per_month", "hours", hours_per_month_range, "730", "Hours in a billing month."),
};

constexpr Field budget_fields[] = {
    bound<&Budget::per_month>(num("per_month", "money", money_range, {}, "Monthly budget: how many GPUs it rents.")),
    bound<&Budget::total>(num("total", "money", money_range, {}, "Total budget, checked against the cost.")),
    bound<&Budget::deadline_days>(num("deadline_days", "days", deadline_days_range, {}, "Deadline: how many GPUs it takes.")),
    bound<&Budget::months>(num("months", "months", months_range, {}, "With per_month: for how long.")),
    currency_text("currency", "ISO code of the budget (the price's when absent); never reinterpreted."),
};

// Units of a currency for one US dollar: one field per currency the reference rates know.
constexpr NumberRule exchange_rate_range{1e-6, false, 1e9, false};
constexpr auto exchange_rate_fields = [] {
  std::array<Field, reference_rates.size() - 1> out{};
  std::size_t i = 0;
  for (const CurrencyRate& c : reference_rates)
    if (c.code != "USD")
      out[i++] = num(c.code, "per US dollar", exchange_rate_range, "the reference rate",
                     "Units of this currency for one US dollar, replacing the reference rate.");
  return out;
}();

constexpr Field energy_fields[] = {
    bound<&Energy::pue>(num("pue", "", pue_range, "1.3", "The facility's power usage effectiveness.")),
    bound<&Energy::grid_kg_co2_per_kwh>(num("grid_kg_co2_per_kwh", "kg CO2/kWh", grid_range, "the region's", "The grid's carbon intensity.")),
    pick("region", grid_names, "world", "A built-in grid (or give grid_kg_co2_per_kwh for another)."),
    bound<&Energy::gpu_power_fraction>(num("gpu_power_fraction", "fraction of TDP", power_fraction_range, "from utilisation", "Average GPU draw.")),
    bound<&Energy::host_power_fraction>(num("host_power_fraction", "fraction of GPU power", host_fraction_range, "0.4",
        "CPUs, memory and network, per GPU watt.")),
};

constexpr Field memory_options_fields[] = {
    bound<&MemoryOptions::cuda_context_gb>(num("cuda_context_gb", "GB", allowance_gb_range, "documented in memory.cpp", "CUDA context per GPU.")),
    bound<&MemoryOptions::communication_gb>(num("communication_gb", "GB", allowance_gb_range, "documented in memory.cpp",
        "NCCL buffers per communicator in use.")),
    bound<&MemoryOptions::fragmentation>(num("fragmentation", "fraction", fraction_range, "documented in memory.cpp",
        "The caching allocator's reserve, as a fraction of the dynamic allocations.")),
    bound<&MemoryOptions::expandable_segments>(flag("expandable_segments", "true for framework fsdp2 (torchtitan's launcher sets it), else false",
         "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the allocator maps pages into one growing segment, "
         "leaving no reserve beyond what is allocated.")),
    bound<&MemoryOptions::previous_micro_batch_held>(flag("previous_micro_batch_held", "true for framework litgpt, else false",
         "The training loop still holds the previous micro-batch's logits (and its autograd graph) while the next "
         "forward pass runs, as LitGPT's does; false for a loop that drops its outputs first (Hugging Face's "
         "Trainer, torchtune, torchtitan).")),
    bound<&MemoryOptions::nf4_keeps_input>(flag("nf4_keeps_input", "false for frameworks megatron and torchtune, else true",
         "QLoRA: each 4-bit layer keeps its 16-bit input for the backward pass, as bitsandbytes did before 0.43.2 "
         "(July 2024); false for later versions.")),
};

constexpr Field operations_fields[] = {
    bound<&Operations::recovery, recoveries>(choice("recovery", "automated",
         "How an interruption is recovered from: \"automated\" (the scheduler relaunches from the last checkpoint), "
         "\"manual\" (a person does, checkpoints written synchronously) or \"in_memory\" (snapshots to host memory, "
         "persisted in the background, hot spares); sets the defaults below.")),
    bound<&Operations::interruptions_per_1000_gpu_days>(num("interruptions_per_1000_gpu_days", "per 1000 GPU-days", interruption_rate_range, "0.47 (Llama 3's)",
        "Unexpected job interruptions per 1,000 GPU-days; the job's rate grows with its GPUs.")),
    bound<&Operations::restart_minutes>(num("restart_minutes", "minutes", restart_minutes_range, "the recovery's",
        "From an interruption to training again, lost work apart.")),
    bound<&Operations::checkpoint_interval_hours>(num("checkpoint_interval_hours", "hours", interval_hours_range, "Daly's optimum",
        "Training time between checkpoints.")),
    bound<&Operations::checkpoint_write_gb_per_s>(num("checkpoint_write_gb_per_s", "GB/s per GPU", bandwidth_range, "the recovery's",
        "How fast each GPU's share of a checkpoint is written while training waits (to host memory when "
        "asynchronous).")),
    bound<&Operations::storage_write_gb_per_s>(num("storage_write_gb_per_s", "GB/s", bandwidth_range, "1 GB/s a node, at most 2,000 (Llama 3's storage)",
        "The cluster storage's aggregate write speed, shared by every node: a checkpoint persists at it.")),
    bound<&Operations::async_checkpoint>(flag("async_checkpoint", "true for Megatron and FSDP2 (torchtitan) unless recovery is \"manual\"; "
         "never with \"in_memory\", whose snapshots do not wait on storage",
         "Whether training waits only for the copy to host memory while the checkpoint persists in the "
         "background (Megatron's async_save, PyTorch DCP's async_save); the next one starts once it is on storage.")),
    bound<&Operations::overhead_fraction>(num("overhead_fraction", "fraction", overhead_fraction_range, "0",
        "Wall-clock time spent on evaluation, data stalls and scheduling.")),
    bound<&Operations::run_efficiency>(num("run_efficiency", "fraction", run_efficiency_range, "fitted on whole runs (predicted utilisation only)",
        "A real run's steady speed as a fraction of the step model's tuned prediction.")),
};

// What a measured run measured, each key a report key (calibration.cpp says what each pins down).
constexpr Field measured_fields[] = {
    num("time.step_seconds", "s", measured_seconds_range, {}, "One optimizer step, wall-clock (Megatron's elapsed time per iteration)."),
    num("time.tokens_per_second", "tokens/s", measured_rate_range, {},
        "Tokens a second over the whole job (every GPU), in the steady state."),
    num("time.tokens_per_second_per_gpu", "tokens/s", measured_rate_range, {},
        "Tokens a second per GPU, in the steady state (torchtitan's tps)."),
    num("time.samples_per_second", "sequences/s", measured_rate_range, {},
        "Sequences (samples of the global batch) a second over the whole job (DeepSpeed's RunningAvgSamplesPerSec)."),
    num("time.mfu", "fraction", measured_fraction_range, {},
        "Model FLOPs utilisation as this calculator counts it (report.time.mfu: the model's FLOPs, recomputation "
        "not counted, of the dense peak)."),
    num("time.tflops_per_gpu", "TFLOP/s", measured_tflops_range, {},
        "The model's FLOPs a second per GPU as report.time.mfu counts them (Megatron's and torchtitan's "
        "\"TFLOP/s/GPU\" and \"tflops\" count the same work; recomputation not counted)."),
    num("memory.allocated_bytes", "bytes", measured_bytes_range, {}, "Peak allocated (torch.cuda.max_memory_allocated)."),
    num("memory.reserved_bytes", "bytes", measured_bytes_range, {}, "Peak reserved (torch.cuda.max_memory_reserved)."),
    num("memory.device_bytes", "bytes", measured_bytes_range, {},
        "Peak in use on the device as nvidia-smi shows it (the CUDA context included)."),
};
constexpr Field measured_run_fields[] = {
    holds("scenario", Type::object, nullptr,
          "The run as measured, as changes to this scenario (a JSON merge patch, RFC 7396: a key set to null is "
          "removed); absent: this scenario. It cannot hold a calibration of its own."),
    required(holds("measured", Type::object, &measured, "What was measured, by report key.")),
};

}  // namespace

const Record measured{"measured", doc("What a measured run measured, by report key."), measured_fields};
const Record measured_run{"calibration", doc("A run the user measured, which the estimate is calibrated to."),
                          measured_run_fields};

const Record model{"model", doc("The model: a preset, a parameter count, or an architecture."), model_fields,
                   model_includes};
const Record training{"training", doc("What the run does and how much data it sees."), training_fields};
const Record hardware{"hardware", doc("The GPU and how many."), hardware_fields};
const Record strategy{"strategy", doc("How the work is run; defaults are what a practitioner would pick."), strategy_fields};
const Record pricing{"pricing", doc("The price of a GPU: per hour, per month, or a catalog offer."), pricing_fields};
const Record budget{"budget", doc("A monthly or total budget, or a deadline."), budget_fields};
const Record energy{"energy", doc("Energy and carbon assumptions."), energy_fields};
const Record exchange_rates{"exchange_rates",
                            doc("Exchange rates replacing the reference ones: units of each currency for one US dollar."),
                            exchange_rate_fields};
const Record memory_options{"memory", doc("Overrides of the memory model's runtime allowances."), memory_options_fields};
const Record operations{"operations", doc("How a long run is operated: failures, checkpoints, restarts (the expected run)."),
                        operations_fields};

namespace {
constexpr Field scenario_fields[] = {
    num("version", "", version_range, "1", "Contract version."),
    text("label", "A name for this scenario."),
    holds("catalog", Type::object, &catalog, "An inline catalog merged over the built-in one."),
    required(holds("model", Type::object, &model, "The model to train.")),
    required(holds("training", Type::object, &training, "What the run does and how much data it sees.")),
    holds("hardware", Type::object, &hardware, "The GPU and how many (the offer's GPU with pricing.offer)."),
    holds("strategy", Type::object, &strategy, "Precision, optimizer, utilisation and parallel layout."),
    holds("pricing", Type::object, &pricing, "The price."),
    holds("budget", Type::object, &budget, "A budget or deadline."),
    holds("energy", Type::object, &energy, "Energy and carbon assumptions."),
    holds("memory", Type::object, &memory_options, "Memory allowances."),
    holds("operations", Type::object, &operations, "Failures, checkpoints and restarts: the expected run."),
    currency_text("currency",
         "The currency the report's money is in (one the calculator converts, e.g. \"USD\" or \"CNY\"): the budget's "
         "when absent, else the price's. A price or budget in another currency is converted."),
    holds("exchange_rates", Type::object, &exchange_rates,
          "Exchange rates replacing the reference ones (units of a currency for one US dollar)."),
    holds("calibration", Type::list, &measured_run,
          "Runs you measured (at most 16): the speed and memory constants they pin down are fitted on them, and "
          "the estimate uses those."),
};

// ---- Catalog ----

constexpr Field offer_fields[] = {
    text("id", "Catalog ID: lower-case letters, digits, '.', '_' and '-'."),
    text("name", "Display name."),
    text("provider", "The cloud."),
    required(holds("gpu", Type::id_or_object, &gpu, "The GPU rented: a catalog ID or an inline spec.")),
    num("per_gpu_hour", "money", money_range, {}, "Price per GPU-hour (or per_gpu_month)."),
    num("per_gpu_month", "money", money_range, {}, "Price per GPU-month (or per_gpu_hour)."),
    num("hours_per_month", "hours", hours_per_month_range, "730", "Hours in a billing month."),
    required(text("currency", "ISO code of the price.")),
    text("date", "When the price was read (YYYY-MM-DD)."),
    text("pricing_type", "on-demand, spot, reserved, ..."),
    text("region", "Where."),
    text("confidence", "How sure the price is."),
    text("notes", "Anything else worth knowing."),
    text("source", "Where the price comes from."),
    num("instance_gpus", "GPUs", gpus_per_node_range, {},
        "The most GPUs one instance holds, joined by the GPU's own link (becomes hardware.gpus_per_node)."),
    pick("cluster", offer_cluster_names, {},
         "Whether instances join into one job: over an RDMA training fabric (InfiniBand, EFA, RoCE), over "
         "ordinary Ethernet only, or not at all (one instance at most). Absent: not said, no limit applied."),
    num("inter_node_gbps", "Gbit/s", bandwidth_range, "the GPU's",
        "The network between instances, per GPU (becomes hardware.inter_node_gbps)."),
    num("max_gpus", "GPUs", gpus_per_node_range, {}, "The provider's own cap on the GPUs of one cluster."),
    text("network_source", "Where the instance size and network come from, and how sure they are."),
};

constexpr Field model_preset_fields[] = {
    text("id", "Catalog ID: lower-case letters, digits, '.', '_' and '-'."),
    text("name", "Display name."),
    num("params", "parameters", params_range, {}, "Parameter count, when no architecture is given."),
    num("active_params", "parameters", params_range, "params", "Parameters each token passes through."),
    num("published_params", "parameters", params_range, {}, "The count the authors publish."),
    num("published_active_params", "parameters", params_range, {}, "The active count the authors publish."),
    num("computed_params", "parameters", amount, {}, "Written by `traincalc catalog`; read back, never trusted."),
    num("computed_active_params", "parameters", amount, {},
        "Written by `traincalc catalog`; read back, never trusted."),
    num("seq_len", "tokens", seq_len_range, {}, "The context the model was trained with."),
    text("notes", "Anything else worth knowing."),
    text("confidence", "How sure the numbers are."),
    text("source", "Where the architecture comes from (paper, config at a commit)."),
};

constexpr std::string_view row_needs[] = {"id", "source"};

}  // namespace

const Record offer{"offer", doc("A cloud offer: a GPU and its price."), offer_fields, {}};
const Record model_preset{"model_preset", doc("A model preset: an architecture (or a parameter count) with its source."),
                          model_preset_fields, model_includes};

namespace {
// A catalog row needs an ID and a source besides its record's own required fields.
constexpr Field rows(std::string_view name, const Record* record, std::string_view description) {
  Field field = holds(name, Type::list, record, description);
  field.row_requires = row_needs;
  return field;
}

constexpr Field catalog_fields[] = {
    text("description", "What this catalog is."),
    text("source", "Where its rows come from."),
    rows("gpus", &gpu, "GPUs: a row with a known ID replaces it, a new ID is added."),
    rows("offers", &offer, "Cloud offers."),
    rows("models", &model_preset, "Model presets."),
};
}  // namespace

const Record catalog{"catalog", doc("GPUs, cloud offers and model presets, merged over the built-in catalog."),
                     catalog_fields};
const Record scenario{"scenario", doc("One training run to estimate."), scenario_fields};

namespace {
constexpr Field numbers(std::string_view name, std::string_view unit, NumberRule rule, std::string_view description) {
  Field field = num(name, unit, rule, {}, description);
  field.type = Type::number_list;
  return field;
}
constexpr Field compare_request_fields[] = {
    pick("kind", compare_kind_names, "offers",
         "Compare on each cloud offer, on each GPU, or at each GPU count (the scaling curve)."),
    holds("ids", Type::text_list, nullptr, "Only these catalog IDs."),
    num("gpus_when_unset", "GPUs", compare_gpus_range, "8", "GPUs where a budget or deadline chose the count."),
    numbers("counts", "GPUs", gpu_count_range,
            "With kind counts (required): the GPU counts, at most 64, each a row in this order."),
};
}  // namespace
const Record compare_request{"compare", doc("Which rows a comparison computes."), compare_request_fields};

// ---- Report ----

namespace {

constexpr auto issue_code_names = [] {
  std::array<std::string_view, std::size(issue_codes)> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = issue_codes[i].code;
  return out;
}();

constexpr Field issue_fields[] = {
    required(text("field", "Dotted scenario path, e.g. \"training.tokens\"; empty for the whole input.")),
    required(pick("code", issue_code_names, {},
                  "Stable machine code, e.g. \"not_positive\" (pages translate by it; traincalc schema issues "
                  "says what each means).")),
    required(text("message", "English message that says what to change.")),
    holds("params", Type::text_map, nullptr,
          "What another language needs: got, min, max, allowed, suggestion, expected; reason names the check that failed (tp_heads, stage_layers, monthly_budget, ...: traincalc schema issues lists them), with the values its message gives."),
};

constexpr Field report_model_fields[] = {
    written<&ModelReport::name>(required(text("name", "Display name."))),
    written<&ModelReport::preset>(text("preset", "Catalog preset ID.")),
    written<&ModelReport::params>(required(out("params", "parameters", "Total parameters."))),
    written<&ModelReport::active_params>(required(out("active_params", "parameters", "Parameters each token passes through."))),
    written<&ModelReport::architecture_known>(required(flag("architecture_known", {}, "Whether the architecture (and so activations) is known."))),
    written<&ModelReport::forward_macs_per_image>(out("forward_macs_per_image", "multiply-adds", "An image network's forward multiply-adds per image.")),
    out("image_resolution", "pixels", "The side at which they were counted."),
    out("embedding_params", "parameters", "Token, position and token-type embeddings."),
    out("output_head_params", "parameters", "The untied output projection."),
};

constexpr Field compute_fields[] = {
    written<&ComputeReport::tokens>(required(out("tokens", "tokens", "Tokens trained on (images, for image networks), all epochs."))),
    written<&ComputeReport::flops_per_token>(required(out("flops_per_token", "FLOPs", "Training FLOPs per token, forward and backward."))),
    written<&ComputeReport::total_flops>(required(out("total_flops", "FLOPs", "Model FLOPs of the run (no recomputation)."))),
    written<&ComputeReport::method>(required(pick("method", compute_methods, {}, "How FLOPs were counted."))),
    written<&ComputeReport::flops_per_token_6n>(required(out("flops_per_token_6n", "FLOPs", "6 x active parameters (4 x when the base is frozen)."))),
    written<&ComputeReport::total_flops_6n>(required(out("total_flops_6n", "FLOPs", "The run by 6·N·T."))),
    written<&ComputeReport::flops_per_param_per_token>(required(out("flops_per_param_per_token", "FLOPs", "6 for full training, 4 with frozen base weights."))),
    written<&ComputeReport::trainable_params>(required(out("trainable_params", "parameters", "Parameters with gradients."))),
    written<&ComputeReport::seq_len>(required(out("seq_len", "tokens", "Sequence length used."))),
    written<&ComputeReport::epochs>(required(out("epochs", "epochs", "Passes over the data."))),
    written<&ComputeReport::flops_per_token_detailed>(out("flops_per_token_detailed", "FLOPs", "Per token, counted matmul by matmul (with attention).")),
    written<&ComputeReport::total_flops_detailed>(out("total_flops_detailed", "FLOPs", "The run, counted matmul by matmul.")),
    written<&ComputeReport::bytes_per_token>(out("bytes_per_token", "bytes", "Bytes of text per token used for dataset_gb.")),
    text("bytes_per_token_from", "\"given\" or the text kind."),
    text("bytes_per_token_source", "Where the bytes per token come from."),
    written<&ComputeReport::images_per_epoch>(out("images_per_epoch", "images", "Images per epoch.")),
    out("images", "images", "Images in all epochs."),
    out("flops_per_image", "FLOPs", "Training FLOPs per image."),
    written<&ComputeReport::image_resolution>(out("image_resolution", "pixels", "Training image side.")),
};

constexpr Field report_hardware_fields[] = {
    written<&HardwareReport::gpu_id>(text("gpu", "Catalog GPU ID.")),
    written<&HardwareReport::gpu_name>(required(text("gpu_name", "Display name."))),
    written<&HardwareReport::precision, precisions>(required(choice("precision", {}, "Precision used."))),
    written<&HardwareReport::peak_tflops>(required(out("peak_tflops", "TFLOPS", "Dense peak per GPU at that precision."))),
    written<&HardwareReport::memory_gb>(required(out("memory_gb", "GiB", "Memory per GPU, as the vendor states it."))),
    written<&HardwareReport::usable_memory_gib>(required(out("usable_memory_gib", "GiB", "What the driver gives a process."))),
    written<&HardwareReport::gpus_per_node>(required(out("gpus_per_node", "GPUs", "GPUs in one server."))),
};

constexpr Field breakdown_fields[] = {
    written<&StepBreakdown::matmul>(required(out("matmul", "s", "Linear layers and the logits, forward and backward."))),
    written<&StepBreakdown::attention>(required(out("attention", "s", "Attention scores and their product with V."))),
    written<&StepBreakdown::elementwise>(required(out("elementwise", "s", "Norms, activations, residual adds, dropout, the loss."))),
    written<&StepBreakdown::recompute>(required(out("recompute", "s", "Activation recomputation."))),
    written<&StepBreakdown::tensor_parallel>(required(out("tensor_parallel", "s", "Tensor-parallel communication not hidden."))),
    written<&StepBreakdown::context_parallel>(required(out("context_parallel", "s", "Context-parallel communication not hidden."))),
    written<&StepBreakdown::expert_parallel>(required(out("expert_parallel", "s", "Expert-parallel all-to-all not hidden."))),
    written<&StepBreakdown::pipeline_p2p>(required(out("pipeline_p2p", "s", "Pipeline sends and receives not hidden."))),
    written<&StepBreakdown::data_parallel>(required(out("data_parallel", "s", "Gradient reduction and ZeRO/FSDP gathers not hidden."))),
    written<&StepBreakdown::bubble>(required(out("bubble", "s", "Pipeline fill and drain."))),
    written<&StepBreakdown::optimizer>(required(out("optimizer", "s", "The optimizer step (and CPU offload traffic)."))),
    written<&StepBreakdown::kernel_launch>(required(out("kernel_launch", "s",
                 "The GPU waiting for the host to launch kernels smaller than their launch cost."))),
    written<&StepBreakdown::micro_batch_host>(required(out("micro_batch_host", "s",
                 "The GPU waiting for the host between micro-batches: loading the batch and its synchronisation, "
                 "the loss."))),
};
const Record breakdown{"report.time.breakdown_seconds", doc("Where one step's time goes, on the slowest stage."),
                       breakdown_fields};

// A likely range: the prediction times the 80% range of its kind (report.time.range), in
// the unit of the figure it belongs to.
constexpr std::array<Field, 2> range_span(std::string_view unit) {
  return {required(out("low", unit, "The low end of the 80% range.")), required(out("high", unit, "The high end of the 80% range."))};
}
constexpr auto mfu_range_fields = range_span("fraction");
const Record mfu_likely{"report.time.mfu_range", doc("Predicted utilisation: the likely range (80%)."),
                        mfu_range_fields};
constexpr auto step_range_fields = range_span("s");
const Record step_range{"report.time.step_seconds_range", doc("One step: the likely range (80%)."),
                        step_range_fields};
constexpr auto gpu_hours_range_fields = range_span("GPU-hours");
const Record gpu_hours_range{"report.time.gpu_hours_range", doc("GPU-hours: the likely range (80%)."),
                             gpu_hours_range_fields};
constexpr auto days_range_fields = range_span("days");
const Record days_range{"report.time.wall_clock_days_range", doc("Wall-clock days: the likely range (80%)."),
                        days_range_fields};

constexpr Field lost_fields[] = {
    written<&ExpectedRun::lost_slower_steps>(required(out("slower_steps", "hours", "A real run's steady speed below the predicted one (run_efficiency)."))),
    written<&ExpectedRun::lost_checkpoints>(required(out("checkpoints", "hours", "Training waiting for checkpoints to be written."))),
    written<&ExpectedRun::lost_rework>(required(out("rework", "hours", "Work since the last checkpoint, lost at each interruption and done again."))),
    written<&ExpectedRun::lost_restarts>(required(out("restarts", "hours", "From each interruption to training again."))),
    written<&ExpectedRun::lost_overheads>(required(out("overheads", "hours", "Evaluation, data stalls, scheduling (overhead_fraction)."))),
};
constexpr Field expected_range_fields[] = {
    written<&LikelyRange::basis>(required(text("basis", "Where the range comes from: \"whole_runs\" (published whole pre-training runs, each "
                           "held out: traincalc validate --runs) for predicted pre-training, else the step's own kinds "
                           "(report.time.range)."))),
    written<&LikelyRange::low>(required(out("low", "ratio", "Low end of published / expected for a new run, from held-out rows of that kind (80% of such runs lie between low and high)."))),
    written<&LikelyRange::high>(required(out("high", "ratio", "High end of published / expected for a new run, from held-out rows of that kind."))),
    written<&LikelyRange::rows>(required(out("rows", "rows", "Held-out rows of that kind."))),
    written<&LikelyRange::sources>(required(out("sources", "sources", "Sources they come from (each whole run its own)."))),
    written_when<&LikelyRange::lineages, &counts_lineages>(out("lineages", "groups", "The groups held out whole: publishers for whole runs, software lineages for steps.")),
    written_when<&LikelyRange::assumed_low, &assumption_moves>(out("assumed_low", "ratio", "With the step's own range: what the assumed framework moves, already in low.")),
    written_when<&LikelyRange::assumed_high, &assumption_moves>(out("assumed_high", "ratio", "With the step's own range: what the assumed framework moves, already in high.")),
    written_when<&LikelyRange::outside_low, &envelope_moves>(out("outside_low", "ratio", "With the step's own range: what being outside the validated envelope moves, already in low.")),
    written_when<&LikelyRange::outside_high, &envelope_moves>(out("outside_high", "ratio", "With the step's own range: what being outside the validated envelope moves, already in high.")),
};
const Record expected_likely{"report.time.expected.range",
                             doc("How far the expected run is likely to be off: the 80% range of its kind, from held-out rows."),
                             expected_range_fields};
constexpr RecordOf<LikelyRange> expected_likely_of = typed<LikelyRange, expected_range_fields>(expected_likely);
const Record expected_hours_range{"report.time.expected.gpu_hours_range",
                                  doc("The expected run's GPU-hours: the likely range (80%)."),
                                  gpu_hours_range_fields};
const Record expected_days_range{"report.time.expected.wall_clock_days_range",
                                 doc("The expected run's wall-clock days: the likely range (80%)."),
                                 days_range_fields};
const Record lost_hours{"report.time.expected.lost_hours", doc("Wall-clock hours lost beyond the steady state, by cause."),
                        lost_fields};
static_assert(binds_only<ExpectedRun>(lost_fields), "lost_hours is flattened from the expected run");
constexpr Field expected_fields[] = {
    written<&ExpectedRun::recovery, recoveries>(required(choice("recovery", {}, "How interruptions are recovered from."))),
    written<&ExpectedRun::goodput>(required(out("goodput", "fraction", "Steady-state wall-clock / expected wall-clock."))),
    written<&ExpectedRun::run_efficiency>(required(out("run_efficiency", "fraction", "A real run's steady speed / the step model's (1 with a given one)."))),
    written<&ExpectedRun::interruption_goodput>(required(out("interruption_goodput", "fraction",
                 "Of the interrupted run's wall-clock, the share spent on steps that count (Daly 2006)."))),
    written<&ExpectedRun::wall_clock_hours>(required(out("wall_clock_hours", "hours", "The expected run's wall-clock time."))),
    written<&ExpectedRun::wall_clock_days>(required(out("wall_clock_days", "days", "The expected run's wall-clock time."))),
    written<&ExpectedRun::gpu_hours>(required(out("gpu_hours", "GPU-hours", "GPUs x the expected wall-clock hours."))),
    written<&ExpectedRun::interruptions>(required(out("interruptions", "interruptions", "Expected unexpected interruptions over the run."))),
    written<&ExpectedRun::interruptions_per_1000_gpu_days>(required(out("interruptions_per_1000_gpu_days", "per 1000 GPU-days", "The interruption rate used."))),
    written<&ExpectedRun::mean_hours_between_interruptions>(out("mean_hours_between_interruptions", "hours", "Of the whole job: 24,000 / (rate x GPUs); absent at rate 0.")),
    written<&ExpectedRun::checkpoint_bytes>(required(out("checkpoint_bytes", "bytes", "Weights and optimizer state of the whole model."))),
    written<&ExpectedRun::checkpoint_seconds>(required(out("checkpoint_seconds", "s", "Training waits this long per checkpoint."))),
    written<&ExpectedRun::checkpoint_write_gb_per_s>(required(out("checkpoint_write_gb_per_s", "GB/s per GPU", "The write speed used."))),
    written<&ExpectedRun::storage_write_gb_per_s>(required(out("storage_write_gb_per_s", "GB/s", "The cluster storage's aggregate write speed used."))),
    written<&ExpectedRun::checkpoint_async>(required(flag("checkpoint_async", "", "Whether training waits only for the copy to host memory."))),
    written<&ExpectedRun::checkpoint_persist_seconds>(required(out("checkpoint_persist_seconds", "s",
                 "Until a checkpoint is on storage: with asynchronous saving, the shortest interval."))),
    written<&ExpectedRun::checkpoint_interval_hours>(required(out("checkpoint_interval_hours", "hours", "Training time between checkpoints."))),
    written<&ExpectedRun::checkpoint_interval_given>(required(flag("checkpoint_interval_given", {}, "Whether the interval was given (else Daly's optimum)."))),
    written<&ExpectedRun::checkpoints>(required(out("checkpoints", "checkpoints", "Checkpoints written over the run."))),
    written<&ExpectedRun::restart_minutes>(required(out("restart_minutes", "minutes", "From an interruption to training again."))),
    written<&ExpectedRun::overhead_fraction>(required(out("overhead_fraction", "fraction", "Evaluation, data stalls, scheduling."))),
    flattened(required(holds("lost_hours", Type::object, &lost_hours, "Wall-clock hours lost, by cause."))),
    written<&ExpectedRun::headline>(required(flag("headline", {},
                  "Whether the expected run is the estimate's headline: with a predicted utilisation (the deadline "
                  "planner then plans on it); else the steady state is, and this is shown beside it."))),
    written<&ExpectedRun::range, expected_likely_of>(holds("range", Type::object, "Where a likely range is known: its basis and multipliers.")),
    holds("gpu_hours_range", Type::object, &expected_hours_range, "With a range: the expected GPU-hours' likely range."),
    holds("wall_clock_days_range", Type::object, &expected_days_range, "With a range: the expected days' likely range."),
};
const Record expected_run{"report.time.expected",
                          doc("The run as it is likely to go: a real run's speed, interruptions, checkpoints, restarts "
                          "and overheads (operations)."),
                          expected_fields};

constexpr Field time_fields[] = {
    written<&TimeReport::mfu>(required(out("mfu", "fraction", "Model-FLOPs utilisation of the dense peak."))),
    written<&TimeReport::mfu_source, mfu_sources>(required(choice("mfu_source", {}, "Whether the utilisation was given, assumed or predicted."))),
    written<&TimeReport::cluster_flops_per_second>(required(out("cluster_flops_per_second", "FLOP/s", "Achieved model FLOP/s of the whole cluster."))),
    written<&TimeReport::tokens_per_second>(required(out("tokens_per_second", "tokens/s", "Throughput of the whole cluster."))),
    written<&TimeReport::gpu_hours>(required(out("gpu_hours", "GPU-hours", "GPUs x wall-clock hours."))),
    written<&TimeReport::wall_clock_hours>(required(out("wall_clock_hours", "hours", "Wall-clock time."))),
    written<&TimeReport::wall_clock_days>(required(out("wall_clock_days", "days", "Wall-clock time."))),
    written<&TimeReport::step_seconds>(out("step_seconds", "s", "One optimizer step at the reported speed.")),
    out("step_seconds_predicted", "s", "With a given utilisation: the step the engine predicts."),
    out("global_batch_sequences", "sequences", "Sequences per optimizer step."),
    out("micro_batches_per_step", "micro-batches", "Per step, per pipeline."),
    out("hfu", "fraction", "Hardware-FLOPs utilisation (recomputation counted)."),
    out("mfu_predicted", "fraction", "With a given utilisation: the one the engine predicts."),
    out("hfu_predicted", "fraction", "With a given utilisation: the predicted HFU."),
    holds("breakdown_seconds", Type::object, &breakdown, "Where one step's time goes."),
    written<&TimeReport::range, likely_of>(holds("range", Type::object, "With a predicted utilisation: the likely range's basis and multipliers.")),
    holds("mfu_range", Type::object, &mfu_likely, "With a predicted utilisation: its likely range."),
    holds("step_seconds_range", Type::object, &step_range, "With a predicted utilisation: one step's likely range."),
    holds("gpu_hours_range", Type::object, &gpu_hours_range, "With a predicted utilisation: GPU-hours' likely range."),
    holds("wall_clock_days_range", Type::object, &days_range, "With a predicted utilisation: days' likely range."),
    out("goodput", "fraction", "With an expected run: steady-state wall-clock / expected wall-clock."),
    holds("expected", Type::object, &expected_run,
          "The expected run (always without a given utilisation; with one, when the scenario has operations)."),
};

constexpr Field memory_parts_fields[] = {
    written<&MemoryParts::weights>(required(out("weights", "bytes", "Weights."))),
    written<&MemoryParts::gradients>(required(out("gradients", "bytes", "Gradients."))),
    written<&MemoryParts::optimizer>(required(out("optimizer", "bytes", "Optimizer states (and fp32 master weights)."))),
    written<&MemoryParts::activations>(required(out("activations", "bytes", "Activations kept for the backward pass."))),
    written<&MemoryParts::logits>(required(out("logits", "bytes", "The loss's logits and their gradient, on the last stage."))),
    written<&MemoryParts::overhead>(required(out("overhead", "bytes", "CUDA context, communication and gather buffers, fragmentation."))),
    written<&MemoryParts::total>(required(out("total", "bytes", "The peak over the phases of a step."))),
};
const Record memory_parts{"report.memory.per_gpu_bytes", doc("Memory per GPU, part by part."), memory_parts_fields};
constexpr RecordOf<MemoryParts> memory_parts_of = typed<MemoryParts, memory_parts_fields>(memory_parts);

constexpr Field overhead_fields[] = {
    written<&MemoryOverhead::cuda_context>(required(out("cuda_context", "bytes", "CUDA context."))),
    written<&MemoryOverhead::communication>(required(out("communication", "bytes", "NCCL buffers per communicator in use."))),
    written<&MemoryOverhead::gather>(required(out("gather", "bytes", "ZeRO-3/FSDP: gathered weights of the layers being computed."))),
    written<&MemoryOverhead::fragmentation>(required(out("fragmentation", "bytes", "The caching allocator's reserve beyond what is allocated."))),
    written<&MemoryOverhead::workspace>(required(out("workspace", "bytes", "QLoRA: one layer's matrices dequantised to 16 bits."))),
    written<&MemoryOverhead::cast_copies>(required(out("cast_copies", "bytes",
                 "Autocast (regime amp): 16-bit copies of the fp32 matmul weights, held until the loss."))),
    written<&MemoryOverhead::matmul_workspace>(required(out("matmul_workspace", "bytes",
                 "cuBLAS workspaces (forward and backward threads) and Transformer Engine's, allocated through "
                 "the caching allocator: part of the allocated peak."))),
};
const Record overhead{"report.memory.overhead_bytes", doc("The runtime overhead, part by part."), overhead_fields};
constexpr RecordOf<MemoryOverhead> overhead_of = typed<MemoryOverhead, overhead_fields>(overhead);

constexpr Field explain_fields[] = {
    written<&MemoryExplanation::params_per_gpu>(required(out("params_per_gpu", "parameters", "Weights this GPU holds before ZeRO-3 sharding."))),
    written<&MemoryExplanation::trainable_params_per_gpu>(required(out("trainable_params_per_gpu", "parameters", "What gets optimizer states."))),
    written<&MemoryExplanation::gradient_params_per_gpu>(required(out("gradient_params_per_gpu", "parameters",
                 "What has gradient buffers: the trainable parameters, or under FSDP1 with adapters every parameter "
                 "of the wrapped blocks."))),
    written<&MemoryExplanation::weight_bytes_per_param>(required(out("weight_bytes_per_param", "bytes", "Bytes per weight."))),
    written<&MemoryExplanation::gradient_bytes_per_param>(required(out("gradient_bytes_per_param", "bytes", "Bytes per gradient."))),
    written<&MemoryExplanation::optimizer_bytes_per_param>(required(out("optimizer_bytes_per_param", "bytes", "Optimizer bytes per trainable parameter."))),
    written<&MemoryExplanation::weight_shard>(required(out("weight_shard", "", "What ZeRO divides the weights by (1: not sharded)."))),
    written<&MemoryExplanation::gradient_shard>(required(out("gradient_shard", "", "What ZeRO divides the gradients by."))),
    written<&MemoryExplanation::optimizer_shard>(required(out("optimizer_shard", "", "What ZeRO divides the optimizer states by."))),
    written<&MemoryExplanation::tokens_per_micro_batch>(required(out("tokens_per_micro_batch", "tokens", "Per GPU, after context parallelism."))),
    written<&MemoryExplanation::activation_bytes_per_token>(required(out("activation_bytes_per_token", "bytes", "Activations kept per token, all layers on this GPU."))),
    written<&MemoryExplanation::logits_bytes_per_token>(required(out("logits_bytes_per_token", "bytes", "Logits bytes per token."))),
    written<&MemoryExplanation::fragmentation_fraction>(required(out("fragmentation_fraction", "fraction", "Allocator reserve as a fraction of dynamic allocations."))),
    written<&MemoryExplanation::gradients_unsharded_while_accumulating>(required(flag("gradients_unsharded_while_accumulating", {},
                      "Gradient accumulation under FSDP's no_sync: the gradients stay whole until the last micro-batch."))),
    written<&MemoryExplanation::stage_weights_gathered>(required(flag("stage_weights_gathered", {},
                  "Pipelining under FSDP2: the stage's 16-bit weights stay gathered from the first micro-batch's "
                  "forward pass to the last one's backward pass (counted in overhead_bytes.gather)."))),
    written<&MemoryExplanation::previous_micro_batch_bytes>(required(out("previous_micro_batch_bytes", "bytes",
                 "Held from the previous micro-batch through this one's forward pass (memory.previous_micro_batch_held); "
                 "at_peak_bytes.previous is what that adds to the peak beyond the loss's buffers."))),
    written<&MemoryExplanation::fp8_weight_copies_bytes>(required(out("fp8_weight_copies_bytes", "bytes",
                 "fp8 under Transformer Engine (Megatron, below ZeRO-3): each linear weight's cached fp8 copy and, "
                 "before Blackwell, its transpose, kept through the step beside the 16-bit weight (counted in "
                 "per_gpu_bytes.weights)."))),
};
const Record explain{"report.memory.explain", doc("The numbers behind each part, for \"show the math\"."), explain_fields};
constexpr RecordOf<MemoryExplanation> explain_of = typed<MemoryExplanation, explain_fields>(explain);

constexpr Field suggestion_fields[] = {
    required(holds("changes", Type::object, nullptr, "Dotted scenario paths and their new values.")),
    required(out("total_bytes", "bytes", "Memory per GPU with the change.")),
    required(flag("fits", {}, "Whether it then fits.")),
};
const Record suggestion{"report.memory.suggestions[]", doc("A change that alters the memory per GPU."), suggestion_fields};

constexpr Field assumptions_fields[] = {
    written_from<MemoryAssumptions, &MemoryChoices::framework, frameworks>(required(choice("framework", {}, "The training framework."))),
    written_from<MemoryAssumptions, &MemoryChoices::framework_assumed>(required(flag("framework_assumed", {}, "Whether the framework was assumed (not given)."))),
    written_from<MemoryAssumptions, &MemoryChoices::regime, regimes>(required(choice("regime", {}, "How weights, gradients and optimizer states are held."))),
    written_from<MemoryAssumptions, &MemoryChoices::regime_assumed>(required(flag("regime_assumed", {}, "Whether the regime is the framework's (not given)."))),
    written_from<MemoryAssumptions, &MemoryChoices::attention, attention_kernels>(required(choice("attention", {}, "The attention kernel."))),
    written_from<MemoryAssumptions, &MemoryChoices::attention_assumed>(required(flag("attention_assumed", {}, "Whether the kernel follows the framework and GPU (not given)."))),
    written_from<MemoryAssumptions, &MemoryChoices::cross_entropy, cross_entropies>(required(choice("cross_entropy", {}, "The loss kernel."))),
    written<&MemoryAssumptions::adapter_precision, adapter_precisions>(choice("adapter_precision", {}, "LoRA: how adapters are stored.")),
    written<&MemoryAssumptions::quantization, quantizations>(choice("quantization", {}, "QLoRA: the base weights' format.")),
};
const Record assumptions{"report.memory.assumptions", doc("What the memory model assumed."), assumptions_fields};
constexpr RecordOf<MemoryAssumptions> assumptions_of = typed<MemoryAssumptions, assumptions_fields>(assumptions);

constexpr auto memory_bytes_range_fields = range_span("bytes");
const Record memory_bytes_range{"report.memory.per_gpu_total_range", doc("The per-GPU peak: the likely range (80%)."),
                                memory_bytes_range_fields};
constexpr Field framework_alternative_fields[] = {
    written<&FrameworkAlternative::framework>(required(pick("framework", framework_names, {}, "A framework the user may be running instead of the assumed one."))),
    written<&FrameworkAlternative::step_ratio>(out("step_ratio", "ratio", "Its step time over the assumed framework's, at the same layout (with a predicted utilisation).")),
    written<&FrameworkAlternative::memory_ratio>(required(out("memory_ratio", "ratio", "Its per-GPU peak over the assumed framework's, at the same layout."))),
    written<&FrameworkAlternative::fits>(required(flag("fits", {}, "Whether it fits in the GPU's memory."))),
};
constexpr std::string_view calibration_distances[] = {"same_run", "layout", "gpus", "model"};
constexpr Field calibration_point_fields[] = {
    written<&CalibrationPoint::run>(required(out("run", "", "The measured run's index in scenario.calibration."))),
    written<&CalibrationPoint::key>(required(text("key", "What was measured, a report key."))),
    written<&CalibrationPoint::value>(required(out("value", "", "As given, in its key's unit."))),
    written<&CalibrationPoint::measured>(required(out("measured", "s or bytes", "As a step time (speed keys) or a peak (memory keys)."))),
    written<&CalibrationPoint::predicted>(required(out("predicted", "s or bytes", "The engine's own for that run, uncalibrated."))),
    written<&CalibrationPoint::calibrated>(required(out("calibrated", "s or bytes", "With the fitted constants."))),
};
const Record calibration_point{"report.calibration.points", doc("Each measured figure beside the engine's."),
                               calibration_point_fields};
constexpr RecordOf<CalibrationPoint> calibration_point_of = typed<CalibrationPoint, calibration_point_fields>(calibration_point);
constexpr Field speed_calibration_fields[] = {
    written<&SpeedCalibration::compute>(required(out("compute", "factor", "The GPU's compute (matmuls, attention, elementwise, recomputation, optimizer, bubble), as a multiple of the model's."))),
    written<&SpeedCalibration::communication>(required(out("communication", "factor", "The exposed communication, as a multiple of the model's."))),
    written<&SpeedCalibration::host>(required(out("host", "factor", "The host's kernel launches and work between micro-batches, as a multiple of the model's."))),
    written<&SpeedCalibration::runs>(required(out("runs", "measurements", "Speed measurements fitted on."))),
    pick("distance", calibration_distances, {},
         "The nearest measured run's distance from this one: the run itself, another layout of the same model on "
         "as many GPUs, another GPU count, or another model or GPU type."),
    out("carried", "fraction",
        "The share of the fitted departure from 1 (in log space) applied to this run: 1 for the run measured "
        "itself, else tau^2 / (tau^2 + sigma^2 / n) for n measured runs, what they say about another run of the same code."),
};
const Record speed_calibration{"report.calibration.speed",
                               doc("Multipliers of the step model's parts, fitted on the measured steps (least squares in "
                               "log space, a weak pull to 1: one measurement moves each part by its share), and "
                               "how much of them this run carries."),
                               speed_calibration_fields};
constexpr Field memory_calibration_fields[] = {
    written<&MemoryCalibration::allocated_factor>(required(out("allocated_factor", "factor", "The allocated peak, as a multiple of the model's (what the framework holds beyond or short of the model's parts, in proportion)."))),
    written<&MemoryCalibration::reserved_gap>(required(out("reserved_gap", "factor", "The allocator's reserved minus allocated, as a multiple of the model's."))),
    written<&MemoryCalibration::runs>(required(out("runs", "measurements", "Memory measurements fitted on."))),
    required(pick("distance", calibration_distances, {}, "The nearest measured peak's run's distance from this one.")),
    required(out("carried", "fraction",
                 "The share of the fitted departure from 1 (in log space) applied to this run: 1 for the run measured "
                 "itself, else tau^2 / (tau^2 + sigma^2 / n) for n measured runs, over the measured peaks' sources.")),
};
const Record memory_calibration{"report.calibration.memory", doc("The memory constants fitted on the measured peaks."),
                                memory_calibration_fields};
constexpr Field calibration_report_fields[] = {
    written<&CalibrationReport::points, calibration_point_of>(required(holds("points", Type::list, "Each measured figure beside the engine's."))),
    holds("speed", Type::object, &speed_calibration, "With a measured speed: the step model's fitted multipliers."),
    holds("memory", Type::object, &memory_calibration, "With a measured peak: the memory model's fitted constants."),
    written<&CalibrationReport::step_seconds_uncalibrated>(out("step_seconds_uncalibrated", "s", "This scenario's step before calibration.")),
    out("per_gpu_bytes_uncalibrated", "bytes", "This scenario's per-GPU peak before calibration."),
};
const Record calibration_report{"report.calibration", doc("What was calibrated to the user's measured runs, and by how much."),
                                calibration_report_fields};
const Record framework_alternative{"report.framework_alternatives",
                                   doc("The scenario under another plausible framework, at the same layout."),
                                   framework_alternative_fields};
constexpr RecordOf<FrameworkAlternative> framework_alternative_of = typed<FrameworkAlternative, framework_alternative_fields>(framework_alternative);
constexpr Field report_memory_fields[] = {
    written<&MemoryReport::assumptions, assumptions_of>(required(holds("assumptions", Type::object, "What the memory model assumed."))),
    written<&MemoryReport::allocated_bytes>(required(out("allocated_bytes", "bytes", "Allocated peak (torch.cuda.max_memory_allocated)."))),
    written<&MemoryReport::reserved_bytes>(required(out("reserved_bytes", "bytes", "The allocator's reserved peak (torch.cuda.max_memory_reserved)."))),
    written<&MemoryReport::worst_stage, pipeline_stages>(required(choice("worst_stage", {}, "The pipeline stage with the peak: only, first, middle (uneven stages: the first of the heavier stages "
                                               "between) or last."))),
    written<&MemoryReport::worst_pipeline_rank>(required(out("worst_pipeline_rank", "", "Its pipeline rank (0 for the first stage)."))),
    required(holds("stage_bytes", Type::number_map, nullptr, "Each pipeline stage weighed, its total peak.")),
    required(holds("stage_allocated_bytes", Type::number_map, nullptr,
                   "Each pipeline stage's allocated peak (what torch.cuda.max_memory_allocated prints on that rank).")),
    written<&MemoryReport::per_gpu_bytes, memory_parts_of>(required(holds("per_gpu_bytes", Type::object, "Memory per GPU, part by part."))),
    written<&MemoryReport::overhead_bytes, overhead_of>(required(holds("overhead_bytes", Type::object, "The runtime overhead, part by part."))),
    required(holds("phases_bytes", Type::number_map, nullptr, "Memory at the end of each phase of a step.")),
    written<&MemoryReport::explain, explain_of>(required(holds("explain", Type::object, "The numbers behind each part."))),
    written<&MemoryReport::peak_phase>(required(text("peak_phase", "The phase with the peak."))),
    written<&MemoryReport::peak_parts>(required(holds("peak_parts", Type::text_list, nullptr, "The parts in memory at the peak."))),
    required(holds("at_peak_bytes", Type::number_map, nullptr, "Those parts' bytes; they sum to the total.")),
    written<&MemoryReport::capacity_bytes>(required(out("capacity_bytes", "bytes", "What the GPU has."))),
    written<&MemoryReport::fits>(required(flag("fits", {}, "Whether the peak fits."))),
    written<&MemoryReport::headroom_bytes>(required(out("headroom_bytes", "bytes", "Capacity minus the peak when it fits, else 0."))),
    written<&MemoryReport::shortfall_bytes>(required(out("shortfall_bytes", "bytes", "The peak minus capacity when it does not fit, else 0."))),
    written<&MemoryReport::activations_known>(required(flag("activations_known", {}, "Whether activations could be counted (an architecture is known)."))),
    written<&MemoryReport::activation_bytes_per_micro_batch>(required(out("activation_bytes_per_micro_batch", "bytes", "What one more micro-batch in flight adds."))),
    written<&MemoryReport::micro_batches_in_flight>(required(out("micro_batches_in_flight", "micro-batches",
                 "On the worst pipeline stage, in micro-batches of its layers (interleaved chunks as fractions)."))),
    written<&MemoryReport::max_micro_batch>(out("max_micro_batch", "sequences", "The largest micro-batch that fits (0: none does).")),
    written<&MemoryReport::max_seq_len>(out("max_seq_len", "tokens", "The longest sequence that fits at micro-batch 1, or at strategy.micro_batch where given, with the rest of the layout (0: none does).")),
    out("max_seq_len_micro_batch", "sequences", "The micro-batch max_seq_len is for."),
    written<&MemoryReport::min_gpus>(out("min_gpus", "GPUs", "The fewest GPUs (same layout, more data parallelism) that fit.")),
    required(holds("suggestions", Type::list, &suggestion, "Changes that would make it fit.")),
    written<&MemoryReport::range, memory_likely_of>(required(holds("range", Type::object, "How far the measured peak is likely to be off: basis and multipliers."))),
    required(holds("per_gpu_total_range", Type::object, &memory_bytes_range, "The per-GPU peak's likely range.")),
};


constexpr Field alternative_fields[] = {
    written<&LayoutOption::step_seconds>(required(out("step_seconds", "s", "Predicted step."))),
    written<&LayoutOption::mfu>(required(out("mfu", "fraction", "Predicted utilisation."))),
    written<&LayoutOption::memory_bytes>(required(out("memory_bytes", "bytes", "Memory per GPU."))),
};
constexpr Include alternative_includes[] = {included<LayoutOption, LayoutChoices, layout_fields>(layout)};
const Record alternative{"report.parallelism.alternatives[]", doc("One of the next fastest layouts that fit."),
                         alternative_fields, alternative_includes};

constexpr Field parallelism_fields[] = {
    written<&ParallelismReport::sequence_parallel>(required(flag("sequence_parallel", {}, "Megatron sequence parallelism."))),
    written<&ParallelismReport::chosen_by, chosen_bys>(required(choice("chosen_by", {}, "Who chose the layout."))),
    out("first_stage_layers", "layers", "With pipeline stages: the layers on the first stage."),
    out("middle_stage_layers", "layers",
        "With three or more stages: the most layers a stage between the first and the last holds."),
    out("last_stage_layers", "layers", "With pipeline stages: the layers on the last stage (with the output head)."),
    out("layouts_evaluated", "layouts", "Layouts the planner weighed."),
    out("layouts_fitting", "layouts", "Of those, the ones that fit."),
    holds("alternatives", Type::list, &alternative, "The next fastest layouts that fit."),
};
constexpr Include parallelism_includes[] = {included<ParallelismReport, LayoutChoices, layout_fields>(layout)};

constexpr Field plan_fields[] = {
    written<&PlanReport::gpus>(required(out("gpus", "GPUs", "GPUs the estimate used."))),
    written<&PlanReport::nodes>(required(out("nodes", "nodes", "Servers."))),
    written<&PlanReport::gpus_from, gpus_froms>(required(choice("gpus_from", {}, "What decided the GPU count."))),
    written<&PlanReport::budget_per_month>(out("budget_per_month", "money", "The monthly budget.")),
    written<&PlanReport::budget_total>(out("budget_total", "money", "The total budget.")),
    written<&PlanReport::within_budget>(flag("within_budget", {}, "Whether the cost stays within the total budget.")),
    written<&PlanReport::deadline_days>(out("deadline_days", "days", "The deadline.")),
    written<&PlanReport::meets_deadline>(flag("meets_deadline", {}, "Whether the run meets it.")),
    written<&PlanReport::max_gpus>(out("max_gpus", "GPUs",
        "With an offer that limits it: the most GPUs one job can use (one instance where instances cannot be joined, "
        "else the provider's cluster cap).")),
    written<&PlanReport::gpus_wanted>(out("gpus_wanted", "GPUs", "Where max_gpus capped the plan: the GPUs the budget or deadline would have used.")),
};

constexpr auto money_range_fields = range_span("money");
const Record money_range_record{"report.cost.total_range", doc("The run's cost: the likely range (80%)."),
                                money_range_fields};

const Record expected_money_range{"report.cost.expected_total_range",
                                  doc("The expected run's cost: the likely range (80%)."),
                                  money_range_fields};

constexpr Field exchange_fields[] = {
    written<&Exchange::from>(required(text("from", "The currency the amount was given in."))),
    written<&Exchange::to>(required(text("to", "The report's currency."))),
    written<&Exchange::rate>(required(out("rate", "to per from", "Units of `to` for one unit of `from`."))),
    written<&Exchange::from_per_usd>(required(out("from_per_usd", "per US dollar", "Units of `from` for one US dollar (the rate's denominator)."))),
    written<&Exchange::to_per_usd>(required(out("to_per_usd", "per US dollar", "Units of `to` for one US dollar (the rate's numerator)."))),
    written<&Exchange::given>(required(flag("given", {}, "Whether a rate of exchange_rates took part (else the reference rates alone)."))),
    derived<&rates_date>(required(text("date", "The reference rates' date (\"given\" where exchange_rates alone set the rate)."))),
    derived<&rates_source>(required(text("source", "Where the rates come from."))),
    written<&Exchange::per_gpu_hour>(out("per_gpu_hour", "money", "The price per GPU-hour as given, in `from`.")),
    written<&Exchange::per_gpu_month>(out("per_gpu_month", "money", "The price per GPU-month as given, in `from`.")),
    written<&Exchange::per_month>(out("per_month", "money", "The monthly budget as given, in `from`.")),
    written<&Exchange::total>(out("total", "money", "The total budget as given, in `from`.")),
};
const Record price_exchange{"report.cost.exchange", doc("The price, converted into the report's currency."), exchange_fields};
constexpr RecordOf<Exchange> price_exchange_of = typed<Exchange, exchange_fields>(price_exchange);
const Record budget_exchange{"report.cost.budget_exchange", doc("The budget, converted into the report's currency."),
                             exchange_fields};
constexpr RecordOf<Exchange> budget_exchange_of = typed<Exchange, exchange_fields>(budget_exchange);

constexpr Field cost_fields[] = {
    written<&CostReport::currency>(required(text("currency", "ISO code."))),
    written<&CostReport::total>(required(out("total", "money", "The run's cost."))),
    written<&CostReport::per_gpu_hour>(required(out("per_gpu_hour", "money", "Price per GPU-hour."))),
    written<&CostReport::per_gpu_month>(required(out("per_gpu_month", "money", "Price per GPU-month."))),
    written<&CostReport::per_month>(required(out("per_month", "money", "The whole cluster for one billing month."))),
    written<&CostReport::months>(required(out("months", "months", "Wall-clock time in billing months."))),
    written<&CostReport::offer>(text("offer", "The catalog offer priced.")),
    holds("total_range", Type::object, &money_range_record, "With a predicted utilisation: the cost's likely range."),
    written<&CostReport::expected_total>(out("expected_total", "money", "With an expected run: its cost.")),
    holds("expected_total_range", Type::object, &expected_money_range,
          "With an expected run's range: its cost's likely range."),
    written<&CostReport::exchange, price_exchange_of>(holds("exchange", Type::object, "A price in another currency: its conversion.")),
    written<&CostReport::budget_exchange, budget_exchange_of>(holds("budget_exchange", Type::object, "A budget in another currency: its conversion.")),
};

constexpr auto kwh_range_fields = range_span("kWh");
const Record expected_kwh_range{"report.energy.expected.kwh_range",
                                doc("The expected run's energy: the likely range (80%)."), kwh_range_fields};
constexpr auto co2_range_fields = range_span("kg CO2");
const Record expected_co2_range{"report.energy.expected.co2_kg_range",
                                doc("The expected run's emissions: the likely range (80%)."),
                                co2_range_fields};
constexpr Field energy_expected_fields[] = {
    written<&EnergyReport::Expected::kwh>(required(out("kwh", "kWh", "Energy of the expected run."))),
    written<&EnergyReport::Expected::co2_kg>(required(out("co2_kg", "kg CO2", "Emissions of the expected run."))),
    written<&EnergyReport::Expected::busy_hours>(required(out("busy_hours", "hours",
                 "Wall-clock hours with the GPUs computing: the steady steps, a real run's slower steps, rework and "
                 "overheads."))),
    written<&EnergyReport::Expected::idle_hours>(required(out("idle_hours", "hours", "Wall-clock hours with the GPUs idle: checkpoint writes and restarts."))),
    written<&EnergyReport::Expected::busy_power_fraction>(required(out("busy_power_fraction", "fraction of TDP",
                 "GPU draw while computing: as given, else from the utilisation the slower steps reach."))),
    written<&EnergyReport::Expected::idle_power_fraction>(required(out("idle_power_fraction", "fraction of TDP", "GPU draw while idle."))),
    written<&EnergyReport::Expected::headline>(required(flag("headline", {}, "Whether the expected run is the estimate's headline (time.expected.headline)."))),
    holds("kwh_range", Type::object, &expected_kwh_range,
          "With the expected run's range: the energy times its multipliers (of the run's hours: a slower real run "
          "draws less while computing, so the high end is an upper bound)."),
    holds("co2_kg_range", Type::object, &expected_co2_range,
          "With the expected run's range: the emissions' likely range."),
};
const Record energy_expected{"report.energy.expected",
                             doc("The expected run's energy (with time.expected): busy hours at the busy draw, idle hours at "
                             "the idle draw."),
                             energy_expected_fields};

constexpr Field report_energy_fields[] = {
    written<&EnergyReport::gpu_tdp_w>(required(out("gpu_tdp_w", "W", "Board power."))),
    written<&EnergyReport::gpu_power_fraction>(required(out("gpu_power_fraction", "fraction of TDP", "Average GPU draw."))),
    written<&EnergyReport::gpu_power_from, power_froms>(required(choice("gpu_power_from", {}, "Given, or from the utilisation."))),
    written<&EnergyReport::host_power_fraction>(required(out("host_power_fraction", "fraction of GPU power", "Host share."))),
    written<&EnergyReport::pue>(required(out("pue", "", "Power usage effectiveness."))),
    written<&EnergyReport::facility_kw>(required(out("facility_kw", "kW", "The whole run's draw at the meter."))),
    written<&EnergyReport::kwh>(required(out("kwh", "kWh", "Energy of the run."))),
    written<&EnergyReport::grid>(required(text("grid", "Region ID, \"given\", or \"world\"."))),
    written<&EnergyReport::grid_kg_co2_per_kwh>(required(out("grid_kg_co2_per_kwh", "kg CO2/kWh", "The grid's intensity."))),
    written<&EnergyReport::grid_source>(required(text("grid_source", "Where the intensity comes from."))),
    written<&EnergyReport::co2_kg>(required(out("co2_kg", "kg CO2", "Emissions of the run."))),
    holds("expected", Type::object, &energy_expected, "With an expected run: its energy and emissions."),
};

constexpr Field split_fields[] = {
    written<&LawSplit::params>(required(out("params", "parameters", "Parameters."))),
    written<&LawSplit::tokens>(required(out("tokens", "tokens", "Tokens."))),
    written<&LawSplit::loss>(out("loss", "nats", "Loss predicted by the fitted law.")),
};
const Record split{"split", doc("A compute-optimal split of parameters and tokens."), split_fields};
constexpr RecordOf<LawSplit> split_of = typed<LawSplit, split_fields>(split);

constexpr Field budget_split_fields[] = {
    written<&BudgetSplit::compute_flops>(required(out("compute_flops", "FLOPs", "What the total budget buys."))),
    written<&BudgetSplit::rule, split_of>(required(holds("rule_20_tokens_per_param", Type::object, "The 20-tokens-per-parameter rule."))),
    written<&BudgetSplit::fitted, split_of>(required(holds("fitted_loss_optimum", Type::object, "The fitted law's optimum."))),
};
const Record budget_split{"report.scaling_law.budget", doc("What a total budget buys, split."), budget_split_fields};
constexpr RecordOf<BudgetSplit> budget_split_of = typed<BudgetSplit, budget_split_fields>(budget_split);

constexpr Field law_fit_fields[] = {
    written<&ScalingLawReport::fit_e>(required(out("e", "nats", "E, the irreducible loss."))),
    written<&ScalingLawReport::fit_a>(required(out("a", "", "A, the parameter term's scale."))),
    written<&ScalingLawReport::fit_alpha>(required(out("alpha", "", "alpha, the parameter term's exponent."))),
    written<&ScalingLawReport::fit_b>(required(out("b", "", "B, the data term's scale."))),
    written<&ScalingLawReport::fit_beta>(required(out("beta", "", "beta, the data term's exponent."))),
};
const Record law_fit{"report.scaling_law.fit", doc("L(N, D) = E + A/N^alpha + B/D^beta (Hoffmann et al. 2022, eq. 10)."),
                     law_fit_fields};
static_assert(binds_only<ScalingLawReport>(law_fit_fields), "fit is flattened from the scaling law");

constexpr Field scaling_law_fields[] = {
    written<&ScalingLawReport::params>(required(out("params", "parameters", "The run's parameters."))),
    written<&ScalingLawReport::tokens>(required(out("tokens", "tokens", "The run's tokens."))),
    written<&ScalingLawReport::compute_flops>(required(out("compute_flops", "FLOPs", "C = 6ND."))),
    written<&ScalingLawReport::tokens_per_param>(required(out("tokens_per_param", "tokens", "Tokens per parameter."))),
    written<&ScalingLawReport::loss>(required(out("loss", "nats", "The run's loss by the fitted law."))),
    written<&ScalingLawReport::rule, split_of>(required(holds("rule_20_tokens_per_param", Type::object, "The 20-tokens-per-parameter rule."))),
    written<&ScalingLawReport::fitted, split_of>(required(holds("fitted_loss_optimum", Type::object, "The fitted law's optimum."))),
    flattened(required(holds("fit", Type::object, &law_fit, "The fitted law's constants."))),
    written<&ScalingLawReport::budget, budget_split_of>(holds("budget", Type::object, "What a total budget buys.")),
};

}  // namespace

const Record issue{"issue", doc("An error or warning: user errors are data."), issue_fields};

namespace {
const Record report_model{"report.model", doc("The model."), report_model_fields};
const Record compute{"report.compute", doc("The work."), compute_fields};
const Record report_hardware{"report.hardware", doc("The GPU and precision."), report_hardware_fields};
constexpr RecordOf<HardwareReport> report_hardware_of = typed<HardwareReport, report_hardware_fields>(report_hardware);
const Record time{"report.time", doc("Utilisation, throughput and time."), time_fields};
const Record report_memory{"report.memory", doc("Memory per GPU."), report_memory_fields};
const Record parallelism{"report.parallelism", doc("The parallel layout."), parallelism_fields, parallelism_includes};
const Record plan{"report.plan", doc("How many GPUs, and why."), plan_fields};
constexpr RecordOf<PlanReport> plan_of = typed<PlanReport, plan_fields>(plan);
const Record cost{"report.cost", doc("Money (with pricing or a budget)."), cost_fields};
const Record report_energy{"report.energy", doc("Energy and CO2 (when the GPU's power is known)."), report_energy_fields};
const Record scaling_law{"report.scaling_law", doc("Compute-optimal training (dense language-model pre-training)."),
                         scaling_law_fields};

constexpr Field report_fields[] = {
    required(holds("model", Type::object, &report_model, "The model.")),
    required(holds("compute", Type::object, &compute, "The work.")),
    written<&Report::hardware, report_hardware_of>(required(holds("hardware", Type::object, "The GPU and precision."))),
    required(holds("time", Type::object, &time, "Utilisation, throughput and time.")),
    required(holds("memory", Type::object, &report_memory, "Memory per GPU.")),
    required(holds("parallelism", Type::object, &parallelism, "The parallel layout.")),
    written<&Report::plan, plan_of>(required(holds("plan", Type::object, "How many GPUs, and why."))),
    holds("cost", Type::object, &cost, "Money (with pricing or a budget)."),
    holds("energy", Type::object, &report_energy, "Energy and CO2."),
    holds("scaling_law", Type::object, &scaling_law, "Compute-optimal training."),
    holds("calibration", Type::object, &calibration_report,
          "With scenario.calibration: the constants fitted on the measured runs, and each measurement beside the engine's."),
    written<&Report::framework_alternatives, framework_alternative_of>(holds("framework_alternatives", Type::list,
          "When strategy.framework is not given: each plausible other framework at the same layout.")),
    required(holds("warnings", Type::list, &issue, "Assumptions and ignored fields.")),
    required(holds("errors", Type::list, &issue, "Why no estimate could be made; empty when it could.")),
};
}  // namespace

// An estimate's report; an input that cannot be estimated gives only warnings and errors.
const Record report{"report", doc("What an estimate says."), report_fields, {}, true};

namespace report_sections {
const RecordOf<ModelReport> model = typed<ModelReport, report_model_fields>(contract::report_model);
const RecordOf<ComputeReport> compute = typed<ComputeReport, compute_fields>(contract::compute);
const RecordOf<HardwareReport> hardware = typed<HardwareReport, report_hardware_fields>(contract::report_hardware);
const RecordOf<TimeReport> time = typed<TimeReport, time_fields>(contract::time);
const RecordOf<StepBreakdown> breakdown_seconds = typed<StepBreakdown, breakdown_fields>(contract::breakdown);
const RecordOf<ExpectedRun> expected_run = typed<ExpectedRun, expected_fields>(contract::expected_run);
const RecordOf<MemoryReport> memory = typed<MemoryReport, report_memory_fields>(contract::report_memory);
const RecordOf<PlanReport> plan = typed<PlanReport, plan_fields>(contract::plan);
const RecordOf<CalibrationReport> calibration = typed<CalibrationReport, calibration_report_fields>(contract::calibration_report);
const RecordOf<SpeedCalibration> speed_calibration = typed<SpeedCalibration, speed_calibration_fields>(contract::speed_calibration);
const RecordOf<MemoryCalibration> memory_calibration = typed<MemoryCalibration, memory_calibration_fields>(contract::memory_calibration);
const RecordOf<CostReport> cost = typed<CostReport, cost_fields>(contract::cost);
const RecordOf<EnergyReport> energy = typed<EnergyReport, report_energy_fields>(contract::report_energy);
const RecordOf<EnergyReport::Expected> energy_expected = typed<EnergyReport::Expected, energy_expected_fields>(contract::energy_expected);
const RecordOf<ScalingLawReport> scaling_law = typed<ScalingLawReport, scaling_law_fields>(contract::scaling_law);
const RecordOf<Report> report = typed<Report, report_fields>(contract::report);
const RecordOf<ParallelismReport> parallelism = typed<ParallelismReport, parallelism_fields>(contract::parallelism);
const RecordOf<LayoutOption> alternative = typed<LayoutOption, alternative_fields>(contract::alternative);
const RecordOf<LayoutChoices> layout = typed<LayoutChoices, layout_fields>(contract::layout);
}  // namespace report_sections

namespace {

// The record's fields into `out`, then its includes', each bound one from its member of `source`
// (nullptr: none are), each other one from `extras`, where it holds one.
void write_fields(const Record& record, const void* source, nlohmann::ordered_json& extras,
                  nlohmann::ordered_json& out) {
  for (const Field& field : record.fields) {
    if (source && field.binding && field.binding->write) {
      field.binding->write(field, source, out);
    } else if (const auto it = extras.find(field.name); it != extras.end()) {
      out[std::string(field.name)] = std::move(*it);
      extras.erase(it);
    }
  }
  for (const Include& included : record.includes)
    write_fields(*included.record, source && included.part ? included.part(source) : nullptr, extras, out);
}

}  // namespace

nlohmann::ordered_json write_bound(const Record& record, const void* source, nlohmann::ordered_json extras) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  write_fields(record, source, extras, out);
  // What the record does not declare stays, for the report's check to refuse; a bound field's member
  // is never replaced.
  for (auto& [key, value] : extras.items())
    if (!out.contains(key)) out[key] = std::move(value);
  return out;
}

const Field* find(const Record& record, std::string_view name) {
  for (const Field& field : record.fields)
    if (field.name == name) return &field;
  for (const Include& included : record.includes)
    if (const Field* field = find(*included.record, name)) return field;
  return nullptr;
}

}  // namespace traincalc::contract
