// Tokens and FLOPs. Two counts are always reported: the parameter rule (6 FLOPs per parameter per
// token for training, Kaplan et al. 2020, eq. 2.1) and, when the architecture is known, a per-layer
// count with the attention and logits terms (Narayanan et al. 2021, sec. 5.1; Chowdhery et al. 2022,
// appendix B). The detailed one is used whenever it exists.
#include "estimators.hpp"
#include "json_fields.hpp"

namespace traincalc::detail {

double resolved_seq_len(const Scenario& s) {
  if (s.training.seq_len) return *s.training.seq_len;
  if (s.model.default_seq_len > 0) return s.model.default_seq_len;
  return fallback_seq_len;
}

// LoRA adds rank-r factors A (in x r) and B (r x out) beside each targeted matrix (Hu et al. 2021):
// the attention projections, and with all_linear every MLP and expert matrix too (not routers).
double trainable_lora_params(const Architecture& a, const Training& t, bool per_token) {
  double params = 0;
  for_each_linear(a, [&](const LinearGroup& g) {
    const bool targeted =
        g.kind == LinearKind::attention || (g.kind == LinearKind::mlp && t.lora_targets == LoraTargets::all_linear);
    if (targeted) params += t.lora_rank * (g.in + g.out) * (per_token ? g.active_copies : g.copies);
  });
  return params;
}

ModelReport report_model(const Scenario& s) {
  ModelReport m;
  m.name = s.model.name;
  m.preset = s.model.preset;
  m.params = s.model.params;
  m.active_params = s.model.active_params;
  m.architecture_known = s.model.architecture.has_value();
  if (s.model.architecture) m.breakdown = count_parameters(*s.model.architecture);
  m.forward_macs_per_image = s.model.forward_macs_per_image;
  m.image_resolution = s.model.image_resolution;
  return m;
}

ComputeReport estimate_compute(const Scenario& s, Issues& warnings, Issues& errors) {
  const Training& t = s.training;
  ComputeReport c;
  c.seq_len = resolved_seq_len(s);
  c.epochs = t.data_kind == DataKind::total_flops ? 1 : t.epochs;

  const bool frozen_base = t.method != FinetuneMethod::full;
  double lora_params = 0;  // adapters a token passes through
  if (frozen_base) {
    if (s.model.architecture) {
      lora_params = trainable_lora_params(*s.model.architecture, t, /*per_token=*/true);
    } else {
      warnings.push_back({"model", "lora_params_unknown",
                          "The LoRA adapters' size needs the architecture; with params only, their (small) share of "
                          "the FLOPs is left out."});
    }
  }
  c.trainable_params = frozen_base && s.model.architecture
                           ? trainable_lora_params(*s.model.architecture, t, /*per_token=*/false)
                       : frozen_base ? 0.0
                                     : s.model.params;

  // Backward costs twice the forward pass: one matmul for activation gradients and one for weight
  // gradients (Kaplan et al. 2020, sec. 2.1). Frozen base weights skip the weight gradients, so they
  // cost 2 (forward) + 2 (activation gradients) FLOPs per parameter; adapters train in full.
  c.flops_per_param_per_token = frozen_base ? 4.0 : 6.0;
  c.flops_per_token_6n = c.flops_per_param_per_token * s.model.active_params + 6.0 * lora_params;

  if (s.model.architecture) {
    const Architecture& a = *s.model.architecture;
    const ParameterCount count = count_parameters(a);
    // Forward FLOPs per token: 2 per weight multiplied (Kaplan et al. 2020, table 1) ...
    const double matmul_forward = 2.0 * count.matmul_active;
    // ... the logits, an h x V matmul per token (tied or not) ...
    const double logits_forward = t.objective == Objective::language_model ? 2.0 * a.hidden * a.vocab : 0.0;
    // ... and attention: QK^T and softmax(QK^T)V, 2 * seq * (heads x head width) each per attention
    // block, counted without a causal discount as Megatron-LM and PaLM's MFU do (Chowdhery et al.
    // 2022, appendix B: 6N + 12LHQT). An encoder-decoder is counted as if each token passed both stacks.
    const double attention_forward = 2.0 * c.seq_len * count.attention_width;
    const double weight_multiplier = frozen_base ? 2.0 : 3.0;
    // Attention has no weights: its backward pass needs both input gradients, so 3x forward always.
    c.flops_per_token_detailed =
        weight_multiplier * (matmul_forward + logits_forward) + 3.0 * attention_forward + 6.0 * lora_params;
  }
  c.flops_per_token = c.flops_per_token_detailed.value_or(c.flops_per_token_6n);
  c.method = c.flops_per_token_detailed ? "detailed" : "6n";
  if (s.model.forward_macs_per_image) {
    // An image network: its published forward "FLOPs" count multiply-adds (He et al. 2016, table 1),
    // 2 FLOPs each; training is forward + backward, 3x the forward (2x with frozen weights, as for
    // LoRA). Convolutions and ViT patches scale with the pixels: (resolution / published)^2.
    const double resolution = t.resolution.value_or(s.model.image_resolution);
    const double pixels = (resolution / s.model.image_resolution) * (resolution / s.model.image_resolution);
    c.flops_per_token = (frozen_base ? 2.0 : 3.0) * 2 * *s.model.forward_macs_per_image * pixels;
    c.flops_per_token_6n = c.flops_per_token;
    c.flops_per_token_detailed.reset();
    c.method = "per_image";
    c.image_resolution = resolution;
  }

  double tokens_per_epoch = 0;
  switch (t.data_kind) {
    case DataKind::tokens:
      tokens_per_epoch = t.data_amount;
      break;
    case DataKind::chinchilla:
      tokens_per_epoch = chinchilla_tokens_per_param * s.model.params;
      if (s.model.active_params < s.model.params)
        warnings.push_back(
            {"training.tokens", "chinchilla_moe",
             "The 20-tokens-per-parameter rule was fitted on dense models; for this mixture of experts it "
             "is applied to the total parameter count."});
      break;
    case DataKind::dataset_gb:
      tokens_per_epoch = t.data_amount * 1e9 / t.bytes_per_token;
      break;
    case DataKind::samples:
      tokens_per_epoch = t.data_amount * c.seq_len;
      break;
    case DataKind::steps: {
      const double batch_tokens =
          t.global_batch_tokens ? *t.global_batch_tokens : t.global_batch_sequences.value_or(0) * c.seq_len;
      tokens_per_epoch = t.data_amount * batch_tokens;
      break;
    }
    case DataKind::images:
      tokens_per_epoch = t.data_amount;
      c.images_per_epoch = t.data_amount;
      break;
    case DataKind::total_flops:
      break;
  }

  if (t.data_kind == DataKind::total_flops) {
    c.method = "given";
    c.total_flops = t.data_amount;
    c.tokens = c.total_flops / c.flops_per_token;
  } else {
    c.tokens = tokens_per_epoch * c.epochs;
    c.total_flops = c.flops_per_token * c.tokens;
  }
  // Each input is bounded, but products of them (samples x seq_len x epochs, ...) are checked too,
  // so that a report never holds a count of tokens beyond any run or below one.
  if (!(c.tokens >= 1 && c.tokens <= 1e21)) {
    static const char* data_field[] = {"training.tokens",  "training.tokens", "training.dataset_gb",
                                       "training.samples", "training.steps",  "training.total_flops",
                                       "training.images"};
    errors.push_back({data_field[static_cast<int>(t.data_kind)], "out_of_range",
                      "This amount of data comes to " + format_number(c.tokens) +
                          " tokens; the calculator works with 1 to 1e21 tokens in all."});
    return c;
  }
  c.total_flops_6n = c.flops_per_token_6n * c.tokens;
  if (c.flops_per_token_detailed) c.total_flops_detailed = *c.flops_per_token_detailed * c.tokens;

  const bool seq_len_matters = s.model.architecture || t.data_kind == DataKind::samples ||
                               (t.data_kind == DataKind::steps && !t.global_batch_tokens);
  if (!t.seq_len && seq_len_matters && s.model.default_seq_len <= 0)
    warnings.push_back({"training.seq_len", "seq_len_assumed",
                        "training.seq_len was not given; 2048 tokens per sequence is assumed."});
  return c;
}

}  // namespace traincalc::detail
