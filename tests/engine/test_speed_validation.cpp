// The step-time model held out by software lineage: engine/data/speed-validation.json (measured steps
// and published utilisation), each lineage's rows predicted with the constants fitted without it, and
// checked against likely ranges built without it: what a publisher the project has never seen meets.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "../../engine/src/estimate/estimators.hpp"
#include "../../engine/src/estimate/stats.hpp"
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

TEST_CASE("Each lineage is predicted with constants fitted without any of its sources, within their physical ranges",
          "[speed][validation]") {
  const auto& t = table();
  // Five lineages: NVIDIA's Megatron (seven sources, whoever measured them), Microsoft's
  // Megatron-DeepSpeed fork (vTrain), PyTorch's (torchtitan, Llama 3), Hugging Face's, MosaicML's.
  REQUIRE(t.lineages.size() == 5);
  REQUIRE(t.fits.size() == t.lineages.size() + 1);  // in sample, then one per lineage left out
  CHECK(t.fits.front().without.empty());
  bool any_differs = false;
  for (std::size_t i = 1; i < t.fits.size(); ++i) {
    CHECK(t.fits[i].without == t.lineages[i - 1].name);
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
  CHECK(any_differs);  // leaving a lineage out changes the fit: the held-out figures are not in-sample ones
  for (const auto& source : t.sources) {
    INFO(source.group);
    CHECK(!source.lineage.empty());
  }
  const auto lineage_of = [&](const std::string& group) {
    return std::find_if(t.sources.begin(), t.sources.end(), [&](const auto& s) { return s.group == group; })->lineage;
  };
  CHECK(lineage_of("simumax-b200") == "megatron");
  CHECK(lineage_of("mlperf-v3.1-gpt3") == "megatron");
  CHECK(lineage_of("vtrain-multi-node") == "megatron-deepspeed");
  CHECK(lineage_of("llama3-405b") == "pytorch");
}

TEST_CASE("Held-out step-time error by lineage and by source (guarded at the figures it prints)", "[speed][validation]") {
  // Each bound is the figure beside it plus about one point, so that a change that makes a lineage or a
  // source worse fails here (docs/validation.md, "Speed against measured runs").
  const auto& t = table();
  // What a new publisher meets: the median over the five lineages of their held-out medians, 7.0%.
  CHECK(t.median_of_lineages_abs_error_pct <= 8.0);
  for (const auto& l : t.lineages) {
    INFO(l.name);
    CHECK(l.median_abs_error_pct <= 10.0);  // Megatron's 9.0% the furthest
    CHECK(std::abs(l.median_error_pct) <= 7.0);  // PyTorch's 5.8% too fast the most biased
  }
  // By source, each predicted without its lineage: the median of the sources' medians 6.2%.
  CHECK(t.median_of_sources_abs_error_pct <= 7.0);
  std::vector<double> fitted_medians;
  for (const auto& s : t.sources)
    if (s.fitted) fitted_medians.push_back(s.median_abs_error_pct);
  std::sort(fitted_medians.begin(), fitted_medians.end());
  REQUIRE(fitted_medians.size() == 9);
  CHECK(fitted_medians[4] <= 7.0);  // 6.0%
  CHECK(fitted_medians[8] <= 11.0);  // SimuMax's B200 rows, 9.8%
  // Over all rows 7.2%: 1,440 of the 1,842 are vTrain's one-node runs, small models at 1,024 tokens
  // whose every micro-batch pays the host's work.
  CHECK(t.median_abs_error_pct <= 8.0);
  CHECK(source("vtrain-multi-node").mean_abs_error_pct <= 9.0);  // 8.0%
  CHECK(source("vtrain-single-node").median_abs_error_pct <= 8.0);  // 7.2%
  CHECK(source("simumax-b200").median_abs_error_pct <= 11.0);  // 9.8%
  CHECK(source("dgxc-h100-2024").median_abs_error_pct <= 6.8);  // 5.6%, too slow on average (+5.3%)
  // Our own H200 runs (Hugging Face, one GPU), 3.9%: GPT-2 (composite GELU, AMP's host overhead) and
  // eager attention are 30-39% too fast, LoRA at 4,096-8,192 tokens too slow; docs/validation.md.
  CHECK(source("h200-hf-2026").median_abs_error_pct <= 5.0);
  // torchtitan (FSDP2, eager, 64 A100s), 6.4%: its Llama 2 70B row at micro-batch 1 is 20% slower
  // than predicted (the cluster's fabric is not stated; the catalog's 200 Gb/s per GPU hides FSDP's
  // gathers behind the compute).
  CHECK(source("torchtitan-a100-2024").median_abs_error_pct <= 7.5);
  CHECK(source("megatron-lm-2021").median_abs_error_pct <= 3.5);  // 2.1%
  CHECK(source("megatron-core-2024").median_abs_error_pct <= 4.5);  // 3.5%
  CHECK(source("llm-foundry").median_abs_error_pct <= 7.5);  // 6.6%
  // In sample (the engine's own constants): 6.0% at the median, every source fitted on within 12% (a
  // validation-only source's in-sample error is its held-out one; its own test below).
  CHECK(t.median_abs_error_in_sample_pct <= 7.0);
  for (const auto& s : t.sources) {
    INFO(s.group);
    if (s.fitted) CHECK(s.median_abs_error_in_sample_pct <= 12.0);
  }
}

TEST_CASE("The held-out figures move with the fit's search, within the spread the docs give", "[speed][validation]") {
  // The fit is a coordinate descent over a rugged objective; where it ends depends on the steps of its
  // grid sweeps (12 steps by default). scripts/fit-noise.mjs refits at 8-16 steps (docs/validation.md,
  // "The fit's own noise"): the median of the lineages' held-out medians runs 6.8-7.3%, their range
  // coverage 82-87%, the median of the sources' medians 6.1-6.5%, vTrain multi-node's MAPE 7.9-8.1%.
  // A change that moves a held-out figure by less than that spread is no evidence either way. Here
  // at 9 steps, within that band rounded outwards.
  CHECK(table().search_grid == 12);
  const traincalc::SpeedValidationTable nine = traincalc::validate_speed(traincalc::builtin_catalog(), true, 9);
  CHECK(nine.search_grid == 9);
  CHECK(nine.median_of_lineages_abs_error_pct >= 6.7);
  CHECK(nine.median_of_lineages_abs_error_pct <= 7.3);
  CHECK(nine.range_coverage_lineages_pct >= 82);
  CHECK(nine.range_coverage_lineages_pct <= 88);
  CHECK(nine.median_of_sources_abs_error_pct >= 6.1);
  CHECK(nine.median_of_sources_abs_error_pct <= 6.6);
  double vtrain_multi = 0;
  for (const auto& s : nine.sources)
    if (s.group == "vtrain-multi-node") vtrain_multi = s.mean_abs_error_pct;
  CHECK(vtrain_multi >= 7.9);
  CHECK(vtrain_multi <= 8.1);
  // The grid reached the fit: the same rows, other constants, another coverage (87.3% against 84.4%).
  REQUIRE(nine.rows.size() == table().rows.size());
  REQUIRE(nine.fits.size() == table().fits.size());
  CHECK(nine.fits[0].values != table().fits[0].values);
  CHECK(std::abs(nine.range_coverage_lineages_pct - table().range_coverage_lineages_pct) > 1.0);
  // A step count outside 4-48 is clamped, and the table says which it used (no refit: the clamp alone).
  CHECK(traincalc::validate_speed(traincalc::builtin_catalog(), false, 100).search_grid == 48);
  CHECK(traincalc::validate_speed(traincalc::builtin_catalog(), false, -3).search_grid == 4);
}

TEST_CASE("A validation-only source is predicted held out but never moves the constants", "[speed][validation]") {
  // NVIDIA's published mixture-of-experts steps (Megatron-Core/Megatron-Bridge 25.02-26.08; DeepSeek-V3,
  // Qwen3, GPT-OSS, Mixtral on H100, B200, GB200) carry host work the engine does not model; their
  // source says "fit": false (engine/data/speed-validation.json says why). Such a source is predicted
  // with its lineage held out like every other, and never enters a fit.
  const auto& t = table();
  const auto& moe = source("nemo-moe");
  CHECK_FALSE(moe.fitted);
  CHECK(moe.rows == 69);
  // 18.4% at the median held out, 17.3% in sample, too fast by 11.3% on average (SimuMax's DeepSeek
  // rows, the other mixture-of-experts source, by 9%): the clue to a mixture-of-experts cost the step
  // model lacks. A guard at that figure.
  CHECK(moe.median_abs_error_pct <= 19.5);
  CHECK(moe.mean_error_pct < 0);
  // The published iteration times at 256-12,288 GPUs (MegaScale's Megatron-LM baseline, Korthikanti et
  // al.'s 530B, Nemotron-4 15B) are validation only too: 12.5% off at the median and 12.0% too fast on
  // average, a cost at scale the step model lacks (docs/validation.md). Guards at those figures.
  const auto& scale = source("megatron-at-scale");
  CHECK_FALSE(scale.fitted);
  CHECK(scale.rows == 13);
  CHECK(scale.median_abs_error_pct <= 14.0);
  CHECK(scale.mean_error_pct < 0);
  // Meta's published utilisation of Llama 3.1 405B (arXiv:2407.21783 table 4: 43% on 8,192 H100s, 41%
  // on 16,384, 38% at 131,072 tokens with 16-way context parallelism), at its layout with the
  // interleaving depth its text implies (8 chunks of one layer): validation only, 5.0% at the median,
  // 11.7% too fast on average; the long-context row 26% too fast.
  // Guards at those figures, MFU rows compared as step time (the same FLOPs).
  const auto& llama = source("llama3-405b");
  CHECK_FALSE(llama.fitted);
  CHECK(llama.rows == 3);
  CHECK(llama.median_abs_error_pct == Approx(4.9).margin(1.0));
  CHECK(llama.mean_error_pct < 0);
  // MLPerf Training v3.1's GPT-3 175B in fp8 (NVIDIA's Eos and Azure, 512-10,752 H100s, NeMo with
  // Transformer Engine, the logged train_step_timing; tests/data/speed-measured/collected/
  // mlperf-v3.1-gpt3.json): validation only. Its config overlaps the interleaved stages' sends with
  // their chunks (conf/custom.yaml: overlap_p2p_comm True), which the step model charges: 2.6% at the
  // median held out with its lineage, every row within 7% (the 512-768 GPU rows, 128 micro-batches a
  // step and 24 sends each, furthest). Guards at those figures.
  const auto& mlperf = source("mlperf-v3.1-gpt3");
  CHECK_FALSE(mlperf.fitted);
  CHECK(mlperf.rows == 8);
  CHECK(mlperf.median_abs_error_pct <= 3.5);
  for (const auto& row : t.rows)
    if (row.source_group == "mlperf-v3.1-gpt3") {
      INFO(row.id);
      CHECK(std::abs(row.error_pct) < 7.0);
    }
  // torchtitan's Llama 3.1 benchmarks on 8-512 of Meta's Grand Teton H100s (96 GB HBM2e, 500 W; the
  // peak taken between the SXM and NVL parts'): validation only, 8.5% at the median and 6.5% too fast
  // on average. Its two 70B rows (FSDP 32 x TP 8, compiled, float8) are within 13% (+12.5% and, with
  // async TP, -3.8%); its eager FSDP rows are the furthest off, where the same runs compiled are near
  // (docs/validation.md: what compiling saves is not modelled).
  const auto& titan = source("torchtitan-h100-2024");
  CHECK_FALSE(titan.fitted);
  CHECK(titan.rows == 18);
  CHECK(titan.median_abs_error_pct <= 9.5);
  CHECK(titan.mean_error_pct < 0);
  for (const auto& row : t.rows) {
    if (row.source_group != "torchtitan-h100-2024") continue;
    INFO(row.id);
    if (row.id.find("Table4") != std::string::npos) CHECK(std::abs(row.error_pct) < 13.0);
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

TEST_CASE("A range for a new group adds the groups' scatter to the rows' scatter within one", "[range]") {
  using traincalc::detail::GroupLogs;
  using traincalc::detail::ranges_for_new_group;
  using traincalc::detail::student_t_90;
  using traincalc::detail::weighted_quantile_interpolated;
  // Student's t, 0.90 quantile (NIST/SEMATECH e-Handbook, table 1.3.6.7.2): the table's rows exactly,
  // the normal's 1.2816 for ever more degrees of freedom, one degree's 3.078 below one.
  CHECK(student_t_90(1) == Approx(3.078));
  CHECK(student_t_90(4) == Approx(1.533));
  CHECK(student_t_90(30) == Approx(1.310));
  CHECK(student_t_90(0) == Approx(3.078));
  CHECK(student_t_90(1e9) == Approx(1.2816).margin(1e-4));
  CHECK(student_t_90(7) > student_t_90(8));
  CHECK(student_t_90(7) < student_t_90(6));
  // Three groups whose rows agree within each (biases -0.1, 0, +0.1 in log): tau 0.1 over 2 degrees of
  // freedom, t 1.886, a centre from 3 groups: half-width 1.886 x 0.1 x sqrt(4/3) = 0.2178.
  const std::vector<GroupLogs> agree = {{"b", "x", {-0.1, -0.1}}, {"b", "y", {0.0, 0.0}}, {"b", "z", {0.1, 0.1}}};
  const auto r = ranges_for_new_group(agree).at("b");
  CHECK(r.groups == 3);
  CHECK(r.rows == 6);
  CHECK(r.between == Approx(0.1));
  CHECK(std::log(r.high) == Approx(0.2178).epsilon(1e-3));
  CHECK(std::log(r.low) == Approx(-0.2178).epsilon(1e-3));
  // Rows scattering within their group widen it in quadrature: one group of 0.2 above and below
  // (10th and 90th percentiles of its own residuals), one with none.
  const std::vector<GroupLogs> scatter = {{"b", "x", {-0.3, -0.1, 0.1, 0.3}}, {"b", "y", {0.0}}};
  const auto w = ranges_for_new_group(scatter).at("b");
  CHECK(w.between == Approx(0.0));
  CHECK(std::log(w.high) == Approx(weighted_quantile_interpolated({{-0.3, 1}, {-0.1, 1}, {0.1, 1}, {0.3, 1}}, 0.9)));
  // The between-group scatter is pooled over bases: a basis one group measures still gets it.
  const std::vector<GroupLogs> pooled = {{"a", "x", {-0.1}}, {"a", "y", {0.1}}, {"c", "x", {1.0, 1.0}}};
  const auto c = ranges_for_new_group(pooled).at("c");
  CHECK(c.groups == 1);
  CHECK(c.between == Approx(std::sqrt(0.02)));
  CHECK(std::log(c.high) == Approx(1.0 + 3.078 * std::sqrt(0.02) * std::sqrt(2.0)).epsilon(1e-6));
  // A range always contains the prediction itself: all rows far above still give a low end of 1.
  CHECK(c.low == 1.0);
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

TEST_CASE("Likely ranges are the 80% ranges for a new lineage, and hold 70-90% of a held-out lineage's rows",
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
    CHECK(built_in[i].lineages == t.ranges[i].lineages);
    // A range contains the prediction itself.
    CHECK(t.ranges[i].low <= 1.0);
    CHECK(t.ranges[i].high >= 1.0);
  }
  const auto basis = [&](const std::string& name) {
    const auto it = std::find_if(t.ranges.begin(), t.ranges.end(), [&](const auto& r) { return r.basis == name; });
    REQUIRE(it != t.ranges.end());
    return *it;
  };
  // The compute-bound range, where nearly every dense run lies, rests on 13 sources of 5 lineages; a
  // mixture of experts' on the one lineage that measures one (NVIDIA's Megatron, run by NVIDIA and by
  // SimuMax), wider and leaning slow, as both come out faster than measured.
  CHECK(basis("compute_bound").sources == 13);
  CHECK(basis("compute_bound").lineages == 5);
  CHECK(basis("mixture_of_experts").lineages == 1);
  CHECK(basis("mixture_of_experts").high > basis("compute_bound").high + 0.2);
  // The coverage test: each lineage's rows, predicted with the constants fitted without it, judged
  // against ranges built without it, each lineage weighing the same: 84.4%, 82-87% over the
  // fit's search grids 8-16 (scripts/fit-noise.mjs).
  CHECK(t.range_coverage_lineages_pct >= 70);
  CHECK(t.range_coverage_lineages_pct <= 90);
  for (const auto& l : t.lineages) {
    INFO(l.name);
    CHECK(l.range_coverage_pct >= 70);  // PyTorch's 74% the lowest
  }
  // The width guard: a range as wide as the sky holds everything and says nothing. The median over
  // lineages of the median width (high / low) their rows met is 1.47x; the compute-bound range
  // is 0.85-1.21x.
  CHECK(t.range_median_width <= 1.6);
  CHECK(basis("compute_bound").high / basis("compute_bound").low <= 1.5);
  CHECK(basis("compute_bound").low == Approx(0.8483).margin(0.002));
  CHECK(basis("compute_bound").high == Approx(1.2139).margin(0.002));
  // With every lineage in the ranges, a row's own among them, more rows fall inside, as they should for
  // ranges built on them: 90.5% by source, 95.5% over all rows.
  CHECK(t.range_coverage_sources_pct > t.range_coverage_lineages_pct);
  CHECK(t.range_coverage_rows_pct <= 97);
}

TEST_CASE("The validated envelope: the measured rows' span, and what stepping past an edge moves", "[speed][validation][range]") {
  // Along each dimension the span of the measured rows, and with the rows past an edge
  // fitted without, how far their predictions moved per doubling past it. Small models move most
  // (their steps rest on the launch constants that the small rows fit): 8.7% per doubling below 6.7B
  // parameters; GPU counts least (0.3% per doubling past 2,048).
  const auto& t = table();
  const auto& built_in = traincalc::detail::speed_envelope();
  REQUIRE(t.envelope.size() == 5);
  for (const auto& d : t.envelope) {
    INFO(d.dimension << (d.above ? " above" : " below"));
    const auto it = std::find_if(built_in.begin(), built_in.end(), [&](const auto& b) { return b.dimension == d.dimension; });
    REQUIRE(it != built_in.end());
    CHECK(it->low == Approx(d.low).epsilon(1e-3));
    CHECK(it->high == Approx(d.high).epsilon(1e-3));
    CHECK((d.above ? it->above_per_doubling : it->below_per_doubling) == Approx(d.per_doubling).epsilon(1e-2).margin(2e-4));
    CHECK(d.rows >= 20);
    CHECK(d.sources >= 5);
  }
  const auto below = std::find_if(t.envelope.begin(), t.envelope.end(), [](const auto& d) { return !d.above; });
  REQUIRE(below != t.envelope.end());
  for (const auto& d : t.envelope)
    if (d.above) CHECK(d.per_doubling < below->per_doubling);
}

TEST_CASE("A run outside the validated envelope has a wider range, and says where", "[speed][range]") {
  // Llama 3 8B over 2,048 data-parallel replicas, where the measured rows reach 512: 2 doublings past
  // it at 0.0175 each, an 80% half-width of 1.2816 x 0.035 in log, so the range widens by 4.6% each way.
  const json r = test::report_json(json::parse(R"({"model":{"preset":"llama-3-8b"},
      "training":{"type":"pretrain","tokens":1e12},"hardware":{"gpu":"h100-sxm","count":2048},
      "strategy":{"framework":"megatron","tp":1,"pp":1,"cp":1}})"));
  const json& range = r.at("time").at("range");
  const double sd = 0.0175 * std::log2(2048.0 / 512);
  CHECK(range.at("outside_high").get<double>() == Approx(std::exp(1.2816 * sd)).epsilon(1e-3));
  CHECK(range.at("outside_low").get<double>() == Approx(std::exp(-1.2816 * sd)).epsilon(1e-3));
  const json* w = test::warning_of(r, "outside_envelope");
  REQUIRE(w != nullptr);
  CHECK(w->at("field") == "strategy.dp");
  CHECK(w->at("params").at("edge") == "512");
  CHECK(w->at("params").at("pct") == "4.6");
  // Inside it (64 replicas): nothing widened, nothing said.
  const json inside = test::report_json(json::parse(R"({"model":{"preset":"llama-3-8b"},
      "training":{"type":"pretrain","tokens":1e12},"hardware":{"gpu":"h100-sxm","count":64},
      "strategy":{"framework":"megatron","tp":1,"pp":1,"cp":1}})"));
  CHECK_FALSE(inside.at("time").at("range").contains("outside_high"));
  CHECK(test::warning_of(inside, "outside_envelope") == nullptr);
  // A 45M-parameter model, below the smallest measured (GPT-2's 124M): 1.46 doublings at 0.0868.
  const json small = test::report_json(json::parse(R"({"model":{"layers":4,"hidden":512,"heads":8,"ffn_hidden":2048,
      "vocab":32000},"training":{"type":"pretrain","tokens":1e9,"seq_len":1024},
      "hardware":{"gpu":"a100-80gb-sxm","count":1},"strategy":{"framework":"megatron"}})"));
  const double small_sd = 0.0868 * std::log2(1.244e8 / small.at("model").at("params").get<double>());
  CHECK(small.at("time").at("range").at("outside_high").get<double>() == Approx(std::exp(1.2816 * small_sd)).epsilon(1e-3));
  const json* below = test::warning_of(small, "outside_envelope");
  REQUIRE(below != nullptr);
  CHECK(below->at("field") == "model");
  CHECK(below->at("params").at("value") == "45.4M");
  CHECK(below->at("params").at("edge") == "124M");
  // A GPU of a family no source measured (TPU v5p): its utilisation within about 10 points either way.
  const json tpu = test::report_json(json::parse(R"({"model":{"preset":"llama-3-8b"},
      "training":{"type":"pretrain","tokens":1e12},"hardware":{"gpu":"tpu-v5p","count":64},
      "strategy":{"framework":"megatron","tp":1,"pp":1,"cp":1}})"));
  const double mfu = tpu.at("time").at("mfu");
  CHECK(tpu.at("time").at("range").at("outside_high").get<double>() == Approx(mfu / (mfu - 0.10)).epsilon(1e-3));
  CHECK(tpu.at("time").at("range").at("outside_low").get<double>() == Approx(mfu / (mfu + 0.10)).epsilon(1e-3));
}

TEST_CASE("A mixture of experts' predicted step carries the mixture-of-experts range", "[speed][range]") {
  // Mixtral 8x7B on 64 H100s with 8-way expert parallelism: its range comes from the 81 held-out
  // mixture-of-experts rows (NVIDIA's and SimuMax's), 0.81-1.69x, not the dense compute-bound
  // 0.85-1.21x, however long its layers take.
  const json r = test::report_json(json::parse(R"({"model":{"preset":"mixtral-8x7b"},
      "training":{"type":"pretrain","tokens":1e12,"seq_len":4096},
      "hardware":{"gpu":"h100-sxm","count":64},
      "strategy":{"framework":"megatron","tp":1,"pp":1,"ep":8,"micro_batch":1}})"));
  const json& range = r.at("time").at("range");
  CHECK(range.at("basis") == "mixture_of_experts");
  CHECK_FALSE(range.contains("assumed_high"));  // the framework is named: nothing assumed widens it
  CHECK(range.at("low").get<double>() == Approx(0.8076).epsilon(1e-3));
  CHECK(range.at("high").get<double>() == Approx(1.6883).epsilon(1e-3));
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
  // range is the launch-bound rows' (vTrain one-node and the H200's, two lineages), 0.76x-1.29x.
  const json tiny = test::report_json(json::parse(R"({"model":{"preset":"gpt2"},
      "training":{"type":"pretrain","tokens":1e9,"global_batch_sequences":8},
      "strategy":{"framework":"megatron","micro_batch":1},"hardware":{"gpu":"a100-80gb-sxm","count":1}})"));
  CHECK(tiny.at("time").at("range").at("basis") == "launch_bound");
  CHECK(tiny.at("time").at("range").at("low").get<double>() == Approx(0.7600).epsilon(1e-3));
  CHECK(tiny.at("time").at("range").at("high").get<double>() == Approx(1.2926).epsilon(1e-3));
}

TEST_CASE("A framework not given widens the step's and the memory's ranges by the plausible others", "[speed][range]") {
  // Llama 3 8B pre-training on 64 H100s, no framework: Megatron-LM is assumed, and the layout the
  // planner picks for it (data-parallel, ZeRO 2) is timed and sized under DeepSpeed, FSDP2, Hugging
  // Face Trainer and LitGPT as well (no tensor or pipeline parallelism, so the data-parallel trainers
  // are plausible too).
  json s = json::parse(R"({"model":{"preset":"llama-3-8b"},"training":{"type":"pretrain","tokens":1e12},
      "hardware":{"gpu":"h100-sxm","count":64}})");
  const json assumed = test::report_json(s);
  REQUIRE(assumed.at("errors").empty());
  const json& alternatives = assumed.at("framework_alternatives");
  std::set<std::string> names;
  double slowest = 1, largest = 1;
  for (const json& a : alternatives) {
    names.insert(a.at("framework").get<std::string>());
    slowest = std::max(slowest, a.at("step_ratio").get<double>());
    largest = std::max(largest, a.at("memory_ratio").get<double>());
  }
  CHECK(names == std::set<std::string>{"deepspeed", "fsdp2", "hf", "litgpt"});
  // The ranges are the validation's times the envelope of the alternatives: Hugging Face's step the
  // slowest (+26%) and its fp32 weights, gradients and Adam states the largest peak (+81%).
  const json& time_range = assumed.at("time").at("range");
  CHECK(time_range.at("assumed_high").get<double>() == Approx(slowest));
  CHECK(slowest == Approx(1.26).margin(0.03));
  CHECK(time_range.at("high").get<double>() == Approx(traincalc::detail::likely_range("compute_bound").high * slowest));
  const json& memory_range = assumed.at("memory").at("range");
  CHECK(memory_range.at("assumed_high").get<double>() == Approx(largest));
  CHECK(largest == Approx(1.81).margin(0.05));
  CHECK(memory_range.at("high").get<double>() == Approx(traincalc::detail::memory_range().high * largest));
  CHECK(assumed.at("memory").at("per_gpu_total_range").at("high").get<double>() ==
        Approx(assumed.at("memory").at("per_gpu_bytes").at("total").get<double>() * memory_range.at("high").get<double>()));
  // The warning says what was assumed and what each other framework would change.
  const auto w = std::find_if(assumed.at("warnings").begin(), assumed.at("warnings").end(),
                              [](const json& x) { return x.at("code") == "framework_assumed"; });
  REQUIRE(w != assumed.at("warnings").end());
  CHECK(w->at("params").at("framework") == "Megatron-LM");
  CHECK(w->at("params").at("step_list").get<std::string>().find("Hugging Face Trainer +2") != std::string::npos);
  // Naming the framework narrows both to the validation's own ranges, with no alternatives.
  s["strategy"]["framework"] = "megatron";
  const json named = test::report_json(s);
  CHECK_FALSE(named.contains("framework_alternatives"));
  CHECK(named.at("time").at("range").at("high").get<double>() == Approx(traincalc::detail::likely_range("compute_bound").high));
  CHECK(named.at("memory").at("range").at("high").get<double>() == Approx(traincalc::detail::memory_range().high));
  CHECK(named.at("memory").at("range").at("low").get<double>() == Approx(traincalc::detail::memory_range().low));
  // With tensor parallelism only the frameworks that split a model that way remain.
  s["strategy"] = {{"tp", 8}};
  s["model"] = {{"preset", "llama-3-70b"}};
  std::set<std::string> split;
  const json tensor_parallel = test::report_json(s);
  for (const json& a : tensor_parallel.at("framework_alternatives")) split.insert(a.at("framework").get<std::string>());
  CHECK(split == std::set<std::string>{"deepspeed", "fsdp2"});
}

TEST_CASE("Among each vTrain group's measured layouts, the one predicted fastest is within 5% of the fastest",
          "[speed][validation][planner]") {
  // The planner, choosing among a group's layouts, lands within 5% of the best measured one.
  // Multi-node (vTrain, 64-512 A100s): all four groups, predicted held out (0%, 4.5%, 0%, 0.6%).
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
  // One node, small models: with the engine's constants 94 of 136 groups (69%); held out with their
  // lineage 96. The groups lost are near ties: two layouts without a pipeline predicted within 3% of
  // each other and measured 10% apart (h1024 at 2-8 GPUs, TP 2 at micro-batch 4 against DP at
  // micro-batch 2). Over all 136 groups the pick held out is 4.0% slower than the best on average and
  // at worst 26%; docs/validation.md. Guards at those figures.
  CHECK(single == 136);
  CHECK(single_within >= 93);
  CHECK(single_within_held_out >= 93);
  CHECK(single_slower / single <= 4.2);
  CHECK(single_worst <= 27);
}

TEST_CASE("Within each vTrain multi-node group the layouts are ranked as measured", "[speed][validation][planner]") {
  // The Spearman correlation between predicted (held out) and measured step times within each vTrain
  // (model, GPU count) group: 0.97 for the 3.6B on 64 GPUs, 0.90 for the 175B on 512, 0.76 for the
  // 18.4B on 256 and 0.61 for the 39.1B on 512, whose TP 2 and TP 4 rows are 13-36% slower than the
  // rows around them measure, with no mechanism found (docs/validation.md). Guards at those figures.
  std::map<std::string, double> spearman;
  for (const auto& g : table().rank_groups)
    if (g.key.rfind("vtrain-multi-node", 0) == 0) spearman[g.key] = g.spearman;
  REQUIRE(spearman.size() == 4);
  for (const auto& [key, rho] : spearman) {
    INFO(key << ": " << rho);
    if (key.find(" 3072 ") != std::string::npos)
      CHECK(rho >= 0.95);
    else if (key.find(" 12288 ") != std::string::npos)
      CHECK(rho >= 0.88);
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
  // data/ground_truth_multi.csv @f8dda84). Held out, with the fallback's traffic: 4.2%. Tolerance: 6%.
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

TEST_CASE("Calibrated on one measured row, a source's other rows: the error by distance, beside uncalibrated",
          "[speed][validation][calibration]") {
  // Each source's rows predicted with the constants fitted without its lineage, then calibrated on one
  // of its rows (up to 12 in turn) as a user who measured that row would be. A row departs from the
  // model by its source's bias (the sources' means spread by tau = 0.0605 in log) and by its own
  // (sigma = 0.1231 about its source's mean): one measured row carries tau^2 / (tau^2 + sigma^2) =
  // 19.5% of its departure to another run of the same code, and the engine's constants are these.
  const auto& t = table();
  CHECK(traincalc::detail::calibration_between_sd == Approx(t.calibration_between_sd).epsilon(1e-3));
  CHECK(traincalc::detail::calibration_within_sd == Approx(t.calibration_within_sd).epsilon(1e-3));
  CHECK(traincalc::detail::calibration_weight(1) == Approx(t.calibration_weight).epsilon(1e-3));
  CHECK(t.calibration_weight == Approx(0.195).margin(0.01));
  // More measured runs carry more: three carry 42%.
  CHECK(traincalc::detail::calibration_weight(3) == Approx(0.420).margin(0.01));
  REQUIRE(t.calibration.size() == 3);
  std::map<std::string, traincalc::CalibrationDistance> by;
  for (const auto& d : t.calibration) by[d.distance] = d;
  CHECK(by.at("layout").sources >= 10);
  CHECK(by.at("model").pairs > 5000);
  for (const auto& [name, d] : by) {
    INFO(name);
    // The engine's calibrated ranges are these (tolerance: the 4 digits written in calibration.cpp).
    const traincalc::LikelyRange& built_in = traincalc::detail::calibration_range(name);
    CHECK(built_in.basis == "calibrated_" + name);
    CHECK(built_in.low == Approx(d.low).epsilon(1e-3));
    CHECK(built_in.high == Approx(d.high).epsilon(1e-3));
    CHECK(built_in.rows == d.pairs);
    CHECK(built_in.sources == d.sources);
    // Carrying a fifth beats carrying the measured row's departure in full, at every distance: layout
    // 7.0% (7.9% in full), GPU count 6.0% (6.5%), model 7.0% (8.7%), the median over sources.
    CHECK(d.median_abs_error_pct < d.median_abs_error_full_pct);
    CHECK(d.median_abs_error_pct <= 7.5);
    CHECK(d.low < 1.0);
    CHECK(d.high > 1.0);
  }
  // Against uncalibrated (8.6%, 5.7%, 6.3%), one row helps another layout and not another GPU count or
  // model: short of a 5% median at every distance, the floor the model's own scatter within a source sets.
  CHECK(by.at("layout").median_abs_error_pct < by.at("layout").median_abs_error_uncalibrated_pct);
}
