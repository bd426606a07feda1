// A Hugging Face config.json -> the scenario's architecture form. Configs name the same things in
// many ways (hidden_size, n_embd, d_model, ...) and leave defaults to each model class, so every
// choice the importer makes that the config does not state is said in a warning.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "contract/json_fields.hpp"
#include "catalog/specs.hpp"
#include "traincalc/json_api.hpp"

namespace traincalc {

namespace {

using detail::json;

bool one_of(const std::string& value, std::initializer_list<const char*> options) {
  return std::any_of(options.begin(), options.end(), [&](const char* o) { return value == o; });
}

class HfReader {
 public:
  HfReader(const json& config, Issues& errors, Issues& warnings)
      : config_(config), errors_(errors), warnings_(warnings) {}

  // The first of several synonymous keys that holds a positive whole number.
  std::optional<double> count(std::initializer_list<const char*> keys, bool required, const char* what) {
    for (const char* key : keys) {
      if (!config_.contains(key) || config_[key].is_null()) continue;
      const json& v = config_[key];
      if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 ||
          std::floor(v.get<double>()) != v.get<double>() || v.get<double>() > 1e9) {
        errors_.push_back({std::string("hf_config.") + key,
                           "wrong_type",
                           std::string(key) + " must be a whole number, not " + detail::describe(v) + ".",
                           {{"expected", "number"}}});
        return std::nullopt;
      }
      return v.get<double>();
    }
    if (required) {
      std::string names;
      for (const char* key : keys) names += (names.empty() ? "" : ", ") + std::string(key);
      errors_.push_back({std::string("hf_config.") + *keys.begin(), "required",
                         std::string("The config does not give ") + what + " (looked for " + names + ").",
                         {{"reason", reason("hf_missing")}, {"names", names}}});
    }
    return std::nullopt;
  }

  std::optional<bool> flag(const char* key) {
    if (config_.contains(key) && config_[key].is_boolean()) return config_[key].get<bool>();
    return std::nullopt;
  }

  std::string text(const char* key) {
    return config_.contains(key) && config_[key].is_string() ? config_[key].get<std::string>() : std::string();
  }

  void assume(const std::string& field, const std::string& message, std::map<std::string, std::string> params) {
    warnings_.push_back({"hf_config." + field, "assumed", message, std::move(params)});
  }

 private:
  const json& config_;
  Issues& errors_;
  Issues& warnings_;
};

// The transformer's shape: width, depth, heads (query and key/value), vocabulary and FFN width, under
// each family's key names.
void read_shape(HfReader& r, Architecture& a) {
  a.hidden = r.count({"hidden_size", "n_embd", "d_model", "dim"}, true, "the hidden size").value_or(0);
  a.layers =
      r.count({"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, true, "the number of layers").value_or(0);
  a.heads = r.count({"num_attention_heads", "n_head", "num_heads", "n_heads"}, true, "the number of attention heads")
                .value_or(0);
  a.vocab = r.count({"vocab_size", "padded_vocab_size"}, true, "the vocabulary size").value_or(0);
  if (auto kv = r.count({"num_key_value_heads", "num_kv_heads", "n_kv_heads", "n_head_kv", "multi_query_group_num"},
                        false, ""))
    a.kv_heads = *kv;
  if (r.flag("multi_query").value_or(false) && !r.flag("new_decoder_architecture").value_or(false)) a.kv_heads = 1;
  if (a.kv_heads == 0 && a.heads > 0 &&
      !one_of(r.text("model_type"),
              {"gpt2", "opt", "bert", "roberta", "bloom", "t5", "mt5", "umt5", "phi", "gptj", "gpt_neox"}))
    r.assume("num_key_value_heads",
             "No key/value head count; multi-head attention (as many as query heads) is assumed.",
             {{"reason", reason("kv_heads_assumed")}});
  if (auto d = r.count({"head_dim", "d_kv", "kv_channels"}, false, "")) a.head_dim = *d;
  auto ffn = r.count({"intermediate_size", "n_inner", "ffn_dim", "d_ff", "ffn_hidden_size", "hidden_dim"}, false, "");
  if (!ffn && a.hidden > 0) {
    ffn = 4 * a.hidden;
    r.assume("intermediate_size", "No FFN size in the config; 4 x hidden (" + detail::format_number(*ffn) +
                                      ") is assumed, the GPT-2 convention.",
             {{"reason", reason("ffn_assumed")}, {"ffn", detail::format_number(*ffn)}});
  }
  a.ffn_hidden = ffn.value_or(0);

}

// A mixture of experts: routed and shared experts, their width, the dense leading layers, and
// group-limited routing.
void read_experts(HfReader& r, Architecture& a) {
  if (auto e = r.count({"num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"}, false, ""))
    a.experts = std::max(1.0, *e);
  if (auto k = r.count({"num_experts_per_tok", "moe_top_k", "num_experts_per_token"}, false, ""))
    a.experts_per_token = std::max(1.0, *k);
  if (a.experts <= 1) a.experts_per_token = 1;
  if (auto f = r.count({"moe_intermediate_size"}, false, "")) a.moe_ffn_hidden = *f;
  if (auto s = r.count({"n_shared_experts"}, false, "")) a.shared_experts = *s;
  if (auto s = r.count({"shared_expert_intermediate_size"}, false, ""); s && *s > 0) {
    // Qwen2-MoE's one wide shared expert = that many routed-width experts (5632 = 4 x 1408).
    const double width = a.moe_ffn_hidden > 0 ? a.moe_ffn_hidden : a.ffn_hidden;
    a.shared_experts = std::max(1.0, std::round(*s / width));
    if (std::fmod(*s, width) != 0)
      r.assume("shared_expert_intermediate_size",
               "The shared expert (" + detail::format_number(*s) + " wide) is counted as " +
                   detail::format_number(a.shared_experts) + " experts of the routed width (" +
                   detail::format_number(width) + ").",
               {{"reason", reason("shared_expert_width")},
                {"width", detail::format_number(*s)},
                {"experts", detail::format_number(a.shared_experts)},
                {"routed", detail::format_number(width)}});
  }
  if (auto d = r.count({"first_k_dense_replace"}, false, "")) a.dense_layers = *d;
  // Group-limited routing (DeepSeek-V2/V3): n_group groups, a token's experts in at most topk_group.
  if (a.experts > 1) {
    const auto groups = r.count({"n_group"}, false, "");
    const auto per_token = r.count({"topk_group"}, false, "");
    if (groups && per_token && *groups > 1 && *per_token < *groups) {
      a.expert_groups = *groups;
      a.expert_groups_per_token = *per_token;
    }
  }

}

// Multi-head latent attention (DeepSeek-V2/V3): the latent ranks and the heads' split widths.
void read_latent_attention(HfReader& r, Architecture& a) {
  if (auto k = r.count({"kv_lora_rank"}, false, ""); k && *k > 0) {
    a.kv_lora_rank = *k;
    a.q_lora_rank = r.count({"q_lora_rank"}, false, "").value_or(0);
    a.qk_nope_head_dim = r.count({"qk_nope_head_dim"}, true, "qk_nope_head_dim").value_or(0);
    a.qk_rope_head_dim = r.count({"qk_rope_head_dim"}, true, "qk_rope_head_dim").value_or(0);
    a.v_head_dim = r.count({"v_head_dim"}, true, "v_head_dim").value_or(0);
  }

}

// What each model class does without saying so in its config: norms, biases, gating, tied
// embeddings, learned positions, dropout. Returns the sequence length a learned position table
// bounds (0 without one).
double apply_model_class(HfReader& r, Architecture& a, const std::string& type, const json& config) {
  const bool learned_positions = one_of(type, {"gpt2", "opt", "bert", "roberta", "gpt_bigcode"});
  const bool layer_norm = one_of(type, {"gpt2", "opt", "bloom", "bert", "roberta", "phi", "falcon", "gpt_neox", "gptj",
                                        "starcoder2", "gpt_bigcode"});
  const bool all_biases =
      one_of(type, {"gpt2", "opt", "bloom", "bert", "roberta", "phi", "gpt_neox", "starcoder2", "gpt_bigcode"});
  const bool gated_by_type =
      one_of(type, {"llama",  "mistral", "mixtral",     "qwen2",  "qwen2_moe",   "qwen3",       "qwen3_moe", "gemma",
                    "gemma2", "gemma3",  "gemma3_text", "phi3",   "deepseek_v2", "deepseek_v3", "internlm2", "baichuan",
                    "yi",     "olmo",    "olmo2",       "cohere", "granite",     "glm4",        "minicpm"});
  const bool untied_by_type =
      one_of(type, {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "phi", "phi3",
                    "deepseek_v2", "deepseek_v3", "gpt_neox", "internlm2", "olmo", "olmo2", "starcoder2"});
  const std::string feed_forward = r.text("feed_forward_proj");  // T5
  const std::string activation = r.text("hidden_act").empty() ? r.text("activation_function") : r.text("hidden_act");
  // Meta's and Mistral's native params.json (dim, n_layers, hidden_dim) describes a Llama decoder.
  const bool native_llama = type.empty() && config.contains("dim") && config.contains("n_layers");
  if (native_llama)
    r.assume("model_type", "A native params.json (dim, n_layers): a Llama-style decoder (SwiGLU, untied) is assumed.",
             {{"reason", reason("native_llama")}});
  const bool known_type = native_llama || gated_by_type || layer_norm || all_biases || untied_by_type ||
                          one_of(type, {"t5", "mt5", "umt5", "falcon", "gptj"});
  if (!type.empty() && !known_type)
    r.assume("model_type", "model_type \"" + type + "\" is not one the importer knows; its defaults are guessed.",
             {{"reason", reason("unknown_type")}, {"type", type}});
  if (gated_by_type || native_llama || feed_forward.rfind("gated", 0) == 0) {
    a.gated_mlp = true;
  } else if (!known_type && one_of(activation, {"silu", "swiglu", "swish"})) {
    a.gated_mlp = true;
    r.assume("hidden_act", "A " + activation + " MLP is taken to be gated (SwiGLU), as in Llama.",
             {{"reason", reason("gated_assumed")}, {"activation", activation}});
  }
  if (auto tied = r.flag("tie_word_embeddings")) {
    a.tied_embeddings = *tied;
  } else {
    a.tied_embeddings = !untied_by_type && !native_llama;
    const std::string message = std::string("tie_word_embeddings is not in the config; embeddings are taken as ") +
                                (a.tied_embeddings ? "tied" : "untied") + ", the default for model_type \"" + type +
                                "\".";
    if (a.tied_embeddings)
      r.assume("tie_word_embeddings", message, {{"reason", reason("tied_assumed")}, {"type", type}});
    else
      r.assume("tie_word_embeddings", message, {{"reason", reason("untied_assumed")}, {"type", type}});
  }
  a.norm = layer_norm ? NormKind::layer : NormKind::rms;
  a.bias = all_biases;
  if (one_of(type, {"qwen2", "qwen2_moe"}) || r.flag("qkv_bias").value_or(false)) a.qkv_bias = true;
  if (r.flag("attention_bias").value_or(false)) {
    a.qkv_bias = true;
    r.assume("attention_bias", "attention_bias is counted on Q, K and V (not on the output projection).",
             {{"reason", reason("attention_bias_qkv")}});
  }
  a.qk_norm = one_of(type, {"qwen3", "qwen3_moe", "gemma3", "gemma3_text", "olmo2"});
  if (one_of(type, {"gemma2", "gemma3", "gemma3_text"})) a.norms_per_layer = 4;
  if (type == "phi" || (type == "falcon" && !r.flag("new_decoder_architecture").value_or(false))) a.norms_per_layer = 1;
  if (type == "gptj") a.norms_per_layer = 1;
  a.embedding_norm = type == "bloom";
  a.lm_head_bias = type == "phi";
  a.encoder_only = one_of(type, {"bert", "roberta"});
  // Dropout during training keeps its masks for backward.
  for (const char* key : {"hidden_dropout_prob", "attention_probs_dropout_prob", "attn_pdrop", "resid_pdrop", "dropout",
                          "attention_dropout", "hidden_dropout", "dropout_rate"})
    if (config.contains(key) && config[key].is_number() && config[key].get<double>() > 0) a.dropout = true;
  if (type == "t5" || type == "mt5" || type == "umt5") {
    a.decoder_layers = r.count({"num_decoder_layers"}, false, "").value_or(a.layers);
  }
  double seq_len = 0;
  if (learned_positions) {
    const auto positions = r.count({"n_positions", "max_position_embeddings"}, false, "");
    if (positions) {
      seq_len = *positions;
      // OPT's position table has 2 extra rows (HF OPTLearnedPositionalEmbedding offset).
      a.position_embeddings = *positions + (type == "opt" ? 2 : 0);
      if (type == "roberta") seq_len = *positions - 2;  // RoBERTa's table has 2 rows for its padding offset
    }
  }
  if (a.encoder_only) a.tied_embeddings = true;  // BERT's MLM head reuses the embedding
  if (type.empty()) r.assume("model_type", "No model_type: a plain decoder with RMSNorm and no biases is assumed.",
                               {{"reason", reason("no_type")}});
  return seq_len;
}

// The imported architecture checked exactly as a scenario's would be; counted where it passes.
void check_imported(HfImport& out, const Architecture& a, HfReader& r, const json& config, double seq_len) {
  std::string name = r.text("_name_or_path");
  if (name.empty() && config.contains("architectures") && config["architectures"].is_array() &&
      !config["architectures"].empty() && config["architectures"][0].is_string())
    name = config["architectures"][0].get<std::string>();
  json model = detail::architecture_to_json(a);
  if (!name.empty()) model["name"] = name;
  Issues check;
  detail::Fields f(model, "model", check, &contract::model);
  Architecture again;
  f.text("name");
  detail::read_architecture_fields(f, again);
  detail::check_architecture(again, f);
  f.reject_unknown();
  for (auto& issue : check) issue.field = "hf_config";
  out.errors.insert(out.errors.end(), check.begin(), check.end());
  if (out.errors.empty()) {
    const ParameterCount count = count_parameters(again);
    out.params = count.total;
    out.active_params = count.active;
    out.seq_len = seq_len;
    out.architecture = a;
    out.name = name;
  }
}

}  // namespace

HfImport import_hf_config(std::string_view config_text) {
  HfImport out;
  auto parsed = detail::parse_json_text(config_text, out.errors);
  if (!parsed) return out;
  json config = *parsed;
  if (!config.is_object()) {
    out.errors.push_back(
        {"hf_config", "wrong_type", "A config.json is a JSON object ({...}).", {{"expected", "object"}}});
    return out;
  }
  // Multimodal configs keep the language model in text_config (Gemma 3, Llama 3.2 Vision, ...).
  if (config.contains("text_config") && config["text_config"].is_object()) {
    json text = config["text_config"];
    if (!text.contains("model_type") && config.contains("model_type")) text["model_type"] = config["model_type"];
    config = text;
    out.warnings.push_back({"hf_config.text_config", "assumed",
                            "Only the language model (text_config) is imported; a vision encoder is not counted.",
                            {{"reason", reason("text_config")}}});
  }
  HfReader r(config, out.errors, out.warnings);
  const std::string type = r.text("model_type");

  Architecture a;
  read_shape(r, a);
  read_experts(r, a);
  read_latent_attention(r, a);
  const double seq_len = apply_model_class(r, a, type, config);
  if (!out.errors.empty()) return out;
  check_imported(out, a, r, config, seq_len);
  return out;
}

std::string hf_import_to_json(const HfImport& imported, int indent) {
  json out = json::object();
  if (imported.architecture) {
    json model = detail::architecture_to_json(*imported.architecture);
    if (!imported.name.empty()) model["name"] = imported.name;
    out["model"] = model;
    out["params"] = imported.params;
    out["active_params"] = imported.active_params;
    if (imported.seq_len > 0) out["seq_len"] = imported.seq_len;
  }
  out["warnings"] = detail::issues_to_json(imported.warnings);
  out["errors"] = detail::issues_to_json(imported.errors);
  return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace traincalc
