// Importing a Hugging Face config.json gives the released model's exact parameter count.
#include <fstream>
#include <sstream>

#include "helpers.hpp"

using namespace test;

namespace {
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(TRAINCALC_SOURCE_DIR) + "/tests/fixtures/hf/" + name);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

traincalc::HfImport imported(const std::string& name) {
  auto result = traincalc::import_hf_config(fixture(name));
  for (const auto& e : result.errors) INFO(e.field + ": " + e.message);
  REQUIRE(result.errors.empty());
  REQUIRE(result.architecture);
  return result;
}

// The imported model as the scenario's model section, as `traincalc import-hf` prints it.
json model_of(const traincalc::HfImport& result) {
  return json::parse(traincalc::hf_import_to_json(result))["model"];
}
}  // namespace

TEST_CASE("Released configs import to the released parameter counts", "[hf_import]") {
  // Counts of the released weights; sources in engine/data/models.json.
  CHECK(imported("llama-2-7b.json").params == 6738415616.0);
  CHECK(imported("gpt2.json").params == 124439808.0);
  CHECK(imported("qwen2.5-7b.json").params == 7615616512.0);  // model_type qwen2: Q, K, V biases
  const auto mixtral = imported("mixtral-8x7b.json");
  CHECK(mixtral.params == 46702792704.0);
  CHECK(mixtral.active_params == 12879925248.0);
  const auto v3 = imported("deepseek-v3.json");
  CHECK(v3.params == traincalc::builtin_catalog().find_model("deepseek-v3")->model.params);
  CHECK_THAT(v3.params, WithinRel(671e9, 0.001));
  // Its group-limited routing: 8 groups, a token's 8 experts in at most 4 of them (n_group, topk_group).
  const json v3_model = model_of(v3);
  CHECK(v3_model["expert_groups"] == 8);
  CHECK(v3_model["expert_groups_per_token"] == 4);
  CHECK_FALSE(model_of(mixtral).contains("expert_groups"));
}

TEST_CASE("Wide shared experts, encoder-decoders and native params.json files", "[hf_import]") {
  // Qwen1.5-MoE-A2.7B: 14.3B total, 2.7B activated (Qwen team's model card); its shared expert is
  // 5632 wide, four routed experts' width.
  const auto qwen_moe = imported("qwen1.5-moe-a2.7b.json");
  CHECK_THAT(qwen_moe.params, WithinRel(14.3e9, 0.005));
  CHECK_THAT(qwen_moe.active_params, WithinRel(2.7e9, 0.01));
  // t5-small: 60,506,624 parameters in the released weights, of which 512 are the relative-position
  // buckets (32 x 8 heads, encoder and decoder) that the architecture form leaves out.
  CHECK(imported("t5-small.json").params == 60506624.0 - 512);
  // Mistral 7B's native params.json (dim, n_layers, hidden_dim, n_kv_heads): 7,241,732,096.
  CHECK(imported("mistral-7b-params.json").params == 7241732096.0);
}

TEST_CASE("An imported model is a valid scenario model", "[hf_import][scenario]") {
  const json model = model_of(imported("mixtral-8x7b.json"));
  const auto r = run({{"model", model},
                      {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
                      {"hardware", {{"gpu", "h100-sxm"}, {"count", 64}}},
                      {"strategy", {{"mfu", 0.4}}}});
  CHECK(r.model.params == 46702792704.0);
  CHECK(r.compute.method == "detailed");
}

TEST_CASE("Defaults the config leaves unsaid are named in warnings", "[hf_import]") {
  const auto gpt2 = imported("gpt2.json");
  std::string fields;
  for (const auto& w : gpt2.warnings) fields += w.field + " ";
  // GPT-2's config has neither n_inner (4 x n_embd) nor tie_word_embeddings (tied).
  CHECK(fields.find("hf_config.intermediate_size") != std::string::npos);
  CHECK(fields.find("hf_config.tie_word_embeddings") != std::string::npos);
  CHECK(imported("llama-2-7b.json").warnings.empty());
}

TEST_CASE("A multimodal config imports its language model", "[hf_import]") {
  const auto result = traincalc::import_hf_config(R"json({"model_type": "gemma3", "text_config": {
      "model_type": "gemma3_text", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
      "num_key_value_heads": 1, "head_dim": 4, "intermediate_size": 16, "vocab_size": 10},
      "vision_config": {"hidden_size": 1152}})json");
  REQUIRE(result.errors.empty());
  const json model = model_of(result);
  CHECK(model["norms_per_layer"] == 4);
  CHECK(model["qk_norm"] == true);
  CHECK(model["tied_embeddings"] == true);
}

TEST_CASE("A config that is not one gives errors, not a model", "[hf_import][validation]") {
  SECTION("no hidden size") {
    const auto r =
        traincalc::import_hf_config(R"({"num_hidden_layers": 2, "num_attention_heads": 2, "vocab_size": 10})");
    CHECK_FALSE(r.architecture);
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors[0].field == "hf_config.hidden_size");
    CHECK(r.errors[0].code == "required");
  }
  SECTION("a wrong type") {
    const auto r = traincalc::import_hf_config(
        R"({"hidden_size": "big", "num_hidden_layers": 2, "num_attention_heads": 2, "vocab_size": 10})");
    CHECK_FALSE(r.architecture);
    CHECK(r.errors[0].code == "wrong_type");
  }
  SECTION("not JSON at all") {
    const auto r = traincalc::import_hf_config("hidden_size = 4096");
    CHECK(r.errors[0].code == "parse_error");
  }
}
