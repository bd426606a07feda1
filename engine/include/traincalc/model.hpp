// The model: an architecture (from which parameters and FLOPs follow) or a bare parameter count.
#pragma once

#include <optional>
#include <string>

namespace traincalc {

enum class NormKind { rms, layer };

// Dimensions are doubles holding whole numbers: exact up to 2^53 and never overflowing in products.
struct Architecture {
  double layers = 0;
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
};

constexpr double effective_kv_heads(const Architecture& a) {
  return a.kv_heads > 0 ? a.kv_heads : a.heads;
}
constexpr double effective_head_dim(const Architecture& a) {
  return a.head_dim > 0 ? a.head_dim : a.hidden / a.heads;
}

struct ParameterCount {
  double total = 0;
  double active = 0;                   // per token (MoE routes each token to experts_per_token)
  double embedding = 0;                // token (+ position, token-type) embeddings
  double output_head = 0;              // untied output projection; 0 when tied
  double matmul_active_per_layer = 0;  // weights a token multiplies by in one layer
};

// Parameter count of a decoder (or BERT-style encoder) transformer, layer by layer.
constexpr ParameterCount count_parameters(const Architecture& a) {
  const double h = a.hidden;
  const double d = effective_head_dim(a);
  const double q_width = a.heads * d;
  const double kv_width = effective_kv_heads(a) * d;
  const double bias = a.bias ? 1.0 : 0.0;
  const double norm_params = a.norm == NormKind::layer ? 2 * h : h;  // gain (+ bias for LayerNorm)

  // Attention: Q and output projections at full width, K and V at the key-value width (GQA,
  // Ainslie et al. 2023).
  const double attention = h * q_width + 2 * h * kv_width + q_width * h + bias * (q_width + 2 * kv_width + h);
  // One MLP (expert): gated MLPs have three matrices (Shazeer 2020, "GLU Variants").
  const double mlp_matrices = a.gated_mlp ? 3.0 : 2.0;
  const double mlp = mlp_matrices * h * a.ffn_hidden + bias * ((mlp_matrices - 1) * a.ffn_hidden + h);
  const double router = a.experts > 1 ? h * a.experts : 0.0;
  const double layer_norms = 2 * norm_params;

  const double layer_total = attention + a.experts * mlp + router + layer_norms;
  const double layer_active = attention + a.experts_per_token * mlp + router + layer_norms;
  const double mlp_matmul_active = a.experts_per_token * mlp_matrices * h * a.ffn_hidden;
  const double attention_matmul = h * q_width + 2 * h * kv_width + q_width * h;

  double embedding = a.vocab * h + a.position_embeddings * h;
  double extra = norm_params;  // final norm (BERT: the embedding LayerNorm, same size)
  if (a.encoder_only) {
    embedding += 2 * h;  // token-type embeddings (2 segment types)
    extra += h * h + h;  // pooler dense layer
  }
  const double output_head = a.tied_embeddings ? 0.0 : a.vocab * h;

  ParameterCount c;
  c.embedding = embedding;
  c.output_head = output_head;
  c.total = embedding + a.layers * layer_total + extra + output_head;
  c.active = embedding + a.layers * layer_active + extra + output_head;
  c.matmul_active_per_layer = attention_matmul + mlp_matmul_active + router;
  return c;
}

struct ModelSpec {
  std::string preset;  // catalog ID, empty when typed in
  std::string name;
  std::optional<Architecture> architecture;
  double params = 0;           // total
  double active_params = 0;    // per token
  double default_seq_len = 0;  // the preset's training context, 0 when unknown
};

}  // namespace traincalc
