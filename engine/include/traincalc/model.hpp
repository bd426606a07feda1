// The model: an architecture (from which parameters and FLOPs follow) or a bare parameter count.
#pragma once

#include <optional>
#include <string>

namespace traincalc {

enum class NormKind { rms, layer };

// Dimensions are doubles holding whole numbers: exact up to 2^53 and never overflowing in products.
// Defaults describe a plain decoder; every extension is off unless set.
struct Architecture {
  double layers = 0;  // encoder layers when decoder_layers > 0
  double hidden = 0;
  double heads = 0;
  double kv_heads = 0;  // 0: same as heads (multi-head attention)
  double head_dim = 0;  // 0: hidden / heads
  double ffn_hidden = 0;
  double vocab = 0;
  bool gated_mlp = false;        // SwiGLU/GeGLU: gate, up and down matrices
  bool tied_embeddings = false;  // output projection shares the input embedding
  double experts = 1;
  double experts_per_token = 1;
  bool encoder_only = false;       // BERT-style: token-type embeddings and a pooler
  bool bias = false;               // biases on every linear layer (GPT-2, GPT-3, BERT)
  NormKind norm = NormKind::rms;   // LayerNorm has a bias vector, RMSNorm does not
  double position_embeddings = 0;  // learned absolute positions (0 for rotary/ALiBi)

  bool qkv_bias = false;        // biases on Q, K and V only (Qwen2)
  bool qk_norm = false;         // a norm over each head of Q and K (Qwen3, Gemma 3)
  double norms_per_layer = 2;   // 4 in Gemma 2/3 (pre and post); 1 with one shared norm (GPT-J, Falcon-7B)
  bool embedding_norm = false;  // a norm right after the embedding (BLOOM)
  bool lm_head_bias = false;    // a bias on the output projection (Phi-2)
  double moe_ffn_hidden = 0;    // each expert's FFN width; 0: ffn_hidden
  double shared_experts = 0;    // experts every token passes through (DeepSeek)
  double dense_layers = 0;      // leading layers with a dense MLP in an MoE (DeepSeek's first_k_dense_replace)
  // Group-limited routing (DeepSeek-V2/V3's n_group and topk_group): the experts form expert_groups
  // groups and each token's experts come from at most expert_groups_per_token of them (0: no limit).
  // Placed one group per node (or per GPU), it bounds how many nodes a token is sent to.
  double expert_groups = 0;
  double expert_groups_per_token = 0;
  // Multi-head latent attention (DeepSeek-V2/V3, Liu et al. 2024); on when kv_lora_rank > 0.
  double q_lora_rank = 0;  // 0: Q projected directly
  double kv_lora_rank = 0;
  double qk_nope_head_dim = 0;
  double qk_rope_head_dim = 0;
  double v_head_dim = 0;
  double decoder_layers = 0;  // > 0: encoder-decoder (T5), with cross-attention in each decoder layer
  bool dropout = false;       // dropout in training (BERT, GPT-2): its masks are kept for backward
};

constexpr double effective_kv_heads(const Architecture& a) {
  return a.kv_heads > 0 ? a.kv_heads : a.heads;
}
constexpr double effective_head_dim(const Architecture& a) {
  return a.head_dim > 0 ? a.head_dim : a.hidden / a.heads;
}
constexpr bool latent_attention(const Architecture& a) {
  return a.kv_lora_rank > 0;
}
constexpr double expert_ffn_hidden(const Architecture& a) {
  return a.moe_ffn_hidden > 0 ? a.moe_ffn_hidden : a.ffn_hidden;
}

// One group of identical linear layers (weight in x out), as many copies as the model holds and as
// a token passes through (fewer for routed experts).
enum class LinearKind { attention, mlp, router };
// Within attention: the query, key-and-value (K and V together) and output projections; within an MLP,
// the up-projection(s) from the hidden size (a gated MLP's two together) and the down-projection.
enum class LinearRole { query, key_value, output, mlp_up, mlp_down, other };
struct LinearGroup {
  double in = 0;
  double out = 0;
  double copies = 0;
  double active_copies = 0;
  bool bias = false;
  LinearKind kind = LinearKind::attention;
  LinearRole role = LinearRole::other;
};

namespace detail {

template <class Visit>
constexpr void for_each_attention_linear(const Architecture& a, double blocks, Visit& visit) {
  const double h = a.hidden;
  if (latent_attention(a)) {
    // MLA: Q (optionally through a rank-q_lora_rank bottleneck), a joint KV latent plus the shared
    // rotary key, its up-projection to per-head keys and values, and the output (DeepSeek-V3, sec. 2.1.1).
    const double qk_head = a.qk_nope_head_dim + a.qk_rope_head_dim;
    if (a.q_lora_rank > 0) {
      visit(LinearGroup{h, a.q_lora_rank, blocks, blocks, false, LinearKind::attention, LinearRole::query});
      visit(LinearGroup{a.q_lora_rank, a.heads * qk_head, blocks, blocks, false, LinearKind::attention,
                        LinearRole::query});
    } else {
      visit(LinearGroup{h, a.heads * qk_head, blocks, blocks, false, LinearKind::attention, LinearRole::query});
    }
    visit(LinearGroup{h, a.kv_lora_rank + a.qk_rope_head_dim, blocks, blocks, false, LinearKind::attention,
                      LinearRole::key_value});
    visit(LinearGroup{a.kv_lora_rank, a.heads * (a.qk_nope_head_dim + a.v_head_dim), blocks, blocks, false,
                      LinearKind::attention, LinearRole::key_value});
    visit(LinearGroup{a.heads * a.v_head_dim, h, blocks, blocks, a.bias, LinearKind::attention, LinearRole::output});
    return;
  }
  // Q and output at full width, K and V at the key-value width (GQA, Ainslie et al. 2023).
  const double q_width = a.heads * effective_head_dim(a);
  const double kv_width = effective_kv_heads(a) * effective_head_dim(a);
  const bool qkv_bias = a.bias || a.qkv_bias;
  visit(LinearGroup{h, q_width, blocks, blocks, qkv_bias, LinearKind::attention, LinearRole::query});
  visit(LinearGroup{h, kv_width, 2 * blocks, 2 * blocks, qkv_bias, LinearKind::attention, LinearRole::key_value});
  visit(LinearGroup{q_width, h, blocks, blocks, a.bias, LinearKind::attention, LinearRole::output});
}

// One MLP of width f: gated MLPs have three matrices (Shazeer 2020, "GLU Variants"), others two.
template <class Visit>
constexpr void for_each_mlp_linear(const Architecture& a, double f, double copies, double active, Visit& visit) {
  if (copies <= 0) return;
  visit(LinearGroup{a.hidden, f, (a.gated_mlp ? 2 : 1) * copies, (a.gated_mlp ? 2 : 1) * active, a.bias,
                    LinearKind::mlp, LinearRole::mlp_up});
  visit(LinearGroup{f, a.hidden, copies, active, a.bias, LinearKind::mlp, LinearRole::mlp_down});
}

}  // namespace detail

constexpr double moe_layer_count(const Architecture& a) {
  return a.experts > 1 ? a.layers - a.dense_layers : 0.0;
}

// Every linear layer of the model: attention in each layer (plus cross-attention in decoder
// layers), dense MLPs, experts (routed and shared) and routers. Parameters, LoRA adapters and FLOPs
// are all sums over these groups.
template <class Visit>
constexpr void for_each_linear(const Architecture& a, Visit&& visit) {
  const double moe_layers = moe_layer_count(a);
  const double dense_mlps = a.layers - moe_layers + a.decoder_layers;
  detail::for_each_attention_linear(a, a.layers + 2 * a.decoder_layers, visit);
  detail::for_each_mlp_linear(a, a.ffn_hidden, dense_mlps, dense_mlps, visit);
  if (moe_layers > 0) {
    detail::for_each_mlp_linear(a, expert_ffn_hidden(a), moe_layers * (a.experts + a.shared_experts),
                                moe_layers * (a.experts_per_token + a.shared_experts), visit);
    visit(LinearGroup{a.hidden, a.experts, moe_layers, moe_layers, false, LinearKind::router});
  }
}

struct ParameterCount {
  double total = 0;
  double active = 0;           // per token (MoE routes each token to experts_per_token)
  double embedding = 0;        // token (+ position, token-type) embeddings
  double output_head = 0;      // untied output projection; 0 when tied
  double matmul_active = 0;    // weights a token multiplies by, all layers (excluding the output head)
  double attention_width = 0;  // sum over attention blocks of heads x (query-key + value head widths)
  double routed_experts = 0;   // parameters of the routed experts (split by expert parallelism)
  double linear = 0;           // parameters in linear layers (what QLoRA quantises)
};

// Parameter count of a decoder, BERT-style encoder or T5-style encoder-decoder transformer.
constexpr ParameterCount count_parameters(const Architecture& a) {
  const double h = a.hidden;
  const double norm_params = a.norm == NormKind::layer ? 2 * h : h;  // gain (+ bias for LayerNorm)
  ParameterCount c;
  double linear_total = 0, linear_active = 0;
  for_each_linear(a, [&](const LinearGroup& g) {
    const double per_copy = g.in * g.out + (g.bias ? g.out : 0.0);
    linear_total += per_copy * g.copies;
    linear_active += per_copy * g.active_copies;
    c.matmul_active += g.in * g.out * g.active_copies;
  });

  const double attention_blocks = a.layers + 2 * a.decoder_layers;
  const double head_norms = a.qk_norm ? 2 * effective_head_dim(a) * (a.layers + a.decoder_layers) : 0.0;
  const double latent_norms = latent_attention(a) ? (a.q_lora_rank + a.kv_lora_rank) * attention_blocks : 0.0;
  // Decoder layers of an encoder-decoder add a norm before cross-attention.
  const double layer_norms =
      norm_params * (a.norms_per_layer * (a.layers + a.decoder_layers) + a.decoder_layers) + head_norms + latent_norms;
  // The final norm of each stack (BERT: the embedding LayerNorm, same size) and BLOOM's embedding norm.
  const double stack_norms = norm_params * ((a.decoder_layers > 0 ? 2 : 1) + (a.embedding_norm ? 1 : 0));

  c.embedding = a.vocab * h + a.position_embeddings * h;
  double pooler = 0;
  if (a.encoder_only) {
    c.embedding += 2 * h;  // token-type embeddings (2 segment types)
    pooler = h * h + h;    // pooler dense layer
  }
  c.output_head = (a.tied_embeddings ? 0.0 : a.vocab * h) + (a.lm_head_bias ? a.vocab : 0.0);
  const double shared = c.embedding + layer_norms + stack_norms + pooler + c.output_head;
  c.total = shared + linear_total;
  c.active = shared + linear_active;
  c.linear = linear_total;
  if (moe_layer_count(a) > 0) {
    const double f = expert_ffn_hidden(a);
    const double expert = (a.gated_mlp ? 3 : 2) * h * f + (a.bias ? (a.gated_mlp ? 2 : 1) * f + h : 0.0);
    c.routed_experts = moe_layer_count(a) * a.experts * expert;
  }

  const double qk_width = latent_attention(a) ? a.qk_nope_head_dim + a.qk_rope_head_dim : effective_head_dim(a);
  const double v_width = latent_attention(a) ? a.v_head_dim : effective_head_dim(a);
  c.attention_width = attention_blocks * a.heads * (qk_width + v_width);
  return c;
}

struct ModelSpec {
  std::string preset;  // catalog ID, empty when typed in
  std::string name;
  std::optional<Architecture> architecture;
  double params = 0;           // total
  double active_params = 0;    // per token
  double default_seq_len = 0;  // the preset's training context, 0 when unknown
  // An image network (ResNet, ViT): its forward multiply-adds per image at image_resolution pixels
  // square, as such networks' "FLOPs" are published; nullopt for language models.
  std::optional<double> forward_macs_per_image;
  double image_resolution = 0;
};

}  // namespace traincalc
