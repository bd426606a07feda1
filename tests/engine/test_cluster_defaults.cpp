// What the estimate assumes when the user leaves a figure out: a global batch that grows with the
// cluster, a vendor's GPU completed from its closest built-in twin, and the longest sequence that fits
// at micro-batch 1.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "../../engine/src/estimate/estimators.hpp"
#include "helpers.hpp"

using Catch::Matchers::WithinRel;
using test::json;
using test::run;

namespace {

json llama_405b(double gpus, std::optional<double> batch = std::nullopt) {
  json s = {{"model", {{"preset", "llama-3.1-405b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 15.6e12}}},
            {"hardware", {{"gpu", "h100-sxm"}, {"count", gpus}}}};
  if (batch) s["training"]["global_batch_sequences"] = *batch;
  return s;
}

bool warns(const traincalc::Report& r, const std::string& code) {
  return std::any_of(r.warnings.begin(), r.warnings.end(), [&](const auto& w) { return w.code == code; });
}

}  // namespace

TEST_CASE("The default global batch grows with the cluster, up to what the run's compute tolerates", "[batch]") {
  traincalc::ComputeReport compute;
  compute.total_flops = 6 * 405e9 * 15.6e12;
  // About 4M tokens on a small cluster (Llama 2, GPT-3), 1,024 tokens a GPU on a large one (Llama 3
  // 405B: 16M tokens on 16,384 H100s), at most DeepSeek LLM's B_opt = 0.292 C^0.3271 (68M tokens here).
  CHECK(traincalc::detail::default_batch_tokens(compute, 64) == 4194304);
  CHECK(traincalc::detail::default_batch_tokens(compute, 16384) == 16384 * 1024);
  CHECK_THAT(traincalc::detail::default_batch_tokens(compute, 160000), WithinRel(0.292 * std::pow(compute.total_flops, 0.3271), 1e-12));
  CHECK_THAT(traincalc::detail::default_batch_tokens(compute, 160000), WithinRel(6.79e7, 0.01));
  // A small run's compute tolerates no less than the 4M floor.
  compute.total_flops = 1e20;
  CHECK(traincalc::detail::default_batch_tokens(compute, 16384) == 4194304);
}

TEST_CASE("A 405B run's headline does not jump between 16,000 and 16,384 GPUs, and typing the default gives it",
          "[batch]") {
  const traincalc::Report at_16000 = run(llama_405b(16000));
  const traincalc::Report at_16384 = run(llama_405b(16384));
  // 2,000 and 2,048 sequences of 8,192 tokens: whole micro-batches on every data-parallel rank.
  REQUIRE(at_16000.time.step);
  REQUIRE(at_16384.time.step);
  CHECK(at_16000.time.step->global_batch_sequences == 2000);
  CHECK(at_16384.time.step->global_batch_sequences == 2048);
  CHECK_FALSE(warns(at_16000, "batch_padded"));
  // 2.4% fewer GPUs take at most 4% longer.
  CHECK(at_16000.time.wall_clock_days / at_16384.time.wall_clock_days < 1.04);
  CHECK(at_16000.time.wall_clock_days > at_16384.time.wall_clock_days);
  // The default, typed, is the same estimate: the planner, the memory and the step all see it.
  const traincalc::Report typed = run(llama_405b(16384, 2048));
  CHECK(typed.time.wall_clock_days == at_16384.time.wall_clock_days);
  CHECK(typed.time.mfu == at_16384.time.mfu);
  CHECK(typed.memory.per_gpu_bytes.total == at_16384.memory.per_gpu_bytes.total);
  CHECK(warns(at_16384, "global_batch_assumed"));
  CHECK_FALSE(warns(typed, "global_batch_assumed"));
}

TEST_CASE("A batch given in tokens is the same batch as in sequences", "[batch]") {
  // 4,194,304 tokens of 8,192 are 512 sequences: the planner, the memory and the step see the same.
  json tokens = {{"model", {{"preset", "llama-3.1-8b"}}},
                 {"training", {{"type", "pretrain"}, {"tokens", 2e12}, {"global_batch_tokens", 4194304}}},
                 {"hardware", {{"gpu", "h100-sxm"}, {"count", 64}}}};
  json sequences = tokens;
  sequences["training"].erase("global_batch_tokens");
  sequences["training"]["global_batch_sequences"] = 512;
  const traincalc::Report by_tokens = run(tokens);
  const traincalc::Report by_sequences = run(sequences);
  REQUIRE(by_tokens.time.step);
  CHECK(by_tokens.time.step->global_batch_sequences == 512);
  CHECK(by_tokens.time.wall_clock_days == by_sequences.time.wall_clock_days);
  CHECK(by_tokens.memory.per_gpu_bytes.total == by_sequences.memory.per_gpu_bytes.total);
}

TEST_CASE("A cluster the batch cannot keep busy says so", "[batch]") {
  // 2,048 sequences on 160,000 H100s: 3.3 sequences a data-parallel rank, most of each step waiting.
  const traincalc::Report starved = run(llama_405b(160000, 2048));
  CHECK(warns(starved, "batch_cannot_fill"));
  CHECK(warns(starved, "batch_padded"));
  // The default batch at that size keeps the GPUs as busy as the model allows: no such warning, and
  // the utilisation within a few points of 16,384 GPUs'.
  const traincalc::Report defaulted = run(llama_405b(160000));
  CHECK_FALSE(warns(defaulted, "batch_cannot_fill"));
  CHECK(defaulted.time.mfu > 0.8 * run(llama_405b(16384)).time.mfu);
  CHECK(starved.time.mfu < 0.6 * defaulted.time.mfu);
}

TEST_CASE("A vendor's copy of a built-in GPU gives the built-in GPU's answer, and says what it took", "[catalog]") {
  // docs/embedding.md's example row: name, memory, two peaks, the server size and a source.
  const auto load = traincalc::merge_catalog_json(R"json({"gpus": [{"id": "example-h100",
      "name": "H100 SXM (Example Cloud)", "memory_gb": 80, "bf16_tflops": 989.4, "fp8_tflops": 1978.9,
      "gpus_per_node": 8, "source": "NVIDIA datasheet"}]})json",
                                                  traincalc::builtin_catalog());
  REQUIRE(load.errors.empty());
  const traincalc::GpuSpec* vendor = load.catalog.find_gpu("example-h100");
  REQUIRE(vendor);
  // The closest built-in GPU of its architecture (Hopper: the H800 has the same peaks and memory, the
  // name decides) lends every figure the row leaves out, and never a precision's peak.
  CHECK(vendor->filled_from == "h100-sxm");
  CHECK(vendor->memory_bandwidth_tbs == traincalc::builtin_catalog().find_gpu("h100-sxm")->memory_bandwidth_tbs);
  CHECK_FALSE(vendor->fp16_tflops);
  auto estimate = [&](const char* gpu) {
    const json s = {{"model", {{"preset", "llama-3.1-8b"}}},
                    {"training", {{"type", "pretrain"}, {"tokens", 2e12}}},
                    {"hardware", {{"gpu", gpu}, {"count", 64}}}};
    traincalc::ScenarioParse parse = traincalc::parse_scenario(s.dump(), load.catalog);
    REQUIRE(parse.errors.empty());
    return traincalc::estimate(*parse.scenario);
  };
  const traincalc::Report built_in = estimate("h100-sxm");
  const traincalc::Report copy = estimate("example-h100");
  CHECK(copy.time.mfu == built_in.time.mfu);
  CHECK(copy.time.wall_clock_days == built_in.time.wall_clock_days);
  CHECK(copy.time.expected->wall_clock_days == built_in.time.expected->wall_clock_days);
  CHECK(copy.energy->kwh == built_in.energy->kwh);
  CHECK(warns(copy, "gpu_fields_filled"));
  CHECK_FALSE(warns(built_in, "gpu_fields_filled"));
  // A row that gives a figure keeps it.
  const auto own = traincalc::merge_catalog_json(R"json({"gpus": [{"id": "slow-h100", "name": "H100 (slow links)",
      "memory_gb": 80, "bf16_tflops": 989.4, "intra_node_gbs": 64, "source": "a test"}]})json",
                                                 traincalc::builtin_catalog());
  REQUIRE(own.errors.empty());
  CHECK(own.catalog.find_gpu("slow-h100")->intra_node_gbs == 64);
  // A GPU of an architecture the catalog cannot place is left as given.
  const auto unknown = traincalc::merge_catalog_json(R"json({"gpus": [{"id": "npu-x", "name": "NPU X",
      "vendor": "Nobody", "memory_gb": 64, "bf16_tflops": 300, "source": "a test"}]})json",
                                                     traincalc::builtin_catalog());
  REQUIRE(unknown.errors.empty());
  CHECK(unknown.catalog.find_gpu("npu-x")->filled_from.empty());
}

TEST_CASE("The longest sequence that fits is at micro-batch 1, not the planner's micro-batch", "[memory]") {
  auto longest = [](const char* gpu) {
    const json s = {{"model", {{"preset", "llama-3-8b"}}},
                    {"training", {{"type", "finetune"}, {"method", "lora"}, {"samples", 52002}, {"epochs", 3}, {"seq_len", 2048}}},
                    {"hardware", {{"gpu", gpu}, {"count", 1}}}};
    const traincalc::Report r = run(s);
    CHECK(r.memory.max_seq_len_micro_batch == 1);
    return std::make_pair(*r.memory.max_seq_len, r.parallelism.micro_batch);
  };
  // The planner runs the A100 80GB at micro-batch 2 for 2,048-token samples; at micro-batch 1, without
  // recomputation as planned, 4,954 tokens fit, more than on a 24 GB RTX 4090 (3,107 with the
  // recomputation its plan needs).
  const auto [a100, a100_micro_batch] = longest("a100-80gb-sxm");
  const auto [rtx, rtx_micro_batch] = longest("rtx-4090");
  CHECK(a100_micro_batch == 2);  // the planner's, which the longest sequence is not held to
  CHECK(rtx_micro_batch == 1);
  CHECK(a100 > rtx);
  CHECK(a100 == 4954);
  CHECK(rtx == 3107);
}
