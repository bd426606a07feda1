// Tokens and FLOPs: the 6·N·T rule, the detailed per-layer count, and every way of giving data.
#include "helpers.hpp"

using namespace test;

namespace {
json base_scenario(json model, json training) {
  return {{"model", model},
          {"training", training},
          {"hardware", {{"gpu", "a100-80gb-sxm"}, {"count", 8}}},
          {"strategy", {{"mfu", 0.4}}}};
}
}  // namespace

TEST_CASE("With only a parameter count, training costs 6 FLOPs per parameter per token", "[flops]") {
  // Kaplan et al. 2020, eq. 2.1: C = 6NT.
  const auto r = run(base_scenario({{"params", 7e9}}, {{"type", "pretrain"}, {"tokens", 1e12}}));
  CHECK(r.compute.method == "6n");
  CHECK(r.compute.flops_per_token == 6 * 7e9);
  CHECK(r.compute.total_flops == 6 * 7e9 * 1e12);
  CHECK_FALSE(r.compute.flops_per_token_detailed.has_value());
}

TEST_CASE("The detailed count reproduces Megatron-LM's formula for GPT-3 175B", "[flops]") {
  // Narayanan et al. 2021, sec. 5.1, without recomputation: FLOPs per token =
  // 72·l·h²·(1 + s/(6h) + V/(12·l·h)) for l layers, hidden h, sequence s, vocabulary V.
  const double l = 96, h = 12288, s = 2048, V = 50257;
  const double megatron = 72 * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
  const auto r = run(base_scenario({{"preset", "gpt-3-175b"}}, {{"type", "pretrain"}, {"tokens", 300e9}}));
  CHECK(r.compute.method == "detailed");
  CHECK(r.compute.seq_len == 2048);
  CHECK_THAT(r.compute.flops_per_token, WithinRel(megatron, 1e-12));
  // 6N (with N = 174.6B) is 1.9% below it: the attention term the rule leaves out.
  CHECK_THAT(r.compute.flops_per_token_6n, WithinRel(6 * 174.6e9, 0.001));
  CHECK(r.compute.flops_per_token > r.compute.flops_per_token_6n);
  // GPT-3's published 3.14e23 training FLOPs (Brown et al. 2020, table D.1) for 300B tokens.
  CHECK_THAT(r.compute.total_flops_6n, WithinRel(3.14e23, 0.01));
}

TEST_CASE("Attention FLOPs grow with sequence length, the 6N rule does not see them", "[flops]") {
  const json model = {{"preset", "llama-2-7b"}};
  const auto short_seq = run(base_scenario(model, {{"type", "pretrain"}, {"tokens", 1e9}, {"seq_len", 2048}}));
  const auto long_seq = run(base_scenario(model, {{"type", "pretrain"}, {"tokens", 1e9}, {"seq_len", 32768}}));
  // 12 · layers · seq · (heads · head_dim) per token (Chowdhery et al. 2022, appendix B).
  CHECK_THAT(long_seq.compute.flops_per_token - short_seq.compute.flops_per_token,
             WithinRel(12.0 * 32 * (32768 - 2048) * 4096, 1e-12));
  CHECK(long_seq.compute.flops_per_token_6n == short_seq.compute.flops_per_token_6n);
}

TEST_CASE("Every way of stating the amount of data gives the tokens it implies", "[flops][data]") {
  const json model = {{"params", 1e9}};
  SECTION("chinchilla: 20 tokens per parameter (Hoffmann et al. 2022)") {
    CHECK(run(base_scenario(model, {{"type", "pretrain"}, {"tokens", "chinchilla"}})).compute.tokens == 20e9);
  }
  SECTION("dataset_gb with bytes_per_token (English's 4 by default, said in a warning)") {
    const auto english = run(base_scenario(model, {{"type", "pretrain"}, {"dataset_gb", 100}}));
    CHECK(english.compute.tokens == 25e9);
    CHECK(has_warning(english, "bytes_per_token_assumed"));
    const auto given = run(base_scenario(model, {{"type", "pretrain"}, {"dataset_gb", 100}, {"bytes_per_token", 1.6}}));
    CHECK(given.compute.tokens == Approx(62.5e9));
    CHECK(given.compute.bytes_per_token_from == "given");
    CHECK_FALSE(has_warning(given, "bytes_per_token_assumed"));
  }
  SECTION("dataset_gb of a kind of text: its published bytes per token") {
    const auto tokens = [&](const char* text) {
      const auto r = run(base_scenario(model, {{"type", "pretrain"}, {"dataset_gb", 100}, {"text", text}}));
      CHECK_FALSE(has_warning(r, "bytes_per_token_assumed"));
      CHECK(r.compute.bytes_per_token_from == text);
      CHECK_FALSE(r.compute.bytes_per_token_source.empty());
      return r.compute.tokens;
    };
    // OpenAI's "1 token is about 4 characters of English"; Dolma's Common Crawl 3.96 with Llama's.
    CHECK(tokens("english") == 25e9);
    // Chinese: 4.4 with a tokenizer built for it (tokenizer-arena on cc100 zh-Hans: Qwen 4.47,
    // DeepSeek 4.35; SkyPile-150B 620 GB / 150B = 4.13), 2.0 with one built for English (Llama 2
    // 1.98). The spec's "nearer 1.5-2" holds only for the second: the same 100 GB is 2.2 times the tokens.
    CHECK(tokens("chinese") == Approx(100e9 / 4.4));
    CHECK(tokens("chinese-english-tokenizer") == Approx(50e9));
    CHECK(tokens("chinese-english-tokenizer") / tokens("chinese") == Approx(2.2));
    // Code: Dolma's GitHub 2.54 (Llama), OLMo's 3.05 (GPT-NeoX), OLMoE's StarCoder 3.22.
    CHECK(tokens("code") == Approx(100e9 / 3.0));
    // Given bytes per token win over the kind of text, which is then ignored, with a warning.
    const json both = report_json(base_scenario(
        model, {{"type", "pretrain"}, {"dataset_gb", 100}, {"text", "chinese"}, {"bytes_per_token", 2.5}}));
    CHECK(both["compute"]["tokens"] == 40e9);
    CHECK(both["compute"]["bytes_per_token_from"] == "given");
    CHECK(both["warnings"].dump().find("training.text") != std::string::npos);
    CHECK(has_error(report_json(base_scenario(model, {{"type", "pretrain"}, {"dataset_gb", 100}, {"text", "klingon"}})),
                    "training.text", "unknown_choice"));
  }
  SECTION("samples of seq_len tokens") {
    CHECK(run(base_scenario(model, {{"type", "pretrain"}, {"samples", 1e6}, {"seq_len", 4096}})).compute.tokens ==
          4096e6);
  }
  SECTION("steps of global_batch_tokens, or of global_batch_sequences x seq_len") {
    CHECK(run(base_scenario(model, {{"type", "pretrain"}, {"steps", 1000}, {"global_batch_tokens", 4194304}}))
              .compute.tokens == 4194304e3);
    // BERT pre-training: 1M steps at batch 256 x 512 tokens (Devlin et al. 2019, appendix A.2);
    // seed 001's "1亿步" (100 million steps) is off by 100x.
    CHECK(run(base_scenario(model,
                            {{"type", "pretrain"}, {"steps", 1e6}, {"global_batch_sequences", 256}, {"seq_len", 512}}))
              .compute.tokens == 131072e6);
  }
  SECTION("epochs multiply the data") {
    CHECK(run(base_scenario(model, {{"type", "finetune"}, {"tokens", 1e8}, {"epochs", 3}})).compute.tokens == 3e8);
  }
  SECTION("total_flops skips the count and implies the tokens") {
    const auto r = run(base_scenario(model, {{"type", "pretrain"}, {"total_flops", 6e21}}));
    CHECK(r.compute.method == "given");
    CHECK(r.compute.total_flops == 6e21);
    CHECK(r.compute.tokens == Approx(1e12));
  }
}

TEST_CASE("LoRA fine-tuning skips the frozen weights' gradients", "[flops][finetune]") {
  const json model = {{"preset", "llama-2-7b"}};
  const auto full = run(base_scenario(model, {{"type", "finetune"}, {"tokens", 1e8}}));
  const auto lora =
      run(base_scenario(model, {{"type", "finetune"}, {"method", "lora"}, {"tokens", 1e8}, {"lora_rank", 16}}));
  CHECK(full.compute.flops_per_param_per_token == 6);
  CHECK(lora.compute.flops_per_param_per_token == 4);
  // Rank-16 adapters on every linear layer of Llama 2 7B: 39,976,960 trainable parameters
  // (per layer 16 x (4 x (4096 + 4096) + 3 x (4096 + 11008)), 32 layers).
  CHECK(lora.compute.trainable_params == 32.0 * 16 * (4 * 8192 + 3 * (4096 + 11008)));
  // At seq_len 4096, per token: weight matmuls + logits 13,214,154,752 forward FLOPs, attention
  // 2,147,483,648. Full: 3 x both = 46,084,915,200. LoRA: 2 x weights + 3 x attention + 6 x adapters.
  CHECK_THAT(full.compute.flops_per_token, WithinRel(46084915200.0, 1e-12));
  CHECK_THAT(lora.compute.flops_per_token, WithinRel(2 * 13214154752.0 + 3 * 2147483648.0 + 6 * 39976960.0, 1e-12));
}

TEST_CASE("LoRA on a mixture of experts: compute sees the routed experts' adapters, memory all of them",
          "[flops][finetune][moe]") {
  const auto r = run(base_scenario({{"preset", "mixtral-8x7b"}},
                                   {{"type", "finetune"}, {"method", "lora"}, {"tokens", 1e8}, {"lora_rank", 8}}));
  // Per layer, rank 8: attention q,k,v,o = 8 x ((4096+4096) + 2 x (4096+1024) + (4096+4096)) = 212,992;
  // each expert's three MLP matrices = 3 x 8 x (4096 + 14336) = 442,368. 32 layers.
  const double attention = 212992, expert = 442368;
  CHECK(r.compute.trainable_params == 32 * (attention + 8 * expert));
  CHECK_THAT(r.compute.flops_per_token_6n,
             WithinRel(4 * r.model.active_params + 6 * 32 * (attention + 2 * expert), 1e-12));
}
