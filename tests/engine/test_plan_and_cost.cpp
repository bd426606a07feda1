// GPU count from a budget or deadline; money from an hourly or monthly price.
#include "helpers.hpp"

using namespace test;

namespace {
json scenario() {
  // 6 x 7e9 x 1e12 = 4.2e22 FLOPs at 8 x 989.4e12 x 0.5 FLOP/s.
  return {{"model", {{"params", 7e9}}},
          {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
          {"hardware", {{"gpu", "h100-sxm"}, {"count", 8}}},
          {"strategy", {{"mfu", 0.5}}}};
}
constexpr double seconds = 4.2e22 / (8 * 989.4e12 * 0.5);
}  // namespace

TEST_CASE("Time is total FLOPs over GPUs x dense peak x MFU", "[time]") {
  const auto r = run(scenario());
  CHECK_THAT(r.time.wall_clock_days, WithinRel(seconds / 86400, 1e-12));
  CHECK_THAT(r.time.gpu_hours, WithinRel(8 * seconds / 3600, 1e-12));
  CHECK_THAT(r.time.tokens_per_second, WithinRel(1e12 / seconds, 1e-12));
  CHECK(r.time.mfu_source == traincalc::MfuSource::given);
  CHECK(r.plan.gpus == 8);
  CHECK(r.plan.nodes == 1);
}

TEST_CASE("Without a given MFU, 40% is assumed and the report says so", "[time]") {
  json s = scenario();
  s["strategy"].erase("mfu");
  const auto r = run(s);
  CHECK(r.time.mfu == 0.4);
  CHECK(r.time.mfu_source == traincalc::MfuSource::assumed);
  CHECK(has_warning(r, "mfu_assumed"));
}

TEST_CASE("Cost is GPU-hours times the hourly price", "[cost]") {
  json s = scenario();
  SECTION("per GPU-hour") {
    s["pricing"] = {{"per_gpu_hour", 2.5}, {"currency", "USD"}};
    const auto r = run(s);
    CHECK_THAT(r.cost->total, WithinRel(8 * seconds / 3600 * 2.5, 1e-12));
    CHECK(r.cost->currency == "USD");
    CHECK(r.cost->per_month == Approx(8 * 2.5 * 730));
  }
  SECTION("per GPU-month, over 730-hour months by default") {
    s["pricing"] = {{"per_gpu_month", 7300}, {"currency", "CNY"}};
    const auto r = run(s);
    CHECK(r.cost->per_gpu_hour == Approx(10));
    CHECK_THAT(r.cost->total, WithinRel(8 * seconds / 3600 * 10, 1e-12));
    CHECK(r.cost->currency == "CNY");
  }
  SECTION("no price, no cost") {
    CHECK_FALSE(run(s).cost.has_value());
  }
}

TEST_CASE("A deadline decides the fewest GPUs that finish in time", "[plan]") {
  json s = scenario();
  s["hardware"].erase("count");
  s["budget"] = {{"deadline_days", 30}};
  const auto r = run(s);
  // GPU-seconds needed / deadline seconds, rounded up.
  const double needed = std::ceil(4.2e22 / (989.4e12 * 0.5) / (30 * 86400.0));
  CHECK(r.plan.gpus == needed);
  CHECK(r.plan.gpus_from == traincalc::GpusFrom::deadline);
  CHECK(r.time.wall_clock_days <= 30);
  CHECK(*r.plan.meets_deadline);
  SECTION("rounded up to whole tensor x pipeline groups") {
    s["strategy"]["tp"] = 8;
    const auto grouped = run(s);
    CHECK(std::fmod(grouped.plan.gpus, 8) == 0);
    CHECK(grouped.plan.gpus >= needed);
  }
}

TEST_CASE("A total budget is checked against the cost", "[plan][cost]") {
  json s = scenario();
  s["pricing"] = {{"per_gpu_hour", 2}};
  s["budget"] = {{"total", 1000}};
  const auto r = run(s);
  CHECK_FALSE(*r.plan.within_budget);
  CHECK(has_warning(r, "over_budget"));
}

TEST_CASE("A budget in another currency than the price is kept, and the price converted into it", "[plan][cost]") {
  // 10,000 USD a month against 2,000 CNY per GPU-month: at the reference rates of 2026-04-13 (ECB: 1
  // euro = 1.1684 USD = 7.9827 CNY) the price is 292.73 USD, and the budget rents 34 GPUs. Read as
  // 10,000 CNY it would rent 5: the typed amount is never reinterpreted.
  json s = scenario();
  s["hardware"].erase("count");
  s["pricing"] = {{"per_gpu_month", 2000}, {"currency", "CNY"}};
  s["budget"] = {{"per_month", 10000}, {"currency", "USD"}};
  const json r = report_json(s);
  REQUIRE(r["errors"].empty());
  const double rate = 1.1684 / 7.9827;
  CHECK(r["cost"]["currency"] == "USD");
  CHECK_THAT(r["cost"]["per_gpu_month"].get<double>(), WithinRel(2000 * rate, 1e-12));
  CHECK(r["cost"]["exchange"]["from"] == "CNY");
  CHECK(r["cost"]["exchange"]["per_gpu_month"] == 2000);
  CHECK(r["cost"]["exchange"]["date"] == "2026-04-13");
  CHECK(r["cost"]["exchange"]["source"] == std::string(traincalc::reference_rates_source));
  CHECK(r["cost"]["exchange"]["given"] == false);
  CHECK(r["plan"]["gpus"] == 34);  // floor(10,000 / 292.73)

  // A rate of the user's own replaces the reference one, and says so.
  s["exchange_rates"] = {{"CNY", 7.0}};
  const json own = report_json(s);
  CHECK_THAT(own["cost"]["exchange"]["rate"].get<double>(), WithinRel(1 / 7.0, 1e-12));
  CHECK(own["cost"]["exchange"]["given"] == true);
  CHECK(own["cost"]["exchange"]["date"] == "given");
  CHECK(own["cost"]["exchange"]["source"].get<std::string>().rfind("exchange_rates (with the reference rates", 0) == 0);
  CHECK(own["plan"]["gpus"] == 35);  // floor(10,000 / 285.71)

  // The report's money in a third currency: the price and the budget both converted.
  s.erase("exchange_rates");
  s["currency"] = "EUR";
  const json eur = report_json(s);
  REQUIRE(eur["errors"].empty());
  CHECK(eur["cost"]["currency"] == "EUR");
  CHECK_THAT(eur["cost"]["budget_exchange"]["rate"].get<double>(), WithinRel(1 / 1.1684, 1e-12));
  CHECK(eur["cost"]["budget_exchange"]["per_month"] == 10000);
  CHECK(eur["plan"]["gpus"] == 34);  // the same GPUs, whatever currency the report is in
}

TEST_CASE("Currency codes are read as people type them: any case, spaces, RMB for the yuan", "[cost][validation]") {
  json s = scenario();
  s["hardware"].erase("count");
  s["pricing"] = {{"per_gpu_month", 2000}, {"currency", " rmb "}};
  s["budget"] = {{"per_month", 10000}, {"currency", "cny"}};
  const json r = report_json(s);
  REQUIRE(r["errors"].empty());
  CHECK(r["cost"]["currency"] == "CNY");
  CHECK_FALSE(r["cost"].contains("exchange"));  // the same currency: nothing converted
  CHECK(r["plan"]["gpus"] == 5);
}

TEST_CASE("A currency the calculator cannot convert is refused, naming the way out", "[plan][validation]") {
  json s = scenario();
  s["hardware"].erase("count");
  s["pricing"] = {{"per_gpu_month", 2000}, {"currency", "XAU"}};
  s["budget"] = {{"per_month", 10000}, {"currency", "USD"}};
  const json r = report_json(s);
  CHECK(has_error(r, "pricing.currency", "no_exchange_rate"));
  // Its message names the currencies the calculator converts, and the way out.
  for (const auto& e : r["errors"])
    if (e["code"] == "no_exchange_rate") CHECK(e["message"].get<std::string>().find("in one currency") != std::string::npos);
  // Its own rate makes it convertible only where the contract has a field for it; XAU has none.
  s["pricing"]["currency"] = "USD";
  s["currency"] = "XAU";
  CHECK(has_error(report_json(s), "currency", "invalid"));
  // The same currency needs no rate, known or not.
  s.erase("currency");
  s["pricing"]["currency"] = "XAU";
  s["budget"]["currency"] = "XAU";
  CHECK(report_json(s)["errors"].empty());
  // A rate that is not a positive number is refused.
  s["budget"]["currency"] = "USD";
  s["pricing"]["currency"] = "CNY";
  s["exchange_rates"] = {{"CNY", -7}};
  CHECK(has_error(report_json(s), "exchange_rates.CNY", "not_positive"));
}

TEST_CASE("A monthly budget needs a price", "[plan][validation]") {
  json s = scenario();
  s["hardware"].erase("count");
  s["budget"] = {{"per_month", 10000}};
  CHECK(has_error(report_json(s), "budget.per_month", "required"));
}

TEST_CASE("A monthly budget for some months: the GPUs it rents, the time and the money it allows", "[plan]") {
  // Seed 004's Cloud-A100 X at 1,999.99 CNY a month: 10,000 CNY a month rents 5, which take 42.9 days
  // for 1e22 FLOPs at 100%, so three months (91.25 days, 30,000 CNY) suffice and one does not.
  auto scenario = [](double months) {
    return test::json{{"model", {{"params", 1e11}}},
                      {"training", {{"type", "pretrain"}, {"total_flops", 1e22}}},
                      {"hardware", {{"gpu", {{"name", "Cloud-A100 X"}, {"memory_gb", 83}, {"fp16_tflops", 539.8}}}}},
                      {"strategy", {{"precision", "fp16"}, {"mfu", 1}}},
                      {"pricing", {{"per_gpu_month", 1999.99}, {"currency", "CNY"}}},
                      {"budget", {{"per_month", 10000}, {"months", months}}}};
  };
  const traincalc::Report three = test::run(scenario(3));
  CHECK(three.plan.gpus == 5);
  CHECK_THAT(*three.plan.deadline_days, Catch::Matchers::WithinRel(3 * 730.0 / 24, 1e-12));
  CHECK(*three.plan.budget_total == 30000);
  CHECK(*three.plan.meets_deadline);
  CHECK(*three.plan.within_budget);
  const traincalc::Report one = test::run(scenario(1));
  CHECK_FALSE(*one.plan.meets_deadline);
  CHECK_FALSE(*one.plan.within_budget);
  CHECK(test::has_warning(one, "deadline_missed"));
  test::json alone = scenario(2);
  alone["budget"] = {{"months", 2}, {"total", 5000}, {"currency", "CNY"}};
  CHECK(test::has_error(test::report_json(alone), "budget.months", "inconsistent"));
}

TEST_CASE("A deadline or budget met by the prediction but not across its likely range is said", "[plan][range]") {
  // Llama-2-7B, 1T tokens on H100s with a 30-day deadline: the planner takes the fewest GPUs whose
  // expected run meets it, so the likely range's slow end (the held-out whole runs' range's high end)
  // passes it.
  const test::json deadline = {{"model", {{"preset", "llama-2-7b"}}},
                               {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
                               {"hardware", {{"gpu", "h100-sxm"}}},
                               {"budget", {{"deadline_days", 30}}}};
  const traincalc::Report r = test::run(deadline);
  REQUIRE(r.time.expected);
  REQUIRE(r.time.expected->range);
  CHECK(*r.plan.meets_deadline);
  CHECK(r.time.expected->wall_clock_days <= 30);
  CHECK(r.time.expected->wall_clock_days * r.time.expected->range->high > 30);
  CHECK(test::has_warning(r, "deadline_at_risk"));
  // With the utilisation given there is no range, and nothing to warn of.
  test::json given = deadline;
  given["strategy"] = {{"mfu", 0.4}};
  CHECK_FALSE(test::has_warning(test::run(given), "deadline_at_risk"));

  // A total budget 5% above the expected run's cost: within it, but not within the likely range
  // (whose high end is the whole runs' 1.96x).
  test::json priced = {{"model", {{"preset", "llama-2-7b"}}},
                       {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
                       {"hardware", {{"gpu", "h100-sxm"}, {"count", 256}}},
                       {"pricing", {{"per_gpu_hour", 2}}}};
  const traincalc::Report base = test::run(priced);
  REQUIRE(base.cost);
  REQUIRE(base.cost->expected_total);
  priced["budget"] = {{"total", *base.cost->expected_total * 1.05}};
  const traincalc::Report tight = test::run(priced);
  CHECK(*tight.plan.within_budget);
  CHECK(test::has_warning(tight, "budget_at_risk"));
  priced["budget"] = {{"total", *base.cost->expected_total * 2.0}};
  CHECK_FALSE(test::has_warning(test::run(priced), "budget_at_risk"));
}
