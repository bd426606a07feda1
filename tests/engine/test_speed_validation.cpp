// The step-time model held out by source: engine/data/speed-validation.json (vTrain's measured
// Megatron-DeepSpeed iterations on A100, SimuMax's Megatron-LM steps on B200, torchtitan's FSDP2 steps
// on A100) and the published utilisation of calibration.json, each source predicted with the constants
// fitted on the others.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "../../engine/src/estimators.hpp"
#include "../../engine/src/stats.hpp"
#include "helpers.hpp"

using test::json;

namespace {

const traincalc::SpeedValidationTable& table() {
  static const traincalc::SpeedValidationTable t = traincalc::validate_speed(traincalc::builtin_catalog());
  return t;
}

const traincalc::SpeedValidationSource& source(const std::string& group) {
  const auto& sources = table().sources;
  const auto it = std::find_if(sources.begin(), sources.end(), [&](const auto& s) { return s.group == group; });
  REQUIRE(it != sources.end());
  return *it;
}

}  // namespace

TEST_CASE("Every speed-validation row is a scenario the engine times, 300+ rows, three GPU generations",
          "[speed][validation]") {
  const auto& t = table();
  // 109 + 1,440 vTrain rows, 43 SimuMax rows, 6 torchtitan rows, 48 DGX Cloud rows, 69 of NVIDIA's
  // mixture-of-experts rows, 40 of our H200 rows, 45 calibration rows, 13 published iteration times at
  // 256-12,288 GPUs, Meta's 3 published utilisations of Llama 3.1 405B, MLPerf v3.1's 8 GPT-3 steps,
  // torchtitan's 18 Llama 3.1 steps on H100: none may drop out silently.
  CHECK(t.rows.size() == 109 + 1440 + 43 + 6 + 48 + 69 + 40 + 45 + 13 + 3 + 8 + 18);
  std::set<std::string> gpus, frameworks, groups;
  for (const auto& row : t.rows) {
    INFO(row.id);
    CHECK(row.measured > 0);
    CHECK(std::isfinite(row.predicted));
    CHECK(row.predicted > 0);
    // The GPU's chip: "gb200" (Grace Blackwell, in 72-GPU NVLink racks) is a B200's; a GPU the row
    // specifies itself (torchtitan's 500 W Grand Teton H100s) is named, not a catalog ID.
    std::string gpu = row.gpu;
    if (gpu.rfind("NVIDIA ", 0) == 0) {
      gpu = gpu.substr(7);
      std::transform(gpu.begin(), gpu.end(), gpu.begin(), [](unsigned char c) { return std::tolower(c); });
    }
    gpus.insert(gpu.rfind("gb", 0) == 0 ? gpu.substr(1, 4) : gpu.substr(0, 4));
    frameworks.insert(row.framework);
    groups.insert(row.source_group);
  }
  CHECK(gpus == std::set<std::string>{"a100", "b200", "h100", "h200"});  // Ampere, Hopper, Blackwell
  CHECK(frameworks.size() >= 5);
  CHECK(groups.size() == t.sources.size());
  CHECK(t.sources.size() >= 8);
}

TEST_CASE("Every validation row says what ran: model, parameters, GPU, precision, sequence and batch",
          "[speed][validation]") {
  // The page describes each row in the reader's language from these, not from the source's English label.
  const auto& t = table();
  std::set<std::string> methods;
  for (const auto& row : t.rows) {
    INFO(row.id);
    CHECK(!row.model.empty());
    CHECK(row.params > 1e6);
    CHECK(!row.gpu_name.empty());
    CHECK((row.precision == "fp16" || row.precision == "bf16" || row.precision == "fp8"));
    CHECK(row.layers >= 2);
    CHECK(row.seq_len >= 128);  // our H200 GPT-2 rows run 128 tokens
    CHECK(row.global_batch_sequences >= 1);
    CHECK(row.layout.micro_batch >= 1);
    CHECK(row.gpus == row.layout.tp * row.layout.pp * row.layout.cp * row.layout.dp);
    methods.insert(row.method);
  }
  // Pre-training everywhere but our H200 runs, which fine-tune fully and with LoRA.
  CHECK(methods == std::set<std::string>{"pretrain", "full", "lora"});
  // vTrain's first multi-node row (vtrain-multi-node.csv): "3.6" billion parameters, 64 A100s, global
  // batch 512 of 2,048 tokens, fp16 (Megatron-DeepSpeed); the engine counts 3.559e9 with its 30 layers
  // of width 3,072 and the 50,304-token vocabulary (0.2% tolerance).
  const auto first = std::find_if(t.rows.begin(), t.rows.end(), [](const auto& r) { return r.id == "vtrain-multi-node#0"; });
  REQUIRE(first != t.rows.end());
  CHECK(first->model == "GPT (vTrain)");
  CHECK(first->layers == 30);
  CHECK(first->method == "pretrain");
  CHECK(first->params == Approx(3.559e9).epsilon(0.002));
  CHECK(first->gpu_name == "NVIDIA A100 80GB SXM4");
  CHECK(first->precision == "fp16");
  CHECK(first->seq_len == 2048);
  CHECK(first->global_batch_sequences == 512);
  CHECK(first->gpus == 64);
}

TEST_CASE("Each source is predicted with constants fitted without it, within their physical ranges",
          "[speed][validation]") {
  const auto& t = table();
  REQUIRE(t.fits.size() == t.sources.size() + 1);  // in sample, then one per source left out
  CHECK(t.fits.front().without.empty());
  bool any_differs = false;
  for (std::size_t i = 1; i < t.fits.size(); ++i) {
    CHECK(t.fits[i].without == t.sources[i - 1].group);
    for (std::size_t k = 0; k < t.fits[i].values.size(); ++k) {
      const auto& [name, value] = t.fits[i].values[k];
      INFO(t.fits[i].without << ": " << name << " = " << value);
      CHECK(value > 0);
      const bool fraction = name.ends_with("efficiency") || name.ends_with("fraction") || name.ends_with("relative_rate");
      if (fraction) CHECK(value <= 1.0);
      if (name == "gemm_half_rate_dimension") CHECK((value >= 16 && value <= 512));
      if (name == "layer_dispatch_seconds") CHECK((value >= 20e-6 && value <= 2e-3));
      if (name == "collective_latency_seconds") CHECK((value >= 2e-6 && value <= 100e-6));
      if (name == "pipeline_host_share") CHECK((value >= 0.2 && value <= 1.0));
      any_differs = any_differs || value != t.fits.front().values[k].second;
    }
  }
  CHECK(any_differs);  // leaving a source out changes the fit: the held-out figures are not in-sample ones
}

TEST_CASE("Held-out step-time error by source (a guard at today's figures while the model improves)",
          "[speed][validation]") {
  // Today's figures (docs/validation.md, "Speed against measured runs"); each bound is today's value
  // plus about one point, so that a change that makes a source worse fails here.
  const auto& t = table();
  // Issue 15's held-out target, each source weighing the same as in the fit: the median over sources
  // of each source's held-out median at most 8%. Met since 2026-12-01 (second session): 7.1% over nine
  // sources, once FlashAttention's rate follows the sequence and head width measured on an H200 and
  // cuDNN's speed-up and fp8's rate are bounded by measurements (8.3% over eight before); 6.3% since
  // 2026-12-01's third session (AMP's casts where autocast makes them, LoRA's backward bytes and fp32
  // adapter matmuls, cuDNN's head-width curve, memory-efficient SDPA's rate); 7.3% over ten sources
  // since NVIDIA's mixture-of-experts steps joined (16.5%; 6.3% over the nine dense ones); 6.7% since
  // the host's work between micro-batches is charged (2026-12-01, twelfth session); 6.1% since a
  // pipeline's last stage pays only its share of that work (2026-12-01, thirteenth session); 6.4% over
  // eleven since the published iteration times at scale joined, validation only (2026-12-01, sixteenth);
  // 6.1% over twelve since Meta's three 405B rows joined, validation only (2026-12-02: a source with a
  // low median, no prediction changed); 6.4% over thirteen with MLPerf's GPT-3 steps; 6.7% over fourteen
  // since torchtitan's 18 H100 steps joined, validation only (2026-12-02, twenty-second session: a
  // source at 8.1%, no prediction changed); 6.7% too since Megatron's fused-softmax fallback and the
  // refit with it (6.70% -> 6.69%, 2026-12-02, twenty-third session); 6.4% since NCCL's own model
  // prices the tensor-parallel collectives and MLPerf's and DGX Cloud's 70B pipeline sends are
  // overlapped as their configs say (6.69% -> 6.45%, twenty-fourth session; 6.30% before the 70B rows
  // took theirs and moved the fit).
  CHECK(t.median_of_sources_abs_error_pct <= 6.8);
  // Over the nine sources fitted on: 6.4% (6.3% before NCCL's model priced the tensor-parallel
  // collectives; 5.8% before the fused-softmax refit moved DGX Cloud, their median, 5.8% -> 6.3%; 6.6%
  // before the pipeline's share, 6.3% before the host's work between micro-batches, when the worst two
  // were 18-19% off; now 8.0% (SimuMax, 9.7% before NCCL's model) and 6.8%).
  std::vector<double> fitted_medians;
  for (const auto& s : t.sources)
    if (s.fitted) fitted_medians.push_back(s.median_abs_error_pct);
  std::sort(fitted_medians.begin(), fitted_medians.end());
  REQUIRE(fitted_medians.size() == 9);
  CHECK(fitted_medians[4] <= 6.8);
  CHECK(fitted_medians[8] <= 8.5);
  // Over all rows it is 6.8% (7.1% before NCCL's model priced the tensor-parallel collectives, 8.2%
  // before the pipeline's share, 16.4% before the host's work between micro-batches, 36.8% before
  // 2026-12-01): 1,440 of the 1,842 rows are vTrain's one-node runs, small models at 1,024 tokens whose
  // every micro-batch pays the host's work. Issue 15's target: vTrain multi-node's MAPE at most 8%,
  // met since NCCL's model prices the tensor-parallel collectives (7.97%; 8.02% before, 8.11% before
  // the fused-softmax fallback, 8.4% before the pipeline's share, 8.8% before the host's work).
  CHECK(t.median_abs_error_pct <= 7.5);
  CHECK(source("vtrain-multi-node").mean_abs_error_pct <= 8.0);
  CHECK(source("vtrain-single-node").median_abs_error_pct <= 7.5);  // 6.8% (7.0%, 8.3%, 19.1% before)
  // SimuMax's B200 rows, the only Blackwell source: 8.0% today (9.7% before NCCL's model priced its
  // TP 2-8 collectives, 7.0% with it before DGX Cloud's 70B rows moved the fit, 9.1% before the fused-softmax refit, 10.3% before the pipeline's share, 18.3%
  // before the host's work between micro-batches; its rows run 4-16 micro-batches of short 4-layer
  // steps, most of them pipelined).
  CHECK(source("simumax-b200").median_abs_error_pct <= 8.5);
  // DGX Cloud H100 (NeMo 24.09, 8-2,048 GPUs), 48 rows: 4.9% today since its 70B rows overlap their
  // pipeline sends as their config says (6.3% before NCCL's model, 5.8% before the fused-softmax
  // refit, 6.8% before the pipeline's share, 20.4% before 2026-12-01), still too slow on average
  // (+6.3%): its Llama 3.1 8B rows at TP 1, CP 2 are furthest off.
  CHECK(source("dgxc-h100-2024").median_abs_error_pct <= 6.8);
  // Our own H200 runs (Hugging Face, one GPU), 40 rows: 3.9% today (4.7%, 5.1%, 5.2%, 9.7% before). GPT-2
  // (composite GELU, AMP's host overhead) and eager attention are 30-41% too fast, LoRA at
  // 4,096-8,192 tokens too slow; docs/validation.md.
  CHECK(source("h200-hf-2026").median_abs_error_pct <= 6.0);
  // torchtitan (FSDP2, eager, 64 A100s), 6 rows: 6.4% today. Its Llama 2 70B row at micro-batch 1 is
  // 20% slower than predicted (the cluster's fabric is not stated; the catalog's 200 Gb/s per GPU
  // hides FSDP's gathers behind the compute).
  CHECK(source("torchtitan-a100-2024").median_abs_error_pct <= 7.5);
  // Three sources got worse with the pipeline's share and the refit it brought: Megatron-LM 2021
  // 3.0% -> 3.8%, Megatron-Core 2024 4.5% -> 5.4%, llm-foundry 7.2% -> 7.5% (docs/validation.md);
  // today 3.8%, 3.5% and 6.6% (Megatron-Core 2024 4.9% before NCCL's model).
  CHECK(source("megatron-lm-2021").median_abs_error_pct <= 4.5);
  CHECK(source("megatron-core-2024").median_abs_error_pct <= 4.5);
  CHECK(source("llm-foundry").median_abs_error_pct <= 8.5);
  // In sample (the engine's own constants): within 8% at the median, every source fitted on within
  // 12% (a validation-only source's in-sample error is its held-out one; its own test above).
  CHECK(t.median_abs_error_in_sample_pct <= 8.0);
  for (const auto& s : t.sources) {
    INFO(s.group);
    if (s.fitted) CHECK(s.median_abs_error_in_sample_pct <= 12.0);
  }
}

TEST_CASE("The held-out figures move with the fit's search, within the spread the docs give", "[speed][validation]") {
  // The fit is a coordinate descent over a rugged objective; where it ends depends on the steps of its
  // grid sweeps (12 steps by default). scripts/fit-noise.mjs refits at 8-16 steps (docs/validation.md, "The
  // fit's own noise", 2026-12-02): the median of the sources' held-out medians runs 5.97-6.52% (6.45%
  // at 12, 6.20% at 9), vTrain multi-node's MAPE 7.87-8.04% (7.94% at 9), a single source's median by
  // up to 2.7 points (H200 Hugging Face: 3.80-6.48%), the one-node planner 88-99 groups within 5%. A
  // change that moves a held-out figure by less than that spread is no evidence either way. Here at 9
  // steps, within that band rounded outwards (5.9-6.6%, 7.8-8.1%).
  CHECK(table().search_grid == 12);
  const traincalc::SpeedValidationTable nine = traincalc::validate_speed(traincalc::builtin_catalog(), true, 9);
  CHECK(nine.search_grid == 9);
  CHECK(nine.median_of_sources_abs_error_pct >= 5.9);
  CHECK(nine.median_of_sources_abs_error_pct <= 6.6);
  double vtrain_multi = 0;
  for (const auto& s : nine.sources)
    if (s.group == "vtrain-multi-node") vtrain_multi = s.mean_abs_error_pct;
  CHECK(vtrain_multi >= 7.8);
  CHECK(vtrain_multi <= 8.1);
  // The grid reached the fit: the same rows, other constants, another figure (6.20% against 6.45%).
  REQUIRE(nine.rows.size() == table().rows.size());
  REQUIRE(nine.fits.size() == table().fits.size());
  CHECK(nine.fits[0].values != table().fits[0].values);
  CHECK(std::abs(nine.median_of_sources_abs_error_pct - table().median_of_sources_abs_error_pct) > 0.1);
  // A step count outside 4-48 is clamped, and the table says which it used (no refit: the clamp alone).
  CHECK(traincalc::validate_speed(traincalc::builtin_catalog(), false, 100).search_grid == 48);
  CHECK(traincalc::validate_speed(traincalc::builtin_catalog(), false, -3).search_grid == 4);
}

TEST_CASE("A validation-only source is predicted held out but never moves the constants", "[speed][validation]") {
  // NVIDIA's published mixture-of-experts steps (Megatron-Core/Megatron-Bridge 25.02-26.08; DeepSeek-V3,
  // Qwen3, GPT-OSS, Mixtral on H100, B200, GB200) carry host work the engine does not model; their
  // source says "fit": false (engine/data/speed-validation.json says why). Every fit then equals the fit
  // without them: the in-sample constants and the fold that holds them out are the same numbers.
  const auto& t = table();
  const auto& moe = source("nemo-moe");
  CHECK_FALSE(moe.fitted);
  CHECK(moe.rows == 69);
  // (This holds for every validation-only source: NVIDIA's and, below, the rows at scale.)
  for (const auto& s : t.sources) {
    if (s.fitted) continue;
    INFO(s.group);
    const auto fold = std::find_if(t.fits.begin(), t.fits.end(), [&](const auto& f) { return f.without == s.group; });
    REQUIRE(fold != t.fits.end());
    REQUIRE(fold->values.size() == t.fits.front().values.size());
    for (std::size_t k = 0; k < fold->values.size(); ++k) {
      INFO(fold->values[k].first);
      CHECK(fold->values[k].second == t.fits.front().values[k].second);
    }
  }
  // So its in-sample error is its held-out one: 17.3% at the median today (17.5% before NCCL's model
  // priced the tensor-parallel collectives; 16.5% before the host's work between micro-batches moved
  // the dense constants), too fast by 13.0% on average (13.0% before
  // the pipeline's share; SimuMax's DeepSeek rows, the other mixture-of-experts source, by 9%): the
  // clue to a mixture-of-experts cost the step model lacks. A guard at today's figure.
  CHECK(moe.median_abs_error_in_sample_pct == Approx(moe.median_abs_error_pct));
  CHECK(moe.median_abs_error_pct <= 19.0);
  CHECK(moe.mean_error_pct < 0);
  // The published iteration times at 256-12,288 GPUs (MegaScale's Megatron-LM baseline, Korthikanti et
  // al.'s 530B, Nemotron-4 15B) are validation only too (their fold is checked above): 12.2% off at
  // the median today and 11.3% too fast on average (13.3% and 12.2% before NCCL's model), a cost at
  // scale the step model lacks (docs/validation.md). Guards at today's figures.
  const auto& scale = source("megatron-at-scale");
  CHECK_FALSE(scale.fitted);
  CHECK(scale.rows == 13);
  CHECK(scale.median_abs_error_pct <= 14.0);
  CHECK(scale.mean_error_pct < 0);
  // Meta's published utilisation of Llama 3.1 405B (arXiv:2407.21783 table 4: 43% on 8,192 H100s, 41%
  // on 16,384, 38% at 131,072 tokens with 16-way context parallelism), at its layout with the
  // interleaving depth its text implies (8 chunks of one layer): validation only, 5.0% at the median
  // (5.5% before NCCL's model), 9.9% too fast on average; the long-context row 21% too fast (the two
  // at 8K tokens 5.0% and 3.7%).
  // Guards at today's figures, MFU rows compared as step time (the same FLOPs).
  const auto& llama = source("llama3-405b");
  CHECK_FALSE(llama.fitted);
  CHECK(llama.rows == 3);
  CHECK(llama.median_abs_error_pct == Approx(4.9).margin(1.0));
  CHECK(llama.mean_error_pct < 0);
  // MLPerf Training v3.1's GPT-3 175B in fp8 (NVIDIA's Eos and Azure, 512-10,752 H100s, NeMo with
  // Transformer Engine, the logged train_step_timing; tests/data/speed-measured/collected/
  // mlperf-v3.1-gpt3.json): validation only. Its config overlaps the interleaved stages' sends with
  // their chunks (conf/custom.yaml: overlap_p2p_comm True), which the step model charges since
  // 2026-12-02 (twenty-fourth session): 1.2% at the median and 1.0% too slow on average, every row
  // within 5%; 8.2% and 8.3% too slow before, the 512-768 GPU rows (128 micro-batches a step, 24 sends
  // each) furthest, 12.9%. Guards at today's figures.
  const auto& mlperf = source("mlperf-v3.1-gpt3");
  CHECK_FALSE(mlperf.fitted);
  CHECK(mlperf.rows == 8);
  CHECK(mlperf.median_abs_error_pct == Approx(1.2).margin(1.0));
  for (const auto& row : t.rows)
    if (row.source_group == "mlperf-v3.1-gpt3") {
      INFO(row.id);
      CHECK(std::abs(row.error_pct) < 5.0);
    }
  // torchtitan's Llama 3.1 benchmarks on 8-512 of Meta's Grand Teton H100s (96 GB HBM2e, 500 W; the
  // peak taken between the SXM and NVL parts'), the source issue 15 quoted as "FSDP with tensor
  // parallelism and torch.compile 2-3x too slow": validation only, 7.4% at the median and 2.8% too
  // fast on average (8.1% and 4.9% when it joined). Its two 70B rows (FSDP 32 x TP 8, compiled,
  // float8) are within 12% (+11.5% and, with async TP, -5.0%; +10.1% and -6.2% before NCCL's model); its eager FSDP rows are the furthest off, 16% and 18% too fast, where the
  // same runs compiled are 2.5% and 5.1% (docs/validation.md: what compiling saves is not modelled).
  const auto& titan = source("torchtitan-h100-2024");
  CHECK_FALSE(titan.fitted);
  CHECK(titan.rows == 18);
  CHECK(titan.median_abs_error_pct == Approx(8.1).margin(1.0));
  CHECK(titan.mean_error_pct < 0);
  for (const auto& row : t.rows) {
    if (row.source_group != "torchtitan-h100-2024") continue;
    INFO(row.id);
    if (row.id.find("Table4") != std::string::npos) CHECK(std::abs(row.error_pct) < 12.0);
  }
  for (const auto& s : t.sources)
    if (s.group != "nemo-moe" && s.group != "megatron-at-scale" && s.group != "llama3-405b" &&
        s.group != "mlperf-v3.1-gpt3" && s.group != "torchtitan-h100-2024")
      CHECK(s.fitted);
}

TEST_CASE("The engine's step constants are the fit on every source", "[speed][validation]") {
  // SpeedParams' defaults are the in-sample fit, rounded to three figures.
  const auto& t = table();
  const traincalc::detail::SpeedParams built_in;
  const std::vector<std::pair<std::string, double>> expected = {
      {"ampere_matmul_efficiency", built_in.ampere_matmul_efficiency},
      {"hopper_matmul_efficiency", built_in.hopper_matmul_efficiency},
      {"sustained_fraction", built_in.sustained_fraction},
      {"gemm_half_rate_dimension", built_in.gemm_half_rate_dimension},
      {"ampere_flash_efficiency", built_in.ampere_flash_efficiency},
      {"hopper_flash_efficiency", built_in.hopper_flash_efficiency},
      {"flash3_speedup", built_in.flash3_speedup},
      {"flash_relative_rate", built_in.flash_relative_rate},
      {"fp8_matmul_relative_rate", built_in.fp8_matmul_relative_rate},
      {"memory_efficiency", built_in.memory_efficiency},
      {"link_efficiency", built_in.link_efficiency},
      {"layer_dispatch_seconds", built_in.layer_dispatch_seconds},
      {"collective_latency_seconds", built_in.collective_latency_seconds},
      {"micro_batch_host_seconds", built_in.micro_batch_host_seconds},
      {"pipeline_host_share", built_in.pipeline_host_share}};
  REQUIRE(t.fits.front().values.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    INFO(expected[k].first);
    CHECK(t.fits.front().values[k].first == expected[k].first);
    CHECK_THAT(t.fits.front().values[k].second, Catch::Matchers::WithinRel(expected[k].second, 0.01));
  }
}

TEST_CASE("A range for a new source ends at the ranks a new draw falls between 80% of the time", "[range]") {
  using traincalc::detail::range_low_level_for_new_group;
  using traincalc::detail::weighted_quantile_interpolated;
  // k draws: a new one lies between the i-th and j-th smallest with probability (j - i) / (k + 1), so the
  // ends are the ranks 0.1 (k + 1) and 0.9 (k + 1), read at Hazen's positions (rank - 1/2) / k.
  // 13 sources: rank 1.4, level 0.9 / 13 = 0.0692; 60 runs: rank 6.1, level 5.6 / 60 = 0.0933.
  CHECK(range_low_level_for_new_group(13) == Approx(0.9 / 13));
  CHECK(range_low_level_for_new_group(60) == Approx(5.6 / 60));
  // Four groups or fewer: rank 0.5 or less, the smallest draw itself.
  CHECK(range_low_level_for_new_group(4) == 0);
  CHECK(range_low_level_for_new_group(2) == 0);
  CHECK(range_low_level_for_new_group(0) == 0);
  // Ever more groups: the 10th percentile.
  CHECK(range_low_level_for_new_group(1e6) == Approx(0.1).margin(1e-6));
  // Interpolated quantiles: four values of weight 1 sit at 1/8, 3/8, 5/8, 7/8.
  const std::vector<std::pair<double, double>> four = {{4, 1}, {1, 1}, {3, 1}, {2, 1}};
  CHECK(weighted_quantile_interpolated(four, 0.125) == Approx(1));
  CHECK(weighted_quantile_interpolated(four, 0.25) == Approx(1.5));
  CHECK(weighted_quantile_interpolated(four, 0.5) == Approx(2.5));
  CHECK(weighted_quantile_interpolated(four, 0.0) == 1);
  CHECK(weighted_quantile_interpolated(four, 1.0) == 4);
  // A heavier value takes more of the line: weights 3 and 1 put 0 at 3/8 and 10 at 7/8.
  CHECK(weighted_quantile_interpolated({{0, 3}, {10, 1}}, 0.5) == Approx(2.5));
  CHECK(weighted_quantile_interpolated({}, 0.5) == 0);
  // No weight at all: the smallest value, not a division by zero.
  CHECK(weighted_quantile_interpolated({{2, 0}, {1, 0}}, 0.5) == 1);
}

TEST_CASE("Likely ranges are the held-out 80% ranges for a new source, and hold about 80% of a new source's rows",
          "[speed][validation][range]") {
  const auto& t = table();
  // The engine's table (step_time.cpp) is what the validation computes from the held-out rows: a change
  // of the step model or of the data must regenerate it (tolerance: the 4 digits written there).
  const auto& built_in = traincalc::detail::likely_ranges();
  REQUIRE(t.ranges.size() == built_in.size());
  for (std::size_t i = 0; i < t.ranges.size(); ++i) {
    INFO(t.ranges[i].basis);
    CHECK(t.ranges[i].basis == built_in[i].basis);
    CHECK(built_in[i].low == Approx(t.ranges[i].low).epsilon(1e-3));
    CHECK(built_in[i].high == Approx(t.ranges[i].high).epsilon(1e-3));
    CHECK(built_in[i].rows == t.ranges[i].rows);
    CHECK(built_in[i].sources == t.ranges[i].sources);
    // A range contains the prediction itself.
    CHECK(t.ranges[i].low <= 1.0);
    CHECK(t.ranges[i].high >= 1.0);
  }
  // Every basis has rows; the compute-bound one, where nearly every dense run lies, rests on thirteen
  // sources (nine before the published iteration times at scale, Meta's 405B utilisations, MLPerf's
  // GPT-3 steps and torchtitan's H100 steps joined, all validation only); a mixture of experts' on the two that measure one (NVIDIA's, SimuMax's DeepSeek rows), and
  // it is wider and leans slow, as both come out faster than measured.
  const auto basis = [&](const std::string& name) {
    const auto it = std::find_if(t.ranges.begin(), t.ranges.end(), [&](const auto& r) { return r.basis == name; });
    REQUIRE(it != t.ranges.end());
    return *it;
  };
  CHECK(basis("compute_bound").sources == 13);
  CHECK(basis("mixture_of_experts").sources == 2);
  CHECK(basis("mixture_of_experts").high > basis("compute_bound").high + 0.2);
  // The issue's coverage test: the 80% ranges hold 75-85% of the held-out rows, each source's rows
  // judged against ranges made without that source (nested), each source weighing the same. A range is
  // for a run from a source not among the validation's: its ends are the ranks a new source's row falls
  // between 80% of the time (detail::range_low_level_for_new_group). Today 81.9%; 74.4% at the 10th and
  // 90th percentiles (before 2026-12-02's twenty-fifth session), which held a new source's rows too
  // rarely because the sources disagree by more than each one's spread. The validation-only sources
  // are furthest out: NVIDIA's mixture-of-experts rows 23% inside ranges made without them (their basis
  // then rests on SimuMax's twelve DeepSeek rows alone), Meta's 405B rows 67%, the rows at scale 69%
  // (38% before), DGX Cloud's 71%.
  CHECK(t.range_coverage_nested_pct >= 75);
  CHECK(t.range_coverage_nested_pct <= 85);
  double fitted_nested = 0, fitted_sources = 0;
  for (const auto& s : t.sources)
    if (s.fitted) {
      fitted_nested += s.range_coverage_nested_pct;
      ++fitted_sources;
    }
  // The nine fitted sources' mean is 89.4% (82.7% at the 10th and 90th percentiles): a guard, as
  // sources the constants were fitted on sit nearer the others.
  CHECK(fitted_sources == 9);
  CHECK(fitted_nested / fitted_sources >= 85.0);
  // With every source's rows in the ranges (each row's own source among them) the coverage is higher,
  // as ranges made for a new source should be on the sources they came from: 88.7% by source (80.2% at
  // the 10th and 90th percentiles), 94.8% over all rows, where the 1,440 one-node rows dominate (86.6%
  // before): the launch-bound range rests on two sources, and with two a new source's 80% range runs
  // from the slowest row to the fastest. Guards at today's figures.
  CHECK(t.range_coverage_sources_pct >= 80);
  CHECK(t.range_coverage_sources_pct <= 92);
  CHECK(t.range_coverage_rows_pct >= 80);
  CHECK(t.range_coverage_rows_pct <= 96);
  // The launch-bound rows (vTrain's one node and the H200's small runs, held out by source): each
  // source's fold learns the launch cost from the other, and the two disagree (the H200's GPT-2 under
  // AMP 30-41% slower than predicted, in pure bf16 about 40% faster): 0.70-1.48x, their extremes (it
  // was up to 4x when one source alone measured it; 0.83-1.21x at the 10th and 90th percentiles).
  CHECK(t.ranges.front().basis == "launch_bound");
  CHECK(t.ranges.front().high < 1.5);
  CHECK(t.ranges.front().low < 0.75);
  // The compute-bound range, where nearly every dense run lies, rests on 13 sources: its ends are their
  // 6.9th and 93.1st percentiles, 0.906-1.196x (0.923-1.159x at the 10th and 90th).
  CHECK(basis("compute_bound").low == Approx(0.906).margin(0.002));
  CHECK(basis("compute_bound").high == Approx(1.196).margin(0.002));
}

TEST_CASE("A mixture of experts' predicted step carries the mixture-of-experts range", "[speed][range]") {
  // Mixtral 8x7B on 64 H100s with 8-way expert parallelism: its range comes from the 81 held-out
  // mixture-of-experts rows (NVIDIA's and SimuMax's), 0.77-2.76x, not the dense compute-bound
  // 0.91-1.20x, however long its layers take.
  const json r = test::report_json(json::parse(R"({"model":{"preset":"mixtral-8x7b"},
      "training":{"type":"pretrain","tokens":1e12,"seq_len":4096},
      "hardware":{"gpu":"h100-sxm","count":64},"strategy":{"tp":1,"pp":1,"ep":8,"micro_batch":1}})"));
  const json& range = r.at("time").at("range");
  CHECK(range.at("basis") == "mixture_of_experts");
  CHECK(range.at("low").get<double>() == Approx(0.7691).epsilon(1e-3));
  CHECK(range.at("high").get<double>() == Approx(2.7596).epsilon(1e-3));
  CHECK(range.at("rows") == 81);
  // The same model's dense twin (one expert) is a compute-bound step.
  const json dense = test::report_json(json::parse(R"({"model":{"preset":"mixtral-8x7b","experts":1,"experts_per_token":1},
      "training":{"type":"pretrain","tokens":1e12,"seq_len":4096},
      "hardware":{"gpu":"h100-sxm","count":64},"strategy":{"tp":1,"pp":1,"ep":1,"micro_batch":1}})"));
  CHECK(dense.at("time").at("range").at("basis") == "compute_bound");
}

TEST_CASE("A predicted utilisation carries its likely range into step time, days, GPU-hours and cost",
          "[speed][range]") {
  // Llama-2-7B on 256 H100s: a compute-bound step.
  const json r = test::report_json(json::parse(R"({"model":{"preset":"llama-2-7b"},
      "training":{"type":"pretrain","tokens":1e12},
      "hardware":{"gpu":"h100-sxm","count":256},"pricing":{"per_gpu_hour":2}})"));
  const json& time = r.at("time");
  REQUIRE(time.at("mfu_source") == "predicted");
  const json& range = time.at("range");
  CHECK(range.at("basis") == "compute_bound");
  const double low = range.at("low"), high = range.at("high");
  CHECK(low < 1);
  CHECK(high > 1);
  // A slower step is a lower utilisation: the MFU range is the prediction divided by the multipliers.
  CHECK(time.at("mfu_range").at("low").get<double>() == Approx(time.at("mfu").get<double>() / high));
  CHECK(time.at("mfu_range").at("high").get<double>() == Approx(time.at("mfu").get<double>() / low));
  CHECK(time.at("wall_clock_days_range").at("low").get<double>() == Approx(time.at("wall_clock_days").get<double>() * low));
  CHECK(time.at("wall_clock_days_range").at("high").get<double>() == Approx(time.at("wall_clock_days").get<double>() * high));
  CHECK(time.at("gpu_hours_range").at("high").get<double>() == Approx(time.at("gpu_hours").get<double>() * high));
  CHECK(time.at("step_seconds_range").at("low").get<double>() == Approx(time.at("step_seconds").get<double>() * low));
  CHECK(r.at("cost").at("total_range").at("high").get<double>() == Approx(r.at("cost").at("total").get<double>() * high));

  // A given utilisation is the user's own figure: no range is invented for it.
  const json given = test::report_json(json::parse(R"({"model":{"preset":"llama-2-7b"},
      "training":{"type":"pretrain","tokens":1e12},"strategy":{"mfu":0.4},
      "hardware":{"gpu":"h100-sxm","count":256},"pricing":{"per_gpu_hour":2}})"));
  CHECK_FALSE(given.at("time").contains("range"));
  CHECK_FALSE(given.at("time").contains("mfu_range"));
  CHECK_FALSE(given.at("cost").contains("total_range"));

  // GPT-2 small on one A100 at micro-batch 1: layers so short the host's launches set the pace; the
  // range is the launch-bound rows' (vTrain one-node, each model width held out, and the H200s'): with
  // two sources, a new source's 80% range runs from the fastest row to the slowest, 0.70x-1.48x.
  const json tiny = test::report_json(json::parse(R"({"model":{"preset":"gpt2"},
      "training":{"type":"pretrain","tokens":1e9,"global_batch_sequences":8},
      "strategy":{"micro_batch":1},"hardware":{"gpu":"a100-80gb-sxm","count":1}})"));
  CHECK(tiny.at("time").at("range").at("basis") == "launch_bound");
  CHECK(tiny.at("time").at("range").at("low").get<double>() == Approx(0.6993).epsilon(1e-3));
  CHECK(tiny.at("time").at("range").at("high").get<double>() == Approx(1.4795).epsilon(1e-3));
}

TEST_CASE("Among each vTrain group's measured layouts, the one predicted fastest is within 5% of the fastest",
          "[speed][validation][planner]") {
  // Issue 15: the planner, choosing among a group's layouts, lands within 5% of the best measured one.
  // Multi-node (vTrain, 64-512 A100s): all four groups, predicted held out (today 0%, 4.5%, 0%, 0.6%).
  int multi = 0, single = 0, single_within = 0, single_within_held_out = 0;
  double single_slower = 0, single_worst = 0;  // held out: the pick's loss against the best, in %
  for (const auto& g : table().rank_groups) {
    INFO(g.key);
    if (g.key.rfind("vtrain-multi-node", 0) == 0) {
      ++multi;
      CHECK(g.pick_slower_pct <= 5.0);
      CHECK(g.pick_slower_built_in_pct <= 5.0);
    } else if (g.key.rfind("vtrain-single-node", 0) == 0) {
      ++single;
      single_within += g.pick_slower_built_in_pct <= 5.0;
      single_within_held_out += g.pick_slower_pct <= 5.0;
      single_slower += g.pick_slower_pct;
      single_worst = std::max(single_worst, g.pick_slower_pct);
    }
  }
  CHECK(multi == 4);
  // One node, small models: with the engine's constants 94 of 136 groups (69%); held out 94 (92 before
  // NCCL's model priced the tensor-parallel collectives, 2026-12-02, twenty-fourth session, and 97
  // with it before DGX Cloud's 70B rows took their overlapped sends and moved the fit; 100 and 103
  // before the pipeline's share; 86 held out before the host's work between micro-batches was
  // charged). The groups lost are near ties: two layouts without a pipeline predicted within 3% of
  // each other and measured 10% apart (h1024 at 2-8 GPUs, TP 2 at micro-batch 4 against DP at
  // micro-batch 2). Over all 136 groups the pick held out is 3.9% slower than the best on average
  // (4.5% before NCCL's model, 4.7% before that) and at worst 20% (26%, 39%); docs/validation.md.
  // Guards at today's figures.
  CHECK(single == 136);
  CHECK(single_within >= 93);
  CHECK(single_within_held_out >= 93);
  CHECK(single_slower / single <= 4.2);
  CHECK(single_worst <= 22);
}

TEST_CASE("Within each vTrain multi-node group the layouts are ranked as measured", "[speed][validation][planner]") {
  // Issue 15 asks for a Spearman correlation of at least 0.9 between predicted (held out) and measured
  // step times within every vTrain (model, GPU count) group. Met by the 3.6B on 64 GPUs (0.97) and the
  // 175B on 512 (0.90; 0.88 before NCCL's model priced the tensor-parallel collectives, 2026-12-02,
  // twenty-fourth session). Not met by the 18.4B on 256 (0.72; 0.76 before) and the 39.1B on 512
  // (0.61; 0.64 before): their TP 2 and TP 4 rows are 13-36% slower than the rows around them
  // measure, with no mechanism found (docs/validation.md); guards at today's figures for those two.
  std::map<std::string, double> spearman;
  for (const auto& g : table().rank_groups)
    if (g.key.rfind("vtrain-multi-node", 0) == 0) spearman[g.key] = g.spearman;
  REQUIRE(spearman.size() == 4);
  for (const auto& [key, rho] : spearman) {
    INFO(key << ": " << rho);
    if (key.find(" 3072 ") != std::string::npos || key.find(" 12288 ") != std::string::npos)
      CHECK(rho >= 0.9);
    else if (key.find(" 6144 ") != std::string::npos)
      CHECK(rho >= 0.7);
    else
      CHECK(rho >= 0.55);
  }
}

TEST_CASE("vTrain's one layout whose shapes refuse Megatron's fused softmax is predicted with PyTorch's",
          "[speed][validation][attention]") {
  // 18.4B at TP 16, micro-batch 2: 48 heads / 16 x 2 = 6 batches of scores a GPU, not a multiple of 4,
  // so Megatron-DeepSpeed ran its softmax in PyTorch (20.41 s measured; VIA-Research/vTrain
  // data/ground_truth_multi.csv @f8dda84). Held out it was 13.5% too fast with the fused kernel's
  // traffic; with the fallback's, 4.2% (2026-12-02). Tolerance: 6%.
  const auto& t = table();
  int found = 0;
  for (const auto& row : t.rows) {
    if (row.label != "vTrain multi-node: 40 layers, h 6144, 256 GPUs, TP 16 PP 1 DP 16, micro-batch 2") continue;
    ++found;
    CHECK_THAT(row.measured, Catch::Matchers::WithinRel(20.4148, 1e-4));
    CHECK(std::abs(row.error_pct) < 6.0);
  }
  CHECK(found == 1);
}
