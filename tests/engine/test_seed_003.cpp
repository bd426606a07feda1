// Seed article 003 (docs/seeds.md) on fine-tuning, its claims put to the engine with
// the data sizes the article leaves out. What is arithmetic is asserted exactly; what the engine
// predicts (utilisation) is asserted against the article's range with the prediction's own
// uncertainty (encoders and V100s are outside the calibration, and a warning says so).
#include "helpers.hpp"

using namespace test;

namespace {

json estimate_ok(const json& scenario) {
  const json r = report_json(scenario);
  INFO(r.dump());
  REQUIRE(r["errors"].empty());
  return r;
}

// BERT-base fine-tuned on MNLI as Devlin et al. 2019 (sec. 4.1) did for GLUE: batch 32, 3 epochs,
// sequences of 128; MNLI has 392,702 training pairs (Wang et al. 2018, GLUE, Table 1).
json bert_mnli() {
  return {{"model", {{"preset", "bert-base"}}},
          {"training",
           {{"type", "finetune"},
            {"objective", "classification"},
            {"samples", 392702},
            {"epochs", 3},
            {"seq_len", 128},
            {"global_batch_sequences", 32}}},
          {"hardware", {{"gpu", "v100-sxm2-32gb"}, {"count", 1}}},
          {"strategy", {{"precision", "fp16"}}}};
}

// GPT-2 small on the article's 100 GB of (English) text, batch 32 x 1024.
json gpt2_100gb(const char* gpu) {
  return {{"model", {{"preset", "gpt2"}}},
          {"training",
           {{"type", "finetune"},
            {"dataset_gb", 100},
            {"text", "english"},
            {"seq_len", 1024},
            {"global_batch_sequences", 32}}},
          {"hardware", {{"gpu", gpu}, {"count", 1}}},
          {"strategy", {{"precision", "fp16"}}}};
}

}  // namespace

TEST_CASE("Seed 003: BERT-base on a V100 cannot run 100 batches of 32 a second", "[seed][seed003]") {
  // The article: batches of 16-32, "50 to 100 batches a second" on a V100, 2-3 days in all. A batch
  // of 32 x 128 tokens is 6 FLOPs per weight per token (the 85M non-embedding weights) plus attention;
  // on the V100's 125 dense FP16 TFLOPS (NVIDIA V100 datasheet) 100 batches a second would need more
  // than the peak, and 50 more than 80% of it, where real runs reach 35-55%.
  json at_peak = bert_mnli();
  at_peak["strategy"]["mfu"] = 1.0;
  const json peak = estimate_ok(at_peak);
  const double flops_per_batch = peak["compute"]["flops_per_token"].get<double>() * 32 * 128;
  CHECK(flops_per_batch > 6 * 85e6 * 32 * 128);
  CHECK(peak["time"]["step_seconds"].get<double>() == Approx(flops_per_batch / 125e12));
  CHECK(100 * flops_per_batch / 125e12 > 1.0);
  CHECK(50 * flops_per_batch / 125e12 > 0.8);

  // At the predicted utilisation: about 16 batches a second, and MNLI's 3 epochs in under an hour,
  // not 2-3 days. 2-3 days at even 16 batches a second is 90-130 million examples, a pre-training
  // corpus rather than a fine-tuning set.
  const json predicted = estimate_ok(bert_mnli());
  CHECK(predicted["time"]["mfu_source"] == "predicted");
  const double batches_per_second = 1 / predicted["time"]["step_seconds"].get<double>();
  CHECK(batches_per_second > 8);
  CHECK(batches_per_second < 30);
  const double hours = predicted["time"]["wall_clock_days"].get<double>() * 24;
  CHECK(hours > 0.25);
  CHECK(hours < 1.5);
  CHECK(predicted["compute"]["tokens"] == 392702.0 * 3 * 128);
  CHECK(predicted["memory"]["fits"] == true);
}

TEST_CASE("Seed 003: GPT-2 small on 100 GB of text, on one V100 and on one A100", "[seed][seed003]") {
  // GPT-2 small has 124M parameters (huggingface.co/openai-community/gpt2), not the article's 150M.
  const json v100 = estimate_ok(gpt2_100gb("v100-sxm2-32gb"));
  CHECK(v100["model"]["params"].get<double>() == Approx(124.44e6).epsilon(0.001));
  // 100 GB of English at 4 bytes per token: 25B tokens.
  CHECK(v100["compute"]["tokens"] == 25e9);
  // The article: 3-4 days on one V100. That needs FLOPs / (125 TFLOPS x 86,400 s x days) = 49-66%
  // of the V100's peak, above the utilisation the engine predicts, so the claim is optimistic.
  const double flops = v100["compute"]["total_flops"];
  const double needed_for_4_days = flops / (125e12 * 86400 * 4);
  const double needed_for_3_days = flops / (125e12 * 86400 * 3);
  CHECK(needed_for_4_days > 0.45);
  CHECK(needed_for_3_days < 0.70);
  CHECK(v100["time"]["mfu"].get<double>() < needed_for_4_days);
  CHECK(v100["time"]["wall_clock_days"].get<double>() > 4);
  // A V100 cannot run FlashAttention (it needs Ampere or newer), so the Hugging Face stack assumed for
  // fine-tuning runs eager attention, writing the scores through memory: slower still.
  CHECK(v100["memory"]["assumptions"]["attention"] == "eager");
  // A V100 is outside the measured GPU families: its matmul rate is its measured best times the
  // sustained fraction fitted across the validation sources (docs/validation.md), about 12 days.
  CHECK(v100["time"]["wall_clock_days"].get<double>() < 13);

  // "Within a day on one A100" holds for about half of that data: the engine's 100 GB takes 1.2-2.5 days
  // (312 dense BF16/FP16 TFLOPS, A100 datasheet).
  const json a100 = estimate_ok(gpt2_100gb("a100-80gb-sxm"));
  const double days = a100["time"]["wall_clock_days"];
  CHECK(days > 1.2);
  CHECK(days < 2.5);
  CHECK(a100["memory"]["fits"] == true);
}
