// A training framework's configuration read into the scenario's terms. A config arrives as a JSON
// tree (JSON as it is; YAML and TOML read by a library where the text arrives, the command line's
// yaml-cpp and toml++) or, for Megatron-LM, as a launch script whose arguments are read here. Each framework's keys are declared once, in its table below (key, the
// scenario field it sets, how its value is read, what it means there); the import, the docs' key
// tables (`traincalc import-config --keys`) and the tests read the same rows.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "contract/json_fields.hpp"
#include "contract/text.hpp"
#include "traincalc/catalog.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"

namespace traincalc {

namespace {

using detail::json;

// ---- How a key's value is read ----

enum class Read {
  whole,    // a whole number (a JSON number, or a number in a script's text)
  number,   // a number
  flag,     // true or false; a Megatron flag given without a value is true
  words,    // one of the row's words, each giving the field's value (JSON text)
  text,     // a name, kept as text (a model's name)
  no_cost,  // read, and does not change the estimate
};

// A framework's word and the field's value it stands for, as JSON text ("\"bf16\"", "3", "true").
struct Word {
  std::string_view word;
  std::string_view value;
};

// One key of a framework's config. `field` is the scenario field it sets (dotted), or a working value
// the format's last step combines ("@grad_accum": micro-batches a step; "@nodes", "@gpus_per_node",
// "@world": GPUs; "@model": a model's name to find in the catalog; others named where used).
struct KeyRule {
  std::string_view key;  // dotted path in the config ("training.seq_len"), or a flag ("--seq-length")
  std::string_view field;
  Read read = Read::number;
  std::span<const Word> words = {};
  std::string_view meaning = {};
};

// ---- The import's state ----

struct State {
  explicit State(const Catalog& c) : catalog(c) {}
  const Catalog& catalog;
  json scenario = json::object();
  std::map<std::string, json> work;       // working values by name (without the @)
  std::map<std::string, std::string> at;  // where each field and working value came from: its key
  std::map<std::string, int> from;        // and from which config
  json taken = json::array();
  json ignored = json::array();
  Issues errors, warnings;
  std::vector<std::string> formats;
  int config = 0;  // which of the configs is being read

  bool has(std::string_view field) const { return !get(field).is_null(); }  // no field is ever set to null
  json get(std::string_view field) const {
    const json* node = &scenario;
    std::size_t start = 0;
    while (start <= field.size()) {
      const std::size_t dot = std::min(field.find('.', start), field.size());
      const std::string part(field.substr(start, dot - start));
      if (!node->is_object() || !node->contains(part)) return nullptr;
      node = &(*node)[part];
      start = dot + 1;
    }
    return *node;
  }
  void set(std::string_view field, json value, std::string_view key) {
    // A whole number is written whole ("count": 8, not 8.0), as the scenario's readers take it.
    if (value.is_number_float() && std::floor(value.get<double>()) == value.get<double>() &&
        std::abs(value.get<double>()) < 1e15)
      value = static_cast<std::int64_t>(value.get<double>());
    if (field.starts_with('@')) {
      work[std::string(field.substr(1))] = value;
    } else {
      json* node = &scenario;
      std::size_t start = 0;
      for (std::size_t dot; (dot = field.find('.', start)) != std::string_view::npos; start = dot + 1)
        node = &(*node)[std::string(field.substr(start, dot - start))];
      (*node)[std::string(field.substr(start))] = value;
    }
    at[std::string(field)] = std::string(key);
    from[std::string(field)] = config;
  }
  // A field the configs' keys give together, or through a working value: set, and said under `key`.
  void take(std::string_view field, const json& value, const std::string& key) {
    set(field, value, key);
    taken.push_back({{"config", config}, {"key", key}, {"field", field}, {"value", get(field)}});
  }
  // A field the config implies without naming it (a framework's default): taken, under a key in
  // parentheses that says whose default it is.
  void imply(std::string_view field, const json& value, const std::string& why) {
    if (has(field)) return;
    set(field, value, why);
    taken.push_back({{"config", config}, {"key", why}, {"field", field}, {"value", get(field)}});
  }
  // A field taken from a key that another replaces (epochs under max_steps): left aside, `why` said.
  void replace(std::string_view field, const char* why) {
    const std::size_t dot = field.find('.');
    json& section = scenario[std::string(field.substr(0, dot))];
    if (!section.is_object() || !section.contains(std::string(field.substr(dot + 1)))) return;
    section.erase(std::string(field.substr(dot + 1)));
    json kept = json::array();
    for (json& row : taken)
      if (row["field"] != json(field)) kept.push_back(std::move(row));
    taken = std::move(kept);
    ignored.push_back({{"config", config}, {"key", key_of(field)}, {"why", why}});
  }
  // Whether a working flag is set, and a working word or name ("" when absent or not text).
  bool on(const std::string& name) const {
    const auto it = work.find(name);
    return it != work.end() && it->second == json(true);
  }
  std::string word(const std::string& name) const {
    const auto it = work.find(name);
    return it != work.end() && it->second.is_string() ? it->second.get<std::string>() : std::string();
  }
  std::optional<double> number(std::string_view name) const {
    const auto it = work.find(std::string(name));
    return it != work.end() && it->second.is_number() ? std::optional(it->second.get<double>()) : std::nullopt;
  }
  std::optional<double> field_number(std::string_view field) const {
    const json value = get(field);
    return value.is_number() ? std::optional(value.get<double>()) : std::nullopt;
  }
  std::string key_of(std::string_view field) const {
    const auto it = at.find(std::string(field));
    return it == at.end() ? std::string(field) : it->second;
  }
};

// A number from a JSON number or a script's text ("8", "1.5e-4"); nullopt otherwise.
std::optional<double> as_number(const json& value) {
  if (value.is_number()) return std::isfinite(value.get<double>()) ? std::optional(value.get<double>()) : std::nullopt;
  if (!value.is_string()) return std::nullopt;
  const std::string text = value.get<std::string>();
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}

std::optional<bool> as_flag(const json& value) {
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    if (text == "true") return true;
    if (text == "false") return false;
  }
  return std::nullopt;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// ---- Megatron-LM: the arguments of a launch script ----

// A script's words, its variables expanded: comments and line continuations removed, quotes
// honoured, `NAME=value` lines remembered and `$NAME`, `${NAME}` and `${NAME:-default}` replaced
// (an unset name by its default, else by nothing). Arrays and commands need no more: the arguments
// stand in the script as words, and only their values are read. Each word says whether it ends its
// line: a flag's value stands on the flag's line.
struct ScriptWord {
  std::string text;
  bool ends_line = false;
};
// A script's words and variables stop growing at max_script_bytes (a value doubled line after line
// would otherwise take the memory): past it, the rest is not read.
constexpr std::size_t max_script_bytes = 1'000'000;
std::vector<ScriptWord> script_words(std::string_view text) {
  std::map<std::string, std::string> vars;
  std::vector<ScriptWord> words;
  std::size_t total = 0, var_bytes = 0;
  const auto expand = [&](std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '$' || i + 1 >= s.size()) {
        out += s[i];
        continue;
      }
      std::string name, fallback;
      bool has_fallback = false;
      if (s[i + 1] == '{') {
        const std::size_t close = s.find('}', i + 2);
        if (close == std::string_view::npos) {
          out += s.substr(i);
          break;
        }
        const std::string_view inner = s.substr(i + 2, close - i - 2);
        const std::size_t dash = inner.find(":-");
        name = std::string(inner.substr(0, dash));
        if (dash != std::string_view::npos) {
          has_fallback = true;
          fallback = std::string(inner.substr(dash + 2));
          if (fallback.size() >= 2 && (fallback.front() == '"' || fallback.front() == '\'') && fallback.back() == fallback.front())
            fallback = fallback.substr(1, fallback.size() - 2);
        }
        i = close;
      } else {
        std::size_t j = i + 1;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
        if (j == i + 1) {
          out += '$';
          continue;
        }
        name = std::string(s.substr(i + 1, j - i - 1));
        i = j - 1;
      }
      const auto it = vars.find(name);
      out += it != vars.end() ? it->second : has_fallback ? fallback : std::string();
      if (out.size() > max_script_bytes) break;
    }
    return out;
  };
  // Continued lines joined, and a quote left open at a line's end carried on to the next.
  std::string joined;
  char open = 0;
  for (std::size_t i = 0; i < text.size() && i < max_script_bytes; ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n' && open != '\'') {
      ++i;
      joined += ' ';
    } else if (c == '\n' && open) {
      joined += ' ';
    } else if (c != '\r') {
      if (open && c == open) open = 0;
      else if (!open && (c == '"' || c == '\'')) open = c;
      else if (!open && c == ';') {  // a command's end, as an operator
        joined += " | ";
        continue;
      } else if (!open && c == '#' && (joined.empty() || joined.back() == ' ' || joined.back() == '\t' || joined.back() == '\n')) {
        while (i + 1 < text.size() && text[i + 1] != '\n') ++i;  // a comment, to the line's end
        continue;
      }
      joined += c;
    }
  }
  std::size_t start = 0;
  while (start < joined.size()) {
    std::size_t end = joined.find('\n', start);
    if (end == std::string::npos) end = joined.size();
    const std::string_view line(joined.data() + start, end - start);
    start = end + 1;
    std::vector<std::string> line_words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      const char c = i < line.size() ? line[i] : '\n';
      if (quote) {
        if (c == quote) {
          quote = 0;
        } else if (c != '\n') {
          word += (quote == '"' && c == '$') ? '\x01' : c;  // expanded below, inside double quotes only
        }
        continue;
      }
      if (c == '"' || c == '\'') {
        quote = c;
        in_word = true;
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '(' || c == ')') {
        if (in_word) line_words.push_back(word);
        word.clear();
        in_word = false;
      } else {
        word += c == '$' ? '\x01' : c;
        in_word = true;
      }
    }
    for (std::string& w : line_words) std::replace(w.begin(), w.end(), '\x01', '$');
    if (!line_words.empty() && line_words[0] == "export") line_words.erase(line_words.begin());
    // NAME=value: a variable (the value expanded now, as the shell does).
    if (!line_words.empty()) {
      const std::string& first = line_words[0];
      const std::size_t eq = first.find('=');
      if (eq != std::string::npos && eq > 0 && !first.starts_with("-") &&
          std::all_of(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(eq),
                      [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; })) {
        std::string value = expand(first.substr(eq + 1));
        var_bytes += value.size();
        if (var_bytes < 4 * max_script_bytes) vars[first.substr(0, eq)] = std::move(value);
        line_words.erase(line_words.begin());
      }
    }
    for (const std::string& w : line_words) {
      if (total > max_script_bytes) break;
      // A shell operator or "$@" ends the arguments before it: a flag does not take it as its value.
      if (w.starts_with(">") || w.starts_with("|") || w.starts_with("&") || w.starts_with("2>") || w == "$@" ||
          w == "$*" || w == "\"$@\"") {
        if (!words.empty()) words.back().ends_line = true;
        continue;
      }
      const std::string expanded = expand(w);
      total += expanded.size();
      // "--fp8-format hybrid" quoted as one array element is two words to argparse's reader here.
      std::size_t from = 0;
      while (from <= expanded.size()) {
        const std::size_t space = expanded.find(' ', from);
        const std::string piece = expanded.substr(from, space == std::string::npos ? std::string::npos : space - from);
        if (!piece.empty()) words.push_back({piece, false});
        if (space == std::string::npos) break;
        from = space + 1;
      }
    }
    if (!words.empty()) words.back().ends_line = true;
  }
  return words;
}

bool megatron_switch(std::string_view flag);

// The flags among a script's words, each with its value ("--seq-length": "8192"), or true for a
// flag with none ("--bf16", or a switch the table knows, whatever follows it); a later one replaces
// an earlier. Every branch of an `if` is read, so a flag set in two branches takes the later one.
json script_arguments(std::string_view text) {
  const std::vector<ScriptWord> words = script_words(text);
  json args = json::object();
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    if (!w.starts_with("--") || w.size() < 3) continue;
    const std::size_t eq = w.find('=');
    if (eq != std::string::npos) {
      args[w.substr(0, eq)] = w.substr(eq + 1);
    } else if (!words[i].ends_line && i + 1 < words.size() && !words[i + 1].text.starts_with("--") &&
               !words[i + 1].text.ends_with(".py") && !megatron_switch(w)) {
      args[w] = words[++i].text;
    } else {
      args[w] = true;
    }
  }
  return args;
}

// ---- The frameworks' keys ----

constexpr Word precision_words[] = {{"bfloat16", "\"bf16\""}, {"bf16", "\"bf16\""}, {"float16", "\"fp16\""},
                                    {"fp16", "\"fp16\""}, {"float32", "\"fp32\""}, {"fp32", "\"fp32\""},
                                    {"no", "\"fp32\""}, {"fp8", "\"fp8\""}};
constexpr Word recompute_words[] = {{"selective", "\"selective\""}, {"full", "\"full\""}, {"none", "\"none\""},
                                    {"memory_budget", "\"selective\""}};
constexpr Word true_word[] = {{"true", "true"}};

// Megatron-LM's arguments (megatron/training/arguments.py @d98e8a6; flags from the dataclass fields of
// megatron/core/model_parallel_config.py, transformer_config.py and training/config/*.py).
constexpr Word megatron_recompute[] = {{"full", "\"full\""}, {"selective", "\"selective\""}};
constexpr Word megatron_norm[] = {{"RMSNorm", "\"rmsnorm\""}, {"LayerNorm", "\"layernorm\""}};
constexpr Word megatron_fp8[] = {{"e4m3", "\"fp8\""}, {"hybrid", "\"fp8\""}};
constexpr Word megatron_optimizer[] = {{"adam", "\"adamw\""}, {"sgd", "\"sgd-momentum\""}, {"lion", "\"lion\""}};
constexpr Word megatron_positions[] = {{"rope", "\"rope\""}, {"none", "\"none\""}, {"learned_absolute", "\"learned\""}};
constexpr Word megatron_sharding[] = {{"no_shard", "0"}, {"optim", "1"}, {"optim_grads", "2"}, {"optim_grads_params", "3"}};
constexpr KeyRule megatron_keys[] = {
    {"--num-layers", "model.layers", Read::whole, {}, "Transformer layers."},
    {"--hidden-size", "model.hidden", Read::whole, {}, "Hidden size."},
    {"--ffn-hidden-size", "model.ffn_hidden", Read::whole, {}, "MLP width; absent, 4 x hidden, or (8/3) x hidden rounded down to 64 with --swiglu."},
    {"--num-attention-heads", "model.heads", Read::whole, {}, "Attention heads."},
    {"--num-query-groups", "@query_groups", Read::whole, {}, "Key/value heads, with --group-query-attention."},
    {"--group-query-attention", "@gqa", Read::flag, {}, "Grouped-query attention (--num-query-groups key/value heads)."},
    {"--kv-channels", "model.head_dim", Read::whole, {}, "Width of each attention head; absent, hidden / heads."},
    {"--vocab-size", "model.vocab", Read::whole, {}, "Vocabulary size (else the tokenizer's: taken from the catalog model of the same shape)."},
    {"--swiglu", "model.gated_mlp", Read::flag, {}, "SwiGLU MLP."},
    {"--add-qkv-bias", "model.qkv_bias", Read::flag, {}, "Biases on Q, K and V only."},
    {"--qk-layernorm", "model.qk_norm", Read::flag, {}, "A norm over each head of Q and K."},
    {"--untie-embeddings-and-output-weights", "@untie", Read::flag, {}, "A separate output matrix; absent, Megatron ties it to the embedding."},
    {"--disable-bias-linear", "@no_bias", Read::flag, {}, "No biases on the linear layers; absent, Megatron adds them."},
    {"--normalization", "model.norm", Read::words, megatron_norm, "LayerNorm (Megatron's default) or RMSNorm."},
    {"--position-embedding-type", "@positions", Read::words, megatron_positions, "learned_absolute (Megatron's default: max-position-embeddings learned positions), rope or none."},
    {"--max-position-embeddings", "@max_positions", Read::whole, {}, "Learned positions, with learned_absolute position embeddings."},
    {"--num-experts", "model.experts", Read::whole, {}, "Experts per mixture-of-experts layer."},
    {"--moe-router-topk", "model.experts_per_token", Read::whole, {}, "Experts each token is routed to."},
    {"--moe-ffn-hidden-size", "model.moe_ffn_hidden", Read::whole, {}, "Each expert's MLP width."},
    {"--seq-length", "training.seq_len", Read::whole, {}, "Sequence length."},
    {"--micro-batch-size", "strategy.micro_batch", Read::whole, {}, "Sequences per micro-batch."},
    {"--global-batch-size", "training.global_batch_sequences", Read::whole, {}, "Sequences per step; absent, micro-batch x data-parallel size."},
    {"--train-iters", "training.steps", Read::number, {}, "Optimizer steps."},
    {"--train-samples", "training.samples", Read::number, {}, "Sequences trained on."},
    {"--bf16", "@bf16", Read::flag, {}, "bf16 mixed precision."},
    {"--fp16", "@fp16", Read::flag, {}, "fp16 mixed precision."},
    {"--fp8-format", "@fp8", Read::words, megatron_fp8, "fp8 matmuls through Transformer Engine (e4m3 or hybrid)."},
    {"--tensor-model-parallel-size", "strategy.tp", Read::whole, {}, "Tensor-parallel size (Megatron's default 1)."},
    {"--pipeline-model-parallel-size", "strategy.pp", Read::whole, {}, "Pipeline stages (Megatron's default 1)."},
    {"--context-parallel-size", "strategy.cp", Read::whole, {}, "Context-parallel size (Megatron's default 1)."},
    {"--expert-model-parallel-size", "strategy.ep", Read::whole, {}, "Expert-parallel size (Megatron's default 1)."},
    {"--num-virtual-stages-per-pipeline-rank", "strategy.pp_virtual_stages", Read::whole, {}, "Interleaved chunks per pipeline stage."},
    {"--num-layers-per-virtual-pipeline-stage", "@layers_per_chunk", Read::whole, {}, "Layers per interleaved chunk: layers / (stages x this) chunks per stage."},
    {"--sequence-parallel", "strategy.sequence_parallel", Read::flag, {}, "Sequence parallelism (Megatron turns it off with tensor-parallel size 1)."},
    {"--use-distributed-optimizer", "@distributed_optimizer", Read::flag, {}, "The optimizer's states sharded over data-parallel ranks (ZeRO-1); absent, ZeRO 0."},
    {"--use-megatron-fsdp", "@megatron_fsdp", Read::flag, {}, "Megatron-FSDP: the data-parallel sharding --data-parallel-sharding-strategy names."},
    {"--data-parallel-sharding-strategy", "@dp_sharding", Read::words, megatron_sharding, "With Megatron-FSDP: optim (ZeRO-1), optim_grads (ZeRO-2) or optim_grads_params (ZeRO-3, the default)."},
    {"--use-torch-fsdp2", "@torch_fsdp2", Read::flag, {}, "PyTorch's FSDP2 over the data-parallel ranks (ZeRO-3)."},
    {"--recompute-activations", "@recompute_activations", Read::flag, {}, "Selective recomputation."},
    {"--recompute-granularity", "strategy.recompute", Read::words, megatron_recompute, "full or selective recomputation; absent, none."},
    {"--recompute-method", "@recompute_method", Read::text, {}, "With full recomputation: uniform or block (read as every layer recomputed)."},
    {"--recompute-num-layers", "@recompute_layers", Read::whole, {}, "With full recomputation: layers per recomputed group (read as every layer recomputed)."},
    {"--overlap-grad-reduce", "strategy.overlap_grad_reduce", Read::flag, {}, "Gradient reduction overlapped with the backward pass (Megatron's default: off)."},
    {"--tp-comm-overlap", "strategy.overlap_tp_comm", Read::flag, {}, "Tensor-parallel communication overlapped with the matmuls."},
    {"--grad-reduce-in-bf16", "@grad_reduce_bf16", Read::flag, {}, "Gradients reduced in bf16 (Megatron's default: fp32)."},
    {"--optimizer", "strategy.optimizer", Read::words, megatron_optimizer, "adam (Megatron's Adam is AdamW: decoupled weight decay), sgd or lion."},
    {"--cross-entropy-loss-fusion", "@fused_loss", Read::flag, {}, "The fused cross-entropy kernel."},
    {"--nproc_per_node", "@gpus_per_node", Read::whole, {}, "torchrun's GPUs per node."},
    {"--nnodes", "@nodes", Read::whole, {}, "torchrun's nodes."},
};
constexpr std::string_view megatron_no_cost[] = {
    "--lr", "--min-lr", "--lr-decay-style", "--lr-decay-iters", "--lr-decay-samples", "--lr-warmup-iters",
    "--lr-warmup-samples", "--lr-warmup-fraction", "--weight-decay", "--clip-grad", "--adam-beta1", "--adam-beta2",
    "--adam-eps", "--init-method-std", "--seed", "--save", "--load", "--save-interval", "--eval-interval",
    "--eval-iters", "--log-interval", "--tensorboard-dir", "--data-path", "--data-cache-path", "--split",
    "--tokenizer-type", "--tokenizer-model", "--vocab-file", "--merge-file", "--mock-data", "--node_rank",
    "--master_addr", "--master_port", "--use-mcore-models", "--rotary-base", "--rotary-percent",
    "--attention-dropout", "--hidden-dropout", "--apply-layernorm-1p", "--decoupled-lr", "--decoupled-min-lr",
    "--exit-duration-in-mins", "--manual-gc", "--calculate-per-token-loss", "--log-throughput",
    "--distributed-timeout-minutes", "--fp8-amax-history-len", "--fp8-amax-compute-algo",
    "--no-load-optim", "--no-load-rng", "--ckpt-format", "--wandb-project", "--wandb-exp-name", "--profile",
    "--profile-step-start", "--profile-step-end", "--tiktoken-pattern", "--no-create-attention-mask-in-dataloader",
    "--no-mmap-bin-files", "--num-workers", "--timing-log-level", "--log-timers-to-tensorboard",
    "--log-validation-ppl-to-tensorboard", "--log-memory-to-tensorboard", "--log-num-zeros-in-grad",
    "--log-params-norm", "--tensorboard-log-interval", "--make-vocab-size-divisible-by",
};

// torchtitan's TOML (torchtitan/config/job_config.py @238fa99; the llama3 flavors in
// torchtitan/models/llama3/__init__.py at the same commit).
constexpr Word titan_model[] = {{"llama3/8B", "\"llama-3.1-8b\""}, {"llama3/70B", "\"llama-3.1-70b\""},
                                {"llama3/405B", "\"llama-3.1-405b\""}};
constexpr Word titan_optimizer[] = {{"AdamW", "\"adamw\""}, {"Adam", "\"adam\""}};
constexpr KeyRule torchtitan_keys[] = {
    {"model.name", "@model_family", Read::text, {}, "The model family (llama3)."},
    {"model.flavor", "@model_flavor", Read::text, {}, "The family's size: llama3 8B, 70B and 405B are Llama 3.1's shapes."},
    {"model.converters", "@converters", Read::text, {}, "Model converters: float8 (quantize.linear.float8) trains the matmuls in fp8."},
    {"training.local_batch_size", "strategy.micro_batch", Read::whole, {}, "Sequences per GPU per forward and backward pass."},
    {"training.batch_size", "strategy.micro_batch", Read::whole, {}, "Sequences per GPU (older torchtitan's name for local_batch_size)."},
    {"training.global_batch_size", "@global_batch", Read::number, {}, "Sequences per step; -1 (the default), local_batch_size x data-parallel size."},
    {"training.seq_len", "training.seq_len", Read::whole, {}, "Sequence length."},
    {"training.steps", "training.steps", Read::number, {}, "Optimizer steps."},
    {"training.mixed_precision_param", "strategy.precision", Read::words, precision_words, "FSDP's parameter dtype for the matmuls (torchtitan's default bfloat16)."},
    {"training.dtype", "@dtype", Read::text, {}, "float32 (the default: fp32 master weights) or bfloat16 (weights, gradients and states all bf16)."},
    {"training.enable_cpu_offload", "@cpu_offload", Read::flag, {}, "FSDP's CPU offload of parameters, gradients and optimizer states."},
    {"optimizer.name", "strategy.optimizer", Read::words, titan_optimizer, "Adam or AdamW."},
    {"parallelism.data_parallel_replicate_degree", "@dp_replicate", Read::number, {}, "Data-parallel replicas (HSDP)."},
    {"parallelism.data_parallel_shard_degree", "@dp_shard", Read::number, {}, "FSDP's shard size; -1 (the default), the GPUs left over."},
    {"parallelism.tensor_parallel_degree", "strategy.tp", Read::whole, {}, "Tensor-parallel size, with sequence parallelism."},
    {"parallelism.pipeline_parallel_degree", "strategy.pp", Read::whole, {}, "Pipeline stages."},
    {"parallelism.context_parallel_degree", "strategy.cp", Read::whole, {}, "Context-parallel size."},
    {"parallelism.expert_parallel_degree", "strategy.ep", Read::whole, {}, "Expert-parallel size."},
    {"parallelism.pipeline_parallel_microbatch_size", "@pp_micro", Read::whole, {}, "With pipeline stages, the micro-batch (local_batch_size is then a pipeline's batch per step)."},
    {"activation_checkpoint.mode", "strategy.recompute", Read::words, recompute_words, "Activation checkpointing: selective (the default), full or none."},
    {"activation_checkpoint.selective_ac_option", "@ac_option", Read::text, {}, "With selective checkpointing: op (operator-level, read as selective); a number N checkpoints every Nth layer whole, which the calculator does not read (the default is \"2\")."},
    {"parallelism.fsdp_reshard_after_forward", "@reshard", Read::text, {}, "never keeps the gathered parameters from the forward to the backward pass (read as ZeRO-2); default and always free them (ZeRO-3)."},
    {"compile.enable", "strategy.compile", Read::flag, {}, "torch.compile."},
};
constexpr std::string_view torchtitan_no_cost[] = {
    "job.", "profiling.", "metrics.", "checkpoint.", "comm.", "validation.", "lr_scheduler.", "optimizer.lr",
    "optimizer.eps", "optimizer.weight_decay", "optimizer.implementation", "training.dataset", "training.max_norm",
    "training.seed", "training.deterministic", "model.tokenizer_path", "model.hf_assets_path",
    "parallelism.enable_async_tensor_parallel", "parallelism.disable_loss_parallel",
    "parallelism.pipeline_parallel_schedule", "float8.",
    "quantize.", "experimental.", "fault_tolerance.", "memory_estimation.", "compile.components",
    "training.mixed_precision_reduce", "training.gc_freq",
};

// DeepSpeed's JSON (docs/_pages/config-json.md and deepspeed/runtime/zero/config.py @edaa722). "auto"
// is Hugging Face's placeholder, filled from its TrainingArguments.
constexpr Word deepspeed_offload_optimizer[] = {{"cpu", "\"optimizer\""}, {"nvme", "\"optimizer\""}, {"none", "\"none\""}};
constexpr Word deepspeed_offload_param[] = {{"cpu", "\"optimizer+params\""}, {"nvme", "\"optimizer+params\""}, {"none", "\"none\""}};
constexpr Word deepspeed_optimizer[] = {{"Adam", "\"adamw\""}, {"AdamW", "\"adamw\""}, {"Lamb", "\"adamw\""}};
constexpr KeyRule deepspeed_keys[] = {
    {"train_micro_batch_size_per_gpu", "strategy.micro_batch", Read::whole, {}, "Sequences per GPU per forward and backward pass."},
    {"gradient_accumulation_steps", "@grad_accum", Read::whole, {}, "Micro-batches each GPU runs per step."},
    {"train_batch_size", "training.global_batch_sequences", Read::whole, {}, "Sequences per step: micro-batch x accumulation x data-parallel GPUs."},
    {"bf16.enabled", "@bf16", Read::flag, {}, "bf16 mixed precision."},
    {"bfloat16.enabled", "@bf16", Read::flag, {}, "bf16 mixed precision (the older name)."},
    {"fp16.enabled", "@fp16", Read::flag, {}, "fp16 mixed precision."},
    {"zero_optimization.stage", "strategy.zero", Read::whole, {}, "ZeRO stage: 1 shards optimizer states, 2 also gradients, 3 also parameters."},
    {"zero_optimization.offload_optimizer.device", "@offload_optimizer", Read::words, deepspeed_offload_optimizer, "Optimizer states and step on the CPU (ZeRO-Offload)."},
    {"zero_optimization.offload_param.device", "@offload_param", Read::words, deepspeed_offload_param, "Parameters on the CPU as well (ZeRO-Infinity, stage 3)."},
    {"zero_optimization.overlap_comm", "strategy.overlap_grad_reduce", Read::flag, {}, "Gradient reduction overlapped with the backward pass (DeepSpeed's default: on at stage 3)."},
    {"optimizer.type", "strategy.optimizer", Read::words, deepspeed_optimizer, "The optimizer (Adam is AdamW-style in DeepSpeed's FusedAdam)."},
};
constexpr std::string_view deepspeed_no_cost[] = {
    "optimizer.params.", "scheduler.", "gradient_clipping", "steps_per_print", "wall_clock_breakdown",
    "fp16.loss_scale", "fp16.initial_scale_power", "fp16.loss_scale_window", "fp16.hysteresis", "fp16.min_loss_scale",
    "fp16.auto_cast", "zero_optimization.contiguous_gradients", "zero_optimization.reduce_bucket_size",
    "zero_optimization.allgather_bucket_size", "zero_optimization.reduce_scatter", "zero_optimization.sub_group_size",
    "zero_optimization.stage3_", "zero_optimization.offload_optimizer.pin_memory",
    "zero_optimization.offload_param.pin_memory", "zero_optimization.allgather_partitions",
    "zero_optimization.round_robin_gradients", "flops_profiler.", "tensorboard.", "wandb.", "comms_logger.",
    "zero_allow_untested_optimizer", "prescale_gradients", "gradient_predivide_factor", "communication_data_type",
    "zero_force_ds_cpu_optimizer",
};

// Hugging Face TrainingArguments (transformers/training_args.py), TRL's SFTConfig and ModelConfig
// (trl @v0.19.1: the PEFT and bitsandbytes options of a recipe such as alignment-handbook's).
constexpr Word hf_optimizer[] = {
    {"adamw_torch", "\"adamw\""}, {"adamw_torch_fused", "\"adamw\""}, {"adamw_hf", "\"adamw\""},
    {"adamw_apex_fused", "\"adamw\""}, {"adamw_bnb_8bit", "\"adamw-8bit\""}, {"adamw_8bit", "\"adamw-8bit\""},
    {"paged_adamw_8bit", "\"paged-adamw-8bit\""}, {"paged_adamw_32bit", "\"paged-adamw\""}, {"adafactor", "\"adafactor\""},
    {"sgd", "\"sgd\""}, {"lion_32bit", "\"lion\""}, {"paged_lion_32bit", "\"lion\""}};
constexpr Word hf_attention[] = {{"flash_attention_2", "\"flash\""}, {"flash_attention_3", "\"flash3\""},
                                 {"sdpa", "\"flash\""}, {"eager", "\"eager\""}};
constexpr KeyRule hf_keys[] = {
    {"model_name_or_path", "@model", Read::text, {}, "The model, by its Hugging Face ID: found in the catalog."},
    {"per_device_train_batch_size", "strategy.micro_batch", Read::whole, {}, "Sequences per GPU per forward and backward pass."},
    {"gradient_accumulation_steps", "@grad_accum", Read::whole, {}, "Micro-batches each GPU runs per step (the default 1)."},
    {"num_train_epochs", "training.epochs", Read::number, {}, "Passes over the data."},
    {"max_steps", "@max_steps", Read::number, {}, "Optimizer steps, where positive (it then replaces the epochs)."},
    {"bf16", "@bf16", Read::flag, {}, "bf16 mixed precision."},
    {"fp16", "@fp16", Read::flag, {}, "fp16 mixed precision."},
    {"gradient_checkpointing", "@checkpointing", Read::flag, {}, "Activation checkpointing: each layer recomputed in the backward pass (full)."},
    {"max_seq_length", "training.seq_len", Read::whole, {}, "Sequence length (TRL's SFTConfig, max_length from TRL 0.20)."},
    {"max_length", "training.seq_len", Read::whole, {}, "Sequence length (TRL's SFTConfig)."},
    {"optim", "strategy.optimizer", Read::words, hf_optimizer, "The optimizer (adamw_torch by default)."},
    {"torch_compile", "strategy.compile", Read::flag, {}, "torch.compile."},
    {"use_peft", "@peft", Read::flag, {}, "LoRA adapters (TRL's ModelConfig)."},
    {"lora_r", "training.lora_rank", Read::whole, {}, "LoRA rank."},
    {"lora_target_modules", "@lora_targets", Read::text, {}, "The modules LoRA adapts: all-linear, or a list."},
    {"lora_dropout", "training.lora_dropout", Read::number, {}, "Dropout on the adapters' input."},
    {"load_in_4bit", "@load_in_4bit", Read::flag, {}, "The base weights in 4 bits (QLoRA)."},
    {"use_bnb_nested_quant", "@double_quant", Read::flag, {}, "The 4-bit constants quantised again (double quantisation)."},
    {"bnb_4bit_use_double_quant", "@double_quant", Read::flag, {}, "The 4-bit constants quantised again (double quantisation)."},
    {"fsdp", "@fsdp", Read::text, {}, "FSDP's options: full_shard or hybrid_shard (like ZeRO-3), shard_grad_op (ZeRO-2), with offload (parameters and optimizer on the CPU); auto_wrap is read and left aside."},
    {"attn_implementation", "strategy.attention", Read::words, hf_attention, "The attention kernel: flash_attention_2, flash_attention_3, sdpa (PyTorch's, FlashAttention's kernel in 16 bits) or eager."},
    {"use_flash_attention_2", "@flash2", Read::flag, {}, "FlashAttention 2 (the older switch)."},
};
constexpr std::string_view hf_no_cost[] = {
    "learning_rate", "lr_scheduler_type", "warmup_ratio", "warmup_steps", "weight_decay", "adam_beta1", "adam_beta2",
    "adam_epsilon", "max_grad_norm", "logging_steps", "logging_strategy", "log_level", "logging_first_step",
    "save_strategy", "save_steps", "save_total_limit", "eval_strategy", "evaluation_strategy", "eval_steps",
    "per_device_eval_batch_size", "do_eval", "do_train", "output_dir", "overwrite_output_dir", "report_to", "seed",
    "hub_model_id", "hub_strategy", "push_to_hub", "run_name", "dataset_mixer.", "dataset_splits",
    "dataset_mixture.", "dataset_name", "dataset_num_proc", "dataset_text_field", "preprocessing_num_workers",
    "chat_template", "tokenizer_name_or_path", "model_revision", "trust_remote_code", "gradient_checkpointing_kwargs.",
    "lora_alpha", "remove_unused_columns", "dataloader_num_workers", "bf16_full_eval", "fp16_full_eval", "tf32",
    "ddp_find_unused_parameters", "deepspeed", "bnb_4bit_compute_dtype", "bnb_4bit_quant_type", "lora_task_type",
    "use_rslora",
};

// Accelerate's config (accelerate config; a recipe's accelerate_configs/*.yaml): the GPUs, and the
// sharding an FSDP or DeepSpeed run uses.
constexpr Word accelerate_distributed[] = {{"FSDP", "\"fsdp\""}, {"DEEPSPEED", "\"deepspeed\""},
                                           {"MULTI_GPU", "\"ddp\""}, {"NO", "\"single\""}};
constexpr Word accelerate_sharding[] = {{"FULL_SHARD", "3"}, {"SHARD_GRAD_OP", "2"}, {"HYBRID_SHARD", "3"},
                                        {"NO_SHARD", "0"}, {"1", "3"}, {"2", "2"}, {"4", "3"}, {"3", "0"}};
constexpr KeyRule accelerate_keys[] = {
    {"num_processes", "@world", Read::whole, {}, "GPUs in all (one process each)."},
    {"num_machines", "@nodes", Read::whole, {}, "Nodes."},
    {"distributed_type", "@distributed", Read::words, accelerate_distributed, "FSDP, DEEPSPEED or MULTI_GPU (plain data parallelism)."},
    {"mixed_precision", "strategy.precision", Read::words, precision_words, "bf16, fp16, fp8 or no."},
    {"fsdp_config.fsdp_sharding_strategy", "strategy.zero", Read::words, accelerate_sharding, "FSDP's sharding: FULL_SHARD (like ZeRO-3), SHARD_GRAD_OP (ZeRO-2), NO_SHARD."},
    {"fsdp_config.fsdp_offload_params", "@fsdp_offload", Read::flag, {}, "FSDP's CPU offload of parameters and gradients (the optimizer steps on the CPU)."},
    {"fsdp_config.fsdp_activation_checkpointing", "@checkpointing", Read::flag, {}, "Activation checkpointing (full)."},
    {"deepspeed_config.zero_stage", "strategy.zero", Read::whole, {}, "DeepSpeed's ZeRO stage."},
    {"deepspeed_config.offload_optimizer_device", "@offload_optimizer", Read::words, deepspeed_offload_optimizer, "Optimizer states on the CPU."},
    {"deepspeed_config.offload_param_device", "@offload_param", Read::words, deepspeed_offload_param, "Parameters on the CPU as well."},
    {"deepspeed_config.gradient_accumulation_steps", "@grad_accum", Read::whole, {}, "Micro-batches each GPU runs per step."},
    {"dynamo_config.dynamo_backend", "@dynamo", Read::text, {}, "torch.compile's backend (NO: not compiled)."},
};
constexpr std::string_view accelerate_no_cost[] = {
    "compute_environment", "debug", "downcast_bf16", "machine_rank", "main_training_function", "rdzv_backend",
    "same_network", "tpu_", "use_cpu", "main_process_", "gpu_ids", "enable_cpu_affinity",
    "fsdp_config.fsdp_auto_wrap_policy", "fsdp_config.fsdp_backward_prefetch", "fsdp_config.fsdp_cpu_ram_efficient_loading",
    "fsdp_config.fsdp_forward_prefetch", "fsdp_config.fsdp_state_dict_type", "fsdp_config.fsdp_sync_module_states",
    "fsdp_config.fsdp_use_orig_params",
    "fsdp_config.fsdp_transformer_layer_cls_to_wrap", "deepspeed_config.deepspeed_multinode_launcher",
    "deepspeed_config.zero3_init_flag", "deepspeed_config.zero3_save_16bit_model", "deepspeed_config.gradient_clipping",
};

struct Format {
  std::string_view name;   // as the import reports it
  std::string_view title;  // for the docs
  std::span<const KeyRule> keys;
  std::span<const std::string_view> no_cost;  // keys (or prefixes ending in "." or "_") read and left aside
};

constexpr Format formats[] = {
    {"megatron", "Megatron-LM arguments (a launch script)", megatron_keys, megatron_no_cost},
    {"torchtitan", "torchtitan TOML", torchtitan_keys, torchtitan_no_cost},
    {"deepspeed", "DeepSpeed JSON", deepspeed_keys, deepspeed_no_cost},
    {"hf", "Hugging Face TrainingArguments with TRL, PEFT and bitsandbytes options (JSON or YAML)", hf_keys, hf_no_cost},
    {"accelerate", "Accelerate config (YAML)", accelerate_keys, accelerate_no_cost},
};

// A Megatron-LM flag that takes no value.
bool megatron_switch(std::string_view flag) {
  for (const KeyRule& r : megatron_keys)
    if (r.key == flag) return r.read == Read::flag;
  return false;
}

const Format* format_named(std::string_view name) {
  for (const Format& f : formats)
    if (f.name == name) return &f;
  return nullptr;
}

// Frameworks whose configs the calculator recognises and does not read, by the keys only they use:
// torchtune's builders (`_component_`), axolotl's base_model, LitGPT's checkpoint_dir or model_name
// with a train section, and NeMo's (or Megatron-Bridge's) trainer, or train section beside a model.
std::string_view unread_framework(const json& tree) {
  const auto has = [&](const char* key) { return tree.contains(key); };
  for (const auto& [key, value] : tree.items())
    if (value.is_object() && value.contains("_component_")) return "torchtune";
  if (has("base_model") || (has("micro_batch_size") && has("sequence_len"))) return "axolotl";
  if (has("checkpoint_dir") || ((has("model_name") || has("precision")) && has("train"))) return "litgpt";
  if ((has("trainer") || has("train")) && has("model")) return "nemo";
  return {};
}

// Which framework a tree is from, by the keys only it uses.
const Format* detect(const json& tree) {
  if (!tree.is_object() || !unread_framework(tree).empty()) return nullptr;
  const auto has = [&](const char* key) { return tree.contains(key); };
  // Megatron-LM's arguments: a flag of its table (another program's --flags are not its).
  for (const KeyRule& r : megatron_keys)
    if (tree.contains(std::string(r.key))) return format_named("megatron");
  if (has("zero_optimization") || has("train_micro_batch_size_per_gpu") || has("train_batch_size"))
    return format_named("deepspeed");
  if (has("distributed_type") || has("compute_environment") || has("num_processes")) return format_named("accelerate");
  if (has("parallelism") || (has("training") && has("model") && tree["model"].is_object() && tree["model"].contains("flavor")))
    return format_named("torchtitan");
  if (has("per_device_train_batch_size") || has("model_name_or_path") || has("gradient_accumulation_steps") ||
      has("num_train_epochs"))
    return format_named("hf");
  return nullptr;
}

// The leaves of a tree as dotted keys ("zero_optimization.offload_optimizer.device"), lists whole.
void leaves(const json& node, const std::string& prefix, std::vector<std::pair<std::string, const json*>>& out) {
  if (node.is_object() && (prefix.empty() || !node.empty())) {
    for (const auto& [key, child] : node.items()) leaves(child, prefix.empty() ? key : prefix + "." + key, out);
    return;
  }
  out.push_back({prefix, &node});
}

bool no_cost(const Format& format, const std::string& key) {
  return std::any_of(format.no_cost.begin(), format.no_cost.end(), [&](std::string_view k) {
    return key == k || ((k.ends_with('.') || k.ends_with('_')) && key.starts_with(k));
  });
}

// A value the row reads, as the field's JSON value; nullopt (with an error) where it cannot be read.
std::optional<json> read_value(const KeyRule& rule, const json& value, State& st, const std::string& key) {
  const auto refuse = [&](const std::string& wanted) -> std::optional<json> {
    st.errors.push_back({"config." + key, "wrong_type", key + " must be " + wanted + ", not " + detail::describe(value) + ".",
                         {{"expected", wanted}}});
    return std::nullopt;
  };
  switch (rule.read) {
    case Read::whole:
    case Read::number: {
      const auto x = as_number(value);
      if (!x || (rule.read == Read::whole && (std::floor(*x) != *x || std::abs(*x) > 1e15)))
        return refuse(rule.read == Read::whole ? "a whole number" : "a number");
      return rule.read == Read::whole ? json(static_cast<std::int64_t>(*x)) : json(*x);
    }
    case Read::flag: {
      const auto b = as_flag(value);
      if (!b) return refuse("true or false");
      return json(*b);
    }
    case Read::words: {
      const std::string word = value.is_string() ? value.get<std::string>() : value.dump();
      for (const Word& w : rule.words)
        if (w.word == word || lower(std::string(w.word)) == lower(word)) return json::parse(w.value);
      std::string allowed;
      for (const Word& w : rule.words) allowed += (allowed.empty() ? "" : ", ") + std::string(w.word);
      st.errors.push_back({"config." + key, "unknown_choice",
                           key + " \"" + word + "\" is not one the calculator reads; it reads " + allowed + ".",
                           {{"allowed", allowed}, {"got", word}}});
      return std::nullopt;
    }
    case Read::text:
      return value;
    case Read::no_cost:
      return std::nullopt;
  }
  return std::nullopt;
}

// One config's keys, each taken, left aside or not read.
void read_tree(const Format& format, const json& tree, State& st) {
  std::vector<std::pair<std::string, const json*>> keys;
  leaves(tree, "", keys);
  for (const auto& [leaf, value] : keys) {
    if (value->is_null()) continue;
    const std::string& key = leaf;  // a name the lambda below may capture
    const auto rule = std::find_if(format.keys.begin(), format.keys.end(), [&](const KeyRule& r) { return r.key == key; });
    if (rule == format.keys.end()) {
      st.ignored.push_back({{"config", st.config}, {"key", key}, {"why", no_cost(format, key) ? "no_cost" : "not_read"}});
      continue;
    }
    // Hugging Face's "auto" leaves a DeepSpeed value to its TrainingArguments.
    if (value->is_string() && value->get<std::string>() == "auto" && format.name == "deepspeed") {
      st.ignored.push_back({{"config", st.config}, {"key", key}, {"why", "auto"}});
      continue;
    }
    // A script's flag whose value was a variable the script does not set (the launcher's environment).
    if (*value == json(true) && rule->read != Read::flag && format.name == "megatron") {
      st.ignored.push_back({{"config", st.config}, {"key", key}, {"why", "no_value"}});
      continue;
    }
    const auto read = read_value(*rule, *value, st, key);
    if (!read) continue;
    st.set(rule->field, *read, key);
    st.taken.push_back({{"config", st.config}, {"key", key}, {"field", rule->field}, {"value", *read}});
  }
}

// ---- What each format's keys add up to ----

// The catalog's model a name stands for: a preset ID, or a Hugging Face ID whose name starts with one
// ("meta-llama/Meta-Llama-3.1-8B-Instruct" is llama-3.1-8b).
std::optional<std::string> find_preset(const Catalog& catalog, std::string name) {
  if (catalog.find_model(name)) return name;
  name = lower(name.substr(name.rfind('/') == std::string::npos ? 0 : name.rfind('/') + 1));
  std::replace(name.begin(), name.end(), '_', '-');
  if (name.starts_with("meta-")) name = name.substr(5);
  std::string best;
  for (const ModelPreset& preset : catalog.models) {
    const std::string& id = id_of(preset);
    if (!name.starts_with(id)) continue;
    if (name.size() > id.size() && name[id.size()] != '-' && name[id.size()] != '.') continue;
    if (id.size() > best.size()) best = id;
  }
  return best.empty() ? std::nullopt : std::optional(best);
}

void resolve_model(State& st) {
  if (st.work.count("model_family") && st.work.count("model_flavor")) {
    const std::string key = st.word("model_family") + "/" + st.word("model_flavor");
    for (const Word& w : titan_model)
      if (w.word == key) st.work["model"] = json::parse(w.value), st.at["@model"] = "model.flavor";
    if (!st.work.count("model")) {
      st.errors.push_back({"config.model.flavor", "unknown_id",
                           "torchtitan's " + key + " is not a model the calculator knows; give the model as a preset or paste its Hugging Face config.json.",
                           {{"got", key}}});
      return;
    }
  }
  const std::string name = st.word("model");
  if (name.empty()) return;
  if (const auto preset = find_preset(st.catalog, name)) {
    st.take("model.preset", *preset, st.key_of("@model"));
  } else {
    std::vector<std::pair<std::string, std::string>> rows;
    for (const ModelPreset& p : st.catalog.models) rows.push_back({id_of(p), p.model.name});
    const auto near = detail::closest_id(name, rows);
    st.errors.push_back({"config." + st.key_of("@model"), "unknown_id",
                         "The model " + name + " is not in the catalog; choose a preset" +
                             (near ? " (the nearest is " + *near + ")" : std::string()) +
                             " or paste its Hugging Face config.json.",
                         near ? std::map<std::string, std::string>{{"got", name}, {"suggestion", *near}}
                              : std::map<std::string, std::string>{{"got", name}}});
  }
}

// The mixed precision a bf16 or fp16 switch turns on (Megatron-LM, the Trainer and DeepSpeed name
// them alike); whether one did.
bool take_mixed_precision(State& st) {
  if (st.on("bf16")) st.take("strategy.precision", "bf16", st.key_of("@bf16"));
  else if (st.on("fp16")) st.take("strategy.precision", "fp16", st.key_of("@fp16"));
  else return false;
  return true;
}

// Megatron's defaults where the script says nothing, and the model's shape completed as
// megatron/training/arguments.py completes it.
void finish_megatron(State& st) {
  const std::string dflt = "(Megatron-LM's default)";
  st.imply("training.type", "pretrain", dflt);
  st.imply("strategy.framework", "megatron", "(the format)");
  if (st.work.count("fp8")) st.take("strategy.precision", "fp8", st.key_of("@fp8"));
  else if (!take_mixed_precision(st)) st.imply("strategy.precision", "fp32", dflt);
  const auto hidden = st.field_number("model.hidden");
  const auto heads = st.field_number("model.heads");
  if (st.on("gqa") && st.number("query_groups"))
    st.take("model.kv_heads", *st.number("query_groups"), st.key_of("@query_groups"));
  const bool swiglu = st.get("model.gated_mlp") == json(true);
  if (hidden && !st.has("model.ffn_hidden"))
    st.imply("model.ffn_hidden", swiglu ? std::floor(*hidden * 4 * 2 / 3 / 64) * 64 : 4 * *hidden, dflt);
  st.imply("model.tied_embeddings", !(st.on("untie")), dflt);
  st.imply("model.bias", !(st.on("no_bias")), dflt);
  st.imply("model.norm", "layernorm", dflt);
  const std::string positions = st.work.count("positions") ? st.word("positions") : "learned";
  if (positions == "learned")
    if (const auto n = st.number("max_positions") ? st.number("max_positions") : st.field_number("training.seq_len"))
      st.imply("model.position_embeddings", *n, dflt);
  // The vocabulary comes with the tokenizer: a catalog model of the same shape gives it.
  if (hidden && heads && !st.has("model.vocab"))
    for (const ModelPreset& p : st.catalog.models) {
      const auto& a = p.model.architecture;
      if (a && a->hidden == *hidden && a->heads == *heads && st.field_number("model.layers") == a->layers &&
          st.field_number("model.ffn_hidden") == a->ffn_hidden) {
        st.imply("model.vocab", a->vocab, "(the tokenizer of " + id_of(p) + ", the catalog model of this shape)");
        break;
      }
    }
  if (st.on("megatron_fsdp"))
    st.take("strategy.zero", st.number("dp_sharding").value_or(3),
            st.work.count("dp_sharding") ? st.key_of("@dp_sharding") : st.key_of("@megatron_fsdp"));
  else if (st.on("torch_fsdp2")) st.take("strategy.zero", 3, st.key_of("@torch_fsdp2"));
  else if (st.on("distributed_optimizer")) st.take("strategy.zero", 1, st.key_of("@distributed_optimizer"));
  else st.imply("strategy.zero", 0, dflt);
  if (st.on("recompute_activations"))  // it sets the granularity to selective, whatever else is given
    st.take("strategy.recompute", "selective", st.key_of("@recompute_activations"));
  if (st.get("strategy.recompute") == json("full") && st.work.count("recompute_method"))
    st.take("strategy.recompute", "full",
            st.key_of("strategy.recompute") + ", " + st.key_of("@recompute_method") +
                (st.work.count("recompute_layers") ? ", " + st.key_of("@recompute_layers") : std::string()));
  st.imply("strategy.recompute", "none", dflt);
  for (const char* f : {"strategy.tp", "strategy.pp", "strategy.cp", "strategy.ep"}) st.imply(f, 1, dflt);
  if (st.field_number("strategy.tp") == 1 && st.get("strategy.sequence_parallel") == json(true))
    st.take("strategy.sequence_parallel", false, "(Megatron-LM turns --sequence-parallel off at tensor-parallel size 1)");
  st.imply("strategy.sequence_parallel", false, dflt);
  if (st.field_number("model.experts").value_or(1) > 1) st.imply("model.experts_per_token", 2, dflt);
  if (!st.has("training.global_batch_sequences")) st.work["grad_accum"] = 1;  // micro-batch x data-parallel size
  st.imply("strategy.overlap_grad_reduce", false, dflt);
  if (st.on("grad_reduce_bf16"))
    st.take("strategy.grad_reduce_precision", "bf16", st.key_of("@grad_reduce_bf16"));
  if (st.on("fused_loss"))
    st.take("strategy.cross_entropy", "fused", st.key_of("@fused_loss"));
  if (const auto per_chunk = st.number("layers_per_chunk"))
    if (const auto layers = st.field_number("model.layers"))
      if (const auto pp = st.field_number("strategy.pp"); pp && *pp > 1)
        st.take("strategy.pp_virtual_stages", std::round(*layers / (*pp * *per_chunk)), st.key_of("@layers_per_chunk"));
  if (st.number("gpus_per_node")) {
    st.take("hardware.gpus_per_node", *st.number("gpus_per_node"), st.key_of("@gpus_per_node"));
    st.take("hardware.count", *st.number("gpus_per_node") * st.number("nodes").value_or(1),
            st.key_of("@gpus_per_node") + (st.number("nodes") ? " x " + st.key_of("@nodes") : std::string()));
  }
}

void finish_torchtitan(State& st) {
  st.imply("training.type", "pretrain", "(torchtitan pre-trains)");
  st.imply("strategy.framework", "fsdp2", "(the format: torchtitan runs FSDP2)");
  const std::string dflt = "(torchtitan's default)";
  if (st.work.count("converters") && st.work["converters"].dump().find("float8") != std::string::npos)
    st.take("strategy.precision", "fp8", st.key_of("@converters"));
  st.imply("strategy.precision", "bf16", dflt);
  if (st.word("dtype") == "bfloat16") st.take("strategy.regime", "pure", st.key_of("@dtype"));
  if (st.on("cpu_offload"))
    st.take("strategy.offload", "optimizer+params", st.key_of("@cpu_offload"));
  const double shard = st.number("dp_shard").value_or(-1);
  if (shard == 1) st.imply("strategy.zero", 0, "parallelism.data_parallel_shard_degree");
  else if (st.word("reshard") == "never") st.take("strategy.zero", 2, st.key_of("@reshard"));
  else st.imply("strategy.zero", 3, st.work.count("dp_shard") ? "parallelism.data_parallel_shard_degree" : "(FSDP: torchtitan's default shard degree -1)");
  if (st.word("ac_option") == "op" && st.get("strategy.recompute") == json("selective"))
    st.take("strategy.recompute", "selective", st.key_of("strategy.recompute") + ", " + st.key_of("@ac_option"));
  st.imply("strategy.recompute", "selective", dflt);
  for (const char* f : {"strategy.tp", "strategy.pp", "strategy.cp", "strategy.ep"}) st.imply(f, 1, dflt);
  if (st.field_number("strategy.pp").value_or(1) > 1) {  // local_batch_size is then a pipeline's step
    if (const auto micro = st.number("pp_micro")) st.take("strategy.micro_batch", *micro, st.key_of("@pp_micro"));
    else st.take("strategy.micro_batch", 1, "(torchtitan's default pipeline micro-batch)");
  }
  if (const auto global = st.number("global_batch"); global && *global > 0)
    st.take("training.global_batch_sequences", *global, st.key_of("@global_batch"));
  else st.work["grad_accum"] = 1;  // -1: local_batch_size x data-parallel size
}

void finish_hf(State& st) {
  st.imply("training.type", "finetune", "(a Hugging Face Trainer recipe fine-tunes)");
  st.imply("strategy.framework", "hf", "(the format)");
  take_mixed_precision(st);
  if (const auto steps = st.number("max_steps"); steps && *steps > 0) {  // the Trainer's steps, whatever the epochs
    st.take("training.steps", *steps, st.key_of("@max_steps"));
    st.replace("training.epochs", "replaced");
  }
  if (st.work.count("checkpointing")) st.take("strategy.recompute", st.on("checkpointing") ? "full" : "none", st.key_of("@checkpointing"));
  const bool four_bit = st.on("load_in_4bit");
  const bool peft = st.on("peft");
  if (four_bit)
    st.take("training.method", "qlora", st.key_of("@load_in_4bit") + (peft ? ", " + st.key_of("@peft") : std::string()));
  else if (peft) st.take("training.method", "lora", st.key_of("@peft"));
  if (four_bit && st.work.count("double_quant"))
    st.take("training.quantization", st.on("double_quant") ? "nf4_double" : "nf4", st.key_of("@double_quant"));
  if (st.on("flash2")) st.take("strategy.attention", "flash", st.key_of("@flash2"));
  // fsdp: "full_shard auto_wrap", "shard_grad_op offload", or a list of such words.
  if (st.work.count("fsdp")) {
    std::string words = " ";
    const json& f = st.work["fsdp"];
    if (f.is_string()) words += f.get<std::string>() + " ";
    if (f.is_array())
      for (const json& w : f) words += (w.is_string() ? w.get<std::string>() : std::string()) + " ";
    const auto has = [&](const char* w) { return words.find(std::string(" ") + w + " ") != std::string::npos; };
    if (has("full_shard") || has("hybrid_shard")) st.take("strategy.zero", 3, st.key_of("@fsdp"));
    else if (has("shard_grad_op")) st.take("strategy.zero", 2, st.key_of("@fsdp"));
    if (has("offload")) st.take("strategy.offload", "optimizer+params", st.key_of("@fsdp"));
  }
  if (st.work.count("lora_targets")) {
    const json& t = st.work["lora_targets"];
    std::string targets;
    if (t.is_string() && (t == json("all-linear") || t == json("all_linear"))) targets = "all_linear";
    if (t.is_array()) {
      std::string joined;
      for (const json& m : t) joined += "," + (m.is_string() ? m.get<std::string>() : std::string()) + ",";
      const auto in = [&](const char* m) { return joined.find(std::string(",") + m + ",") != std::string::npos; };
      if (in("gate_proj") || in("up_proj") || in("down_proj")) targets = "all_linear";
      else if (in("k_proj") || in("o_proj")) targets = "attention";
      else if (in("q_proj") && in("v_proj")) targets = "query_value";
    }
    if (!targets.empty()) st.take("training.lora_targets", targets, st.key_of("@lora_targets"));
  }
}

void finish_accelerate(State& st) {
  if (st.number("world")) {
    st.take("hardware.count", *st.number("world"), st.key_of("@world"));
    if (const auto nodes = st.number("nodes"); nodes && *nodes > 0)
      st.take("hardware.gpus_per_node", *st.number("world") / *nodes, st.key_of("@world") + " / " + st.key_of("@nodes"));
  }
  if (st.word("distributed") == "deepspeed")
    st.take("strategy.framework", "deepspeed", st.key_of("@distributed"));
  if (st.on("fsdp_offload"))
    st.take("strategy.offload", "optimizer+params", st.key_of("@fsdp_offload"));
  if (st.on("checkpointing"))
    st.take("strategy.recompute", "full", st.key_of("@checkpointing"));
  if (!st.word("dynamo").empty() && st.word("dynamo") != "NO")
    st.take("strategy.compile", true, st.key_of("@dynamo"));
}

void finish_deepspeed(State& st) {
  if (!st.has("strategy.framework")) st.take("strategy.framework", "deepspeed", "(the format)");
  take_mixed_precision(st);
}

// Offloads (DeepSpeed's and accelerate's): parameters on the CPU are read as the scenario's
// optimizer+params, its nearest (it has no offload of parameters alone).
void finish_offload(State& st) {
  const auto device = [&](const char* name) {
    return st.work.count(name) ? st.word(name) : std::string("none");
  };
  if (device("offload_param") != "none") st.take("strategy.offload", "optimizer+params", st.key_of("@offload_param"));
  else if (device("offload_optimizer") != "none") st.take("strategy.offload", "optimizer", st.key_of("@offload_optimizer"));
}

// What the configs say together: the global batch from its parts, and the checks a launch would fail.
void finish_run(State& st) {
  const auto count = st.field_number("hardware.count");
  const double tp = st.field_number("strategy.tp").value_or(1), pp = st.field_number("strategy.pp").value_or(1),
               cp = st.field_number("strategy.cp").value_or(1);
  const double model_parallel = tp * pp * cp;
  if (count && std::fmod(*count, model_parallel) != 0) {
    st.errors.push_back({"config." + st.key_of("strategy.tp"), "inconsistent",
                         "tp x pp x cp = " + detail::format_number(model_parallel) + " (" + st.key_of("strategy.tp") + ", " +
                             st.key_of("strategy.pp") + ", " + st.key_of("strategy.cp") + ") does not divide the " +
                             detail::format_number(*count) + " GPUs (" + st.key_of("hardware.count") +
                             "): change the parallel sizes or the GPU count.",
                         {{"reason", reason("config_layout")},
                          {"model_parallel", detail::format_number(model_parallel)},
                          {"count", detail::format_number(*count)}}});
    return;
  }
  const auto micro = st.field_number("strategy.micro_batch");
  const double dp = count ? *count / model_parallel : 0;
  if (micro && count && !st.has("training.global_batch_sequences"))
    if (const auto accum = st.number("grad_accum"))
      st.imply("training.global_batch_sequences", *micro * *accum * dp,
               st.key_of("strategy.micro_batch") + (st.at.count("@grad_accum") ? " x " + st.key_of("@grad_accum") : std::string()) +
                   " x data-parallel GPUs");
  const auto global = st.field_number("training.global_batch_sequences");
  // DeepSpeed asserts train_batch_size = micro-batch x accumulation x data-parallel size.
  if (const auto accum = st.number("grad_accum"); global && micro && count && accum && st.at.count("@grad_accum") &&
                                                  *global != *micro * *accum * dp)
    st.errors.push_back({"config." + st.key_of("training.global_batch_sequences"), "inconsistent",
                         "The global batch " + detail::format_number(*global) + " (" + st.key_of("training.global_batch_sequences") +
                             ") is not the micro-batch " + detail::format_number(*micro) + " x " + detail::format_number(*accum) +
                             " micro-batches (" + st.key_of("@grad_accum") + ") x " + detail::format_number(dp) +
                             " data-parallel GPUs; make it " + detail::format_number(*micro * *accum * dp) + ".",
                         {{"reason", reason("config_batch")},
                          {"global", detail::format_number(*global)},
                          {"multiple", detail::format_number(*micro * *accum * dp)}}});
  else if (global && micro && count && std::fmod(*global, *micro * dp) != 0)
    st.errors.push_back({"config." + st.key_of("training.global_batch_sequences"), "inconsistent",
                         "The global batch " + detail::format_number(*global) + " (" + st.key_of("training.global_batch_sequences") +
                             ") is not a whole number of micro-batches of " + detail::format_number(*micro) + " on " +
                             detail::format_number(dp) + " data-parallel GPUs; make it a multiple of " +
                             detail::format_number(*micro * dp) + ".",
                         {{"reason", reason("config_batch")},
                          {"global", detail::format_number(*global)},
                          {"multiple", detail::format_number(*micro * dp)}}});
}

// What the estimate still assumes: the fields a run depends on that no config gave.
json missing(const State& st) {
  json out = json::array();
  const auto need = [&](const char* field, bool given) {
    if (!given) out.push_back(field);
  };
  need("model", st.has("model.preset") || st.has("model.layers") || st.has("model.params"));
  need("hardware.gpu", st.has("hardware.gpu"));
  need("hardware.count", st.has("hardware.count"));
  need("training.tokens", st.has("training.tokens") || st.has("training.samples") || st.has("training.steps") ||
                              st.has("training.dataset_gb"));
  need("training.seq_len", st.has("training.seq_len"));
  need("training.global_batch_sequences", st.has("training.global_batch_sequences"));
  need("strategy.precision", st.has("strategy.precision"));
  return out;
}

}  // namespace

std::string import_configs_json(const std::vector<ConfigText>& configs, const Catalog& catalog, int indent) {
  State st(catalog);
  std::vector<const Format*> used;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    st.config = static_cast<int>(i);
    const ConfigText& c = configs[i];
    // JSON (within the readers' size and depth), else a launch script's arguments.
    json tree = json::object();
    const std::size_t first = c.text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && c.text[first] == '{') {
      Issues unreadable;
      const auto parsed = detail::parse_json_text(c.text, unreadable);
      if (!parsed) {
        for (Issue& e : unreadable) st.errors.push_back({"config", e.code, "Config " + std::to_string(i + 1) + ": " + e.message, e.params});
        continue;
      }
      tree = *parsed;
    } else if (c.format.empty() || c.format == "megatron") {
      tree = script_arguments(c.text);
    }
    if (!tree.is_object() || tree.empty()) {
      st.errors.push_back({"config", "unsupported", "Config " + std::to_string(i + 1) +
                           " is neither a JSON object nor a script with --arguments (YAML and TOML files are read by the "
                           "command line's import-config).",
                           {{"reason", reason("config_format")}}});
      continue;
    }
    const Format* format = c.format.empty() ? detect(tree) : format_named(c.format);
    if (!format) {
      const std::string_view unread = unread_framework(tree);
      st.errors.push_back({"config", "unsupported",
                           "Config " + std::to_string(i + 1) + (unread.empty() ? std::string(" is not one the calculator reads")
                                                                                 : " is " + std::string(unread) + "'s, which the calculator does not read") +
                               ": it reads Megatron-LM arguments, torchtitan, DeepSpeed, Hugging Face TrainingArguments and "
                               "accelerate configs.",
                           {{"reason", reason("config_format")}}});
      continue;
    }
    st.formats.push_back(std::string(format->name));
    used.push_back(format);
    read_tree(*format, tree, st);
  }
  // The frameworks' own steps: the launcher's first (accelerate and DeepSpeed under a Hugging Face
  // recipe name the framework that runs it, its sharding and its GPUs), then the recipe's defaults.
  for (const char* name : {"accelerate", "deepspeed", "hf", "torchtitan", "megatron"})
    for (const Format* f : used)
      if (f->name == name) {
        if (f->name == "megatron") finish_megatron(st);
        if (f->name == "torchtitan") finish_torchtitan(st);
        if (f->name == "hf") finish_hf(st);
        if (f->name == "accelerate") finish_accelerate(st);
        if (f->name == "deepspeed") finish_deepspeed(st);
        break;
      }
  finish_offload(st);
  resolve_model(st);
  if (st.errors.empty()) finish_run(st);
  json out = json::object();
  out["formats"] = st.formats;
  out["scenario"] = st.scenario;
  // A key read into a working value that gave no field (--num-query-groups without
  // --group-query-attention, say) is said as read and unused.
  for (const auto& [name, value] : st.work) {
    const auto key = st.at.find("@" + name);
    if (key == st.at.end()) continue;
    const bool used = std::any_of(st.taken.begin(), st.taken.end(), [&](const json& row) {
      return !row["field"].get<std::string>().starts_with("@") &&
             row["key"].get<std::string>().find(key->second) != std::string::npos;
    });
    if (!used) st.ignored.push_back({{"config", st.from["@" + name]}, {"key", key->second}, {"why", "unused"}});
  }
  json taken = json::array();  // working values appear through the fields they give
  for (const json& row : st.taken)
    if (!row["field"].get<std::string>().starts_with("@")) taken.push_back(row);
  out["taken"] = taken;
  out["ignored"] = st.ignored;
  out["missing"] = missing(st);
  out["warnings"] = detail::issues_to_json(st.warnings);
  out["errors"] = detail::issues_to_json(st.errors);
  return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string config_keys_markdown() {
  std::string md =
      "# Framework configs\n\n"
      "Generated by `traincalc import-config --keys` from the import's key tables "
      "(`engine/src/import/framework_config.cpp`); a test fails when this file and the tables differ.\n\n"
      "`traincalc import-config FILE...` reads the configs of one run together (a recipe with its launcher's "
      "config, say) and prints the scenario they give: each key taken (key, field, value), each key left aside "
      "(`no_cost`: it does not change the estimate; `not_read`: the calculator does not read it; `auto`: "
      "DeepSpeed's placeholder, filled by the Hugging Face Trainer; `unused`: read, and nothing it combines "
      "with is given; `replaced`: another key replaces it, as max_steps the epochs; `no_value`: a script's "
      "variable the script does not set), and the fields the estimate still assumes. YAML is read with "
      "yaml-cpp and TOML with toml++; a launch script's `--arguments` are read with its variables expanded, "
      "every branch of an `if` alike (a flag set twice takes the later value). A key marked (with others) is combined with other keys: the global batch from the "
      "micro-batch, the accumulation and the data-parallel GPUs; the GPU count from GPUs per node and nodes; "
      "the precision from the framework's flags. Where a framework's default decides a field the config does "
      "not name (Megatron-LM ties the embeddings unless told otherwise), the field is taken under the key "
      "\"(Megatron-LM's default)\". A layout whose parallel sizes do not divide the GPU count, or a global "
      "batch that does not split into whole micro-batches, is refused with the key to change.\n";
  for (const Format& f : formats) {
    md += "\n## " + std::string(f.title) + " (`" + std::string(f.name) + "`)\n\n| key | scenario field | meaning |\n|---|---|---|\n";
    for (const KeyRule& r : f.keys)
      md += "| `" + std::string(r.key) + "` | " + (r.field.starts_with('@') ? "(with others)" : "`" + std::string(r.field) + "`") +
            " | " + std::string(r.meaning) + " |\n";
    md += "\nRead and left aside (they do not change the estimate):";
    for (std::size_t i = 0; i < f.no_cost.size(); ++i)
      md += std::string(i ? ", `" : " `") + std::string(f.no_cost[i]) + (f.no_cost[i].ends_with('.') || f.no_cost[i].ends_with('_') ? "*`" : "`");
    md += ".\n";
  }
  return md;
}

// ---- Export: the estimated run as a framework's config ----

namespace {

// A key's meaning in its format's table, for the comment beside it.
std::string meaning_of(std::span<const KeyRule> keys, std::string_view key) {
  for (const KeyRule& r : keys)
    if (r.key == key) return std::string(r.meaning);
  return {};
}

std::string whole(double x) { return detail::format_number(std::round(x)); }

// A Megatron-LM launch script: torchrun's GPUs and the arguments, each with what it means.
std::string megatron_script(const Scenario& s, const Report& r) {
  const Architecture& a = *s.model.architecture;
  const ParallelismReport& l = r.parallelism;
  std::vector<std::pair<std::string, std::string>> args;  // "--flag value", the comment
  const auto arg = [&](const std::string& flag, const std::string& value, std::string comment = {}) {
    if (comment.empty()) comment = meaning_of(megatron_keys, flag);
    args.push_back({flag + (value.empty() ? "" : " " + value), comment});
  };
  arg("--num-layers", whole(a.layers));
  arg("--hidden-size", whole(a.hidden));
  arg("--ffn-hidden-size", whole(a.ffn_hidden));
  arg("--num-attention-heads", whole(a.heads));
  if (a.kv_heads > 0 && a.kv_heads != a.heads) {
    arg("--group-query-attention", "");
    arg("--num-query-groups", whole(a.kv_heads));
  }
  if (a.head_dim > 0) arg("--kv-channels", whole(a.head_dim));
  arg("--vocab-size", whole(a.vocab));
  if (a.gated_mlp) arg("--swiglu", "");
  if (a.qkv_bias) arg("--add-qkv-bias", "");
  if (a.qk_norm) arg("--qk-layernorm", "");
  if (!a.tied_embeddings) arg("--untie-embeddings-and-output-weights", "");
  if (!a.bias) arg("--disable-bias-linear", "");
  arg("--normalization", a.norm == NormKind::rms ? "RMSNorm" : "LayerNorm");
  if (a.position_embeddings == 0) arg("--position-embedding-type", "rope");
  arg("--max-position-embeddings", whole(std::max(a.position_embeddings, r.compute.seq_len)),
      a.position_embeddings > 0 ? "Learned positions." : "Megatron-LM requires it, at least the sequence length.");
  if (a.experts > 1) {
    arg("--num-experts", whole(a.experts));
    arg("--moe-router-topk", whole(a.experts_per_token));
    if (a.moe_ffn_hidden > 0) arg("--moe-ffn-hidden-size", whole(a.moe_ffn_hidden));
  }
  const double seq = r.compute.seq_len;
  const double global = r.time.step ? r.time.step->global_batch_sequences : 0;
  arg("--seq-length", whole(seq));
  arg("--micro-batch-size", whole(l.micro_batch), "Sequences per micro-batch, as the estimate ran it.");
  if (global > 0) {
    arg("--global-batch-size", whole(global));
    arg("--train-iters", whole(std::ceil(r.compute.tokens / (global * seq))),
        "Optimizer steps: the run's " + detail::format_number(r.compute.tokens) + " tokens in steps of " +
            whole(global) + " x " + whole(seq) + " tokens.");
  }
  switch (r.hardware.precision) {
    case Precision::fp8:
      arg("--bf16", "", "bf16 mixed precision around the fp8 matmuls.");
      arg("--fp8-format", "hybrid", "fp8 matmuls through Transformer Engine (e4m3 forward, e5m2 gradients).");
      break;
    case Precision::fp16: arg("--fp16", ""); break;
    case Precision::bf16: arg("--bf16", ""); break;
    default: break;
  }
  arg("--tensor-model-parallel-size", whole(l.tp), "Tensor-parallel size the estimate used.");
  arg("--pipeline-model-parallel-size", whole(l.pp), "Pipeline stages the estimate used.");
  arg("--context-parallel-size", whole(l.cp), "Context-parallel size the estimate used.");
  if (l.ep > 1) arg("--expert-model-parallel-size", whole(l.ep), "Expert-parallel size the estimate used.");
  if (l.virtual_stages > 1) arg("--num-virtual-stages-per-pipeline-rank", whole(l.virtual_stages));
  if (l.sequence_parallel) arg("--sequence-parallel", "");
  if (l.zero == 1) arg("--use-distributed-optimizer", "", "The optimizer's states sharded over data-parallel ranks (ZeRO-1), as estimated.");
  if (l.zero >= 2) {  // Megatron-FSDP's sharding (megatron/training/arguments.py @d98e8a6)
    arg("--use-megatron-fsdp", "", "Megatron-FSDP, for the estimate's ZeRO-" + whole(l.zero) + " sharding.");
    arg("--ckpt-format", "fsdp_dtensor", "The checkpoint format Megatron-FSDP requires.");
    arg("--data-parallel-sharding-strategy", l.zero == 2 ? "optim_grads" : "optim_grads_params",
        l.zero == 2 ? "Optimizer states and gradients sharded (ZeRO-2), as estimated."
                    : "Optimizer states, gradients and parameters sharded (ZeRO-3), as estimated.");
  }
  if (l.recompute == Recompute::selective) arg("--recompute-granularity", "selective");
  if (l.recompute == Recompute::full) {
    arg("--recompute-granularity", "full");
    arg("--recompute-method", "uniform", "Every layer recomputed whole, as the estimate assumed.");
    arg("--recompute-num-layers", "1");
  }
  if (s.strategy.grad_reduce_precision == Precision::bf16) arg("--grad-reduce-in-bf16", "");
  if (s.strategy.cross_entropy == CrossEntropy::fused) arg("--cross-entropy-loss-fusion", "");
  if (s.strategy.overlap_tp_comm) arg("--tp-comm-overlap", "");
  if (s.strategy.optimizer == Optimizer::sgd_momentum) arg("--optimizer", "sgd");
  if (s.strategy.optimizer == Optimizer::lion) arg("--optimizer", "lion");
  if (s.strategy.overlap_grad_reduce) arg("--overlap-grad-reduce", "");
  std::string text =
      "#!/bin/bash\n"
      "# Megatron-LM (pretrain_gpt.py) for " + r.model.name + " on " + whole(r.plan.gpus) + " x " + r.hardware.gpu_name +
      ", as traincalc estimated it:\n"
      "# each argument is what the estimate assumed. Add the data, tokenizer, learning-rate and checkpoint\n"
      "# arguments of your run; they do not change the estimate.\n"
      "GPUS_PER_NODE=" + whole(std::min(r.hardware.gpus_per_node, r.plan.gpus)) + "\n"
      "NUM_NODES=" + whole(std::ceil(r.plan.gpus / std::min(r.hardware.gpus_per_node, r.plan.gpus))) + "\n\n"
      "ARGS=(\n";
  std::size_t width = 0;
  for (const auto& [a1, c] : args) width = std::max(width, a1.size());
  for (const auto& [a1, c] : args) text += "    " + a1 + std::string(width - a1.size() + 2, ' ') + "# " + c + "\n";
  text += ")\n\ntorchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NUM_NODES pretrain_gpt.py \"${ARGS[@]}\"\n";
  return text;
}

// A torchtitan TOML: the tables the estimate sets, each key with what it means.
std::string torchtitan_toml(const Scenario& s, const Report& r) {
  const ParallelismReport& l = r.parallelism;
  std::string flavor;
  for (const Word& w : titan_model)
    if (json::parse(w.value) == json(s.model.preset)) flavor = std::string(w.word.substr(w.word.find('/') + 1));
  const auto line = [](const std::string& key, const std::string& value, const std::string& comment) {
    std::string k = key + " = " + value;
    return k + std::string(k.size() < 36 ? 36 - k.size() : 1, ' ') + "# " + comment + "\n";
  };
  const auto rule = [&](const char* dotted) { return meaning_of(torchtitan_keys, dotted); };
  std::string text = "# torchtitan for " + r.model.name + " on " + whole(r.plan.gpus) + " x " + r.hardware.gpu_name +
                     ", as traincalc estimated it: each key is what the estimate\n"
                     "# assumed. Launch with NGPU=" + whole(r.plan.gpus) + " (torchrun's GPUs); add the dataset, "
                     "optimizer settings and checkpoints of your run.\n\n[model]\n";
  text += line("name", "\"llama3\"", rule("model.name"));
  text += line("flavor", "\"" + flavor + "\"", rule("model.flavor"));
  if (r.hardware.precision == Precision::fp8) text += line("converters", "[\"quantize.linear.float8\"]", rule("model.converters"));
  const double global = r.time.step ? r.time.step->global_batch_sequences : 0;
  text += "\n[training]\n";
  if (l.pp > 1 && r.time.step) {
    text += line("local_batch_size", whole(l.micro_batch * r.time.step->micro_batches),
                 "Sequences per pipeline per step: its micro-batches x the micro-batch, as the estimate ran it.");
  } else {
    text += line("local_batch_size", whole(l.micro_batch), "Sequences per GPU per forward and backward pass, as the estimate ran it.");
  }
  if (global > 0) text += line("global_batch_size", whole(global), "Sequences per step.");
  text += line("seq_len", whole(r.compute.seq_len), rule("training.seq_len"));
  if (global > 0) text += line("steps", whole(std::ceil(r.compute.tokens / (global * r.compute.seq_len))), "Optimizer steps: the run's tokens in steps of the global batch.");
  text += line("mixed_precision_param", r.hardware.precision == Precision::fp32 ? "\"float32\"" : r.hardware.precision == Precision::fp16 ? "\"float16\"" : "\"bfloat16\"", rule("training.mixed_precision_param"));
  if (r.memory.assumptions.regime == Regime::pure) text += line("dtype", "\"bfloat16\"", rule("training.dtype"));
  text += "\n[parallelism]\n";
  if (l.zero >= 2) {
    text += line("data_parallel_shard_degree", "-1", "FSDP over the data-parallel GPUs, as estimated.");
    if (l.zero == 2) text += line("fsdp_reshard_after_forward", "\"never\"", rule("parallelism.fsdp_reshard_after_forward"));
  } else {
    text += line("data_parallel_replicate_degree", whole(l.dp), "Plain data parallelism over the data-parallel GPUs, as estimated (no sharding).");
    text += line("data_parallel_shard_degree", "1", "No FSDP sharding, as estimated.");
  }
  text += line("tensor_parallel_degree", whole(l.tp), rule("parallelism.tensor_parallel_degree"));
  text += line("pipeline_parallel_degree", whole(l.pp), rule("parallelism.pipeline_parallel_degree"));
  text += line("context_parallel_degree", whole(l.cp), rule("parallelism.context_parallel_degree"));
  if (l.ep > 1) text += line("expert_parallel_degree", whole(l.ep), rule("parallelism.expert_parallel_degree"));
  if (l.pp > 1) {
    text += line("pipeline_parallel_microbatch_size", whole(l.micro_batch), rule("parallelism.pipeline_parallel_microbatch_size"));
    if (l.virtual_stages > 1)
      text += line("pipeline_parallel_schedule", "\"Interleaved1F1B\"", "Interleaved stages, as the estimate ran them.");
  }
  text += "\n[activation_checkpoint]\n";
  text += line("mode", "\"" + std::string(l.recompute == Recompute::full ? "full" : l.recompute == Recompute::selective ? "selective" : "none") + "\"", rule("activation_checkpoint.mode"));
  if (l.recompute == Recompute::selective) text += line("selective_ac_option", "\"op\"", "Operator-level selective checkpointing, as the estimate assumed.");
  text += "\n[compile]\n";
  text += line("enable", s.strategy.compile ? "true" : "false", rule("compile.enable"));
  return text;
}

}  // namespace

ConfigExport export_config(std::string_view scenario_json, std::string_view format, const Catalog& catalog) {
  ConfigExport out;
  const ScenarioParse parse = parse_scenario(scenario_json, catalog);
  if (!parse.scenario) {
    out.errors = parse.errors;
    return out;
  }
  const Scenario& s = *parse.scenario;
  const Report r = estimate(s, &catalog);
  if (!r.valid()) {
    out.errors = r.errors;
    return out;
  }
  const auto refuse = [&](const std::string& why) {
    out.errors.push_back({"format", "unsupported", why, {{"reason", reason("config_format")}}});
    return out;
  };
  if (!s.model.architecture) return refuse("A framework's config needs the model's architecture: choose a preset or give its shape.");
  const Architecture& a = *s.model.architecture;
  std::string unsaid;  // what the format's arguments here cannot say
  if (a.shared_experts > 0 || a.dense_layers > 0 || a.kv_lora_rank > 0 || a.decoder_layers > 0 || a.encoder_only ||
      a.norms_per_layer != 2 || a.embedding_norm || a.lm_head_bias)
    unsaid = "the model's shape (shared or dense-leading experts, latent attention, an encoder, extra norms or an output bias)";
  else if (s.strategy.offload != Offload::none)
    unsaid = "CPU offload";
  else if (format == "megatron" && s.strategy.optimizer != Optimizer::adamw && s.strategy.optimizer != Optimizer::adam &&
           s.strategy.optimizer != Optimizer::sgd_momentum && s.strategy.optimizer != Optimizer::lion)
    unsaid = "the optimizer";
  else if (format == "torchtitan" && (r.parallelism.zero == 1 || r.parallelism.virtual_stages > 1))
    unsaid = r.parallelism.zero == 1 ? "ZeRO-1 (torchtitan shards with FSDP: ZeRO-2 or 3)" : "interleaved pipeline stages";
  if (!unsaid.empty())
    return refuse("The " + std::string(format) + " config the calculator writes cannot say " + unsaid +
                  "; change the scenario or write that part of the config by hand.");
  if (format == "megatron") {
    out.text = megatron_script(s, r);
  } else if (format == "torchtitan") {
    bool known = false;
    for (const Word& w : titan_model) known = known || json::parse(w.value) == json(s.model.preset);
    if (!known) return refuse("torchtitan's TOML names its Llama 3 flavors only (llama-3.1-8b, -70b, -405b); choose one, or export Megatron-LM arguments.");
    out.text = torchtitan_toml(s, r);
  } else {
    return refuse("The calculator writes megatron or torchtitan configs.");
  }
  return out;
}

}  // namespace traincalc
