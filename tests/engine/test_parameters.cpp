// Parameter counts derived from an architecture must equal the released models' counts.
#include "helpers.hpp"

using namespace test;
using traincalc::Architecture;
using traincalc::count_parameters;

namespace {
constexpr Architecture llama_2_7b{
    .layers = 32, .hidden = 4096, .heads = 32, .ffn_hidden = 11008, .vocab = 32000, .gated_mlp = true};
// A worked example pinned at compile time: Llama 2 7B has 6,738,415,616 parameters
// (huggingface.co/meta-llama/Llama-2-7b-hf, released safetensors).
static_assert(count_parameters(llama_2_7b).total == 6738415616.0);
static_assert(count_parameters(llama_2_7b).output_head == 32000.0 * 4096.0);
}  // namespace

TEST_CASE("Every built-in model preset's parameter count matches the released model", "[parameters][catalog]") {
  const auto& catalog = traincalc::builtin_catalog();
  REQUIRE(catalog.models.size() >= 40);
  int checked = 0;
  for (const auto& preset : catalog.models) {
    if (!preset.published_params) continue;
    ++checked;
    INFO(preset.model.preset << ": engine " << preset.model.params << " vs published " << *preset.published_params);
    // Exact where the source gives the released weights' count; published round figures (175B,
    // 405B, 46.7B) are within 1%.
    CHECK_THAT(preset.model.params, WithinRel(*preset.published_params, 0.01));
    // Active counts are published rounded (3.3B, 37B) and some leave out the input embedding, which a
    // token only looks up: within 2%.
    if (preset.published_active_params)
      CHECK_THAT(preset.model.active_params, WithinRel(*preset.published_active_params, 0.02));
  }
  CHECK(checked >= 35);
}

TEST_CASE("Exact parameter counts of released models", "[parameters]") {
  const auto& catalog = traincalc::builtin_catalog();
  auto params = [&](const char* id) { return catalog.find_model(id)->model.params; };
  // Sources: each preset's config.json and released weights, cited in engine/data/models.json.
  CHECK(params("bert-base") == 109482240.0);
  CHECK(params("bert-large") == 335141888.0);
  CHECK(params("gpt2") == 124439808.0);
  CHECK(params("gpt2-xl") == 1557611200.0);
  CHECK(params("llama-2-13b") == 13015864320.0);
  CHECK(params("llama-2-70b") == 68976648192.0);  // grouped-query attention: 8 KV heads
  CHECK(params("llama-3.1-8b") == 8030261248.0);
  CHECK(params("llama-3.1-70b") == 70553706496.0);
  CHECK(params("mistral-7b") == 7241732096.0);
  CHECK(params("qwen2.5-7b") == 7615616512.0);    // Q, K and V carry biases
  CHECK(params("qwen2.5-0.5b") == 494032768.0);   // tied embeddings
  CHECK(params("bloom-176b") == 176247271424.0);  // embedding LayerNorm, biases everywhere
}

TEST_CASE("DeepSeek-V3: latent attention, one shared and 8 of 256 routed experts, 3 dense layers",
          "[parameters][moe]") {
  const auto* v3 = traincalc::builtin_catalog().find_model("deepseek-v3");
  REQUIRE(v3);
  // 671B total and 37B activated (DeepSeek-AI 2024, DeepSeek-V3 technical report, sec. 4.2); the main
  // model without the multi-token-prediction module.
  CHECK_THAT(v3->model.params, WithinRel(671e9, 0.001));
  // 37B counts what a token computes with; the input embedding (129,280 x 7,168) is only looked up.
  CHECK_THAT(v3->model.active_params - 129280.0 * 7168, WithinRel(36.6e9, 0.005));
}

TEST_CASE("T5: an encoder-decoder counts cross-attention in every decoder layer", "[parameters]") {
  traincalc::Architecture t5{
      .layers = 2, .hidden = 8, .heads = 2, .ffn_hidden = 16, .vocab = 10, .tied_embeddings = true};
  const double decoder_only = count_parameters(t5).total;
  t5.decoder_layers = 2;
  // Each decoder layer: self-attention + cross-attention (4 x 8 x 8 each), MLP (2 x 8 x 16) and three
  // RMSNorms of 8; plus a final norm for the decoder stack.
  CHECK(count_parameters(t5).total == decoder_only + 2 * (2 * 256 + 256 + 3 * 8) + 8);
}

TEST_CASE("A mixture of experts counts all experts in total and the routed ones as active", "[parameters][moe]") {
  const auto* mixtral = traincalc::builtin_catalog().find_model("mixtral-8x7b");
  REQUIRE(mixtral);
  // Mixtral 8x7B: 46,702,792,704 total (released weights); 2 of 8 experts per token.
  CHECK(mixtral->model.params == 46702792704.0);
  CHECK_THAT(mixtral->model.active_params, WithinRel(12.88e9, 0.001));
}

TEST_CASE("Architecture options change the count the way the formulas say", "[parameters]") {
  Architecture a = llama_2_7b;
  const double base = count_parameters(a).total;
  SECTION("tied embeddings drop the output projection") {
    a.tied_embeddings = true;
    CHECK(count_parameters(a).total == base - 32000.0 * 4096.0);
  }
  SECTION("grouped-query attention shrinks K and V") {
    a.kv_heads = 8;  // 4 query heads per KV head: K and V go from 4096 to 1024 wide
    CHECK(count_parameters(a).total == base - 32.0 * 2 * 4096.0 * (4096.0 - 1024.0));
  }
  SECTION("an ungated MLP has two matrices instead of three") {
    a.gated_mlp = false;
    CHECK(count_parameters(a).total == base - 32.0 * 4096.0 * 11008.0);
  }
}

TEST_CASE("A model given by architecture in a scenario reports its derived count", "[parameters][scenario]") {
  const auto report = run({{"model",
                            {{"layers", 32},
                             {"hidden", 4096},
                             {"heads", 32},
                             {"ffn_hidden", 11008},
                             {"vocab", 32000},
                             {"gated_mlp", true}}},
                           {"training", {{"type", "pretrain"}, {"tokens", 1e9}}},
                           {"hardware", {{"gpu", "a100-80gb-sxm"}, {"count", 8}}}});
  CHECK(report.model.params == 6738415616.0);
  CHECK(report.model.architecture_known);
  CHECK(report.compute.method == "detailed");
}
