// Memory per GPU: the model's states (weights, gradients, optimizer), the activations kept for the
// backward pass, the loss's logits, and the runtime around them, for the GPU that holds the most
// (the first pipeline stage for activations, the last for the logits). The peak is taken over the
// phases of a step, not as a plain sum of everything.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "estimators.hpp"
#include "json_fields.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

namespace {

bool sixteen_bit_compute(Precision p) {
  return p == Precision::bf16 || p == Precision::fp16 || p == Precision::fp8;
}

// Optimizer state bytes per trainable parameter. Mixed precision adds an fp32 master copy (4 bytes):
// Adam's 2 fp32 moments + master = 12 bytes, the K = 12 of Rajbhandari et al. 2020 (ZeRO), sec. 3.1.
double optimizer_bytes_per_param(Optimizer o, bool mixed) {
  const double master = mixed ? 4.0 : 0.0;
  switch (o) {
    case Optimizer::adam:
    case Optimizer::adamw:
      return master + 8.0;
    case Optimizer::adamw_8bit:
      return master + 2.0;  // two 8-bit moments (Dettmers et al. 2022, "8-bit Optimizers")
    case Optimizer::sgd:
      return master;
    case Optimizer::sgd_momentum:
      return master + 4.0;
    case Optimizer::adafactor:
      return master;  // factored second moment: rows + columns per matrix, negligible (Shazeer & Stern 2018)
    case Optimizer::lion:
      return master + 4.0;  // one momentum (Chen et al. 2023)
  }
  return master + 8.0;
}

// Activations one transformer layer keeps for the backward pass, per token of a micro-batch, in
// bytes, generalising Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
// Transformer Models", sec. 4.1), whose GPT layer keeps 34h + 5as bytes per token with 16-bit
// activations: the norm inputs, the inputs of every matrix multiply, Q and K for QK^T, V, the
// softmax scores (5as: scores, dropout mask, dropout output) and the dropout masks. Tensors inside
// the tensor-parallel region are split by tp; the rest only with sequence parallelism (their table 2).
struct LayerActivations {
  double split = 0;       // split by tp
  double replicated = 0;  // split by tp only with sequence parallelism
  double scores = 0;      // the attention score terms, dropped by FlashAttention and selective recompute
};

LayerActivations attention_activations(const Architecture& a, double e, double seq, bool softmax_fp32) {
  const double h = a.hidden;
  const double mask = a.dropout ? 1.0 : 0.0;
  LayerActivations x;
  double q_width, k_width, v_width;
  if (latent_attention(a)) {
    q_width = k_width = a.heads * (a.qk_nope_head_dim + a.qk_rope_head_dim);
    v_width = a.heads * a.v_head_dim;
    x.split += e * (a.q_lora_rank + a.kv_lora_rank + a.qk_rope_head_dim);  // the latents and their norms' inputs
  } else {
    q_width = a.heads * effective_head_dim(a);
    k_width = v_width = effective_kv_heads(a) * effective_head_dim(a);
  }
  x.replicated += e * h;               // norm input
  x.replicated += e * h;               // QKV projection input
  x.split += e * (q_width + k_width);  // Q and K for QK^T
  x.split += e * v_width;              // V for scores x V
  x.split += e * q_width;              // output projection input
  x.replicated += mask * h;            // dropout mask after attention
  // The scores kept per element: the softmax output, its dropout mask and dropout output. Megatron's
  // fused kernel keeps them in the compute precision (Korthikanti's 5as at 2 bytes); eager PyTorch
  // under autocast runs softmax in fp32 (PyTorch AMP op reference) and casts the result back to 16
  // bits for the product with V.
  const double kept = softmax_fp32 && e < 4 ? 4.0 + mask * (1 + 4.0) + e : e + mask * (1 + e);
  x.scores += kept * a.heads * seq;
  return x;
}

LayerActivations mlp_activations(const Architecture& a, double e, double f, double copies) {
  const double h = a.hidden;
  LayerActivations x;
  x.replicated += e * h;  // norm input
  x.replicated += e * h;  // first projection input
  // The activation function's inputs (gate and up for a gated MLP) and the down projection's input.
  x.split += copies * e * f * (a.gated_mlp ? 3.0 : 2.0);
  x.replicated += (a.dropout ? 1.0 : 0.0) * h;  // dropout mask after the MLP
  return x;
}

double layer_bytes(const LayerActivations& x, double tp, bool sequence_parallel, bool keeps_scores) {
  return x.split / tp + x.replicated / (sequence_parallel ? tp : 1.0) + (keeps_scores ? x.scores / tp : 0.0);
}

struct ActivationEstimate {
  double all_layers_per_token = 0;  // every layer of the model, one token, as kept (recompute applied)
  double one_layer_per_token = 0;   // the largest layer fully (recomputed during backward)
};

ActivationEstimate activation_per_token(const Architecture& a, double e, double seq, double tp, bool sp,
                                        Recompute recompute, bool flash, bool softmax_fp32) {
  const bool keeps_scores = !flash && recompute == Recompute::none;
  const double moe_layers = moe_layer_count(a);
  const double dense_layers = a.layers - moe_layers;
  const LayerActivations attention = attention_activations(a, e, seq, softmax_fp32);
  const LayerActivations dense_mlp = mlp_activations(a, e, a.ffn_hidden, 1);
  // A token passes through experts_per_token routed experts and the shared ones.
  const LayerActivations moe_mlp = mlp_activations(a, e, expert_ffn_hidden(a), a.experts_per_token + a.shared_experts);
  const double attention_bytes = layer_bytes(attention, tp, sp, keeps_scores);
  const double dense_layer = attention_bytes + layer_bytes(dense_mlp, tp, sp, false);
  const double moe_layer = attention_bytes + layer_bytes(moe_mlp, tp, sp, false);
  const double decoder_layer = 2 * attention_bytes + layer_bytes(dense_mlp, tp, sp, false);  // + cross-attention

  ActivationEstimate out;
  if (recompute == Recompute::full) {
    // The layer rebuilt during backward holds everything, scores included unless FlashAttention.
    const double rebuilt_attention = layer_bytes(attention, tp, sp, !flash);
    out.one_layer_per_token = rebuilt_attention + layer_bytes(moe_layers > 0 ? moe_mlp : dense_mlp, tp, sp, false);
    if (a.decoder_layers > 0) out.one_layer_per_token += rebuilt_attention;
    // Only each layer's input is kept; one layer's activations are rebuilt at a time during backward
    // (Korthikanti et al. 2022, sec. 4.1: 2sbh per layer).
    const double layer_input = e * a.hidden / (sp ? tp : 1.0);
    out.all_layers_per_token = (a.layers + a.decoder_layers) * layer_input;
    return out;
  }
  out.all_layers_per_token = dense_layers * dense_layer + moe_layers * moe_layer + a.decoder_layers * decoder_layer;
  return out;
}

// Weights held by the GPU with the most of them: tensor parallelism splits every layer, pipeline
// parallelism splits the layers into stages, expert parallelism splits the routed experts; the
// first stage holds the embedding and the last the output head (with tied embeddings and several
// stages, a copy of the embedding, as Megatron-LM does).
double max_stage_params(const ParameterCount& c, double total, double tp, double pp, double ep, bool tied) {
  const double body = total - c.embedding - c.output_head - c.routed_experts;
  const double per_stage_layers = body / pp + c.routed_experts / (pp * ep);
  if (pp <= 1) return (per_stage_layers + c.embedding + c.output_head) / tp;
  const double first = per_stage_layers + c.embedding;
  const double last = per_stage_layers + (tied ? c.embedding : c.output_head);
  return std::max(first, last) / tp;
}

struct StateBytes {
  double weights = 0, gradients = 0, optimizer = 0;
  double layer_weights = 0;  // one layer's weights on this GPU (for ZeRO-3 gathering)
};

}  // namespace

MemoryReport estimate_memory(const Scenario& s, const ModelReport& model, const ParallelismReport& layout,
                             const HardwareReport& hardware, const ComputeReport& compute, Issues& warnings) {
  const Precision precision = resolved_precision(s);
  const bool mixed = sixteen_bit_compute(precision);
  // Bytes per element: 16-bit weights, gradients and activations in mixed precision (fp8 training
  // keeps bf16 weights and most activations, Transformer Engine), 4 bytes in fp32/tf32.
  const double e = mixed ? 2.0 : 4.0;
  const Training& t = s.training;
  const double tp = layout.tp, pp = layout.pp, cp = layout.cp, ep = layout.ep, dp = layout.dp;
  const double zero = layout.zero;
  const bool frozen_base = t.method != FinetuneMethod::full;

  // --- Model states -----------------------------------------------------------------------------
  StateBytes states;
  const std::optional<Architecture>& arch = s.model.architecture;
  double params_here = model.params / (tp * pp);  // without an architecture: an even split
  double routed_share = 0;                        // of params_here, in routed experts
  if (arch) {
    const ParameterCount c = count_parameters(*arch);
    params_here = max_stage_params(c, c.total, tp, pp, ep, arch->tied_embeddings);
    routed_share = c.routed_experts / (tp * pp * ep);
    // One layer's weights on this GPU (its own experts only), what ZeRO-3 gathers at a time.
    states.layer_weights =
        ((c.linear - c.routed_experts) + c.routed_experts / ep) / (arch->layers + 2 * arch->decoder_layers) / tp;
  }
  // ZeRO shards over the data-parallel group (with context parallelism, data x context ranks, as
  // Megatron's distributed optimizer does); routed experts' states over the expert-data-parallel
  // group, dp x cp / ep (Rajbhandari et al. 2020, fig. 1). FSDP and ZeRO-3 shard frozen weights too.
  const double dense_shard = dp * cp;
  const double expert_shard = std::max(1.0, dp * cp / ep);
  auto shard_divisor = [&](double params, double routed) {
    // The average divisor over dense and expert parameters (for the explanation).
    const double sharded_params = (params - routed) / dense_shard + routed / expert_shard;
    return sharded_params > 0 ? params / sharded_params : 1.0;
  };

  double trainable_here = params_here, trainable_routed = routed_share;
  double weight_bytes = e;  // per parameter, before sharding
  if (frozen_base) {
    const double adapters = arch ? trainable_lora_params(*arch, t, /*per_token=*/false) : 0.0;
    trainable_here = adapters / (tp * pp);
    trainable_routed = 0;
    // Frozen base weights in the compute precision for LoRA; for QLoRA the linear layers in 4-bit
    // NormalFloat with double-quantised constants, 4 + 0.127 bits per parameter (Dettmers et al.
    // 2023, sec. 3), the embeddings and norms in 16 bits. Adapters in the compute precision.
    double frozen_bytes = e * params_here;
    if (t.method == FinetuneMethod::qlora) {
      const double linear_share = arch ? count_parameters(*arch).linear / count_parameters(*arch).total : 1.0;
      frozen_bytes = params_here * (linear_share * (4.0 + 0.127) / 8.0 + (1 - linear_share) * 2.0);
    }
    weight_bytes = params_here > 0 ? (frozen_bytes + e * trainable_here) / params_here : e;
  }
  const double weight_shard = zero >= 3 ? shard_divisor(params_here, routed_share) : 1.0;
  const double gradient_shard = zero >= 2 ? shard_divisor(trainable_here, trainable_routed) : 1.0;
  const double optimizer_shard = zero >= 1 ? shard_divisor(trainable_here, trainable_routed) : 1.0;
  const double optimizer_bytes = optimizer_bytes_per_param(s.strategy.optimizer, mixed);
  states.weights = weight_bytes * params_here / weight_shard;
  states.gradients = e * trainable_here / gradient_shard;
  states.optimizer = optimizer_bytes * trainable_here / optimizer_shard;
  // ZeRO-Offload keeps the optimizer states, the update and the gradient partitions on the CPU (Ren et
  // al. 2021, sec. 4); ZeRO-Infinity also the (sharded) parameters, gathered layer by layer.
  const bool offload_optimizer = s.strategy.offload != Offload::none;
  const bool offload_params = s.strategy.offload == Offload::optimizer_and_params;
  if (offload_optimizer) {
    states.optimizer = 0;
    states.gradients = 0;
  }
  if (offload_params) states.weights = 0;

  MemoryReport m;
  MemoryExplanation& x = m.explain;
  x.params_per_gpu = params_here;
  x.trainable_params_per_gpu = trainable_here;
  x.weight_bytes_per_param = offload_params ? 0.0 : weight_bytes;
  x.gradient_bytes_per_param = offload_optimizer ? 0.0 : e;
  x.optimizer_bytes_per_param = offload_optimizer ? 0.0 : optimizer_bytes;
  x.weight_shard = weight_shard;
  x.gradient_shard = gradient_shard;
  x.optimizer_shard = optimizer_shard;
  MemoryParts& parts = m.per_gpu_bytes;
  parts.weights = states.weights;
  parts.gradients = states.gradients;
  parts.optimizer = states.optimizer;

  // --- Activations and logits ---------------------------------------------------------------------
  // Micro-batches per step, when the batch says: with fewer than pp, fewer are in flight.
  std::optional<double> micro_batches;
  const double seq = compute.seq_len;
  if (t.global_batch_sequences) micro_batches = *t.global_batch_sequences / (layout.micro_batch * dp);
  if (t.global_batch_tokens) micro_batches = *t.global_batch_tokens / (seq * layout.micro_batch * dp);
  double in_flight_layers_factor = 1;  // in units of all L layers' activations on the first stage
  if (pp > 1) {
    const double v = layout.virtual_stages;
    // 1F1B: the first stage keeps pp micro-batches of L/pp layers, L layers' worth; interleaved with
    // v chunks, L(1 + (pp-1)/(pp v)) (Korthikanti et al. 2022, sec. 4.2.3; Narayanan et al. 2021).
    in_flight_layers_factor = v > 1 ? 1 + (pp - 1) / (pp * v) : 1.0;
    if (micro_batches && *micro_batches < pp) in_flight_layers_factor *= std::max(1.0, *micro_batches) / pp;
  }
  m.micro_batches_in_flight = pp > 1 ? std::max(1.0, std::min(pp, micro_batches.value_or(pp))) : 1;
  const double tokens = seq * layout.micro_batch / cp;  // context parallelism splits the sequence
  const Recompute recompute = layout.recompute;
  double activations_per_token = 0, rebuilt_layer_per_token = 0;
  if (arch) {
    const ActivationEstimate a =
        activation_per_token(*arch, e, seq / cp, tp, layout.sequence_parallel, recompute, s.strategy.flash_attention,
                             s.strategy.fused_softmax ? !*s.strategy.fused_softmax : true);
    activations_per_token = a.all_layers_per_token / pp * (pp > 1 ? pp * in_flight_layers_factor : 1.0);
    rebuilt_layer_per_token = a.one_layer_per_token;
    // Output of the embedding kept for its backward, as Korthikanti et al. count it (sbh, x pp in flight).
    activations_per_token += e * arch->hidden / (layout.sequence_parallel ? tp : 1.0) * m.micro_batches_in_flight;
    m.activations_known = true;
  } else {
    warnings.push_back({"memory.activations", "activation_memory_unknown",
                        "Activation memory needs the architecture (layers, hidden, heads, ...); with params only it "
                        "is not counted."});
  }
  parts.activations = (activations_per_token + rebuilt_layer_per_token) * tokens;
  m.activation_bytes_per_micro_batch = parts.activations / layout.micro_batch;
  // The loss, on the last pipeline stage: logits for every token over the vocabulary (split by tp)
  // in the compute precision, their fp32 upcast for the softmax and the fp32 gradient, 10 bytes per
  // logit in mixed precision (Korthikanti et al. 2022, sec. 4.1, count the fp32 copy, 4sbv; the other
  // two exist at the same moment in PyTorch's cross-entropy). A fused cross-entropy works in place on
  // the 16-bit logits.
  double logits_per_token = 0;
  if (arch && t.objective == Objective::language_model)
    logits_per_token = (s.strategy.fused_cross_entropy ? e : e + (mixed ? 4.0 : 0.0) + 4.0) * arch->vocab / tp;
  parts.logits = logits_per_token * tokens;
  x.tokens_per_micro_batch = tokens;
  x.activation_bytes_per_token = tokens > 0 ? parts.activations / tokens : 0.0;
  x.logits_bytes_per_token = logits_per_token;

  // --- Runtime overhead -----------------------------------------------------------------------------
  // CUDA context and kernels: about 1,343 MiB measured on a V100 (Hugging Face Transformers docs,
  // "Model training anatomy"); newer CUDA versions load kernels lazily and use less.
  MemoryOverhead& o = m.overhead_bytes;
  o.cuda_context =
      units::gb_to_bytes(s.memory.cuda_context_gb.value_or(1343.0 * units::bytes_per_mib / units::bytes_per_gb));
  // NCCL keeps NCCL_BUFFSIZE (4 MiB) per channel and peer; at up to 32 channels and two ring peers,
  // 256 MiB per communicator in use (NCCL environment variable documentation).
  const double communicators = (tp > 1) + (pp > 1) + (dp > 1) + (cp > 1) + (ep > 1);
  o.communication =
      communicators *
      units::gb_to_bytes(s.memory.communication_gb.value_or(256.0 * units::bytes_per_mib / units::bytes_per_gb));
  // ZeRO-3/FSDP gathers each layer's full weights before computing it, and prefetches the next.
  if ((zero >= 3 && dp * cp > 1) || offload_params) o.gather = 2 * states.layer_weights * weight_bytes;
  // The caching allocator holds more than is allocated: 15% of the memory that comes and goes within
  // a step (activations, logits, gradients) is assumed, an allowance checked (not fitted) against the
  // measured BERT-large runs in tests/data/calibration-memory.json; override with memory.fragmentation.
  const double fragmentation = s.memory.fragmentation.value_or(0.15);
  const double dynamic = parts.activations + parts.logits + parts.gradients;
  o.fragmentation = fragmentation * dynamic;
  x.fragmentation_fraction = fragmentation;
  parts.overhead = o.cuda_context + o.communication + o.gather + o.fragmentation;

  // --- Peak over the phases of a step ----------------------------------------------------------------
  // Forward (at the loss): every state, the activations in flight and the logits; gradients already
  // exist when earlier micro-batches of the step have run their backward (or unknown: assumed).
  // Backward (end): activations freed, all gradients present. Optimizer step: states only.
  // Gradient buffers stay allocated across micro-batches and whenever gradients are communicated
  // (DDP buckets, ZeRO partitions, Megatron's buffer); only a single GPU running one micro-batch per
  // step frees them between steps (PyTorch's zero_grad(set_to_none=True)).
  const bool single_gpu = tp * pp * cp * dp == 1;
  const bool gradients_held = !(single_gpu && micro_batches && *micro_batches <= 1);
  // With pipeline stages the first one holds the most activations and the last one the logits (with
  // one micro-batch of its own layers in flight): the forward peak is the larger of the two.
  const double last_stage_activations =
      pp > 1 ? (parts.activations / std::max(1.0, pp * in_flight_layers_factor)) : parts.activations;
  const bool logits_stage = pp <= 1 || last_stage_activations + parts.logits > parts.activations;
  using Parts = std::vector<std::pair<std::string, double>>;
  Parts forward = {{"weights", parts.weights}, {"optimizer", parts.optimizer}, {"overhead", parts.overhead}};
  if (gradients_held) forward.emplace_back("gradients", parts.gradients);
  forward.emplace_back("activations", logits_stage ? last_stage_activations : parts.activations);
  if (logits_stage) forward.emplace_back("logits", parts.logits);
  Parts optimizer_step = {{"weights", parts.weights},
                          {"optimizer", parts.optimizer},
                          {"overhead", parts.overhead},
                          {"gradients", parts.gradients}};
  Parts backward = optimizer_step;
  backward.emplace_back("recomputed", rebuilt_layer_per_token * tokens);
  const auto phase = [](const char* name, Parts composition) {
    MemoryPhase p{name, 0.0, std::move(composition)};
    for (const auto& [part, bytes] : p.parts) p.bytes += bytes;
    return p;
  };
  m.phases = {phase("forward", std::move(forward)), phase("backward", std::move(backward)),
              phase("optimizer", std::move(optimizer_step))};
  const auto peak = std::max_element(m.phases.begin(), m.phases.end(),
                                     [](const MemoryPhase& x, const MemoryPhase& y) { return x.bytes < y.bytes; });
  parts.total = peak->bytes;
  m.peak_phase = peak->name;
  // The parts in memory at the peak (what the page stacks against the capacity), and their bytes.
  m.at_peak = peak->parts;
  m.peak_parts.clear();
  for (const auto& [part, bytes] : peak->parts)
    if (part != "recomputed") m.peak_parts.push_back(part);

  m.capacity_bytes = units::gb_to_bytes(hardware.memory_gb);
  m.fits = parts.total <= m.capacity_bytes;
  m.headroom_bytes = m.fits ? m.capacity_bytes - parts.total : 0.0;
  m.shortfall_bytes = m.fits ? 0.0 : parts.total - m.capacity_bytes;

  // The largest micro-batch that fits: activations, logits and their fragmentation grow with it.
  if (m.activations_known) {
    const double per_sample = (parts.activations + parts.logits) / layout.micro_batch * (1 + fragmentation);
    const double fixed = parts.total - per_sample * layout.micro_batch;
    m.max_micro_batch = per_sample > 0 ? std::max(0.0, std::floor((m.capacity_bytes - fixed) / per_sample)) : 0.0;
  }
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

std::vector<MemorySuggestion> memory_suggestions(const Scenario& s, const Scenario& pinned, const Report& r,
                                                 const Catalog* catalog, const MemoryProbe& probe) {
  std::vector<MemorySuggestion> out;
  if (r.memory.fits) return out;
  const ParallelismReport& layout = r.parallelism;
  // Each variant is the user's scenario with one change, estimated as the user would get it (the
  // planner re-plans what is "auto").
  auto variant = [&](const char* field, std::string value, auto change) {
    Scenario v = s;
    change(v);
    const MemoryReport m = probe(v, r.plan.gpus);
    // Only what helps: a change that saves nothing here (selective recomputation under
    // FlashAttention, say) is not offered.
    if (m.per_gpu_bytes.total < r.memory.per_gpu_bytes.total * (1 - 1e-9))
      out.push_back({{{field, std::move(value)}}, m.per_gpu_bytes.total, m.fits});
  };
  // Layout fields the planner searched were already weighed; only fixed ones are worth changing.
  const Strategy& st = s.strategy;
  const bool data_parallel = layout.dp * layout.cp > 1;
  if (st.zero && layout.zero < 3 && data_parallel)
    variant("strategy.zero", "3", [](Scenario& v) { v.strategy.zero = 3; });
  if (st.recompute && r.memory.activations_known && *st.recompute == Recompute::none)
    variant("strategy.recompute", "\"selective\"", [](Scenario& v) { v.strategy.recompute = Recompute::selective; });
  if (st.recompute && r.memory.activations_known && *st.recompute != Recompute::full)
    variant("strategy.recompute", "\"full\"", [](Scenario& v) { v.strategy.recompute = Recompute::full; });
  if (st.micro_batch && layout.micro_batch > 1)
    variant("strategy.micro_batch", "1", [](Scenario& v) { v.strategy.micro_batch = 1; });
  if (s.strategy.offload == Offload::none && s.training.method == FinetuneMethod::full)
    variant("strategy.offload", "\"optimizer\"", [](Scenario& v) { v.strategy.offload = Offload::optimizer; });
  if (s.training.type == TrainingType::finetune && s.model.architecture) {
    if (s.training.method == FinetuneMethod::full)
      variant("training.method", "\"lora\"", [](Scenario& v) { v.training.method = FinetuneMethod::lora; });
    const bool sixteen_bit = r.hardware.precision == "bf16" || r.hardware.precision == "fp16";
    if (s.training.method != FinetuneMethod::qlora && sixteen_bit)
      variant("training.method", "\"qlora\"", [](Scenario& v) { v.training.method = FinetuneMethod::qlora; });
  }
  // More GPUs: the fewest at which the chosen layout, with ZeRO-3 over a larger data-parallel group,
  // fits; what the user then gets is estimated as usual.
  {
    Scenario wider = pinned;
    if (layout.zero < 3) wider.strategy.zero = 3;
    if (auto gpus = min_gpus_that_fit(wider, r.model, r.hardware, r.compute); gpus && *gpus > r.plan.gpus) {
      Scenario v = s;
      v.hardware.count = *gpus;
      if (st.zero && layout.zero < 3) v.strategy.zero = 3;
      if (st.dp) v.strategy.dp.reset();
      const MemoryReport m = probe(v, *gpus);
      MemorySuggestion more{{{"hardware.count", format_number(*gpus)}}, m.per_gpu_bytes.total, m.fits};
      if (st.zero && layout.zero < 3) more.changes.push_back({"strategy.zero", "3"});
      out.push_back(std::move(more));
    }
  }
  // A GPU with more memory: the smallest in the catalog that holds this peak at this precision.
  if (catalog) {
    const GpuSpec* best = nullptr;
    const Precision precision = resolved_precision(s);
    for (const GpuSpec& gpu : catalog->gpus) {
      if (!dense_peak_tflops(gpu, precision) || units::gb_to_bytes(gpu.memory_gb) < r.memory.per_gpu_bytes.total)
        continue;
      if (!best || gpu.memory_gb < best->memory_gb ||
          (gpu.memory_gb == best->memory_gb &&
           *dense_peak_tflops(gpu, precision) > *dense_peak_tflops(*best, precision)))
        best = &gpu;
    }
    if (best) out.push_back({{{"hardware.gpu", "\"" + best->id + "\""}}, r.memory.per_gpu_bytes.total, true});
  }
  return out;
}

}  // namespace traincalc::detail
