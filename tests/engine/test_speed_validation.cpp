// The step-time model held out by source: engine/data/speed-validation.json (vTrain's measured
// Megatron-DeepSpeed iterations on A100, SimuMax's Megatron-LM steps on B200) and the published
// utilisation of calibration.json, each source predicted with the constants fitted on the others.
#include <algorithm>
#include <cmath>
#include <set>

#include "../../engine/src/estimators.hpp"
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

TEST_CASE("Every speed-validation row is a scenario the engine times; 300+ rows, three GPU generations",
          "[speed][validation]") {
  const auto& t = table();
  // 109 + 1,440 vTrain rows, 43 SimuMax rows, 45 calibration rows: none may drop out silently.
  CHECK(t.rows.size() == 109 + 1440 + 43 + 45);
  std::set<std::string> gpus, frameworks, groups;
  for (const auto& row : t.rows) {
    INFO(row.id);
    CHECK(row.measured > 0);
    CHECK(std::isfinite(row.predicted));
    CHECK(row.predicted > 0);
    gpus.insert(row.gpu.substr(0, 4));
    frameworks.insert(row.framework);
    groups.insert(row.source_group);
  }
  CHECK(gpus == std::set<std::string>{"a100", "b200", "h100"});
  CHECK(frameworks.size() >= 4);
  CHECK(groups.size() == t.sources.size());
  CHECK(t.sources.size() >= 6);
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
      any_differs = any_differs || value != t.fits.front().values[k].second;
    }
  }
  CHECK(any_differs);  // leaving a source out changes the fit: the held-out figures are not in-sample ones
}

TEST_CASE("Held-out step-time error by source (a guard at today's figures while the model improves)",
          "[speed][validation]") {
  // Today's figures (docs/validation.md, "Speed against measured runs"); each bound is today's value
  // plus about one point, so that a change that makes a source worse fails here. Issue 15's targets
  // (held-out median <= 8%, vTrain multi-node MAPE <= 8%) are not met yet: vTrain's one-node rows
  // are the only source where launching kernels costs more than running them, so held out the
  // launch cost is unknown (it stays at the middle of its range).
  const auto& t = table();
  CHECK(t.median_abs_error_pct <= 29.0);
  CHECK(source("vtrain-multi-node").mean_abs_error_pct <= 12.5);
  CHECK(source("vtrain-single-node").median_abs_error_pct <= 31.5);
  CHECK(source("simumax-b200").median_abs_error_pct <= 18.0);
  CHECK(source("megatron-lm-2021").median_abs_error_pct <= 3.5);
  CHECK(source("megatron-core-2024").median_abs_error_pct <= 7.5);
  CHECK(source("llm-foundry").median_abs_error_pct <= 9.0);
  // In sample (the engine's own constants): within 7% at the median, every source within 12%.
  CHECK(t.median_abs_error_in_sample_pct <= 7.0);
  for (const auto& s : t.sources) {
    INFO(s.group);
    CHECK(s.median_abs_error_in_sample_pct <= 12.0);
  }
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
      {"flash_relative_rate", built_in.flash_relative_rate},
      {"memory_efficiency", built_in.memory_efficiency},
      {"link_efficiency", built_in.link_efficiency},
      {"layer_dispatch_seconds", built_in.layer_dispatch_seconds},
      {"collective_latency_seconds", built_in.collective_latency_seconds}};
  REQUIRE(t.fits.front().values.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    INFO(expected[k].first);
    CHECK(t.fits.front().values[k].first == expected[k].first);
    CHECK_THAT(t.fits.front().values[k].second, Catch::Matchers::WithinRel(expected[k].second, 0.01));
  }
}
