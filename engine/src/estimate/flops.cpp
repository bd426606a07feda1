// Tokens and FLOPs. Two counts are always reported: the parameter rule (6 FLOPs per parameter per
// token for training, Kaplan et al. 2020, eq. 2.1) and, when the architecture is known, a per-layer
// count with the attention and logits terms (Narayanan et al. 2021, sec. 5.1; Chowdhery et al. 2022,
// appendix B). The detailed one is used whenever it exists.
#include "estimate/estimators.hpp"
#include "contract/text.hpp"
#include "traincalc/names.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

// Bytes of UTF-8 text per token, by what the text is and the tokenizer that reads it. Each is a
// round figure inside the published spread; the spread itself depends on the corpus and tokenizer
// (and some sources' "GB" may be GiB, about 7%). tokenizer-arena is a third party's measurement.
const TextDensity& text_density(TextKind kind) {
  static const TextDensity english{
      4.0,
      "OpenAI, What are tokens and how to count them (help.openai.com/en/articles/4936856): 1 token is about 4 "
      "characters of English. Dolma (arXiv:2402.00159, Table 1): Common Crawl 9,812 GB / 2,479B Llama tokens = "
      "3.96; OLMo (arXiv:2402.00838, Table 2): all of Dolma 11,519 GB / 2,668B GPT-NeoX tokens = 4.32; The Pile "
      "(arXiv:2101.00027, sec. 3.1): 0.293 GPT-2 tokens per byte = 3.41. Range about 3.4-4.5."};
  static const TextDensity chinese{
      4.4,
      "Chinese with a tokenizer built for it. tokenizer-arena (github.com/xu-song/tokenizer-arena), cc100 "
      "zh-Hans: Qwen 4.47, DeepSeek-LLM 4.35, Yi 4.48, InternLM 4.54, ChatGLM2/3 4.51, Baichuan 2 4.87 bytes per "
      "token; SkyPile-150B (Skywork, arXiv:2310.19341): 620 GB / 150B tokens = 4.13; DeepSeek API docs: 1 "
      "Chinese character is about 0.6 token (3 bytes each: about 5). Range about 4-5."};
  static const TextDensity chinese_english_tokenizer{
      2.0,
      "Chinese through a tokenizer built for English, where a character (3 bytes in UTF-8) takes 1-2 tokens. "
      "tokenizer-arena (github.com/xu-song/tokenizer-arena), cc100 zh-Hans: LLaMA 1/2 1.98, GPT-4 cl100k 2.43, "
      "GPT-2 1.41 bytes per token. Range about 1.4-2.4."};
  static const TextDensity code{
      3.0,
      "Dolma (arXiv:2402.00159, Table 1): GitHub code 1,043 GB / 411B Llama tokens = 2.54; OLMo "
      "(arXiv:2402.00838, Table 2): the same code, 342B GPT-NeoX tokens = 3.05; OLMoE (arXiv:2409.02060, "
      "Table 2): StarCoder 325 GB / 101B tokens = 3.22. Range about 2.5-3.2."};
  switch (kind) {
    case TextKind::chinese:
      return chinese;
    case TextKind::chinese_english_tokenizer:
      return chinese_english_tokenizer;
    case TextKind::code:
      return code;
    case TextKind::english:
      break;
  }
  return english;
}

double resolved_seq_len(const Scenario& s) {
  if (s.training.seq_len) return *s.training.seq_len;
  if (s.model.default_seq_len > 0) return s.model.default_seq_len;
  return fallback_seq_len;
}

// LoRA adds rank-r factors A (in x r) and B (r x out) beside each targeted matrix (Hu et al. 2021):
// the attention projections, and with all_linear every MLP and expert matrix too (not routers).
double lora_share(const LinearGroup& g, LoraTargets targets) {
  switch (targets) {
    case LoraTargets::all_linear:
      return g.kind == LinearKind::attention || g.kind == LinearKind::mlp ? 1.0 : 0.0;
    case LoraTargets::attention:
      return g.kind == LinearKind::attention ? 1.0 : 0.0;
    case LoraTargets::query_value:
      // Q, and V: half of the key-and-value group (the LoRA paper's W_q and W_v, Hu et al. 2021, sec. 7.1).
      return g.role == LinearRole::query ? 1.0 : g.role == LinearRole::key_value ? 0.5 : 0.0;
  }
  return 0.0;
}

double trainable_lora_params(const Architecture& a, const Training& t, bool per_token) {
  double params = 0;
  for_each_linear(a, [&](const LinearGroup& g) {
    params += lora_share(g, t.lora_targets) * t.lora_rank * (g.in + g.out) * (per_token ? g.active_copies : g.copies);
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

namespace {

// The LoRA adapters a token passes through (none when the base trains in full); without the
// architecture their size is unknown and left out, with a warning.
double lora_params_per_token(const Scenario& s, Issues& warnings) {
  const Training& t = s.training;
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
  return lora_params;
}

// The per-layer count of training FLOPs per token, from the architecture.
double detailed_flops_per_token(const Scenario& s, double seq_len, double lora_params) {
  const Training& t = s.training;
  const bool frozen_base = t.method != FinetuneMethod::full;
  const Architecture& a = *s.model.architecture;
  const ParameterCount count = count_parameters(a);
  // Forward FLOPs per token: 2 per weight multiplied (Kaplan et al. 2020, table 1) ...
  const double matmul_forward = 2.0 * count.matmul_active;
  // ... the logits, an h x V matmul per token (tied or not) ...
  const double logits_forward = t.objective == Objective::language_model ? 2.0 * a.hidden * a.vocab : 0.0;
  // ... and attention: QK^T and softmax(QK^T)V, 2 * seq * (heads x head width) each per attention
  // block, counted without a causal discount as Megatron-LM and PaLM's MFU do (Chowdhery et al.
  // 2022, appendix B: 6N + 12LHQT). An encoder-decoder is counted as if each token passed both stacks.
  const double attention_forward = 2.0 * seq_len * count.attention_width;
  const double weight_multiplier = frozen_base ? 2.0 : 3.0;
  // Attention has no weights: its backward pass needs both input gradients, so 3x forward always.
  return weight_multiplier * (matmul_forward + logits_forward) + 3.0 * attention_forward + 6.0 * lora_params;
}

// The trainable parameters and the FLOPs per token (per image for an image network), both counts
// and the one used.
void set_flops_per_token(const Scenario& s, ComputeReport& c, Issues& warnings) {
  const Training& t = s.training;
  const bool frozen_base = t.method != FinetuneMethod::full;
  const double lora_params = lora_params_per_token(s, warnings);
  c.trainable_params = frozen_base && s.model.architecture
                           ? trainable_lora_params(*s.model.architecture, t, /*per_token=*/false)
                       : frozen_base ? 0.0
                                     : s.model.params;

  // Backward costs twice the forward pass: one matmul for activation gradients and one for weight
  // gradients (Kaplan et al. 2020, sec. 2.1). Frozen base weights skip the weight gradients, so they
  // cost 2 (forward) + 2 (activation gradients) FLOPs per parameter; adapters train in full.
  c.flops_per_param_per_token = frozen_base ? 4.0 : 6.0;
  c.flops_per_token_6n = c.flops_per_param_per_token * s.model.active_params + 6.0 * lora_params;

  if (s.model.architecture) c.flops_per_token_detailed = detailed_flops_per_token(s, c.seq_len, lora_params);
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
}

// The tokens in a dataset of t.data_amount GB, at the bytes per token of its kind of text (English
// unless told, with a warning) or as given.
double dataset_tokens(const Training& t, ComputeReport& c, Issues& warnings) {
  const TextKind kind = t.text.value_or(TextKind::english);
  const TextDensity& d = text_density(kind);
  c.bytes_per_token = t.bytes_per_token.value_or(d.bytes_per_token);
  c.bytes_per_token_from = t.bytes_per_token ? "given" : std::string(contract::name_of(contract::text_kinds, kind));
  c.bytes_per_token_source = t.bytes_per_token ? "" : d.source;
  if (!t.bytes_per_token && !t.text) {
    const auto bytes = [](TextKind k) { return format_number(text_density(k).bytes_per_token); };
    warnings.push_back({"training.bytes_per_token",
                        "bytes_per_token_assumed",
                        "The dataset is read as English text at " + bytes(TextKind::english) +
                            " bytes per token. Chinese text is about " + bytes(TextKind::chinese) +
                            " bytes per token with a tokenizer built for it (Qwen, DeepSeek, Yi, GLM) but only "
                            "about " +
                            bytes(TextKind::chinese_english_tokenizer) +
                            " with one built for English (Llama 2, GPT-2); code about " + bytes(TextKind::code) +
                            ". Set training.text or training.bytes_per_token.",
                        {{"english", bytes(TextKind::english)},
                         {"chinese", bytes(TextKind::chinese)},
                         {"chinese_english_tokenizer", bytes(TextKind::chinese_english_tokenizer)},
                         {"code", bytes(TextKind::code)}}});
  }
  return units::gb_to_bytes(t.data_amount) / *c.bytes_per_token;
}

// The tokens one epoch holds, by how the amount of data is given (none for a FLOP total).
double tokens_per_epoch_of(const Scenario& s, ComputeReport& c, Issues& warnings) {
  const Training& t = s.training;
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
      tokens_per_epoch = dataset_tokens(t, c, warnings);
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
  return tokens_per_epoch;
}

}  // namespace

ComputeReport estimate_compute(const Scenario& s, Issues& warnings, Issues& errors) {
  const Training& t = s.training;
  ComputeReport c;
  c.seq_len = resolved_seq_len(s);
  c.epochs = t.data_kind == DataKind::total_flops ? 1 : t.epochs;
  set_flops_per_token(s, c, warnings);
  const double tokens_per_epoch = tokens_per_epoch_of(s, c, warnings);

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
                          " tokens; the calculator works with 1 to 1e21 tokens in all.",
                      {{"reason", reason("token_total")}, {"tokens", format_number(c.tokens)}, {"max", format_number(1e21)}}});
    return c;
  }
  c.total_flops_6n = c.flops_per_token_6n * c.tokens;
  if (c.flops_per_token_detailed) c.total_flops_detailed = *c.flops_per_token_detailed * c.tokens;

  const bool seq_len_matters = s.model.architecture || t.data_kind == DataKind::samples ||
                               (t.data_kind == DataKind::steps && !t.global_batch_tokens);
  if (!t.seq_len && seq_len_matters && s.model.default_seq_len <= 0)
    warnings.push_back(
        {"training.seq_len",
         "seq_len_assumed",
         "training.seq_len was not given; " + format_number(fallback_seq_len) + " tokens per sequence is assumed.",
         {{"seq_len", format_number(fallback_seq_len)}}});
  return c;
}

}  // namespace traincalc::detail
