// Properties every estimate must have, checked over scenarios drawn at random (a fixed seed, so a
// failure reproduces; the scenario is printed with it): every number finite and non-negative, the
// memory at the peak adding up to the total, cost = GPU-hours x price, GPU-hours = GPUs x hours,
// and the monotonicities a user relies on when comparing two estimates.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../../engine/src/estimate/estimators.hpp"
#include "helpers.hpp"

using namespace test;

namespace {

const std::vector<std::string> presets = {"gpt2",        "bert-base",    "llama-3.2-1b",  "qwen2.5-7b",
                                          "llama-2-13b", "mixtral-8x7b", "llama-3.1-70b", "qwen3-30b-a3b",
                                          "deepseek-v3", "t5-11b",       "gpt-3-175b",    "gemma-2-9b"};
const std::vector<std::string> gpus = {"h100-sxm", "a100-80gb-sxm", "v100-sxm2-32gb", "l40s", "rtx-4090",
                                       "mi300x",   "h200-sxm",      "b200",           "t4",   "tpu-v5p"};

struct Draw {
  std::mt19937_64 rng{20261130};
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  double log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
  }
  bool coin(double p = 0.5) { return uniform(0, 1) < p; }
};

// A scenario a user could type: a preset or a bare parameter count, pre-training or fine-tuning
// (full, LoRA, QLoRA), tokens or samples, a GPU and a count, a utilisation or the engine's own,
// the planner's layout or a fixed one, a price.
json draw_scenario(Draw& d) {
  json s;
  s["model"] =
      d.coin(0.75) ? json{{"preset", d.pick(presets)}} : json{{"params", std::round(d.log_uniform(1e7, 2e12))}};
  const bool finetune = d.coin(0.4);
  s["training"] = {{"type", finetune ? "finetune" : "pretrain"}};
  if (finetune) s["training"]["method"] = d.pick(std::vector<std::string>{"full", "lora", "qlora"});
  if (d.coin()) {
    s["training"]["tokens"] = std::round(d.log_uniform(1e3, 1e13));
  } else {
    s["training"]["samples"] = std::round(d.log_uniform(1, 1e8));
    s["training"]["seq_len"] = d.pick(std::vector<double>{128, 512, 2048, 4096, 32768});
  }
  s["hardware"] = {{"gpu", d.pick(gpus)}, {"count", d.pick(std::vector<double>{1, 2, 8, 16, 64, 512, 4096})}};
  if (d.coin()) s["strategy"]["mfu"] = d.uniform(0.05, 0.9);
  if (d.coin(0.3)) {
    s["strategy"]["tp"] = 1;
    s["strategy"]["pp"] = 1;
    s["strategy"]["micro_batch"] = 1;
    s["strategy"]["zero"] = d.pick(std::vector<double>{0, 1, 2, 3});
  }
  if (d.coin(0.7)) s["pricing"] = {{"per_gpu_hour", d.uniform(0.1, 12)}, {"currency", "USD"}};
  return s;
}

bool internal_error(const json& report) {
  for (const auto& e : report["errors"])
    if (e["code"].get<std::string>().rfind("internal", 0) == 0) return true;
  return false;
}

double days(const json& r) {
  return r["time"]["wall_clock_days"];
}

double memory(const json& r) {
  return r["memory"]["per_gpu_bytes"]["total"];
}

constexpr int draws = 150;

}  // namespace

TEST_CASE("Property: every report is finite, non-negative and adds up", "[property]") {
  Draw d;
  int valid = 0;
  for (int i = 0; i < draws; ++i) {
    const json s = draw_scenario(d);
    const json r = report_json(s);
    INFO(s.dump() << "\n=> " << r.dump().substr(0, 2000));
    REQUIRE_FALSE(internal_error(r));
    if (!r["errors"].empty()) continue;
    ++valid;
    CHECK(finite_non_negative(r));
    // The memory at the peak is the sum of what is in memory then, and the peak of the phases.
    const json& m = r["memory"];
    const json& parts = m["per_gpu_bytes"];
    double at_peak = 0;
    for (const auto& [part, bytes] : m["at_peak_bytes"].items()) {
      at_peak += bytes.get<double>();
      // Each part at the peak is the part as reported (activations: at most, with pipeline stages
      // the last one holds fewer); recomputation's rebuilt layer is the only extra.
      if (part == "activations")
        CHECK(bytes.get<double>() <= parts["activations"].get<double>());
      else if (part == "previous")  // held from the previous micro-batch: at most what the explain says
        CHECK(bytes.get<double>() <= m["explain"]["previous_micro_batch_bytes"].get<double>());
      else if (part != "recomputed")
        CHECK(bytes.get<double>() == parts[part].get<double>());
    }
    CHECK_THAT(at_peak, WithinRel(memory(r), 1e-12));
    // Never below the model states alone (the optimizer step holds weights, gradients, states).
    CHECK(memory(r) >= (parts["weights"].get<double>() + parts["gradients"].get<double>() +
                        parts["optimizer"].get<double>() + parts["overhead"].get<double>()) *
                           (1 - 1e-12));
    CHECK(m["phases_bytes"][m["peak_phase"].get<std::string>()].get<double>() == memory(r));
    for (const auto& [phase, bytes] : m["phases_bytes"].items()) CHECK(bytes.get<double>() <= memory(r));
    CHECK(m["fits"].get<bool>() == (memory(r) <= m["capacity_bytes"].get<double>()));
    // GPU-hours = GPUs x hours; cost = GPU-hours x price per GPU-hour.
    CHECK_THAT(r["time"]["gpu_hours"].get<double>(), WithinRel(r["plan"]["gpus"].get<double>() * days(r) * 24, 1e-12));
    if (s.contains("pricing"))
      CHECK_THAT(r["cost"]["total"].get<double>(),
                 WithinRel(r["time"]["gpu_hours"].get<double>() * s["pricing"]["per_gpu_hour"].get<double>(), 1e-12));
  }
  // Most drawn scenarios are valid (the rest are refused with a reason, e.g. a LoRA over a bare
  // parameter count), so the properties above are checked on many.
  CHECK(valid > draws / 2);
}

// Draws scenarios; `change` sets up each one and makes a second from it (false: skip the draw);
// `check` gets both reports wherever both are valid. Returns how many pairs were checked.
template <class Change, class Check>
int check_pairs(Draw& d, Change change, Check check) {
  int compared = 0;
  for (int i = 0; i < draws; ++i) {
    json first = draw_scenario(d);
    json second;
    if (!change(first, second)) continue;
    const json a = report_json(first);
    const json b = report_json(second);
    INFO(first.dump() << "\nchanged: " << second.dump());
    if (!a["errors"].empty() || !b["errors"].empty()) continue;
    ++compared;
    check(a, b);
  }
  return compared;
}

TEST_CASE("Property: at a fixed utilisation, more GPUs are never slower", "[property]") {
  Draw d;
  const int compared = check_pairs(
      d,
      [&](json& s, json& more) {
        s["strategy"]["mfu"] = d.uniform(0.05, 0.9);
        more = s;
        more["hardware"]["count"] = s["hardware"]["count"].get<double>() * 2;
        return true;
      },
      [](const json& fewer, const json& more) {
        // Days = FLOPs / (GPUs x peak x MFU): twice the GPUs, half the days.
        CHECK(days(more) <= days(fewer));
        CHECK_THAT(days(more), WithinRel(days(fewer) / 2, 1e-12));
      });
  CHECK(compared > draws / 2);
}

TEST_CASE("Property: more tokens never make a run faster", "[property]") {
  Draw d;
  const int compared = check_pairs(
      d,
      [&](json& s, json& bigger) {
        bigger = s;
        json& t = bigger["training"];
        if (t.contains("tokens"))
          t["tokens"] = t["tokens"].get<double>() * d.uniform(1.01, 10);
        else
          t["samples"] = std::ceil(t["samples"].get<double>() * d.uniform(1.01, 10));
        return true;
      },
      [](const json& base, const json& bigger) {
        CHECK(days(bigger) >= days(base));
        CHECK(bigger["compute"]["total_flops"].get<double>() >= base["compute"]["total_flops"].get<double>());
      });
  CHECK(compared > draws / 2);
}

TEST_CASE("Property: a bigger model never needs less memory in the same layout", "[property]") {
  // The layout is fixed (the planner may trade memory for speed differently for each model).
  Draw d;
  const int compared = check_pairs(
      d,
      [&](json& s, json& bigger) {
        s["strategy"]["tp"] = 1;
        s["strategy"]["pp"] = 1;
        s["strategy"]["cp"] = 1;
        s["strategy"]["ep"] = 1;
        s["strategy"]["micro_batch"] = 1;
        s["strategy"]["zero"] = d.pick(std::vector<double>{0, 1, 2, 3});
        s["strategy"]["recompute"] = d.pick(std::vector<std::string>{"none", "full"});
        bigger = s;
        if (s["model"].contains("params")) {
          bigger["model"]["params"] = s["model"]["params"].get<double>() * d.uniform(1.01, 4);
          return true;
        }
        // The same architecture with twice the layers.
        const auto* preset = traincalc::builtin_catalog().find_model(s["model"]["preset"].get<std::string>());
        REQUIRE(preset);
        if (!preset->model.architecture) return false;
        bigger["model"]["layers"] = preset->model.architecture->layers * 2;
        return true;
      },
      [](const json& small, const json& big) {
        CHECK(memory(big) >= memory(small));
        CHECK(big["model"]["params"].get<double>() > small["model"]["params"].get<double>());
      });
  CHECK(compared > draws / 4);
}

TEST_CASE("Property: the planner's memory numbers are the full report's, to the last bit", "[property]") {
  // The planner asks estimate_memory for the numbers only (MemoryDetail::numbers, no phase lists or
  // names); its verdicts must be the ones the report then shows. Each drawn scenario's own layout and
  // variations of it (pipeline stages, ZeRO stage, recomputation) are compared.
  Draw d;
  int compared = 0;
  for (int i = 0; i < draws; ++i) {
    const json drawn = draw_scenario(d);
    INFO(drawn.dump());
    const traincalc::ScenarioParse parse = traincalc::parse_scenario(drawn.dump(), traincalc::builtin_catalog());
    if (!parse.scenario) continue;
    const traincalc::Scenario& s = *parse.scenario;
    const traincalc::Report r = traincalc::estimate(s);
    if (!r.errors.empty()) continue;
    for (const double pp : {1.0, 2.0, 4.0})
      for (const double zero : {0.0, 1.0, 3.0})
        for (const auto recompute : {traincalc::Recompute::none, traincalc::Recompute::full}) {
          traincalc::ParallelismReport layout = r.parallelism;
          layout.pp = pp;
          layout.zero = zero;
          layout.recompute = recompute;
          traincalc::Issues ignored;
          const auto full = traincalc::detail::estimate_memory(s, r.model, layout, r.hardware, r.compute, ignored);
          const auto numbers = traincalc::detail::estimate_memory(s, r.model, layout, r.hardware, r.compute, ignored,
                                                                  traincalc::detail::MemoryDetail::numbers);
          CHECK(numbers.per_gpu_bytes == full.per_gpu_bytes);
          CHECK(numbers.overhead_bytes == full.overhead_bytes);
          CHECK(numbers.explain == full.explain);
          CHECK(numbers.fits == full.fits);
          CHECK(numbers.max_micro_batch == full.max_micro_batch);
          CHECK(numbers.peak_phase == full.peak_phase);
          CHECK(numbers.worst_pipeline_rank == full.worst_pipeline_rank);
          CHECK(numbers.reserved_bytes == full.reserved_bytes);
          // The full report's lists are there, and the numbers-only one leaves them out.
          CHECK(full.phases.size() == 3);
          CHECK_FALSE(full.at_peak.empty());
          CHECK(numbers.phases.empty());
          ++compared;
        }
  }
  CHECK(compared > draws);
}
