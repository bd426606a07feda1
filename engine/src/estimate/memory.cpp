// Memory per GPU: the model's states (weights, gradients, optimizer), the activations kept for the
// backward pass, the loss's logits, and the runtime around them, for the pipeline rank that holds the
// most. The framework decides how each is held (memory_regime.cpp). The peak is taken over the phases
// of a step, not as a plain sum of everything; the allocator's reserve comes on top of what is
// allocated, and the CUDA context and NCCL's buffers on top of that.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <string_view>

#include "estimate/estimators.hpp"
#include "contract/text.hpp"
#include "traincalc/names.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

namespace {

// Which matrices train or carry adapters, by the input they read. Autograd keeps a linear layer's input
// only when its weight needs a gradient (PyTorch's linear backward: the weight gradient is the input
// times the output gradient; the input gradient needs only the weight), so a frozen layer's input is
// kept only if something else needs it.
struct Training16 {
  bool full = true;          // every matrix trains
  double adapted_qkv = 0;    // of the Q, K and V projections, how many carry adapters (0-3)
  bool adapted_out = false;  // the attention output projection
  bool adapted_mlp = false;  // every MLP matrix
  bool fp32_adapters = false;
  bool nf4_keeps_input = false;  // every frozen 4-bit matrix keeps its input (bitsandbytes QLoRA)
  bool adapter_dropout = false;  // adapters read a dropped-out copy of the input
  bool fused_qkv_adapter = false;  // one adapter input for Q, K and V together (LitGPT)
  double lora_rank = 0;
};

Training16 what_trains(const Training& t, const MemoryRegime& r) {
  Training16 w;
  w.full = t.method == FinetuneMethod::full;
  if (w.full) return w;
  w.adapted_qkv = t.lora_targets == LoraTargets::query_value ? 2 : 3;
  w.adapted_out = t.lora_targets != LoraTargets::query_value;
  w.adapted_mlp = t.lora_targets == LoraTargets::all_linear;
  w.fp32_adapters = r.adapter_precision == AdapterPrecision::fp32;
  w.nf4_keeps_input = t.method == FinetuneMethod::qlora && r.nf4_keeps_input;
  w.adapter_dropout = r.lora_dropout > 0;
  w.fused_qkv_adapter = r.fused_qkv_adapter;
  w.lora_rank = t.lora_rank;
  return w;
}

// Activations one transformer layer keeps for the backward pass, per token of a micro-batch, in
// bytes. The count follows Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
// Transformer Models", sec. 4.1: 34h + 5as bytes per token for a GPT layer with 16-bit activations,
// listed tensor by tensor) and refines it for what the framework's kernels keep and what trains.
// Tensors inside the tensor-parallel region are split by tp; the rest only with sequence parallelism
// (their table 2).
struct LayerActivations {
  double split = 0;       // split by tp
  double replicated = 0;  // split by tp only with sequence parallelism
  double gathered = 0;    // a column-parallel layer's input, kept as all-gathered: never split
  double scores = 0;      // the attention score terms, dropped by FlashAttention and selective recompute
};

struct Kernels {
  double e = 2;                  // bytes per activation element
  bool fused_elementwise = false;
  bool rmsnorm = true;
  bool softmax_fp32 = true;  // eager attention: fp32 softmax under autocast
  bool scores_free = true;   // flash or memory-efficient attention
  // Sequence parallelism keeps a column-parallel layer's all-gathered input for its weight gradient
  // (PyTorch's DTensor styles: PrepareModuleInput redistributes the sharded input to Replicate before
  // ColwiseParallel's matmul, which autograd then saves whole), where Megatron-LM keeps the sequence
  // shard and gathers it again in the backward pass (Korthikanti et al. 2022, sec. 4.2.2).
  bool sp_keeps_gathered = false;
  // fp8 under Transformer Engine: each linear layer saves its input for the weight gradient as cast to
  // fp8, one byte (TE's Linear and LayerNormLinear save the quantised input; a norm's own input and
  // FlashAttention's output stay 16-bit). torchao's Float8Linear (torchtitan) saves the high-precision
  // input and casts again in the backward pass (torchao/float8/float8_linear.py,
  // matmul_with_hp_or_float8_args): no saving there.
  bool fp8_linear_inputs = false;
};

// A norm's kept input: a fused kernel keeps the 16-bit input (and per-row statistics); eager PyTorch
// upcasts to fp32 first and keeps that (transformers' LlamaRMSNorm, torchtune's and LitGPT's RMSNorm;
// LayerNorm under autocast runs in fp32), and an eager RMSNorm whose gain trains also keeps its
// normalised output for the gain's gradient.
double norm_bytes(const Kernels& k, bool gain_trains) {
  if (k.fused_elementwise || k.e >= 4) return k.e;
  return 4.0 + (k.rmsnorm && gain_trains ? k.e : 0.0);
}

// A trained linear layer's saved input, bytes per element: one under Transformer Engine's fp8.
double linear_input_bytes(const Kernels& k, const Training16& w) { return k.fp8_linear_inputs && w.full ? 1.0 : k.e; }

// A linear layer's input, as kept: once in 16 bits when its weight or a compute-precision adapter needs
// it (adapters read the same tensor as the layer) or a 4-bit matmul saves it (bitsandbytes' MatMul4Bit
// keeps A for the input gradient: bitsandbytes/autograd/_functions.py, MatMul4Bit.forward, "ctx.tensors
// = (A, B)")...
bool input_kept(const Training16& w, bool trains, double adapters) {
  return trains || w.nf4_keeps_input || (adapters > 0 && !w.fp32_adapters && !w.adapter_dropout);
}
// ... while fp32 adapters (PEFT) cast the input to fp32, each adapter its own copy, and adapter dropout
// gives each adapted module its own dropped-out copy (in the adapters' precision) and a one-byte mask
// (PyTorch's native_dropout keeps a bool mask; the first factor's matmul keeps the copy). Every adapter
// also keeps its rank-wide intermediate for the second factor's gradient. `inputs` counts the adapted
// modules that read the input (fewer than the adapters where one module adapts Q, K and V together).
double adapter_bytes(const Kernels& k, const Training16& w, double width, double adapters, double inputs) {
  const double adapter_e = w.fp32_adapters ? 4.0 : k.e;
  const double copy = w.adapter_dropout ? adapter_e + 1.0 : (w.fp32_adapters ? 4.0 : 0.0);
  return inputs * copy * width + adapters * adapter_e * w.lora_rank;
}
double adapter_bytes(const Kernels& k, const Training16& w, double width, double adapters) {
  return adapter_bytes(k, w, width, adapters, adapters);
}

// The widths of Q (and K) and V per token, over all heads: latent attention's decompressed heads, or
// grouped-query attention's key-value heads.
struct AttentionWidths {
  double q = 0, k = 0, v = 0;
};
AttentionWidths attention_widths(const Architecture& a) {
  if (latent_attention(a)) {
    const double qk = a.heads * (a.qk_nope_head_dim + a.qk_rope_head_dim);
    return {qk, qk, a.heads * a.v_head_dim};
  }
  const double kv = effective_kv_heads(a) * effective_head_dim(a);
  return {a.heads * effective_head_dim(a), kv, kv};
}

LayerActivations attention_activations(const Architecture& a, const Kernels& k, const Training16& w, double seq,
                                       bool dropout) {
  const double h = a.hidden;
  const double e = k.e;
  const double mask = dropout ? 1.0 : 0.0;
  LayerActivations x;
  const auto [q_width, k_width, v_width] = attention_widths(a);
  if (latent_attention(a))
    x.split += e * (a.q_lora_rank + a.kv_lora_rank + a.qk_rope_head_dim);  // the latents and their norms' inputs
  x.replicated += norm_bytes(k, w.full) * h;                                   // norm input
  // Norms after the attention and the MLP too (Gemma 2 and 3: four per layer, pre and post), each
  // keeping its input like the first.
  if (a.norms_per_layer > 2) x.replicated += (a.norms_per_layer - 2) * norm_bytes(k, w.full) * h;
  double& qkv_input = k.sp_keeps_gathered ? x.gathered : x.replicated;
  const double linear_e = linear_input_bytes(k, w);
  qkv_input += input_kept(w, w.full, w.adapted_qkv) ? linear_e * h : 0.0;  // QKV projection input
  qkv_input += adapter_bytes(k, w, h, w.adapted_qkv, w.fused_qkv_adapter ? std::min(1.0, w.adapted_qkv) : w.adapted_qkv);
  x.split += e * (q_width + k_width);                                      // Q and K for QK^T
  x.split += e * v_width;                                                  // V for scores x V
  // The output projection's input is the attention output, which FlashAttention keeps for its own
  // backward (with the softmax statistics); eager attention's product with V does not need it.
  const double out_adapters = w.adapted_out ? 1.0 : 0.0;
  // Under fp8 the output projection saves its own fp8 copy (beside FlashAttention's 16-bit output).
  if (k.scores_free)
    x.split += e * q_width + (linear_e < e ? q_width : 0.0);
  else
    x.split += input_kept(w, w.full, out_adapters) ? linear_e * q_width : 0.0;
  x.split += adapter_bytes(k, w, q_width, out_adapters);
  x.replicated += mask * h;  // dropout mask after attention
  // The scores kept per element: the softmax output, its dropout mask and dropout output. Megatron's
  // fused kernel keeps them in the compute precision (Korthikanti's 5as at 2 bytes); eager PyTorch
  // under autocast runs softmax in fp32 (PyTorch AMP op reference) and casts the result back to 16
  // bits for the product with V.
  const double kept = k.softmax_fp32 && e < 4 ? 4.0 + mask * (1 + 4.0) + e : e + mask * (1 + e);
  x.scores += kept * a.heads * seq;
  return x;
}

LayerActivations mlp_activations(const Architecture& a, const Kernels& k, const Training16& w, double f, double copies,
                                 bool dropout) {
  const double h = a.hidden;
  const double e = k.e;
  LayerActivations x;
  x.replicated += norm_bytes(k, w.full) * h;  // norm input
  // The first projection's input (read by gate and up, or fc1).
  const double in_adapters = w.adapted_mlp ? (a.gated_mlp ? 2.0 : 1.0) : 0.0;
  double& first_input = k.sp_keeps_gathered ? x.gathered : x.replicated;
  const double linear_e = linear_input_bytes(k, w);
  first_input += input_kept(w, w.full, in_adapters) ? linear_e * h : 0.0;
  first_input += copies * adapter_bytes(k, w, h, in_adapters);
  // The activation function: a fused SwiGLU/GeLU keeps its inputs (gate and up, 2f; or f) and
  // recomputes the rest (Megatron-Core's bias_swiglu); eager PyTorch keeps SiLU's input and both
  // operands of the product (3f), or GeLU's input (f). The down projection's input (the activation's
  // output, f) when it trains.
  double act = a.gated_mlp ? (k.fused_elementwise ? 2.0 : 3.0) : 1.0;
  x.split += copies * e * f * act;
  const double down_adapters = w.adapted_mlp ? 1.0 : 0.0;
  x.split += copies * ((input_kept(w, w.full, down_adapters) ? linear_e * f : 0.0) + adapter_bytes(k, w, f, down_adapters));
  x.replicated += (dropout ? 1.0 : 0.0) * h;  // dropout mask after the MLP
  return x;
}

double layer_bytes(const LayerActivations& x, double tp, bool sequence_parallel, bool keeps_scores) {
  return x.split / tp + x.replicated / (sequence_parallel ? tp : 1.0) + x.gathered +
         (keeps_scores ? x.scores / tp : 0.0);
}

struct ActivationEstimate {
  double all_layers_per_token = 0;  // every layer of the model, one token, as kept (recompute applied)
  double one_layer_per_token = 0;   // the largest layer fully (recomputed during backward)
};

ActivationEstimate activation_per_token(const Architecture& a, const Kernels& k, const Training16& w, double seq,
                                        double tp, bool sp, Recompute recompute, bool per_op) {
  const bool keeps_scores = !k.scores_free && recompute == Recompute::none;
  const double moe_layers = moe_layer_count(a);
  const double dense_layers = a.layers - moe_layers;
  const LayerActivations attention = attention_activations(a, k, w, seq, a.dropout);
  const LayerActivations dense_mlp = mlp_activations(a, k, w, a.ffn_hidden, 1, a.dropout);
  // A token passes through experts_per_token routed experts and the shared ones.
  const LayerActivations moe_mlp =
      mlp_activations(a, k, w, expert_ffn_hidden(a), a.experts_per_token + a.shared_experts, a.dropout);
  const double attention_bytes = layer_bytes(attention, tp, sp, keeps_scores);
  const double dense_layer = attention_bytes + layer_bytes(dense_mlp, tp, sp, false);
  const double moe_layer = attention_bytes + layer_bytes(moe_mlp, tp, sp, false);
  const double decoder_layer = 2 * attention_bytes + layer_bytes(dense_mlp, tp, sp, false);  // + cross-attention

  ActivationEstimate out;
  if (recompute == Recompute::selective && per_op) {
    // torchtitan's per-op selective checkpointing (selective_ac_option "op"): each layer keeps its input,
    // the attention output and every other matmul's output (Q, V, the MLP's first projection and, in a
    // gated MLP, its down projection, the seventh matmul; a plain MLP's down projection is the sixth and
    // recomputed), and recomputes the rest layer by layer in the backward pass
    // (torchtitan/models/llama3/parallelize.py, _save_list and the mm_count policy).
    const AttentionWidths widths = attention_widths(a);
    const double mlp_width = moe_layers > 0 ? expert_ffn_hidden(a) * (a.experts_per_token + a.shared_experts) : a.ffn_hidden;
    const double down_output = a.gated_mlp ? a.hidden / (sp ? tp : 1.0) : 0.0;
    const double kept = k.e * (a.hidden / (sp ? tp : 1.0) + (2 * widths.q + widths.v + mlp_width) / tp + down_output);
    out.all_layers_per_token = (a.layers + a.decoder_layers) * kept;
    out.one_layer_per_token = dense_layers > 0 ? dense_layer : moe_layer;
    return out;
  }
  if (recompute == Recompute::full) {
    // The layer rebuilt during backward holds everything, scores included unless FlashAttention.
    const double rebuilt_attention = layer_bytes(attention, tp, sp, !k.scores_free);
    out.one_layer_per_token = rebuilt_attention + layer_bytes(moe_layers > 0 ? moe_mlp : dense_mlp, tp, sp, false);
    if (a.decoder_layers > 0) out.one_layer_per_token += rebuilt_attention;
    // Only each layer's input is kept; one layer's activations are rebuilt at a time during backward
    // (Korthikanti et al. 2022, sec. 4.1: 2sbh per layer).
    const double layer_input = k.e * a.hidden / (sp ? tp : 1.0);
    out.all_layers_per_token = (a.layers + a.decoder_layers) * layer_input;
    return out;
  }
  out.all_layers_per_token = dense_layers * dense_layer + moe_layers * moe_layer + a.decoder_layers * decoder_layer;
  out.one_layer_per_token = out.all_layers_per_token / std::max(1.0, a.layers + a.decoder_layers);
  return out;
}

// The logits' bytes per token over the vocabulary (split by tp), by loss kernel, at their largest
// around the loss. Eager cross-entropy on the fp32 upcast holds at the loss the 16-bit logits, the fp32
// copy and the fp32 log-softmax (e + 8 bytes per logit; Korthikanti et al. 2022, sec. 4.1, count the
// fp32 copy, 4sbv); in the backward pass the log-softmax's backward holds its saved output, the incoming
// gradient and the gradient it writes, all fp32 (aten _log_softmax_backward_data allocates its result):
// 12 bytes, the larger, once the 16-bit logits are no longer referenced (torchtitan's train step deletes
// them before backward; a Hugging Face Trainer's outputs are gone when compute_loss returns). In fp32
// training the logits are the log-softmax's input, 8 bytes at the loss and 12 in its backward too.
// A fused kernel works in place on the 16-bit logits. A chunked
// loss (torchtune's CEWithChunkedOutputLoss, 8 chunks; LitGPT's chunked_cross_entropy) still keeps
// every chunk's fp32 log-softmax for the backward pass, since all chunks' losses are summed in the
// forward; only the gradient comes a chunk at a time. A fused linear cross-entropy holds one chunk.
using VocabParallelLoss = MemoryRegime::VocabParallelLoss;

double logits_bytes_per_token(CrossEntropy loss, double e, double vocab, double tp, VocabParallelLoss parallel,
                              bool compiled_chunks) {
  // Megatron-Core's (unfused) vocab-parallel cross-entropy copies the 16-bit logits to fp32 and
  // computes the softmax in place in that copy, which it saves; its gradient is written in place too
  // and cast back to 16 bits (megatron/core/tensor_parallel/cross_entropy.py, calculate_logits_max:
  // "vocab_parallel_logits.float()"): the 16-bit logits and the fp32 copy, 4 + e bytes per logit, at
  // the loss and again at the start of the backward pass.
  if (parallel == VocabParallelLoss::megatron && e < 4 && loss == CrossEntropy::eager) return (4.0 + e) * vocab / tp;
  // PyTorch's loss parallel (DTensor, what torchtitan runs with tp > 1) computes the log-softmax out of
  // place on the fp32 upcast (shifted logits, their exponential, the result) and, in the backward pass,
  // fuses the loss's and the log-softmax's gradients as (zeros with -1 at the targets + exp(log-probs))
  // x grad (torch/distributed/tensor/parallel/loss.py, _log_softmax and
  // _nll_loss_and_log_softmax_backward): the saved fp32 log-probabilities and three fp32 temporaries,
  // 16 bytes per logit, at the start of the backward pass.
  if (parallel == VocabParallelLoss::dtensor && tp > 1 && loss == CrossEntropy::eager) return 4 * 4.0 * vocab / tp;
  constexpr double chunks = 8;
  const double chunk = (e + 4.0 + 4.0) / chunks;
  switch (loss) {
    case CrossEntropy::eager:
      return std::max(e + 4.0 + 4.0, 12.0) * vocab / tp;
    case CrossEntropy::fused:
      return e * vocab / tp;
    case CrossEntropy::chunked:
      // Each chunk's loss compiled (torchtune's compile_loss wraps CEWithChunkedOutputLoss's
      // compute_cross_entropy in torch.compile; LitGPT compiles the model, not its chunked loss)
      // (torchtune/training/_compile.py) fuses the upcast and the log-softmax as the compiled loss does: every chunk's 16-bit logits stay for the backward pass, and
      // one chunk's 16-bit gradient at a time.
      if (compiled_chunks) return (e + e / chunks) * vocab / tp;
      return (e < 4 ? e + 4.0 : 4.0) * vocab / tp + chunk * vocab / tp;
    case CrossEntropy::fused_linear:
      return chunk * vocab / tp;
    case CrossEntropy::megatron_native:
      // Megatron-LM's native fused loss (--cross-entropy-loss-fusion, --cross-entropy-fusion-impl native,
      // the default) runs the unfused loss's in-place helpers under its jit_fuser, torch.compile since
      // PyTorch 2.2 (megatron/core/jit.py; megatron/core/fusions/fused_cross_entropy.py @d98e8a64).
      // Compiled, an in-place update of an input becomes a new buffer copied back: beside the 16-bit
      // logits and the fp32 copy, one more fp32 buffer, e + 8 bytes per logit where the unfused loss
      // keeps e + 4. Megatron-LM's golden values measure it: the same 12-layer GPT at tp 2, pp 2 peaks
      // 0.38 GiB higher with the fusion on (1.71 against 1.33 GiB), 3.7 bytes per local logit more.
      return (e + 8.0) * vocab / tp;
    case CrossEntropy::compiled:
      // Under torch.compile the upcast, log-softmax and loss fuse into kernels that read the 16-bit
      // logits and keep only per-row statistics; the backward kernel writes the gradient in 16 bits
      // (Inductor's fused reductions; torchtitan components/loss.py, torchtune's compile_loss): the
      // logits and their gradient, 2e bytes per logit.
      return 2 * e * vocab / tp;
  }
  return (e + 8.0) * vocab / tp;
}

// What the previous micro-batch leaves held through this one's forward pass, per token, where the
// training loop keeps its outputs (regime.previous_micro_batch_held, LitGPT): its 16-bit logits (none
// with a fused linear loss), and where each 4-bit matmul kept its input outside autograd's saved
// tensors (bitsandbytes before 0.43.2), those inputs, each tensor once: the QKV projection's (Q, K and
// V read one tensor; with latent attention the latents' up-projections' too), the output projection's,
// the MLP's first (the attention's own under one shared norm, as in Falcon and Phi-2; for an MoE layer
// the router's and shared experts', plus one copy per routed expert), the down projection's (per
// routed and shared expert), and the output head's.
struct PreviousMicroBatch {
  double layer = 0;  // per layer
  double head = 0;   // on the stage with the loss
};
PreviousMicroBatch previous_micro_batch_per_token(const Architecture& a, const MemoryRegime& regime,
                                                  const Training16& trains, Objective objective, double e, double tp,
                                                  bool sequence_parallel) {
  PreviousMicroBatch out;
  if (objective == Objective::language_model && regime.cross_entropy != CrossEntropy::fused_linear)
    out.head += e * a.vocab / tp;
  if (!trains.nf4_keeps_input) return out;
  const AttentionWidths widths = attention_widths(a);
  const bool latent = latent_attention(a);
  const double shared_norm = a.norms_per_layer <= 1 ? 1.0 : 0.0;
  const double moe_share = a.layers > 0 ? moe_layer_count(a) / a.layers : 0.0;
  // Inputs outside the tensor-parallel region are split only with Megatron-style sequence parallelism.
  const double replicated_split = sequence_parallel && !regime.sp_keeps_gathered ? tp : 1.0;
  const double replicated = a.hidden + (1 - shared_norm) * a.hidden + moe_share * a.experts_per_token * a.hidden +
                            (latent ? a.q_lora_rank + a.kv_lora_rank : 0.0);
  const double mlp_down =
      (1 - moe_share) * a.ffn_hidden + moe_share * (a.experts_per_token + a.shared_experts) * expert_ffn_hidden(a);
  out.layer = e * (replicated / replicated_split + ((latent ? widths.v : widths.q) + mlp_down) / tp);
  if (regime.nf4_output_head) out.head += e * a.hidden / replicated_split;
  return out;
}

// What one pipeline rank holds: its weights, and the activations in flight there.
struct Stage {
  PipelineStage stage = PipelineStage::only;
  double pipeline_rank = 0;
  double layers = 0;          // transformer blocks here
  double params = 0;          // before ZeRO sharding
  double routed = 0;          // of params, in routed experts
  double layers_share = 1;    // of all layers' activations, as many micro-batches as are in flight
  double embedding = 0;       // input embedding parameters here
  bool logits = true;         // the loss runs here
};

// A phase's composition while the stages are weighed: literal names, at most eight parts, no
// allocation (the planner weighs about a million layouts a second); the report's strings are made
// for the worst stage only.
struct PhaseParts {
  const char* name = "";
  double bytes = 0;  // the sum of parts, in their order
  std::array<std::pair<const char*, double>, 8> parts{};
  std::size_t n = 0;
  void add(const char* part, double part_bytes) {
    parts[n++] = {part, part_bytes};
    bytes += part_bytes;
  }
};

}  // namespace

double usable_capacity_bytes(const HardwareReport& hardware) { return units::gib_to_bytes(hardware.usable_memory_gib); }

LikelyRange memory_range() { return {"memory", 0.9589, 1.1122, 159, 10, 4}; }

namespace {

// What the memory model assumes (framework, regime, attention and loss kernels), with the adapters'
// precision and the 4-bit format where they apply.
MemoryAssumptions memory_assumptions(const MemoryRegime& regime, const Training& t) {
  return {static_cast<const MemoryChoices&>(regime),
          t.method != FinetuneMethod::full ? std::optional(regime.adapter_precision) : std::nullopt,
          t.method == FinetuneMethod::qlora ? std::optional(regime.quantization) : std::nullopt};
}

// Micro-batches per step, when the batch says: with fewer than pp, fewer are in flight.
std::optional<double> micro_batches_per_step(const Training& t, const ParallelismReport& layout, double seq) {
  const double dp = layout.dp;
  std::optional<double> micro_batches;
  if (t.global_batch_sequences) micro_batches = *t.global_batch_sequences / (layout.micro_batch * dp);
  if (t.global_batch_tokens) micro_batches = *t.global_batch_tokens / (seq * layout.micro_batch * dp);
  return micro_batches;
}

// The pipeline ranks worth weighing: the only one, or the first, (a middle one,) the last.
struct PipelineStages {
  std::array<Stage, 3> stages;
  std::size_t count = 0;
  void add(const Stage& st) { stages[count++] = st; }
};

// 1F1B: pipeline rank r runs min(pp - r - 1, m) warm-up forwards before its first backward, so
// it holds min(pp - r, m) micro-batches of L/pp layers: the first stage L layers' worth, the last
// one micro-batch. Interleaved with v chunks of L/(pp v) layers, the warm-up is (pp - r - 1) x 2
// + (v - 1) x pp chunk-forwards, at most all m v of them (Megatron-LM, pipeline_parallel/
// schedules.py, forward_backward_pipelining_with_interleaving; microbatch_group_size_per_vp_stage
// defaults to pp): the first stage L(1 + (pp-1)/(pp v)), as Korthikanti et al. 2022, sec. 4.2.3,
// count; the last L((v-1) pp + 1)/(pp v).
// With uneven stages, rank r holds min(pp - r, m) micro-batches of its own layers. Interleaved,
// its n chunk-forwards in flight go to model chunk (k / pp) mod v in turn (Megatron-LM's
// get_model_chunk_id, groups of pp micro-batches per chunk): the first stage's first chunk and the
// last stage's last chunk may be lighter, and are counted as often as they run.
struct InFlight {
  double pp = 1, v = 1, m = 1, blocks = 1;
  StageLayers layers_on;
  // The share of all layers' activations that rank `rank`, holding `layers_here` layers, keeps.
  double share(double rank, double layers_here) const {
    if (v <= 1) return std::min(pp - rank, m) * layers_here / blocks;
    const double n = std::min((pp - rank - 1) * 2 + (v - 1) * pp + 1, m * v);
    const double chunk = layers_on.chunk > 0 ? layers_on.chunk : layers_here / v;
    const double full = v * chunk;
    double light_index = -1, light_layers = chunk;
    if (rank == 0 && layers_here < full) light_index = 0, light_layers = chunk - (full - layers_here);
    if (rank == pp - 1 && layers_here < full) light_index = v - 1, light_layers = chunk - (full - layers_here);
    double layers = n * chunk;
    if (light_index >= 0) {
      const double cycle = pp * v;
      const double to_light = std::floor(n / cycle) * pp +
                              std::clamp(std::fmod(n, cycle) - light_index * pp, 0.0, pp);
      layers -= to_light * (chunk - light_layers);
    }
    return layers / blocks;
  }
};

// A stage's parameters outside the embedding and head: the body's, and the routed experts' (its share
// of them over ep).
struct StageParams {
  double body = 0, routed = 0;
};

// A stage of n layers holds n/L of the body and of the routed experts (its share of them over ep).
// A mixture of experts whose leading layers are dense (DeepSeek's first_k_dense_replace) is not
// even across stages: Megatron-LM gives each stage consecutive layers, so the first stage holds
// the dense layers and the last only MoE layers, each with its routed experts.
// (With interleaving a rank holds v chunks spread over the model; the even split is kept then.)
struct ParamSplit {
  const std::optional<Architecture>& held;
  double body = 0, routed = 0, blocks = 1, ep = 1;
  bool dense_first = false;
  double dense_body = 0, moe_body = 0, moe_routed = 0;  // one dense layer's, one MoE layer's
  StageParams of(double first_layer, double n) const {
    StageParams out;
    if (!dense_first) {
      out.routed = routed * n / (blocks * ep);
      out.body = body * n / blocks;
      return out;
    }
    const double dense_here = std::clamp(held->dense_layers - first_layer, 0.0, n);  // leading layers are dense
    const double moe_here = n - dense_here;
    out.body = dense_here * dense_body + moe_here * moe_body;
    out.routed = moe_here * moe_routed / ep;
    return out;
  }
};

ParamSplit param_split(const std::optional<Architecture>& held, double body, double routed, double blocks, double ep,
                       double v) {
  ParamSplit split{held, body, routed, blocks, ep};
  split.dense_first = held && moe_layer_count(*held) > 0 && held->dense_layers > 0 && held->decoder_layers == 0 &&
                      v <= 1;
  if (split.dense_first) {
    Architecture one = *held;
    one.layers = 1;
    one.dense_layers = 1;
    const ParameterCount dense = count_parameters(one);
    one.dense_layers = 0;
    const ParameterCount moe = count_parameters(one);
    split.dense_body = dense.total - dense.embedding - dense.output_head;
    split.moe_body = moe.total - moe.embedding - moe.output_head - moe.routed_experts;
    split.moe_routed = moe.routed_experts;
  }
  return split;
}

// The stages to weigh: their layers, their parameters (before ZeRO sharding) and the share of all
// layers' activations each holds in flight.
PipelineStages pipeline_stages(const Scenario& s, const ModelReport& model, const ParallelismReport& layout,
                               const std::optional<Architecture>& arch, const std::optional<Architecture>& held,
                               const std::optional<ParameterCount>& count, std::optional<double> micro_batches) {
  const double tp = layout.tp, pp = layout.pp, ep = layout.ep;
  PipelineStages out;
  const double total = count ? count->total : model.params;
  const double embedding = count ? count->embedding : 0.0;
  const double head = count ? count->output_head : 0.0;
  const double routed = count ? count->routed_experts : 0.0;
  const bool tied = held && held->tied_embeddings;
  const double body = total - embedding - head - routed;
  const double blocks = arch ? arch->layers + arch->decoder_layers : 1.0;
  // Layers on the first, the heaviest middle and the last stage (even where they divide; an unknown
  // architecture's parameters split evenly).
  StageLayers layers_on = pipeline_stage_layers(s, pp, layout.virtual_stages);
  if (!layers_on.valid)
    layers_on = {blocks / pp, pp > 2 ? blocks / pp : 0.0, blocks / pp, true};
  if (pp <= 1) {
    out.add({PipelineStage::only, 0, blocks, (body + routed / ep + embedding + head) / tp, routed / ep / tp, 1.0, embedding / tp,
             true});
    return out;
  }
  const double v = layout.virtual_stages;
  const double m = std::max(1.0, micro_batches.value_or(1e9));
  const InFlight in_flight{pp, v, m, blocks, layers_on};
  const double first_share = in_flight.share(0, layers_on.first);
  const double last_share = in_flight.share(pp - 1, layers_on.last);
  const ParamSplit split = param_split(held, body, routed, blocks, ep, v);
  const StageParams first = split.of(0, layers_on.first);
  const StageParams last = split.of(blocks - layers_on.last, layers_on.last);
  // DualPipe: rank r holds stages r and pp - 1 - r, twice a stage's parameters, and pp + 1
  // micro-batches of a stage's activations (arXiv:2412.19437, sec. 3.2.1, table 2); half the
  // micro-batches enter at each end, so each passes a rank once: at most m of them. Rank 0 holds
  // the first and the last stage, with the embedding, the output head and the loss; rank 1 two of
  // the stages between (heavier where the ends are lighter).
  if (s.strategy.pp_schedule == PipelineSchedule::dualpipe) {
    const double units = std::min(pp + 1, m);
    out.add({PipelineStage::first, 0, layers_on.first + layers_on.last,
             (first.body + first.routed + embedding + last.body + last.routed + (tied ? embedding : head)) / tp,
             (first.routed + last.routed) / tp, units * (layers_on.first + layers_on.last) / 2 / blocks,
             embedding / tp, true});
    if (pp > 2 && layers_on.middle > 0) {
      const StageParams middle = split.of(layers_on.first, layers_on.middle);
      const StageParams other = split.of(blocks - layers_on.last - layers_on.middle, layers_on.middle);
      out.add({PipelineStage::middle, 1, 2 * layers_on.middle, (middle.body + middle.routed + other.body + other.routed) / tp,
               (middle.routed + other.routed) / tp, units * layers_on.middle / blocks, 0.0, false});
    }
    return out;
  }
  // The first stage holds the embedding, the last the output head (with tied embeddings, a copy of
  // the embedding, as Megatron-LM does) and the loss.
  out.add({PipelineStage::first, 0, layers_on.first, (first.body + first.routed + embedding) / tp, first.routed / tp, first_share,
           embedding / tp, false});
  // Stages between with more layers than the first (uneven stages): the first of them, rank 1, holds
  // pp - 1 micro-batches of them.
  if (pp > 2 && layers_on.middle > layers_on.first) {
    const StageParams middle = split.of(layers_on.first, layers_on.middle);
    out.add({PipelineStage::middle, 1, layers_on.middle, (middle.body + middle.routed) / tp, middle.routed / tp,
             in_flight.share(1, layers_on.middle), 0.0, false});
  }
  out.add({PipelineStage::last, pp - 1, layers_on.last, (last.body + last.routed + (tied ? embedding : head)) / tp,
           last.routed / tp, last_share, 0.0, true});
  return out;
}

// How the model's states are held: bytes per parameter, what is offloaded, and the shards.
// ZeRO shards over the data-parallel group (with context parallelism, data x context ranks, as
// Megatron's distributed optimizer does); routed experts' states over the expert-data-parallel
// group, dp x cp / ep (Rajbhandari et al. 2020, fig. 1). FSDP and ZeRO-3 shard frozen weights too.
struct StateBytes {
  double dense_shard = 1, expert_shard = 1;
  bool offload_optimizer = false, offload_params = false, paged_optimizer = false;
  ParamBytes trainable_bytes;
  double frozen_bytes = 0;
  double layer_params = 0;  // one layer's matmul parameters on a GPU, as ZeRO-3/FSDP gathers them
  // How many ways `params` (of them `routed` in routed experts) are sharded, on average.
  double shard_divisor(double params, double routed) const {
    const double sharded_params = (params - routed) / dense_shard + routed / expert_shard;
    return sharded_params > 0 ? params / sharded_params : 1.0;
  }
};

StateBytes state_bytes(const Scenario& s, const MemoryRegime& regime, Precision precision,
                       const ParallelismReport& layout, const std::optional<Architecture>& arch,
                       const std::optional<ParameterCount>& count) {
  const double tp = layout.tp, cp = layout.cp, ep = layout.ep, dp = layout.dp;
  const bool frozen_base = s.training.method != FinetuneMethod::full;
  StateBytes b;
  b.dense_shard = dp * cp;
  b.expert_shard = std::max(1.0, dp * cp / ep);
  b.offload_optimizer = s.strategy.offload != Offload::none;
  b.offload_params = s.strategy.offload == Offload::optimizer_and_params;
  b.paged_optimizer =
      s.strategy.optimizer == Optimizer::paged_adamw || s.strategy.optimizer == Optimizer::paged_adamw_8bit;
  b.trainable_bytes = trainable_param_bytes(regime, precision, s.strategy.optimizer, /*adapter=*/frozen_base);
  b.frozen_bytes = frozen_weight_bytes(regime, precision);
  // What gets gathered per layer under ZeRO-3/FSDP: the 16-bit compute copy (FSDP2 mixed precision) or
  // the weights as held.
  b.layer_params = count ? ((count->linear - count->routed_experts) + count->routed_experts / ep) /
                               (arch->layers + 2 * arch->decoder_layers) / tp
                         : 0.0;
  return b;
}

// What one token of a micro-batch holds, the same for every stage (scaled by the layers in flight).
struct PerToken {
  bool known = false;                  // the architecture is known, so activations are counted
  double all_layers_per_token = 0;     // every layer's kept activations
  double rebuilt_layer_per_token = 0;  // the layer rebuilt for its backward pass
  double logits_per_token = 0;         // the loss's logits
  double head_input_per_token = 0;     // the final norm's and the output head's inputs
  PreviousMicroBatch previous_per_token;
};

// Activations per token (the same for every stage, scaled by the layers in flight), the logits and
// the head's inputs on the last stage, and what the previous micro-batch leaves held.
PerToken per_token_bytes(const Scenario& s, const MemoryRegime& regime, const ParallelismReport& layout,
                         Precision precision, double e, const Training16& trains, double seq, Issues& warnings) {
  const std::optional<Architecture>& arch = s.model.architecture;
  const Training& t = s.training;
  const double tp = layout.tp, cp = layout.cp;
  PerToken out;
  Kernels kernels;
  kernels.e = e;
  kernels.fused_elementwise = regime.fused_elementwise;
  kernels.rmsnorm = !arch || arch->norm == NormKind::rms;
  kernels.scores_free = keeps_no_scores(regime.attention);
  kernels.fp8_linear_inputs = precision == Precision::fp8 && regime.transformer_engine;
  // Megatron's fused softmax, refused for this layout's shapes, runs PyTorch's softmax in fp32 in its
  // place, which saves its fp32 output as eager attention does (memory_regime.cpp).
  kernels.softmax_fp32 =
      regime.attention == AttentionKernel::eager ||
      (arch && softmax_falls_back(regime.attention, softmax_shape(*arch, layout, seq, e < 4)));
  kernels.sp_keeps_gathered = regime.sp_keeps_gathered;
  const Recompute recompute = layout.recompute;
  if (arch) {
    const ActivationEstimate a =
        activation_per_token(*arch, kernels, trains, seq / cp, tp, layout.sequence_parallel, recompute,
                             per_op_selective(recompute, regime));
    out.all_layers_per_token = a.all_layers_per_token;
    const bool rebuilds = recompute == Recompute::full || per_op_selective(recompute, regime);
    out.rebuilt_layer_per_token = rebuilds ? a.one_layer_per_token : 0.0;
    if (s.strategy.activation_offload) {
      // Offloaded activations (with recomputation, the layers' inputs) wait in CPU memory; the layer
      // being computed and the next one's prefetch stay (torchtune's OffloadActivations streams them
      // per layer).
      out.all_layers_per_token *= std::min(1.0, 2.0 / std::max(1.0, arch->layers + arch->decoder_layers));
    }
    out.known = true;
  } else {
    warnings.push_back({"memory.activations", "activation_memory_unknown",
                        "Activation memory needs the architecture (layers, hidden, heads, ...); with params only it "
                        "is not counted."});
  }
  if (arch && t.objective == Objective::language_model)
    out.logits_per_token = logits_bytes_per_token(regime.cross_entropy, e, arch->vocab, tp,
                                                  regime.vocab_parallel_loss, regime.compiled_loss_chunks);
  // The final norm's input and the output head's input, on the last stage.
  out.head_input_per_token =
      arch ? norm_bytes(kernels, trains.full) * arch->hidden / (layout.sequence_parallel ? tp : 1.0) +
                 (trains.full || (trains.nf4_keeps_input && regime.nf4_output_head)
                      ? e * arch->hidden / (layout.sequence_parallel && !regime.sp_keeps_gathered ? tp : 1.0)
                      : 0.0)
           : 0.0;

  out.previous_per_token =
      regime.previous_micro_batch_held && arch
          ? previous_micro_batch_per_token(*arch, regime, trains, t.objective, e, tp, layout.sequence_parallel)
          : PreviousMicroBatch{};
  return out;
}

// The runtime outside the allocator (the CUDA context, NCCL's buffers), and the cuBLAS workspaces
// inside it.
MemoryOverhead runtime_overhead(const Scenario& s, const MemoryRegime& regime, const ParallelismReport& layout) {
  const double tp = layout.tp, pp = layout.pp, cp = layout.cp, ep = layout.ep, dp = layout.dp;
  MemoryOverhead o;
  // CUDA context and kernels: 300-400 MB with lazy module loading, the default since CUDA 11.7 and
  // PyTorch 1.13 (PyTorch maintainers, pytorch/pytorch#107667; PR #86509 measured 274 MiB lazy against
  // 636 MiB eager on CUDA 11.7); 400 MiB is assumed. Eager loading on older stacks took 1,343 MiB on a
  // V100 (Hugging Face Transformers docs, "Model training anatomy"): set memory.cuda_context_gb.
  o.cuda_context =
      units::gb_to_bytes(s.memory.cuda_context_gb.value_or(400.0 * units::bytes_per_mib / units::bytes_per_gb));
  // NCCL keeps NCCL_BUFFSIZE (4 MiB) per channel and peer; at up to 32 channels and two ring peers,
  // 256 MiB per communicator in use (NCCL environment variable documentation).
  const double communicators = (tp > 1) + (pp > 1) + (dp > 1) + (cp > 1) + (ep > 1);
  o.communication =
      communicators *
      units::gb_to_bytes(s.memory.communication_gb.value_or(256.0 * units::bytes_per_mib / units::bytes_per_gb));
  // cuBLAS workspaces, allocated through the caching allocator (so counted in memory_allocated) on the
  // first matmul and kept: one per cuBLAS handle and stream, and autograd's backward thread has a handle
  // of its own beside the forward pass's. PyTorch's default CUBLAS_WORKSPACE_CONFIG is ":4096:2:16:8"
  // (8 MiB + 128 KiB), 32 MiB on Hopper (pytorch/pytorch#89027, aten/src/ATen/cuda/CublasHandlePool.cpp
  // parseChosenWorkspaceSize; the 32 MiB are the size the cuBLAS docs recommend for Hopper,
  // docs.nvidia.com/cuda/cublas "cublasSetWorkspace"). That is the rule of the PyTorch releases the
  // measured runs used (2022-2025); releases from 2026 give Blackwell 32 MiB too (pytorch#175344), 48 MiB
  // more per GPU. Transformer Engine keeps one more, 32 MiB on compute capability 9 and above and 4 MiB
  // below (transformer_engine/pytorch/module/base.py, get_cublas_workspace_size_bytes). About 0.1 GiB
  // on an H100 under Megatron: the constant that the small Megatron-LM CI models' allocated peaks
  // otherwise miss (engine/data/memory-validation.json). Only NVIDIA GPUs carry a compute capability;
  // on others (ROCm's hipBLASLt sizes its own, TPUs and Gaudi have no cuBLAS) nothing is counted.
  if (const auto cc = s.hardware.gpu.compute_capability) {
    const double torch_workspace = (*cc >= 9 && *cc < 10 ? 32.0 : 8.0 + 128.0 / 1024) * units::bytes_per_mib;
    const double te_workspace = (*cc >= 9 ? 32.0 : 4.0) * units::bytes_per_mib;
    o.matmul_workspace = 2 * torch_workspace + (regime.transformer_engine ? te_workspace : 0.0);
  }
  return o;
}

// The caching allocator holds more than is allocated: a fraction of the memory that comes and goes
// within a step (activations, logits, gradients), calibrated on the measured peaks that report both
// (engine/data/memory-validation.json; override with memory.fragmentation).
// With expandable segments the allocator maps pages into one growing segment per stream: freed
// blocks leave no unusable holes, and what is reserved is what is allocated (PyTorch docs, "CUDA
// semantics: Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF").
double fragmentation_fraction(const Scenario& s, const MemoryRegime& regime, Issues& warnings) {
  const double fragmentation =
      regime.expandable_segments ? 0.0 : s.memory.fragmentation.value_or(default_fragmentation);
  if (regime.expandable_segments && s.memory.fragmentation)
    warnings.push_back({"memory.fragmentation", "ignored",
                        "memory.fragmentation is ignored: with expandable segments (memory.expandable_segments, on "
                        "for framework fsdp2) the allocator reserves what it allocates.",
                        {{"reason", reason("fragmentation_expandable")}}});
  return fragmentation;
}

// What every stage's weighing shares: the layout, how the states are held, the bytes per token and
// the allocator's reserve.
struct StageInputs {
  const Scenario& s;
  const ParallelismReport& layout;
  const MemoryRegime& regime;
  const Training16& trains;
  const std::optional<Architecture>& arch;
  const std::optional<Architecture>& held;   // as the framework holds it
  const std::optional<ParameterCount>& count;  // of `held`
  Precision precision = Precision::bf16;
  double e = 2;  // bytes per activation element
  std::optional<double> micro_batches{};
  double first_in_flight = 1;  // micro-batches whose embedding output the first stage keeps
  double tokens = 0;           // per micro-batch on one GPU
  StateBytes states{};
  PerToken per_token{};
  double matmul_workspace = 0;
  double fragmentation = 0;
};

// One stage weighed: its states, runtime, activations and each phase's bytes.
struct StageResult {
  MemoryParts parts;
  std::array<PhaseParts, 3> phases;  // forward, backward, optimizer
  double gather = 0, workspace = 0, casts = 0, fragmentation = 0, allocated = 0, reserved = 0;
  double fp8_weights = 0;  // Transformer Engine's cached fp8 weights and transposes
  double previous = 0, previous_added = 0;  // held from the previous micro-batch; what that adds at the peak
  double weight_shard = 1, gradient_shard = 1, optimizer_shard = 1;
  double params = 0, trainable = 0, gradient_params = 0;
  bool unsharded_accumulation = false;
  bool stage_gathered = false;  // the whole stage's weights gathered through the step
  double weights_unsharded = 0;      // the stage's weights before ZeRO-3 sharding
  double synced_gradient_shard = 1;  // after the last micro-batch's reduce-scatter
  double gradients_held = 0;         // the gradients held at once
  double rebuilt = 0;                // the layer rebuilt for its backward pass
};

// A stage's model states: the parameters it holds, trains and keeps gradients for, how ZeRO shards
// each, and the bytes of the weights, gradients and optimizer states.
StageResult stage_states(const StageInputs& in, const Stage& st) {
  const Scenario& s = in.s;
  const Training& t = s.training;
  const MemoryRegime& regime = in.regime;
  const std::optional<Architecture>& arch = in.arch;
  const std::optional<ParameterCount>& count = in.count;
  const ParamBytes& trainable_bytes = in.states.trainable_bytes;
  const double frozen_bytes = in.states.frozen_bytes;
  const double tp = in.layout.tp, pp = in.layout.pp, cp = in.layout.cp, dp = in.layout.dp, zero = in.layout.zero;
  const bool frozen_base = t.method != FinetuneMethod::full;
  const bool offload_optimizer = in.states.offload_optimizer;
  const std::optional<double>& micro_batches = in.micro_batches;
  StageResult r;
  double trainable = st.params, trainable_routed = st.routed;
  double weights_unsharded = trainable_bytes.weight * st.params;
  if (frozen_base) {
    const double adapters =
        arch ? trainable_lora_params(*arch, t, /*per_token=*/false) * st.layers / (arch->layers + arch->decoder_layers) / tp
             : 0.0;
    trainable = adapters;
    trainable_routed = 0;
    // Frozen base weights in 16 bits for LoRA; for QLoRA the linear layers in 4-bit NormalFloat, the
    // embeddings, norms and output head in 16 bits.
    double frozen = frozen_bytes * st.params;
    if (t.method == FinetuneMethod::qlora) {
      // Without an architecture every weight is taken as a linear layer's.
      const double quantized = count ? count->linear + (regime.nf4_output_head ? count->output_head : 0.0) : 0.0;
      const double linear_share = count ? quantized / count->total : 1.0;
      frozen = st.params * (linear_share * nf4_bits_per_param(regime.quantization) / 8.0 +
                            (1 - linear_share) * frozen_bytes);
    }
    weights_unsharded = frozen + trainable_bytes.weight * trainable;
  }
  r.weights_unsharded = weights_unsharded;
  r.params = st.params;
  r.trainable = trainable;
  // What has gradient buffers: the trainable parameters, or under FSDP1 with adapters every
  // parameter of the wrapped blocks, adapters included (the embedding and head, frozen, sit in the
  // root unit, whose flat parameter needs no gradient).
  const bool fsdp_sharded = zero >= 3 && dp * cp > 1;
  double with_gradients = trainable, with_gradients_routed = trainable_routed;
  // (LitGPT refuses quantisation on more than one GPU, so QLoRA is not among them; without an
  // architecture the blocks cannot be told from the embedding and head.)
  if (t.method == FinetuneMethod::lora && regime.flat_gradients_cover_frozen && fsdp_sharded && count) {
    const double head_here = st.logits ? count->output_head / tp : 0.0;  // 0 when tied
    with_gradients = st.params - st.embedding - head_here + trainable;
    with_gradients_routed = st.routed;
  }
  r.gradient_params = with_gradients;
  r.weight_shard = zero >= 3 ? in.states.shard_divisor(st.params, st.routed) : 1.0;
  r.gradient_shard = zero >= 2 || (regime.regime == Regime::fsdp_mixed && zero >= 3)
                         ? in.states.shard_divisor(with_gradients, with_gradients_routed)
                         : 1.0;
  // Accumulating under no_sync, the gradients stay whole until the last micro-batch; so does a
  // pipeline stage's under FSDP2, whose weights stay gathered too.
  r.stage_gathered = regime.pipeline_holds_stage_unsharded && pp > 1 && fsdp_sharded;
  r.synced_gradient_shard = r.gradient_shard;  // after the last micro-batch's reduce-scatter
  if ((regime.no_sync_accumulation && fsdp_sharded && micro_batches && *micro_batches > 1) || r.stage_gathered) {
    r.gradient_shard = 1.0;
    r.unsharded_accumulation = true;
  }
  r.optimizer_shard = zero >= 1 ? in.states.shard_divisor(trainable, trainable_routed) : 1.0;
  MemoryParts& parts = r.parts;
  parts.weights = in.states.offload_params ? 0.0 : weights_unsharded / r.weight_shard;
  parts.gradients = offload_optimizer ? 0.0 : trainable_bytes.gradient * with_gradients / r.gradient_shard;
  parts.optimizer = offload_optimizer ? 0.0 : trainable_bytes.optimizer * trainable / r.optimizer_shard;
  // Paged optimizers (bitsandbytes) keep their states in CUDA unified memory, outside PyTorch's
  // caching allocator and its counters, paged to CPU memory when the GPU runs short (bitsandbytes
  // docs, "Paged optimizers"): they count neither in the peak nor against the capacity.
  // Any fp32 master copy stays with the framework.
  if (in.states.paged_optimizer && !offload_optimizer)
    parts.optimizer = trainable_param_bytes(regime, in.precision, Optimizer::sgd, frozen_base).optimizer * trainable /
                      r.optimizer_shard;
  // Updating each parameter as its gradient arrives holds one tensor's gradient at a time: at most
  // the embedding's (or one layer's matrices).
  r.gradients_held = parts.gradients;
  if (s.strategy.optimizer_in_backward && !offload_optimizer) {
    const double largest = count ? std::max(count->embedding / tp, in.states.layer_params) : 0.0;
    r.gradients_held = std::min(parts.gradients, trainable_bytes.gradient * std::min(largest, trainable));
    parts.gradients = r.gradients_held;  // what is ever held at once
  }
  return r;
}

// A stage's runtime inside the allocator: the weights ZeRO-3/FSDP gathers, QLoRA's dequantised
// matrices, Transformer Engine's fp8 weight copies and autocast's 16-bit weight casts.
void add_stage_runtime(const StageInputs& in, const Stage& st, StageResult& r) {
  const Scenario& s = in.s;
  const Training& t = s.training;
  const MemoryRegime& regime = in.regime;
  const std::optional<Architecture>& arch = in.arch;
  const std::optional<Architecture>& held = in.held;
  const std::optional<ParameterCount>& count = in.count;
  const double tp = in.layout.tp, cp = in.layout.cp, dp = in.layout.dp, zero = in.layout.zero;
  const double e = in.e;
  const double layer_params = in.states.layer_params;
  const bool frozen_base = t.method != FinetuneMethod::full;
  const bool fsdp_sharded = zero >= 3 && dp * cp > 1;
  MemoryParts& parts = r.parts;
  // ZeRO-3/FSDP gathers each layer's full weights before computing it, and prefetches the next.
  // (FSDP2 mixed precision gathers in the compute precision, e bytes: 16 bits, or fp32 in fp32.)
  const double gathered_bytes =
      regime.regime == Regime::fsdp_mixed ? e : (frozen_base ? in.states.frozen_bytes : in.states.trainable_bytes.weight);
  if ((zero >= 3 && dp * cp > 1) || in.states.offload_params) r.gather = 2 * layer_params * gathered_bytes;
  // A stage held gathered whole: every parameter's 16-bit compute copy (FSDP2 mixed precision), or the
  // weights as stored (an adapters' frozen base as stored, 4-bit included).
  if (r.stage_gathered)
    r.gather = regime.regime == Regime::fsdp_mixed && !frozen_base ? e * st.params : r.weights_unsharded;
  // FSDP's root unit (the embedding and output head here) stays gathered through the step.
  else if (fsdp_sharded && regime.root_unit_gathered && count) {
    const double root = (st.embedding > 0 ? count->embedding / tp : 0.0) + (st.logits ? count->output_head / tp : 0.0);
    r.gather += root * gathered_bytes;
  }
  // QLoRA dequantises each frozen matrix to 16 bits for its matmul (bitsandbytes' dequantize_4bit):
  // one layer's matrices at a time, or a quantised output head whole (it may be larger).
  if (t.method == FinetuneMethod::qlora) {
    const double head_here = count && regime.nf4_output_head && st.logits ? count->output_head / tp : 0.0;
    r.workspace = std::max(layer_params, head_here) * 2.0;
  }
  // Transformer Engine under fp8: Megatron-core passes is_first_microbatch, so each linear layer casts
  // its weight to fp8 once per step and keeps the cast for the step's other micro-batches, with its
  // transpose for the backward pass's GEMMs where the GPU's fp8 GEMMs take only the TN layout (Ada and
  // Hopper; Blackwell takes every layout, so Megatron's default delayed-scaling recipe keeps one copy
  // there; its MXFP8 recipe would keep two with their scales, not modelled):
  // transformer_engine/pytorch/module/linear.py (weight workspace cached under is_first_microbatch),
  // megatron/core/extensions/transformer_engine.py (TELinear.forward). Two bytes per linear parameter
  // beside the 16-bit weight on Hopper: fp8 raises the weights' memory (fp8 primary weights,
  // --fp8-param-gather, would drop the 16-bit copy; not modelled). The output head is not a Transformer
  // Engine layer. Under ZeRO-3 the gathered layer's cast would be transient: not counted there.
  // The layers' matmul weights on this stage (a decoder layer's cross-attention counted as a layer).
  const double layers_here =
      arch ? (arch->layers + 2 * arch->decoder_layers) * st.layers / (arch->layers + arch->decoder_layers) : 0.0;
  if (in.precision == Precision::fp8 && regime.transformer_engine && in.trains.full && arch && zero < 3) {
    const double per_param = s.hardware.gpu.compute_capability.value_or(9) >= 10 ? 1.0 : 2.0;
    r.fp8_weights = per_param * layer_params * layers_here;
    parts.weights += r.fp8_weights;
  }
  // Autocast (AMP on fp32 weights) casts each matmul's weight to 16 bits: a trainable weight's cast is
  // cached until the forward pass ends (PyTorch, aten/src/ATen/autocast_mode.cpp, cached_cast: leaf
  // tensors that require grad), a frozen one's is saved by autograd for the input gradient unless the
  // layer is recomputed. At the loss, one 16-bit copy of every matmul weight held here.
  if (regime.regime == Regime::amp && sixteen_bit(in.precision) && count && arch) {
    const double head_here = st.logits ? (held->tied_embeddings ? arch->vocab * arch->hidden : count->output_head) / tp
                                       : 0.0;
    const bool kept = !frozen_base || in.layout.recompute != Recompute::full;
    r.casts = kept ? 2.0 * (layer_params * layers_here + head_here) : 0.0;
  }
}

// A stage's activations in flight (and the layer rebuilt for its backward pass), its logits, and what
// the previous micro-batch leaves beside them.
void add_stage_activations(const StageInputs& in, const Stage& st, StageResult& r) {
  const std::optional<Architecture>& arch = in.arch;
  const double tp = in.layout.tp;
  const double e = in.e;
  const double tokens = in.tokens;
  const PerToken& per_token = in.per_token;
  MemoryParts& parts = r.parts;
  // With dropout on the embedding, its output and mask are kept too (Korthikanti et al.'s sbh, per
  // micro-batch in flight); without, the embedding's output is the first norm's input, counted there.
  const double embedding_kept = st.embedding > 0 && arch && arch->dropout
                                    ? e * arch->hidden / (in.layout.sequence_parallel ? tp : 1.0) * in.first_in_flight
                                    : 0.0;
  parts.activations = (per_token.all_layers_per_token * st.layers_share + embedding_kept) * tokens;
  r.rebuilt = per_token.rebuilt_layer_per_token * tokens;
  parts.activations += r.rebuilt;  // the layer rebuilt for its backward pass counts as activations
  parts.logits = st.logits ? (per_token.logits_per_token + per_token.head_input_per_token) * tokens : 0.0;
  // The previous micro-batch's leftovers go once this one's forward pass returns, before its loss:
  // they sit beside this micro-batch's 16-bit logits, not beside the loss's buffers.
  if (arch) {
    r.previous = (per_token.previous_per_token.layer * st.layers +
                  (st.logits ? per_token.previous_per_token.head : 0.0)) *
                 tokens;
    const double loss_buffers = st.logits && per_token.logits_per_token > 0
                                    ? std::max(0.0, per_token.logits_per_token - e * arch->vocab / tp) * tokens
                                    : 0.0;
    r.previous_added = std::max(0.0, r.previous - loss_buffers);
  }
}

// A stage's phases of a step, what each allocates, their peak, and the allocator's reserve on top.
void add_stage_phases(const StageInputs& in, const Stage& st, StageResult& r) {
  const Scenario& s = in.s;
  const double tp = in.layout.tp, pp = in.layout.pp, cp = in.layout.cp, dp = in.layout.dp;
  const std::optional<double>& micro_batches = in.micro_batches;
  const MemoryParts& parts = r.parts;
  // Gradient buffers stay allocated across micro-batches and whenever gradients are communicated
  // (DDP buckets, ZeRO partitions, Megatron's buffer); only a single GPU running one micro-batch per
  // step frees them between steps (PyTorch's zero_grad(set_to_none=True)).
  const bool single_gpu = tp * pp * cp * dp == 1;
  const bool gradients_between_steps = !(single_gpu && micro_batches && *micro_batches <= 1) &&
                                       !s.strategy.optimizer_in_backward;
  const double runtime = r.gather + r.workspace + in.matmul_workspace;
  // Forward (at the loss): every state, the activations in flight and the logits. Backward (end):
  // activations freed, all gradients present (or one at a time). Optimizer step: states only.
  PhaseParts& forward = r.phases[0];
  forward.name = "forward";
  forward.add("weights", parts.weights);
  forward.add("optimizer", parts.optimizer);
  forward.add("runtime", runtime + r.casts);
  if (gradients_between_steps) forward.add("gradients", parts.gradients);
  forward.add("activations", parts.activations);
  if (st.logits) forward.add("logits", parts.logits);
  if (r.previous_added > 0) forward.add("previous", r.previous_added);
  PhaseParts& backward = r.phases[1];
  backward.name = "backward";
  backward.add("weights", parts.weights);
  backward.add("optimizer", parts.optimizer);
  backward.add("runtime", runtime);
  backward.add("gradients", r.gradients_held);
  backward.add("recomputed", r.rebuilt);
  // The optimizer step sees the gradients as synchronised: sharded again after no_sync accumulation.
  PhaseParts& optimizer_step = r.phases[2];
  optimizer_step.name = "optimizer";
  optimizer_step.add("weights", parts.weights);
  optimizer_step.add("optimizer", parts.optimizer);
  optimizer_step.add("runtime", in.matmul_workspace);
  optimizer_step.add("gradients", r.gradients_held * r.gradient_shard / r.synced_gradient_shard);
  r.allocated = 0;
  for (const PhaseParts& p : r.phases) r.allocated = std::max(r.allocated, p.bytes);
  // What comes and goes within a step: activations, logits, the previous micro-batch's leftovers and
  // gradients.
  const double dynamic = parts.activations + parts.logits + r.previous_added + r.gradients_held;
  r.fragmentation = in.fragmentation * dynamic;
  r.reserved = r.allocated + r.fragmentation;
}

// One stage's peak over the phases of a step.
StageResult weigh_stage(const StageInputs& in, const Stage& st) {
  StageResult r = stage_states(in, st);
  add_stage_runtime(in, st, r);
  add_stage_activations(in, st, r);
  add_stage_phases(in, st, r);
  return r;
}

// The worst stage's peak as the page shows it: each phase's parts with the runtime around them folded
// into "overhead", the phase at the peak, and the overhead's parts.
void report_peak(MemoryReport& m, const StageResult& w, bool shown) {
  MemoryOverhead& o = m.overhead_bytes;
  o.gather = w.gather;
  o.workspace = w.workspace;
  o.fragmentation = w.fragmentation;
  MemoryParts& parts = m.per_gpu_bytes;
  parts = w.parts;
  m.allocated_bytes = w.allocated;
  m.reserved_bytes = w.reserved;
  const double outside = o.cuda_context + o.communication;
  // The phases as the page shows them: what each holds, with the runtime around it folded into
  // "overhead" (added last, so each total is the sum of its shown parts in their order).
  std::array<PhaseParts, 3> phases;
  for (std::size_t k = 0; k < phases.size(); ++k) {
    const PhaseParts& p = w.phases[k];
    PhaseParts& q = phases[k];
    q.name = p.name;
    double runtime = 0;
    for (std::size_t i = 0; i < p.n; ++i) {
      if (std::string_view(p.parts[i].first) == "runtime")
        runtime = p.parts[i].second;
      else
        q.add(p.parts[i].first, p.parts[i].second);
    }
    q.add("overhead", runtime + outside + w.fragmentation);
  }
  const PhaseParts& peak = *std::max_element(
      phases.begin(), phases.end(), [](const PhaseParts& a, const PhaseParts& b) { return a.bytes < b.bytes; });
  m.peak_phase = peak.name;
  // Autocast's copies are held at the loss only: part of the peak when the forward pass is.
  o.cast_copies = &peak == &phases[0] ? w.casts : 0.0;
  parts.overhead = o.cuda_context + o.communication + o.gather + o.workspace + o.matmul_workspace + o.cast_copies +
                   o.fragmentation;
  parts.total = peak.bytes;  // the same sum as the phase's, to the last bit
  if (shown) {
    const auto composition = [](const PhaseParts& p) {
      std::vector<std::pair<std::string, double>> out;
      out.reserve(p.n);
      for (std::size_t i = 0; i < p.n; ++i) out.emplace_back(p.parts[i].first, p.parts[i].second);
      return out;
    };
    m.phases.reserve(phases.size());
    for (const PhaseParts& q : phases) m.phases.push_back({q.name, q.bytes, composition(q)});
    m.at_peak = composition(peak);
    for (std::size_t i = 0; i < peak.n; ++i)
      if (std::string_view(peak.parts[i].first) != "recomputed") m.peak_parts.emplace_back(peak.parts[i].first);
  }
}

// The numbers behind the worst stage's parts, for "show the math".
void explain_stage(MemoryReport& m, const StageResult& w, const StageInputs& in) {
  MemoryExplanation& x = m.explain;
  const MemoryParts& parts = m.per_gpu_bytes;
  const bool offload_optimizer = in.states.offload_optimizer;
  const double tokens = in.tokens;
  x.params_per_gpu = w.params;
  x.trainable_params_per_gpu = w.trainable;
  x.gradient_params_per_gpu = w.gradient_params;
  x.weight_bytes_per_param =
      in.states.offload_params ? 0.0 : (w.params > 0 ? w.parts.weights * w.weight_shard / w.params : 0.0);
  x.gradient_bytes_per_param = offload_optimizer ? 0.0 : in.states.trainable_bytes.gradient;
  x.optimizer_bytes_per_param = offload_optimizer ? 0.0 : in.states.trainable_bytes.optimizer;
  x.weight_shard = w.weight_shard;
  x.gradient_shard = w.gradient_shard;
  x.gradients_unsharded_while_accumulating = w.unsharded_accumulation;
  x.stage_weights_gathered = w.stage_gathered;
  x.previous_micro_batch_bytes = w.previous;
  x.fp8_weight_copies_bytes = w.fp8_weights;
  x.optimizer_shard = w.optimizer_shard;
  x.tokens_per_micro_batch = tokens;
  x.activation_bytes_per_token = tokens > 0 ? parts.activations / tokens : 0.0;
  x.logits_bytes_per_token = in.per_token.logits_per_token;
  m.activation_bytes_per_micro_batch = parts.activations / in.layout.micro_batch;
}

// Whether the peak fits the GPU, by how much, and the largest micro-batch that fits.
void report_capacity(MemoryReport& m, const StageResult& w, const HardwareReport& hardware,
                     const ParallelismReport& layout, double fragmentation) {
  const MemoryParts& parts = m.per_gpu_bytes;
  m.capacity_bytes = usable_capacity_bytes(hardware);
  m.fits = parts.total <= m.capacity_bytes;
  m.headroom_bytes = m.fits ? m.capacity_bytes - parts.total : 0.0;
  m.shortfall_bytes = m.fits ? 0.0 : parts.total - m.capacity_bytes;

  // The largest micro-batch that fits: activations, logits and their fragmentation grow with it.
  if (m.activations_known) {
    const double per_sample =
        (parts.activations + parts.logits + w.previous_added) / layout.micro_batch * (1 + fragmentation);
    const double fixed = parts.total - per_sample * layout.micro_batch;
    m.max_micro_batch = per_sample > 0 ? std::max(0.0, std::floor((m.capacity_bytes - fixed) / per_sample)) : 0.0;
  }
}

}  // namespace

MemoryReport estimate_memory(const Scenario& s, const ModelReport& model, const ParallelismReport& layout,
                             const HardwareReport& hardware, const ComputeReport& compute, Issues& warnings,
                             MemoryDetail detail) {
  const bool shown = detail == MemoryDetail::full;
  const Precision precision = resolved_precision(s);
  const MemoryRegime regime = resolve_memory_regime(s);
  // Bytes per activation element: 16 bits in mixed precision (fp8 training keeps bf16 activations
  // outside the matmuls, Transformer Engine), 4 bytes in fp32/tf32.
  const double e = sixteen_bit(precision) ? 2.0 : 4.0;
  const Training& t = s.training;
  const double pp = layout.pp, cp = layout.cp;
  const Training16 trains = what_trains(t, regime);

  MemoryReport m;
  if (shown) m.assumptions = memory_assumptions(regime, t);

  // --- The pipeline ranks worth weighing -------------------------------------------------------------
  const double seq = compute.seq_len;
  const std::optional<double> micro_batches = micro_batches_per_step(t, layout, seq);
  const std::optional<Architecture>& arch = s.model.architecture;
  // The architecture as the framework holds it (LitGPT unties a tied output head).
  std::optional<Architecture> held = arch;
  if (held && regime.separate_output_head) held->tied_embeddings = false;
  std::optional<ParameterCount> count;
  if (held) count = count_parameters(*held);
  const PipelineStages stages = pipeline_stages(s, model, layout, arch, held, count, micro_batches);

  StageInputs in{s, layout, regime, trains, arch, held, count};
  in.precision = precision;
  in.e = e;
  in.micro_batches = micro_batches;
  // Micro-batches whose embedding output the first stage keeps.
  in.first_in_flight = pp > 1 ? std::max(1.0, std::min(pp, micro_batches.value_or(pp))) : 1;
  in.states = state_bytes(s, regime, precision, layout, arch, count);
  in.per_token = per_token_bytes(s, regime, layout, precision, e, trains, seq, warnings);
  m.activations_known = in.per_token.known;
  in.tokens = seq * layout.micro_batch / cp;  // context parallelism splits the sequence

  // --- Runtime outside the allocator -----------------------------------------------------------------
  m.overhead_bytes = runtime_overhead(s, regime, layout);
  const MemoryOverhead& o = m.overhead_bytes;
  in.matmul_workspace = o.matmul_workspace;
  in.fragmentation = fragmentation_fraction(s, regime, warnings);
  m.explain.fragmentation_fraction = in.fragmentation;

  // --- Each stage's peak over the phases of a step ---------------------------------------------------
  std::array<StageResult, 3> results;
  for (std::size_t i = 0; i < stages.count; ++i) results[i] = weigh_stage(in, stages.stages[i]);
  std::size_t worst = 0;
  for (std::size_t i = 1; i < stages.count; ++i)
    if (results[i].reserved > results[worst].reserved) worst = i;
  const StageResult& w = results[worst];
  const Stage& worst_stage = stages.stages[worst];
  m.worst_stage = worst_stage.stage;
  // The worst stage's activations in micro-batches of its own layers (interleaved chunks counted as
  // fractions of one).
  m.micro_batches_in_flight =
      pp > 1 && worst_stage.layers > 0
          ? worst_stage.layers_share * (arch ? arch->layers + arch->decoder_layers : 1.0) / worst_stage.layers
          : 1;
  m.worst_pipeline_rank = worst_stage.pipeline_rank;
  for (std::size_t i = 0; shown && i < stages.count; ++i) {
    m.stage_bytes.emplace_back(stages.stages[i].stage, results[i].reserved + o.cuda_context + o.communication);
    m.stage_allocated_bytes.emplace_back(stages.stages[i].stage, results[i].allocated);
  }

  report_peak(m, w, shown);
  explain_stage(m, w, in);
  report_capacity(m, w, hardware, layout, in.fragmentation);
  return m;
}

}  // namespace traincalc::detail

namespace traincalc::detail {

namespace {
MemoryReport memory_at(const Scenario& s, double gpus, const ModelReport& model, const HardwareReport& hardware,
                       const ComputeReport& compute) {
  Issues ignored;
  return estimate_memory(s, model, resolve_layout(s, gpus, ignored), hardware, compute, ignored);
}
}  // namespace

std::optional<double> max_seq_len_that_fits(const Scenario& s, const ModelReport& model,
                                            const ParallelismReport& layout, const HardwareReport& hardware,
                                            const ComputeReport& compute) {
  if (!s.model.architecture) return std::nullopt;
  Issues ignored;
  // Longer sequences at the same micro-batches per step: a batch given in tokens is held in sequences.
  Scenario fixed = s;
  if (fixed.training.global_batch_tokens) {
    fixed.training.global_batch_sequences = *fixed.training.global_batch_tokens / compute.seq_len;
    fixed.training.global_batch_tokens.reset();
  }
  // At micro-batch 1 unless the user fixed one: the longest sequence the run can take, not the longest
  // at the micro-batch the planner chose for the sequence length given.
  ParallelismReport one = layout;
  one.micro_batch = s.strategy.micro_batch.value_or(1);
  auto fits = [&](double seq) {
    ComputeReport c = compute;
    c.seq_len = seq;
    return estimate_memory(fixed, model, one, hardware, c, ignored).fits;
  };
  // Memory grows with the sequence (linearly, quadratically with stored scores): bisect over whole
  // tokens, in multiples of the context-parallel degree, up to the contract's 10 million.
  const double step = layout.cp;
  double low = 0, high = std::floor(1e7 / step);
  if (!fits(step)) return 0.0;
  if (fits(high * step)) return high * step;
  low = 1;
  while (high - low > 1) {
    const double mid = std::floor((low + high) / 2);
    (fits(mid * step) ? low : high) = mid;
  }
  return low * step;
}

std::optional<double> min_gpus_that_fit(const Scenario& s, const ModelReport& model, const HardwareReport& hardware,
                                        const ComputeReport& compute) {
  const double group = s.strategy.tp.value_or(1) * s.strategy.pp.value_or(1) * s.strategy.cp.value_or(1);
  // Data-parallel degrees the layout allows: expert parallelism is carved out of dp x cp, so dp x cp
  // must be a multiple of ep; a known global batch caps dp at batch / micro-batch.
  const double cp = s.strategy.cp.value_or(1), ep = s.strategy.ep.value_or(1);
  const double step = ep / std::gcd(static_cast<long long>(ep), static_cast<long long>(cp));
  double most = std::floor(1e7 / group / step);
  if (s.training.global_batch_sequences)
    most = std::min(most, std::floor(*s.training.global_batch_sequences / s.strategy.micro_batch.value_or(1) / step));
  if (most < 1) return std::nullopt;
  auto fits = [&](double k) { return memory_at(s, k * step * group, model, hardware, compute).fits; };
  // Memory per GPU only shrinks as data parallelism grows (ZeRO shards more finely; the rest stays),
  // so double until it fits, then bisect.
  double high = 1;
  while (high <= most && !fits(high)) high *= 2;
  if (high > most) {
    if (!fits(most)) return std::nullopt;
    high = most;
  }
  double low = std::floor(high / 2);  // does not fit (or 0)
  while (high - low > 1) {
    const double mid = std::floor((low + high) / 2);
    (fits(mid) ? high : low) = mid;
  }
  return high * step * group;
}

namespace {

// More GPUs: the fewest at which the chosen layout, with ZeRO-3 over a larger data-parallel group,
// fits; what the user then gets is estimated as usual.
std::optional<MemorySuggestion> more_gpus_suggestion(const Scenario& s, const Scenario& pinned, const Report& r,
                                                     const MemoryProbe& probe) {
  const ParallelismReport& layout = r.parallelism;
  const Strategy& st = s.strategy;
  Scenario wider = pinned;
  if (layout.zero < 3) wider.strategy.zero = 3;
  // Never more than the offer can join into one job.
  const double most = s.pricing && s.pricing->max_gpus ? *s.pricing->max_gpus : 1e300;
  auto gpus = min_gpus_that_fit(wider, r.model, r.hardware, r.compute);
  if (!(gpus && *gpus > r.plan.gpus && *gpus <= most)) return std::nullopt;
  Scenario v = s;
  v.hardware.count = *gpus;
  // The count was found with ZeRO-3: where the user fixed a lower stage, the suggestion raises it.
  const bool raise_zero = st.zero && layout.zero < 3;
  if (raise_zero) v.strategy.zero = 3;
  if (st.dp) v.strategy.dp.reset();
  const MemoryReport m = probe(v, *gpus);
  MemorySuggestion more{{{"hardware.count", *gpus}}, m.per_gpu_bytes.total, m.fits};
  if (raise_zero) more.changes.push_back({"strategy.zero", 3.0});
  return more;
}

// A GPU with more memory: the smallest in the catalog that holds this scenario's peak on it, at this
// precision (its own peak: the cuBLAS workspaces and the attention kernel follow the GPU); among equals
// the fastest.
std::optional<MemorySuggestion> larger_gpu_suggestion(const Scenario& s, const Report& r, const Catalog& catalog,
                                                      const MemoryProbe& probe) {
  const Strategy& st = s.strategy;
  const Precision precision = resolved_precision(s);
  const auto usable_bytes = [](const GpuSpec& gpu) { return units::gib_to_bytes(usable_memory_gib(gpu)); };
  // What follows the GPU is a small part of the peak (workspaces, fp8 copies, the attention kernel):
  // only GPUs within 10% of this peak are worth estimating again.
  std::vector<const GpuSpec*> candidates;
  // QLoRA's 4-bit layers and the 8-bit optimizer are bitsandbytes' CUDA kernels: only NVIDIA GPUs
  // (never an Ascend or a TPU for them).
  const bool needs_cuda = s.training.method == FinetuneMethod::qlora || st.optimizer == Optimizer::adamw_8bit;
  for (const GpuSpec& gpu : catalog.gpus)
    if (dense_peak_tflops(gpu, precision) && usable_bytes(gpu) > r.memory.capacity_bytes &&
        (!needs_cuda || gpu.vendor == "NVIDIA") &&
        usable_bytes(gpu) >= 0.9 * r.memory.per_gpu_bytes.total)
      candidates.push_back(&gpu);
  std::stable_sort(candidates.begin(), candidates.end(), [&](const GpuSpec* a, const GpuSpec* b) {
    if (a->memory_gb != b->memory_gb) return a->memory_gb < b->memory_gb;
    return *dense_peak_tflops(*a, precision) > *dense_peak_tflops(*b, precision);
  });
  for (const GpuSpec* gpu : candidates) {
    Scenario v = s;
    v.hardware.gpu = *gpu;
    const MemoryReport m = probe(v, r.plan.gpus);
    if (m.per_gpu_bytes.total > usable_bytes(*gpu)) continue;
    return MemorySuggestion{{{"hardware.gpu", gpu->id}}, m.per_gpu_bytes.total, true};
  }
  return std::nullopt;
}

}  // namespace

std::vector<MemorySuggestion> memory_suggestions(const Scenario& s, const Scenario& pinned, const Report& r,
                                                 const Catalog* catalog, const MemoryProbe& probe) {
  std::vector<MemorySuggestion> out;
  if (r.memory.fits) return out;
  const ParallelismReport& layout = r.parallelism;
  // Each variant is the user's scenario with one change, estimated as the user would get it (the
  // planner re-plans what is "auto").
  auto variant = [&](const char* field, std::variant<double, std::string> value, auto change) {
    Scenario v = s;
    change(v);
    const MemoryReport m = probe(v, r.plan.gpus);
    // Only what helps: a change that saves nothing here (selective recomputation under
    // FlashAttention, say) is not offered.
    if (m.per_gpu_bytes.total < r.memory.per_gpu_bytes.total * (1 - 1e-9))
      out.push_back({{{field, std::move(value)}}, m.per_gpu_bytes.total, m.fits});
  };
  // In the order to try them: the workload's own shape and the software first (a shorter sequence, a
  // smaller micro-batch, recomputation, an 8-bit optimizer, a loss kernel that keeps no whole logits),
  // then sharding and offload, a lighter method, and only then other hardware.
  // Layout fields the planner searched were already weighed; only fixed ones are worth changing.
  const Strategy& st = s.strategy;
  const bool data_parallel = layout.dp * layout.cp > 1;
  const bool searched = layout.chosen_by == ChosenBy::planner;
  // The longest sequence that fits this layout, in whole 256-token blocks (fine-tuning samples are
  // often far shorter than the model's context).
  if (r.memory.max_seq_len && *r.memory.max_seq_len >= 1 && *r.memory.max_seq_len < r.compute.seq_len) {
    const double longest = *r.memory.max_seq_len;
    const double len = longest >= 512 ? std::floor(longest / 256) * 256 : std::floor(longest);
    variant("training.seq_len", len, [len](Scenario& v) { v.training.seq_len = len; });
  }
  if (st.micro_batch && layout.micro_batch > 1)
    variant("strategy.micro_batch", 1.0, [](Scenario& v) { v.strategy.micro_batch = 1; });
  if (st.recompute && r.memory.activations_known && *st.recompute == Recompute::none)
    variant("strategy.recompute", "selective", [](Scenario& v) { v.strategy.recompute = Recompute::selective; });
  if (st.recompute && r.memory.activations_known && *st.recompute != Recompute::full)
    variant("strategy.recompute", "full", [](Scenario& v) { v.strategy.recompute = Recompute::full; });
  // bitsandbytes' 8-bit AdamW (1 byte per state instead of 4): its CUDA kernels, NVIDIA GPUs only.
  const bool nvidia = s.hardware.gpu.vendor.empty() || s.hardware.gpu.vendor == "NVIDIA";
  if (nvidia && (st.optimizer == Optimizer::adamw || st.optimizer == Optimizer::adam) &&
      s.training.method == FinetuneMethod::full)
    variant("strategy.optimizer", "adamw-8bit", [](Scenario& v) { v.strategy.optimizer = Optimizer::adamw_8bit; });
  // A loss kernel that never holds the whole fp32 logits (Liger's fused linear cross-entropy).
  if (r.memory.activations_known && (!st.cross_entropy || *st.cross_entropy == CrossEntropy::eager) &&
      resolve_memory_regime(s).cross_entropy == CrossEntropy::eager)
    variant("strategy.cross_entropy", "fused_linear", [](Scenario& v) { v.strategy.cross_entropy = CrossEntropy::fused_linear; });
  // A layout the planner did not search: its ZeRO stage is worth raising (with a parameter count only
  // the sharding was already weighed unless the user fixed it).
  if ((st.zero || !searched) && layout.zero < 3 && data_parallel)
    variant("strategy.zero", 3.0, [](Scenario& v) { v.strategy.zero = 3; });
  if (s.strategy.offload == Offload::none && s.training.method == FinetuneMethod::full)
    variant("strategy.offload", "optimizer", [](Scenario& v) { v.strategy.offload = Offload::optimizer; });
  if (s.training.type == TrainingType::finetune && s.model.architecture) {
    if (s.training.method == FinetuneMethod::full)
      variant("training.method", "lora", [](Scenario& v) { v.training.method = FinetuneMethod::lora; });
    const bool sixteen_bit = r.hardware.precision == Precision::bf16 || r.hardware.precision == Precision::fp16;
    if (s.training.method != FinetuneMethod::qlora && sixteen_bit && nvidia)  // bitsandbytes' 4-bit kernels
      variant("training.method", "qlora", [](Scenario& v) { v.training.method = FinetuneMethod::qlora; });
  }
  if (auto more = more_gpus_suggestion(s, pinned, r, probe)) out.push_back(std::move(*more));
  // (Not while a cloud offer says which GPU is rented: another GPU is another offer.)
  if (catalog && !(s.pricing && !s.pricing->offer.empty()))
    if (auto larger = larger_gpu_suggestion(s, r, *catalog, probe)) out.push_back(std::move(*larger));
  // Only fixes that make it fit are offered: a change that saves memory but leaves the run short is
  // not a fix. Offloading the optimizer states together with ZeRO-3 where neither alone does.
  const auto short_alone = [&](std::string_view field) {  // offered alone, and not enough
    return std::any_of(out.begin(), out.end(), [&](const MemorySuggestion& x) {
      return !x.fits && x.changes.size() == 1 && x.changes[0].path == field;
    });
  };
  if (short_alone("strategy.zero") && short_alone("strategy.offload")) {
    Scenario v = s;
    v.strategy.zero = 3;
    v.strategy.offload = Offload::optimizer;
    const MemoryReport m = probe(v, r.plan.gpus);
    if (m.fits) out.insert(out.begin(), {{{"strategy.zero", 3.0}, {"strategy.offload", "optimizer"}}, m.per_gpu_bytes.total, true});
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const MemorySuggestion& x) { return !x.fits; }), out.end());
  return out;
}

}  // namespace traincalc::detail
