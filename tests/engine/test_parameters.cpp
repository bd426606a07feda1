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
  REQUIRE(catalog.models.size() >= 12);
  for (const auto& preset : catalog.models) {
    if (!preset.published_params) continue;
    INFO(preset.model.preset << ": engine " << preset.model.params << " vs published " << *preset.published_params);
    // Exact counts where the source gives the released weights' count; published round figures
    // (175B, 405B, 46.7B) are within 0.5%.
    CHECK_THAT(preset.model.params, WithinRel(*preset.published_params, 0.005));
    if (preset.published_active_params)
      CHECK_THAT(preset.model.active_params, WithinRel(*preset.published_active_params, 0.005));
  }
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
