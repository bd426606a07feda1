// Memory per GPU: model states (weights, gradients, optimizer) and activations. A first model:
// runtime overhead and the logits spike are not counted yet, and the report says so.
#include <algorithm>

#include "estimators.hpp"

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
      return master + 2.0;  // two 8-bit moments (Dettmers et al. 2022)
    case Optimizer::sgd:
      return master;
    case Optimizer::sgd_momentum:
      return master + 4.0;
    case Optimizer::adafactor:
      return master;  // factored second moment: O(rows + cols), negligible
    case Optimizer::lion:
      return master + 4.0;  // one momentum (Chen et al. 2023)
  }
  return master + 8.0;
}

// Activations of one transformer layer for one micro-batch, in bytes with 16-bit activations
// (Korthikanti et al. 2022, "Reducing Activation Recomputation", sec. 4: sbh(34 + 5as/h) without
// parallelism; table 2 for tensor and sequence parallelism and recomputation).
double activation_bytes_per_layer(const Architecture& a, double seq, double micro_batch, double tp,
                                  bool sequence_parallel, Recompute recompute, bool flash_attention) {
  const double sbh = seq * micro_batch * a.hidden;
  // The 5as/h term holds the attention score matrices; FlashAttention and selective recomputation
  // never keep them (Dao et al. 2022; Korthikanti et al. 2022 sec. 4.2).
  const bool keeps_scores = !flash_attention && recompute == Recompute::none;
  const double score_term = keeps_scores ? 5.0 * a.heads * seq / a.hidden : 0.0;
  if (recompute == Recompute::full) return 2.0 * sbh / (sequence_parallel ? tp : 1.0);  // each layer's input only
  if (sequence_parallel) return sbh * (34.0 + score_term) / tp;
  return sbh * (10.0 + 24.0 / tp + score_term / tp);
}

}  // namespace

MemoryReport estimate_memory(const Scenario& s, const ModelReport& model, const ParallelismReport& layout,
                             const HardwareReport& hardware, Issues& warnings) {
  const Precision precision =
      s.strategy.precision.value_or(default_precision(s.hardware.gpu).value_or(Precision::bf16));
  const bool mixed = sixteen_bit_compute(precision);
  const double weight_bytes = mixed ? 2.0 : 4.0;
  const Training& t = s.training;

  double frozen_params = 0, trainable = model.params, frozen_bytes = 0;
  if (t.method != FinetuneMethod::full) {
    trainable = model.architecture_known ? trainable_lora_params(*s.model.architecture, t, /*per_token=*/false) : 0.0;
    frozen_params = model.params;
    // QLoRA stores the base in 4-bit NormalFloat with double-quantised constants: 4 + 0.127 bits per
    // parameter (Dettmers et al. 2023, sec. 3); LoRA keeps it in 16 bits.
    frozen_bytes = t.method == FinetuneMethod::qlora ? (4.0 + 0.127) / 8.0 : weight_bytes;
  }

  // Tensor and pipeline parallelism split the weights; ZeRO shards states over the data-parallel
  // group: stage 1 the optimizer, 2 also gradients, 3 also weights (Rajbhandari et al. 2020, fig. 1).
  const double model_split = layout.tp * layout.pp;
  const double dp = layout.dp;
  const double zero = layout.zero;
  MemoryReport m;
  MemoryParts& parts = m.per_gpu_bytes;
  parts.weights = (trainable * weight_bytes + frozen_params * frozen_bytes) / model_split / (zero >= 3 ? dp : 1.0);
  parts.gradients = trainable * weight_bytes / model_split / (zero >= 2 ? dp : 1.0);
  parts.optimizer =
      trainable * optimizer_bytes_per_param(s.strategy.optimizer, mixed) / model_split / (zero >= 1 ? dp : 1.0);
  if (s.strategy.offload != Offload::none) parts.optimizer = 0;
  if (s.strategy.offload == Offload::optimizer_and_params) parts.weights = 0;

  if (s.model.architecture) {
    const Architecture& a = *s.model.architecture;
    const double seq = resolved_seq_len(s) / layout.cp;
    // With 1F1B the first pipeline stage holds pp micro-batches of L/pp layers: L layers' worth
    // (Korthikanti et al. 2022, sec. 4.2.3).
    parts.activations =
        (a.layers + a.decoder_layers) *
        activation_bytes_per_layer(a, seq, layout.micro_batch, layout.tp, layout.sequence_parallel,
                                   s.strategy.recompute.value_or(Recompute::none), s.strategy.flash_attention);
    m.activations_known = true;
  } else {
    warnings.push_back({"memory.activations", "activation_memory_unknown",
                        "Activation memory needs the architecture (layers, hidden, heads, ...); with params only it "
                        "is not counted."});
  }
  parts.total = parts.weights + parts.gradients + parts.optimizer + parts.activations;
  m.capacity_bytes = hardware.memory_gb * 1e9;
  m.fits = parts.total <= m.capacity_bytes;
  warnings.push_back({"memory.per_gpu_bytes.total", "memory_overhead_not_included",
                      "Memory counts model states and activations only; the CUDA context, allocator fragmentation, "
                      "communication buffers and the logits peak are not included yet, so leave headroom."});
  return m;
}

}  // namespace traincalc::detail
