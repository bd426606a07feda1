// The expected run: a real run's speed, interruptions, checkpoints, restarts and overheads beside the
// steady state (goodput.cpp), and its validation on whole published runs (run_validation.cpp).
#include <algorithm>
#include <cmath>

#include "../../engine/src/estimate/estimators.hpp"
#include "helpers.hpp"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using test::json;
using test::run;

namespace {

// 1,000 GPUs at a given utilisation: the steady state is exact, and the operations decide the rest.
json thousand_gpus(json operations) {
  json s = {{"model", {{"preset", "llama-3.1-70b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 2e12}, {"seq_len", 4096}}},
            {"hardware", {{"gpu", "h100-sxm"}, {"count", 1000}}},
            {"strategy", {{"precision", "bf16"}, {"mfu", 0.4}}},
            {"pricing", {{"per_gpu_hour", 2.0}, {"currency", "USD"}}}};
  if (!operations.is_null()) s["operations"] = operations;
  return s;
}

}  // namespace

TEST_CASE("A given utilisation stays exact: the expected run is beside it only when operations are given",
          "[goodput]") {
  const traincalc::Report plain = run(thousand_gpus(nullptr));
  CHECK_FALSE(plain.time.expected);
  const json plain_json = test::report_json(thousand_gpus(nullptr));
  CHECK_FALSE(plain_json["time"].contains("expected"));
  CHECK_FALSE(plain_json["cost"].contains("expected_total"));

  const traincalc::Report asked = run(thousand_gpus(json::object()));
  REQUIRE(asked.time.expected);
  // The steady state is untouched; the expected run is longer, never shorter.
  CHECK(asked.time.gpu_hours == plain.time.gpu_hours);
  CHECK(asked.time.wall_clock_days == plain.time.wall_clock_days);
  const traincalc::ExpectedRun& e = *asked.time.expected;
  CHECK(e.run_efficiency == 1);  // the given utilisation is the user's own speed
  CHECK(e.recovery == traincalc::Recovery::automated);
  CHECK(e.wall_clock_hours > plain.time.wall_clock_hours);
  CHECK_THAT(e.goodput, WithinRel(plain.time.wall_clock_hours / e.wall_clock_hours, 1e-12));
  CHECK_THAT(e.gpu_hours, WithinRel(e.wall_clock_hours * 1000, 1e-12));
  REQUIRE(asked.cost);
  REQUIRE(asked.cost->expected_total);
  CHECK_THAT(*asked.cost->expected_total, WithinRel(e.gpu_hours * 2.0, 1e-12));
  // The hours lost by cause add up to the difference.
  CHECK_THAT(plain.time.wall_clock_hours + e.lost_slower_steps + e.lost_checkpoints + e.lost_rework + e.lost_restarts +
                 e.lost_overheads,
             WithinRel(e.wall_clock_hours, 1e-9));
}

TEST_CASE("Daly's optimum checkpoint interval reproduces his published examples", "[goodput]") {
  // Daly 2006 (Future Generation Computer Systems 22(3)), abstract: "M=24 h, Ts=500 h, R=10 min, and
  // delta=5 min. The new model predicts tau_opt=117 min", and 57 min at M = 6 h, 9.1 min at M = 15 min.
  // M = 24,000 / (rate x GPUs) hours: 1,000 GPUs at 1, 4 and 96 interruptions per 1,000 GPU-days.
  const traincalc::Report probe = run(thousand_gpus(json::object()));
  // A 5-minute checkpoint: the asynchronous save's fixed 5 s and each GPU's share of the state over 295 s.
  const double bandwidth = probe.time.expected->checkpoint_bytes / (1000 * 295 * 1e9);
  struct Case {
    double rate, minutes;
  };
  for (const Case c : {Case{1, 116.690}, Case{4, 56.713}, Case{96, 9.1409}}) {
    const traincalc::Report r = run(thousand_gpus(
        {{"interruptions_per_1000_gpu_days", c.rate}, {"checkpoint_write_gb_per_s", bandwidth}, {"restart_minutes", 10}}));
    const traincalc::ExpectedRun& e = *r.time.expected;
    CHECK_THAT(e.checkpoint_seconds, WithinRel(300.0, 1e-12));
    CHECK_THAT(*e.mean_hours_between_interruptions, WithinRel(24.0 / c.rate, 1e-12));
    CHECK_THAT(e.checkpoint_interval_hours * 60, WithinRel(c.minutes, 1e-4));
    CHECK_FALSE(e.checkpoint_interval_given);
  }
}

TEST_CASE("A checkpoint is asynchronous where the framework saves so, unless said otherwise", "[goodput]") {
  auto expected = [](json operations, const char* framework = nullptr) {
    json s = thousand_gpus(operations);
    if (framework) s["strategy"]["framework"] = framework;
    return *run(s).time.expected;
  };
  // Megatron (the default framework) and FSDP2 save asynchronously; DeepSpeed and Hugging Face wait
  // for the storage; manual recovery writes synchronously; in-memory snapshots never wait on storage.
  CHECK(expected(json::object()).checkpoint_async);
  CHECK(expected(json::object(), "fsdp2").checkpoint_async);
  CHECK_FALSE(expected(json::object(), "deepspeed").checkpoint_async);
  CHECK_FALSE(expected(json::object(), "hf").checkpoint_async);
  CHECK_FALSE(expected({{"recovery", "manual"}}).checkpoint_async);
  CHECK_FALSE(expected({{"recovery", "in_memory"}}).checkpoint_async);
  // Said in the scenario, it holds, manual recovery or not.
  CHECK(expected({{"recovery", "manual"}, {"async_checkpoint", true}}).checkpoint_async);
  CHECK_FALSE(expected({{"async_checkpoint", false}}).checkpoint_async);
  // Synchronous: training waits until the checkpoint is on the 125 nodes' 125 GB/s of storage.
  const traincalc::ExpectedRun sync = expected({{"async_checkpoint", false}});
  CHECK(sync.storage_write_gb_per_s == 125);
  CHECK_THAT(sync.checkpoint_seconds, WithinRel(5 + sync.checkpoint_bytes / 125e9, 1e-12));
  // A given interval shorter than a checkpoint's way to storage is kept, and said.
  json s = thousand_gpus({{"checkpoint_interval_hours", 0.01}});
  const traincalc::Report r = run(s);
  CHECK_THAT(r.time.expected->checkpoint_interval_hours, WithinRel(0.01, 1e-12));
  CHECK(std::any_of(r.warnings.begin(), r.warnings.end(), [](const auto& w) { return w.code == "checkpoint_before_persisted"; }));
}

TEST_CASE("The expected wall-clock is Daly's: T_w = M e^(R/M) (e^((tau+delta)/M) - 1) T_s / tau", "[goodput]") {
  const traincalc::Report probe = run(thousand_gpus(json::object()));
  const double bandwidth = probe.time.expected->checkpoint_bytes / (1000 * 295 * 1e9);  // a 300 s pause
  // M = 24 h, R = 10 min, delta = 5 min, tau = Daly's 116.69 min: by hand, T_w / T_s = 24 e^(1/144)
  // (e^(122.69/1440) - 1) / (116.69/60) = 1.0957636 (the run's T_s is its steady wall-clock).
  const traincalc::Report r = run(thousand_gpus(
      {{"interruptions_per_1000_gpu_days", 1}, {"checkpoint_write_gb_per_s", bandwidth}, {"restart_minutes", 10}}));
  const traincalc::ExpectedRun& e = *r.time.expected;
  CHECK_THAT(e.wall_clock_hours / r.time.wall_clock_hours, WithinRel(1.0957636, 1e-6));
  CHECK_THAT(e.interruptions, WithinRel(e.wall_clock_hours / 24, 1e-12));
  CHECK_THAT(e.lost_restarts, WithinRel(e.wall_clock_hours * -std::expm1(-10.0 / 60 / 24), 1e-12));
  CHECK_THAT(e.checkpoints, WithinRel(r.time.wall_clock_hours / e.checkpoint_interval_hours, 1e-12));
  // A longer interval, given: T_w / T_s = 24 e^(1/144) (e^((2 + 1/12)/24) - 1) / 2 = 1.0957984 (by hand).
  const traincalc::Report given = run(thousand_gpus({{"interruptions_per_1000_gpu_days", 1},
                                                      {"checkpoint_write_gb_per_s", bandwidth},
                                                      {"restart_minutes", 10},
                                                      {"checkpoint_interval_hours", 2}}));
  CHECK(given.time.expected->checkpoint_interval_given);
  CHECK_THAT(given.time.expected->wall_clock_hours / given.time.wall_clock_hours, WithinRel(1.0957984, 1e-6));
  // Overheads take their fraction of the wall-clock.
  const traincalc::Report eval = run(thousand_gpus({{"interruptions_per_1000_gpu_days", 1},
                                                     {"checkpoint_write_gb_per_s", bandwidth},
                                                     {"restart_minutes", 10},
                                                     {"overhead_fraction", 0.05}}));
  CHECK_THAT(eval.time.expected->wall_clock_hours, WithinRel(e.wall_clock_hours / 0.95, 1e-12));
  CHECK_THAT(eval.time.expected->lost_overheads, WithinRel(e.wall_clock_hours / 0.95 * 0.05, 1e-9));
}

TEST_CASE("At Llama 3's scale the defaults give Llama 3's interruptions and a goodput near its 90%", "[goodput]") {
  // Llama 3 (arXiv 2407.21783, sec. 3.3.4): 419 unexpected interruptions in 54 days on 16,384 H100s, a
  // job interrupted every 1,296 / 419 = 3.09 hours; "higher than 90% effective training time".
  json s = {{"model", {{"preset", "llama-3.1-405b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 15.6e12}, {"seq_len", 8192}, {"global_batch_sequences", 2048}}},
            {"hardware", {{"gpu", "h100-sxm"}, {"count", 16384}}},
            {"strategy", {{"precision", "bf16"}, {"mfu", 0.4}}},
            {"operations", json::object()}};
  const traincalc::Report r = run(s);
  const traincalc::ExpectedRun& e = *r.time.expected;
  CHECK_THAT(*e.mean_hours_between_interruptions, WithinRel(54.0 * 24 / 419, 1e-9));
  CHECK_THAT(e.interruptions / e.wall_clock_days, WithinRel(419.0 / 54, 1e-9));
  // The 405B checkpoint: bf16 weights, fp32 master copy and Adam's two fp32 moments, 14 bytes a parameter.
  CHECK_THAT(e.checkpoint_bytes, WithinRel(14 * r.model.params, 1e-12));
  // Automated recovery: 15-minute restarts; Megatron saves asynchronously, so training waits for the
  // save's fixed 5 s and the copy to host memory at 1 GB/s a GPU, and the checkpoint persists in the
  // background at Llama 3's 2 TB/s (2,048 nodes, 1 GB/s each, capped at 2,000 GB/s) after 60 s of
  // planning: 62.8 s, far shorter than the interval (goodput.cpp).
  CHECK(e.restart_minutes == 15);
  CHECK(e.checkpoint_async);
  CHECK(e.storage_write_gb_per_s == 2000);
  CHECK_THAT(e.checkpoint_seconds, WithinRel(5 + 14 * r.model.params / (16384 * 1e9), 1e-12));
  CHECK_THAT(e.checkpoint_persist_seconds, WithinRel(60 + 14 * r.model.params / 2000e9, 1e-12));
  // A checkpoint every few minutes, as DeepSeek's (about every 5 minutes, asynchronous: arXiv
  // 2408.14158, sec. VII-A) and within the 5-60 minutes published runs of 10,000+ GPUs use.
  CHECK(e.checkpoint_interval_hours * 60 > 4);
  CHECK(e.checkpoint_interval_hours * 60 < 60);
  CHECK(e.goodput > 0.88);
  CHECK(e.goodput < 0.95);
  // Restarts cost most; manual recovery costs far more, in-memory recovery less.
  CHECK(e.lost_restarts > e.lost_rework + e.lost_checkpoints);
  s["operations"] = {{"recovery", "manual"}};
  const traincalc::Report manual_report = run(s);
  const traincalc::ExpectedRun manual = *manual_report.time.expected;
  // Where restarts are long, an interruption can strike a restart too: each costs M (1 - e^(-R/M)),
  // and the causes still add up to the expected run.
  const double m = *manual.mean_hours_between_interruptions;
  CHECK_THAT(manual.lost_restarts, WithinRel(manual.wall_clock_hours * (1 - std::exp(-3.0 / m)), 1e-9));
  CHECK(manual.lost_rework > 0);
  CHECK_THAT(manual_report.time.wall_clock_hours + manual.lost_checkpoints + manual.lost_rework + manual.lost_restarts,
             WithinRel(manual.wall_clock_hours, 1e-9));
  s["operations"] = {{"recovery", "in_memory"}};
  const traincalc::ExpectedRun in_memory = *run(s).time.expected;
  CHECK(manual.goodput < 0.6);
  CHECK(in_memory.goodput > e.goodput);
  CHECK(in_memory.goodput > 0.97);
}

TEST_CASE("Interruptions grow with the GPUs: adding GPUs stops paying", "[goodput]") {
  // The same work on ten times the GPUs: the steady state is ten times shorter, the expected run less so.
  auto at = [](double gpus) {
    json s = thousand_gpus({{"recovery", "manual"}});
    s["hardware"]["count"] = gpus;
    return run(s).time;
  };
  const traincalc::TimeReport small = at(1000), large = at(10000);
  CHECK_THAT(small.wall_clock_hours / large.wall_clock_hours, WithinRel(10.0, 1e-9));
  CHECK(large.expected->goodput < small.expected->goodput);
  CHECK(small.expected->wall_clock_hours / large.expected->wall_clock_hours < 9);
}

TEST_CASE("A cluster interrupted faster than it recovers gives finite numbers and says so", "[goodput]") {
  const json report = test::report_json(thousand_gpus({{"interruptions_per_1000_gpu_days", 1000}, {"restart_minutes", 600}}));
  REQUIRE(report["errors"].empty());
  CHECK(test::finite_non_negative(report));
  bool warned = false;
  for (const auto& w : report["warnings"]) warned = warned || w["code"] == "interruptions_dominate";
  CHECK(warned);
  CHECK(report["time"]["expected"]["goodput"].get<double>() < 0.5);
}

TEST_CASE("Operations are checked field by field", "[goodput]") {
  CHECK(test::has_error(test::report_json(thousand_gpus({{"run_efficiency", 0}})), "operations.run_efficiency",
                        "not_positive"));
  CHECK(test::has_error(test::report_json(thousand_gpus({{"run_efficiency", 1.5}})), "operations.run_efficiency",
                        "out_of_range"));
  CHECK(test::has_error(test::report_json(thousand_gpus({{"overhead_fraction", 0.95}})), "operations.overhead_fraction",
                        "out_of_range"));
  CHECK(test::has_error(test::report_json(thousand_gpus({{"recovery", "prayer"}})), "operations.recovery",
                        "unknown_choice"));
  CHECK(test::has_error(test::report_json(thousand_gpus({{"restart_minutes", "soon"}})), "operations.restart_minutes",
                        "wrong_type"));
  CHECK(test::has_error(test::report_json(thousand_gpus({{"checkpoint_every", 1}})), "operations.checkpoint_every",
                        "unknown_key"));
}

TEST_CASE("A predicted utilisation's expected run is the headline: the fitted run efficiency applies", "[goodput]") {
  json s = thousand_gpus(nullptr);
  s["strategy"].erase("mfu");
  const traincalc::Report r = run(s);
  REQUIRE(r.time.mfu_source == traincalc::MfuSource::predicted);
  REQUIRE(r.time.expected);
  const traincalc::RunValidationTable table = traincalc::validate_runs(traincalc::builtin_catalog());
  // The engine's default is the in-sample fit of `traincalc validate --runs` (to its printed digits).
  CHECK_THAT(r.time.expected->run_efficiency, WithinAbs(table.run_efficiency_in_sample, 5e-4));
  CHECK_THAT(r.time.expected->lost_slower_steps,
             WithinRel(r.time.wall_clock_hours * (1 / r.time.expected->run_efficiency - 1), 1e-9));
}

TEST_CASE("A deadline is planned on the headline: the expected run when predicted, else the steady state",
          "[goodput]") {
  json s = thousand_gpus(nullptr);
  s["strategy"].erase("mfu");
  s["hardware"].erase("count");
  s["budget"] = {{"deadline_days", 30}};
  // Predicted: the fewest GPUs whose expected run meets the deadline.
  const traincalc::Report r = run(s);
  REQUIRE(r.plan.meets_deadline);
  CHECK(*r.plan.meets_deadline);
  REQUIRE(r.time.expected);
  CHECK(r.time.expected->headline);
  CHECK(r.time.expected->wall_clock_days <= 30);
  CHECK_FALSE(test::has_warning(r, "deadline_missed_expected"));
  // A given utilisation is the headline: the plan meets the deadline in the steady state, and the
  // expected run beside it (asked for) misses it, said.
  s["strategy"]["mfu"] = 0.4;
  s["operations"] = json::object();
  const traincalc::Report given = run(s);
  REQUIRE(given.plan.meets_deadline);
  CHECK(*given.plan.meets_deadline);
  CHECK(given.time.wall_clock_days <= 30);
  REQUIRE(given.time.expected);
  CHECK_FALSE(given.time.expected->headline);
  CHECK(given.time.expected->wall_clock_days > 30);
  CHECK(test::has_warning(given, "deadline_missed_expected"));
}

TEST_CASE("Fine-tuning keeps its predicted speed: the run efficiency was fitted on pre-training runs", "[goodput]") {
  const traincalc::Report r = run({{"model", {{"preset", "llama-3.1-8b"}}},
                                   {"training", {{"type", "finetune"}, {"method", "lora"}, {"tokens", 1e8}, {"seq_len", 2048}}},
                                   {"hardware", {{"gpu", "h100-sxm"}, {"count", 1}}}});
  REQUIRE(r.time.mfu_source == traincalc::MfuSource::predicted);
  REQUIRE(r.time.expected);
  CHECK(r.time.expected->run_efficiency == 1);
  CHECK(r.time.expected->goodput > 0.99);
  CHECK_FALSE(test::has_warning(r, "interruptions_dominate"));
}

TEST_CASE("Whole published runs: at least 30, each cited, predicted held out better than the rule of thumb",
          "[goodput][validation]") {
  const traincalc::RunValidationTable table = traincalc::validate_runs(traincalc::builtin_catalog());
  // Every run of engine/data/whole-runs.json is estimated (none dropped for an invalid scenario).
  const json data = json::parse(traincalc::builtin_whole_runs_json());
  CHECK(table.rows.size() == data["runs"].size());
  CHECK(table.rows.size() >= 30);
  for (const auto& row : table.rows) {
    INFO(row.name);
    CHECK(row.source.size() > 20);
    CHECK(!row.confidence.empty());
    CHECK(std::isfinite(row.error_pct));
  }
  // Held out (each run's efficiency fitted without its publisher's runs): 24.3% median |error| over 81
  // runs, against 33.0% for 6NT at 40% and 30.2% for the steady state (`traincalc validate --runs`).
  // The 25 runs whose authors publish each model's GPU-hours from the final run are 7.0% off (the next
  // test); the rest are figures derived from round durations, assumed GPU counts or scopes that may
  // include post-training (docs/validation.md says what stands between this and 12%). The guard holds
  // the figure within about half a point.
  CHECK(table.median_abs_error_pct <= 25.0);
  CHECK(table.median_abs_error_pct < table.median_abs_rule_of_thumb_error_pct - 5);
  CHECK(table.median_abs_error_pct < table.median_abs_steady_error_pct - 5);
  // Physically: a real run is slower than a tuned benchmark, not faster, and not absurdly so.
  CHECK(table.run_efficiency_in_sample > 0.6);
  CHECK(table.run_efficiency_in_sample < 0.95);
}

TEST_CASE("Whole runs by the published figure's confidence: the surest figures are the closest",
          "[goodput][validation]") {
  const traincalc::RunValidationTable table = traincalc::validate_runs(traincalc::builtin_catalog());
  // Every run carries one of the five words, and the tiers add up to the whole table.
  double runs = 0;
  for (const auto& c : table.by_confidence) runs += c.runs;
  CHECK(runs == static_cast<double>(table.rows.size()));
  REQUIRE(table.by_confidence.size() == 5);
  const auto& high = table.by_confidence.front();
  REQUIRE(high.confidence == "high");
  // The 25 runs whose GPU-hours their authors publish per model from the final run (LLaMA, Llama 2,
  // Pythia, BLOOM, StarCoderBase-15.5B, Llama 3.1 405B, DeepSeek-V3, Granite 3.0, Nemotron-4 15B):
  // held out with their publishers, 7.0% median |error| (16 of 25 within 12%), inside 12%. The 56
  // others (figures derived from "about two weeks", GPU counts the sources do not give, scopes that
  // may include post-training, "approximate" totals in a discussion thread) are 22-91% off by tier:
  // the published figure's own uncertainty, not a constant to fit (docs/validation.md, "Whole runs").
  CHECK(high.runs == 25);
  CHECK(high.median_abs_error_pct <= 12.0);
  CHECK(high.within_12_pct >= 16);
  for (std::size_t i = 1; i < table.by_confidence.size(); ++i) {
    INFO(table.by_confidence[i].confidence);
    CHECK(table.by_confidence[i].median_abs_error_pct > high.median_abs_error_pct);
  }
}

TEST_CASE("Skywork-13B's steady state runs at the speed its authors measured at their layout", "[goodput][validation]") {
  // Skywork (arXiv:2310.19341, sec. 3.5): 512 A800-80G SXM GPUs, "the combination of DP256, PP2, and
  // ZeRO-1", no tensor parallelism, sequence parallelism or checkpointing, "a token throughput of 1873
  // per GPU per second and a model flops utilization (MFU) of 56.5%". Its whole run (39 days, 3.2T
  // tokens) was never fitted on, so this is a held-out speed check at a published layout: the steady
  // state's tokens per GPU-second are 1,938 (+3.5%), inside the step model's held-out median error by
  // lineage (7.0%, docs/validation.md). Its expected run is +30%: the 39 days are within 3% of 3.2T
  // tokens at the measured throughput, so the run lost almost nothing beyond its steady speed, where
  // the run efficiency fitted on the others charges 25%.
  const traincalc::RunValidationTable table = traincalc::validate_runs(traincalc::builtin_catalog());
  const auto row = std::find_if(table.rows.begin(), table.rows.end(), [](const auto& r) { return r.name == "Skywork-13B"; });
  REQUIRE(row != table.rows.end());
  REQUIRE(row->mfu_source == "predicted");
  const double tokens_per_gpu_second = row->tokens / (row->steady_gpu_hours * 3600);
  CHECK_THAT(tokens_per_gpu_second, WithinRel(1873.0, 0.07));
  // And that steady state is the authors' layout, not one the planner preferred (the micro-batch,
  // which the paper does not give, is the planner's).
  const json data = json::parse(traincalc::builtin_whole_runs_json());
  const auto run = std::find_if(data["runs"].begin(), data["runs"].end(),
                                [](const json& r) { return r["name"] == "Skywork-13B"; });
  REQUIRE(run != data["runs"].end());
  const json report = test::report_json((*run)["scenario"]);
  REQUIRE(report["errors"].empty());
  const json& layout = report["parallelism"];
  CHECK(layout["tp"] == 1);
  CHECK(layout["pp"] == 2);
  CHECK(layout["dp"] == 256);
  CHECK(layout["zero"] == 1);
  CHECK(layout["recompute"] == "none");
  CHECK(report["hardware"]["gpu"] == "a800-80gb-sxm");
  CHECK_THAT(report["time"]["gpu_hours"].get<double>(), WithinRel(row->steady_gpu_hours, 1e-9));
}

TEST_CASE("With a predicted utilisation the expected run is the headline, with the whole runs' likely range",
          "[goodput][range]") {
  // Llama-2-7B pre-training on 64 H100s: the engine predicts the utilisation, so the expected run is
  // what the page shows first and what a plan is judged on.
  json s = {{"model", {{"preset", "llama-2-7b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 1e12}, {"seq_len", 4096}, {"global_batch_sequences", 512}}},
            {"hardware", {{"gpu", "h100-sxm"}, {"count", 64}}},
            {"pricing", {{"per_gpu_hour", 2}}}};
  const json r = test::report_json(s);
  REQUIRE(r["errors"].empty());
  const json& e = r["time"]["expected"];
  CHECK(e["headline"] == true);
  // The range is the held-out whole runs' (published / expected, the 80% range for a new run), times
  // the expected figures.
  const traincalc::LikelyRange whole = traincalc::detail::whole_run_range();
  CHECK(e["range"]["basis"] == "whole_runs");
  CHECK(e["range"]["low"] == whole.low);
  CHECK_THAT(e["wall_clock_days_range"]["high"].get<double>(), WithinRel(e["wall_clock_days"].get<double>() * whole.high, 1e-12));
  CHECK_THAT(e["gpu_hours_range"]["low"].get<double>(), WithinRel(e["gpu_hours"].get<double>() * whole.low, 1e-12));
  CHECK_THAT(r["cost"]["expected_total_range"]["high"].get<double>(),
             WithinRel(r["cost"]["expected_total"].get<double>() * whole.high, 1e-12));
  // A given utilisation stays the headline; the expected run beside it (on request) is not.
  s["strategy"] = {{"mfu", 0.4}};
  s["operations"] = {{"recovery", "automated"}};
  const json given = test::report_json(s);
  CHECK(given["time"]["expected"]["headline"] == false);
  CHECK_FALSE(given["time"]["expected"].contains("range"));
  // Fine-tuning (outside the whole runs' domain): the step's own range.
  json tune = {{"model", {{"preset", "llama-2-7b"}}},
               {"training", {{"type", "finetune"}, {"method", "lora"}, {"tokens", 1e8}, {"seq_len", 2048}}},
               {"hardware", {{"gpu", "h100-sxm"}, {"count", 1}}}};
  const json lora = test::report_json(tune);
  REQUIRE(lora["errors"].empty());
  CHECK(lora["time"]["expected"]["range"]["basis"] == lora["time"]["range"]["basis"]);
}

TEST_CASE("The whole runs' likely range is what validate --runs measures", "[goodput][range][validation]") {
  const traincalc::RunValidationTable table = traincalc::validate_runs(traincalc::builtin_catalog());
  const traincalc::LikelyRange whole = traincalc::detail::whole_run_range();
  CHECK_THAT(whole.low, WithinAbs(table.range_low, 1e-4));
  CHECK_THAT(whole.high, WithinAbs(table.range_high, 1e-3));
  CHECK(whole.rows == table.runs_predicted);
  CHECK(whole.lineages == table.publishers);
  // The range is for a run of a publisher none of the 78 runs share: the publishers' biases scatter
  // between publishers, the runs within one (detail::ranges_for_new_group over 23 publishers). 64 of
  // the 78 held-out runs lie within it.
  int inside = 0, predicted = 0;
  for (const auto& row : table.rows) {
    if (row.mfu_source != "predicted") continue;
    ++predicted;
    const double ratio = row.published_gpu_hours / row.expected_gpu_hours;
    inside += ratio >= whole.low * (1 - 1e-9) && ratio <= whole.high * (1 + 1e-9);
  }
  CHECK(predicted == 78);
  CHECK(inside == 64);
  // The coverage test: each publisher's runs, with the run efficiency fitted without it, judged
  // against the range built without it, publishers weighing the same: 88%, inside 70-90%.
  CHECK(table.range_coverage_publishers_pct >= 70);
  CHECK(table.range_coverage_publishers_pct <= 90);
  // The width guard: 2.65x (high / low) at the median. The whole run holds what the steady
  // state does not (failures, restarts, evaluation, the team's own ramp-up), and its published
  // figures are often rounded, so it is wide, but not as wide as the sky.
  CHECK(table.range_median_width <= 3.0);
  CHECK(table.median_of_publishers_abs_error_pct <= 26.0);  // 24.5%
}
