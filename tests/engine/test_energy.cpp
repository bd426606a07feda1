// Energy and carbon: GPUs' draw, the host's share, PUE, hours; CO2 from the grid.
#include <algorithm>

#include "helpers.hpp"

using Catch::Matchers::WithinRel;
using test::json;
using test::run;

namespace {

json seed001_7b_on_a100(json energy) {
  // Seed 001's 7B at 20 tokens per parameter on 8 A100-80GB at 40% MFU (68 days).
  return {{"model", {{"params", 7e9}}},
          {"training", {{"type", "pretrain"}, {"tokens", 1.4e11}}},
          {"hardware", {{"gpu", "a100-80gb-sxm"}, {"count", 8}}},
          {"strategy", {{"precision", "bf16"}, {"mfu", 0.4}}},
          {"energy", energy}};
}

}  // namespace

TEST_CASE("Energy of a stated run matches the hand calculation", "[energy]") {
  const traincalc::Report r = run(seed001_7b_on_a100({{"pue", 1.2}, {"region", "china"}}));
  REQUIRE(r.energy);
  const double hours = r.time.wall_clock_hours;
  // By hand: 8 GPUs x 400 W (A100 SXM TDP, catalog) x (0.3 + 0.7 x 0.4/0.5 = 0.86 of TDP at 40%
  // utilisation) x 1.4 (host) x 1.2 (PUE) = 4,623.36 W, for the run's hours.
  CHECK_THAT(r.energy->gpu_power_fraction, WithinRel(0.86, 1e-12));
  CHECK_THAT(r.energy->facility_kw, WithinRel(4.62336, 1e-12));
  CHECK_THAT(r.energy->kwh, WithinRel(4.62336 * hours, 1e-12));
  // China's 2023 grid factor, 0.5306 kg CO2 per kWh (MEE): about 3.9 t for 68 days.
  CHECK_THAT(r.energy->co2_kg, WithinRel(4.62336 * hours * 0.5306, 1e-12));
  CHECK(r.energy->co2_kg > 3.8e3);
  CHECK(r.energy->co2_kg < 4.1e3);
  // The host share was not given: the warning says so, and only that.
  const auto warning =
      std::find_if(r.warnings.begin(), r.warnings.end(), [](const auto& w) { return w.code == "energy_assumed"; });
  REQUIRE(warning != r.warnings.end());
  CHECK(warning->message.find("host") != std::string::npos);
  CHECK(warning->message.find("PUE") == std::string::npos);
  CHECK(warning->message.find("grid") == std::string::npos);
}

TEST_CASE("With a given MFU the draw follows the layout's hardware utilisation (recomputation counts)", "[energy]") {
  // Llama 3.1 8B with full recomputation: HFU = MFU x the predicted HFU/MFU ratio (about 4/3).
  const traincalc::Report r = run({{"model", {{"preset", "llama-3.1-8b"}}},
                                   {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
                                   {"hardware", {{"gpu", "h100-sxm"}, {"count", 64}}},
                                   {"strategy", {{"mfu", 0.3}, {"tp", 1}, {"pp", 1}, {"recompute", "full"}}},
                                   {"energy", {{"pue", 1.2}, {"region", "us"}, {"host_power_fraction", 0.4}}}});
  REQUIRE(r.time.step);
  const double hfu = 0.3 * r.time.step->hfu / r.time.step->mfu;
  CHECK(hfu > 0.38);
  CHECK_THAT(r.energy->gpu_power_fraction, WithinRel(0.3 + 0.7 * std::min(1.0, hfu / 0.5), 1e-12));
}

TEST_CASE("Energy inputs override the assumptions, and unknown grids are refused", "[energy]") {
  const traincalc::Report r = run(seed001_7b_on_a100(
      {{"pue", 1.1}, {"grid_kg_co2_per_kwh", 0.1}, {"gpu_power_fraction", 0.75}, {"host_power_fraction", 0.3}}));
  CHECK_THAT(r.energy->facility_kw, WithinRel(8 * 400 * 0.75 * 1.3 * 1.1 / 1000, 1e-12));
  CHECK_THAT(r.energy->co2_kg, WithinRel(r.energy->kwh * 0.1, 1e-12));
  CHECK(r.energy->gpu_power_from == traincalc::PowerFrom::given);
  // Without them: PUE 1.3, the world grid, and a warning that says so.
  const traincalc::Report d = run(seed001_7b_on_a100(json::object()));
  CHECK(d.energy->pue == 1.3);
  CHECK(d.energy->grid == "world");
  CHECK(d.energy->grid_kg_co2_per_kwh == 0.436);
  CHECK(test::has_warning(d, "energy_assumed"));
  const json bad = test::report_json(seed001_7b_on_a100({{"region", "mars"}}));
  CHECK(test::has_error(bad, "energy.region", "unknown_choice"));
  const json both = test::report_json(seed001_7b_on_a100({{"region", "us"}, {"grid_kg_co2_per_kwh", 0.3}}));
  CHECK(test::has_error(both, "energy.grid_kg_co2_per_kwh", "conflict"));
}

TEST_CASE("Without the GPU's power, energy is left out and said so", "[energy]") {
  json s = seed001_7b_on_a100(json::object());
  s["hardware"]["gpu"] = {{"name", "Mystery"}, {"memory_gb", 80}, {"bf16_tflops", 500}};
  const traincalc::Report r = run(s);
  CHECK_FALSE(r.energy);
  CHECK(test::has_warning(r, "energy_unknown"));
}

TEST_CASE("The expected run's energy: busy hours at the busy draw, checkpoint writes and restarts at the idle draw",
          "[energy][goodput]") {
  // Seed 001's run at a given 40% with the expected run asked for (operations): no slower steps, so
  // the busy draw is the steady state's 0.86 of TDP; the idle hours draw 0.3.
  json s = seed001_7b_on_a100({{"pue", 1.2}, {"region", "china"}, {"host_power_fraction", 0.4}});
  s["operations"] = {{"restart_minutes", 30}};
  const traincalc::Report r = run(s);
  REQUIRE(r.energy);
  REQUIRE(r.energy->expected);
  REQUIRE(r.time.expected);
  const auto& x = *r.energy->expected;
  const auto& e = *r.time.expected;
  CHECK(e.lost_slower_steps == 0);
  CHECK_FALSE(x.headline);  // a given utilisation stays the headline
  CHECK_THAT(x.busy_power_fraction, WithinRel(0.86, 1e-12));
  CHECK_THAT(x.idle_power_fraction, WithinRel(0.3, 1e-12));
  CHECK_THAT(x.busy_hours, WithinRel(r.time.wall_clock_hours + e.lost_rework + e.lost_overheads, 1e-12));
  CHECK_THAT(x.idle_hours, WithinRel(e.lost_checkpoints + e.lost_restarts, 1e-12));
  CHECK_THAT(x.busy_hours + x.idle_hours, WithinRel(e.wall_clock_hours, 1e-9));
  // By hand: 8 x 400 W x 1.4 x 1.2 = 5.376 kW at full draw.
  CHECK_THAT(x.kwh, WithinRel(5.376 * (0.86 * x.busy_hours + 0.3 * x.idle_hours), 1e-12));
  CHECK_THAT(x.co2_kg, WithinRel(x.kwh * 0.5306, 1e-12));
  CHECK(x.kwh > r.energy->kwh);
  CHECK_FALSE(x.range);
  // A given draw holds while computing; idle never draws more than it.
  s["energy"]["gpu_power_fraction"] = 0.2;
  const traincalc::Report low = run(s);
  CHECK(low.energy->expected->busy_power_fraction == 0.2);
  CHECK(low.energy->expected->idle_power_fraction == 0.2);
}

TEST_CASE("A predicted run's expected energy: the slower steps do the same work at a lower draw", "[energy][goodput]") {
  // Llama 3.1 8B on 512 H100s, utilisation predicted: the expected run is the headline, and its
  // slower steps (run_efficiency) spread the steady state's work over more hours.
  const json s = {{"model", {{"preset", "llama-3.1-8b"}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e12}, {"seq_len", 8192}}},
                  {"hardware", {{"gpu", "h100-sxm"}, {"count", 512}}},
                  {"energy", {{"pue", 1.2}, {"region", "us"}, {"host_power_fraction", 0.4}}}};
  const traincalc::Report r = run(s);
  REQUIRE(r.energy);
  REQUIRE(r.energy->expected);
  REQUIRE(r.time.step);
  const auto& x = *r.energy->expected;
  const auto& e = *r.time.expected;
  CHECK(x.headline);
  CHECK(e.lost_slower_steps > 0);
  const double steady = r.time.wall_clock_hours;
  const double hfu = r.time.mfu * r.time.step->hfu / r.time.step->mfu;
  const double busy_hfu = hfu * steady / (steady + e.lost_slower_steps);
  CHECK_THAT(x.busy_power_fraction, WithinRel(0.3 + 0.7 * std::min(1.0, busy_hfu / 0.5), 1e-12));
  CHECK(x.busy_power_fraction <= r.energy->gpu_power_fraction);
  // More energy than the steady state, less than its draw held over the longer run.
  CHECK(x.kwh > r.energy->kwh);
  CHECK(x.kwh < r.energy->facility_kw * e.wall_clock_hours);
  // The likely range is the expected run's.
  REQUIRE(x.range);
  CHECK(x.range->basis == "whole_runs");
  const json j = test::report_json(s);
  CHECK_THAT(j["energy"]["expected"]["kwh_range"]["high"].get<double>(), WithinRel(x.kwh * x.range->high, 1e-12));
  CHECK_THAT(j["energy"]["expected"]["co2_kg_range"]["low"].get<double>(), WithinRel(x.co2_kg * x.range->low, 1e-12));
}
