// Seed article 004 (docs/seeds.md): a 10,000 CNY monthly budget over nine offers,
// 10^22 FLOPs at 100% utilisation of the FP16 peak with perfect scaling. GPUs affordable =
// floor(budget / monthly price); days = FLOPs / (GPUs x peak).
#include <cmath>
#include <fstream>
#include <iterator>

#include "helpers.hpp"

using namespace test;

namespace {

struct Offer {
  const char* name;
  double fp16_tflops;
  double memory_gb;
  double cny_per_month;
  double article_gpus;
  double article_days_one_gpu;
  double article_days;
};

// As printed in the article. Its memory figures are the offers' (not necessarily GPU) memory.
constexpr Offer offers[] = {
    {"Cloud-A100 X", 539.8, 83, 1999.99, 5, 214, 43},
    {"Cloud-A100 X Pro", 617.8, 107, 2299.99, 4, 187, 47},
    {"Cloud-A100 Z", 1079.6, 166, 3999.99, 2, 107, 54},
    {"NVIDIA T4 (Tencent)", 80, 16, 1988.25, 5, 1447, 289},
    {"NVIDIA V100 (Tencent)", 125, 32, 3155.84, 3, 926, 309},
    // The article says 372 days; 1e22 / 312e12 s is 370.96 days, so 371 (a known error in the seed).
    {"NVIDIA A100 (Tencent)", 312, 80, 5117.53, 1, 371, 371},
    {"NVIDIA T4 (Alibaba)", 80, 16, 2635.75, 3, 1447, 482},
    {"NVIDIA A10 (Alibaba)", 140, 24, 6143.88, 1, 827, 827},
};

json scenario(const char* name, double tflops, double memory_gb, double price, const json& gpus_from) {
  json s = {{"model", {{"params", 1e11}}},
            {"training", {{"type", "pretrain"}, {"total_flops", 1e22}}},
            {"hardware", {{"gpu", {{"name", name}, {"memory_gb", memory_gb}, {"fp16_tflops", tflops}}}}},
            {"strategy", {{"precision", "fp16"}, {"mfu", 1.0}}},
            {"pricing", {{"per_gpu_month", price}, {"currency", "CNY"}}}};
  for (const auto& [key, value] : gpus_from.items()) {
    if (key == "count")
      s["hardware"]["count"] = value;
    else
      s["budget"][key] = value;
  }
  return s;
}

}  // namespace

TEST_CASE("Seed 004: a 10,000 CNY monthly budget rents floor(budget / price) GPUs", "[seed][seed004]") {
  for (const Offer& o : offers) {
    INFO(o.name);
    const auto r = run(scenario(o.name, o.fp16_tflops, o.memory_gb, o.cny_per_month, {{"per_month", 10000}}));
    CHECK(r.plan.gpus == o.article_gpus);
    CHECK(r.plan.gpus_from == traincalc::GpusFrom::monthly_budget);
    CHECK(r.hardware.precision == traincalc::Precision::fp16);
    CHECK(std::round(r.time.wall_clock_days) == o.article_days);
    CHECK(r.cost->currency == "CNY");
    CHECK(r.cost->per_month == Approx(o.article_gpus * o.cny_per_month));
  }
}

TEST_CASE("Seed 004: days on one GPU of each offer", "[seed][seed004]") {
  for (const Offer& o : offers) {
    INFO(o.name);
    const auto r = run(scenario(o.name, o.fp16_tflops, o.memory_gb, o.cny_per_month, {{"count", 1}}));
    CHECK(std::round(r.time.wall_clock_days) == o.article_days_one_gpu);
    CHECK_THAT(r.time.wall_clock_days, WithinRel(1e22 / (o.fp16_tflops * 1e12) / 86400, 1e-12));
  }
}

TEST_CASE("Seed 004: Alibaba's A100 at 14,211.08 CNY a month is not affordable on 10,000", "[seed][seed004]") {
  const json report = report_json(scenario("NVIDIA A100 (Alibaba)", 312, 80, 14211.08, {{"per_month", 10000}}));
  INFO(report.dump());
  REQUIRE(has_error(report, "budget.per_month", "budget_too_small"));
  const std::string message = report["errors"][0]["message"];
  CHECK(message.find("14211.08") != std::string::npos);
  CHECK(report.find("time") == report.end());
}

namespace {

// The seed's offers as a vendor catalog (public/catalogs/seed-004.json), in the article's order.
constexpr const char* offer_ids[] = {"neuronforge-cloud-a100-x",
                                     "neuronforge-cloud-a100-x-pro",
                                     "neuronforge-cloud-a100-z",
                                     "tencent-t4",
                                     "tencent-v100",
                                     "tencent-a100",
                                     "alibaba-t4",
                                     "alibaba-a10"};

traincalc::Catalog seed_catalog() {
  std::ifstream in(TRAINCALC_SOURCE_DIR "/public/catalogs/seed-004.json");
  REQUIRE(in);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  traincalc::CatalogLoad load = traincalc::merge_catalog_json(text, traincalc::builtin_catalog());
  REQUIRE(load.errors.empty());
  return load.catalog;
}

json ranking(const json& scenario, const json& request) {
  static const traincalc::Catalog catalog = seed_catalog();
  json out = json::parse(traincalc::compare_json(scenario.dump(), catalog, request.dump()));
  INFO(out.dump());
  REQUIRE(out["errors"].empty());
  return out;
}

json seed_workload() {
  return {{"model", {{"params", 1e11}}},
          {"training", {{"type", "pretrain"}, {"total_flops", 1e22}}},
          {"strategy", {{"precision", "fp16"}, {"mfu", 1.0}}},
          {"pricing", {{"currency", "CNY"}}},
          {"budget", {{"per_month", 10000}}}};
}

json seed_request() {
  json ids = json::array({"alibaba-a100"});  // unaffordable: ranked last, with the reason
  for (const char* id : offer_ids) ids.push_back(id);
  return {{"kind", "offers"}, {"ids", ids}};
}

}  // namespace

TEST_CASE("Seed 004 ranked by the engine: at 100% utilisation the article's table, in its order",
          "[seed][seed004][compare]") {
  const json out = ranking(seed_workload(), seed_request());
  REQUIRE(out["rows"].size() == 9);
  CHECK(out["fixed_utilisation"] == true);
  // The article's rows are already in order of days (43, 47, 54, 289, 309, 371, 482, 827).
  for (std::size_t i = 0; i < std::size(offers); ++i) {
    const json& row = out["rows"][i];
    INFO(row["id"]);
    CHECK(row["id"] == offer_ids[i]);
    const json& r = row["report"];
    CHECK(r["plan"]["gpus"] == offers[i].article_gpus);
    CHECK(std::round(r["time"]["wall_clock_days"].get<double>()) == offers[i].article_days);
    CHECK(r["cost"]["currency"] == "CNY");
  }
  const json& last = out["rows"][8];
  CHECK(last["id"] == "alibaba-a100");
  CHECK(has_error(last["report"], "budget.per_month", "budget_too_small"));
}

TEST_CASE("Seed 004 ranked by the engine: the same offers at a realistic utilisation", "[seed][seed004][compare]") {
  // Each row also at the engine's utilisation. The seed's workload has no architecture (a bare
  // parameter count and a FLOP total), so the engine can only assume 40%: 2.5 times the days.
  const json out = ranking(seed_workload(), seed_request());
  for (std::size_t i = 0; i < std::size(offers); ++i) {
    const json& row = out["rows"][i];
    INFO(row["id"]);
    const json& realistic = row["at_engine_utilisation"];
    REQUIRE(realistic["errors"].empty());
    CHECK(realistic["time"]["mfu_source"] == "assumed");
    CHECK(realistic["time"]["mfu"] == Approx(0.4));
    CHECK_THAT(realistic["time"]["wall_clock_days"].get<double>(),
               WithinRel(row["report"]["time"]["wall_clock_days"].get<double>() * 2.5, 1e-9));
  }

  // With an architecture the engine predicts the utilisation per offer: GPT-2 XL (1.56B) on 30B
  // tokens, each offer's GPUs bought by the budget. Realistic days are always more than at 100% of
  // peak, and the row says the utilisation was predicted, below 100% and above 5%. (Offers that list
  // only an fp16 rate, as the seed's A10 does, are taken for pre-Ampere GPUs without FlashAttention:
  // Megatron's fused softmax, which at micro-batch 1 and GPT-2 XL's 25 heads falls back to PyTorch's
  // fp32 softmax: 9.8% on the A10.)
  json gpt2 = {
      {"model", {{"preset", "gpt2-xl"}}},
      {"training", {{"type", "pretrain"}, {"tokens", 3e10}, {"seq_len", 1024}, {"global_batch_tokens", 524288}}},
      {"strategy", {{"precision", "fp16"}, {"mfu", 1.0}}},
      {"pricing", {{"currency", "CNY"}}},
      {"budget", {{"per_month", 10000}}}};
  const json predicted = ranking(gpt2, seed_request());
  for (const json& row : predicted["rows"]) {
    INFO(row["id"]);
    if (row["id"] == "alibaba-a100") continue;
    const json& realistic = row["at_engine_utilisation"];
    REQUIRE(realistic["errors"].empty());
    CHECK(realistic["time"]["mfu_source"] == "predicted");
    CHECK(realistic["time"]["mfu"].get<double>() < 1.0);
    CHECK(realistic["time"]["mfu"].get<double>() > 0.05);
    CHECK(realistic["time"]["wall_clock_days"].get<double>() > row["report"]["time"]["wall_clock_days"].get<double>());
  }
}

TEST_CASE("The engine ranks offers that run and fit first, then by days", "[compare]") {
  // Without a utilisation of the user's own there is no second estimate per row.
  json workload = seed_workload();
  workload["strategy"].erase("mfu");
  const json out = ranking(workload, seed_request());
  CHECK(out["fixed_utilisation"] == false);
  double previous_days = 0;
  for (const json& row : out["rows"]) {
    CHECK_FALSE(row.contains("at_engine_utilisation"));
    if (!row["report"]["errors"].empty()) continue;
    const double days = row["report"]["time"]["wall_clock_days"];
    CHECK(days >= previous_days);
    previous_days = days;
  }
  // A request the engine cannot read is refused with the field named.
  const json bad = json::parse(
      traincalc::compare_json(workload.dump(), traincalc::builtin_catalog(), R"({"kind": "cheapest", "ids": 3})"));
  CHECK(has_error(bad, "compare.kind", "unknown_choice"));
  CHECK(has_error(bad, "compare.ids", "wrong_type"));
}
