// Bad input never crashes and never yields a number: it yields errors naming the field, a stable
// code and a message that says what to change.
#include <algorithm>
#include <cmath>

#include "../../engine/src/estimate/estimators.hpp"
#include "helpers.hpp"

using namespace test;

namespace {
json valid() {
  return {{"model", {{"preset", "llama-2-7b"}}},
          {"training", {{"type", "pretrain"}, {"tokens", 2e12}}},
          {"hardware", {{"gpu", "h100-sxm"}, {"count", 64}}},
          {"strategy", {{"mfu", 0.4}}}};
}

bool all_numbers_finite_and_non_negative(const json& value) {
  if (value.is_number()) return std::isfinite(value.get<double>()) && value.get<double>() >= 0;
  for (const auto& child : value)
    if (value.is_structured() && !all_numbers_finite_and_non_negative(child)) return false;
  return true;
}

bool no_numbers_outside_errors(const json& report) {
  for (const auto& [key, value] : report.items())
    if (key != "errors" && key != "warnings") return false;
  return true;
}
}  // namespace

TEST_CASE("A valid scenario gives a report with no errors", "[validation]") {
  const json report = report_json(valid());
  INFO(report.dump());
  CHECK(report["errors"].empty());
  CHECK(report["time"]["gpu_hours"].get<double>() > 0);
}

TEST_CASE("Unknown keys are errors, with the closest known key suggested", "[validation]") {
  json s = valid();
  s["training"]["tokns"] = 1e12;
  const json report = report_json(s);
  REQUIRE(has_error(report, "training.tokns", "unknown_key"));
  CHECK(report["errors"][0]["message"].get<std::string>().find("Did you mean \"tokens\"") != std::string::npos);
  CHECK(no_numbers_outside_errors(report));

  json top = valid();
  top["pricng"] = {{"per_gpu_hour", 2}};
  CHECK(has_error(report_json(top), "pricng", "unknown_key"));
}

TEST_CASE("Wrong types and out-of-range values name the field", "[validation]") {
  SECTION("a string where a number belongs") {
    json s = valid();
    s["hardware"]["count"] = "sixty-four";
    CHECK(has_error(report_json(s), "hardware.count", "wrong_type"));
  }
  SECTION("zero and negative amounts") {
    json s = valid();
    s["training"]["tokens"] = -5;
    CHECK(has_error(report_json(s), "training.tokens", "not_positive"));
    s = valid();
    s["hardware"]["count"] = 0;
    CHECK(has_error(report_json(s), "hardware.count", "not_positive"));
  }
  SECTION("a fractional GPU count") {
    json s = valid();
    s["hardware"]["count"] = 2.5;
    CHECK(has_error(report_json(s), "hardware.count", "not_integer"));
  }
  SECTION("utilisation above 100%") {
    json s = valid();
    s["strategy"]["mfu"] = 40;
    CHECK(has_error(report_json(s), "strategy.mfu", "out_of_range"));
  }
  SECTION("a number too large for a double") {
    const auto out = traincalc::estimate_json(
        R"({"model":{"params":7e9},"training":{"type":"pretrain","tokens":1e999},"hardware":{"gpu":"t4","count":1}})",
        traincalc::builtin_catalog());
    CHECK_FALSE(out.all_valid);
    const json report = json::parse(out.text);
    REQUIRE(has_error(report, "", "parse_error"));
    CHECK(report["errors"][0]["message"].get<std::string>().find("1e999") != std::string::npos);
  }
  SECTION("tokens beyond any real run") {
    json s = valid();
    s["training"]["tokens"] = 1e300;
    CHECK(has_error(report_json(s), "training.tokens", "out_of_range"));
  }
}

TEST_CASE("Missing and conflicting sections are explained", "[validation]") {
  SECTION("no model") {
    json s = valid();
    s.erase("model");
    CHECK(has_error(report_json(s), "model", "required"));
  }
  SECTION("no amount of data") {
    json s = valid();
    s["training"].erase("tokens");
    CHECK(has_error(report_json(s), "training.tokens", "required"));
  }
  SECTION("two amounts of data") {
    json s = valid();
    s["training"]["dataset_gb"] = 100;
    CHECK(has_error(report_json(s), "training.dataset_gb", "conflict"));
  }
  SECTION("no GPU count and no budget") {
    json s = valid();
    s["hardware"].erase("count");
    CHECK(has_error(report_json(s), "hardware.count", "required"));
  }
  SECTION("a GPU count and a monthly budget both deciding it") {
    json s = valid();
    s["pricing"] = {{"per_gpu_hour", 2}};
    s["budget"] = {{"per_month", 100000}};
    CHECK(has_error(report_json(s), "hardware.count", "conflict"));
  }
  SECTION("LoRA on pre-training") {
    json s = valid();
    s["training"]["method"] = "lora";
    CHECK(has_error(report_json(s), "training.method", "conflict"));
  }
  SECTION("a layout that does not divide the GPUs") {
    json s = valid();
    s["strategy"]["tp"] = 3;
    CHECK(has_error(report_json(s), "strategy.tp", "inconsistent"));
  }
}

TEST_CASE("Catalog references that do not exist suggest the nearest ID", "[validation]") {
  json s = valid();
  s["model"]["preset"] = "llama-2-7";
  s["hardware"]["gpu"] = "h100-sxm5";
  const json report = report_json(s);
  REQUIRE(has_error(report, "model.preset", "unknown_id"));
  REQUIRE(has_error(report, "hardware.gpu", "unknown_id"));
  CHECK(errors_of(report).find("Did you mean \\\"llama-2-7b\\\"") != std::string::npos);
  CHECK(errors_of(report).find("Did you mean \\\"h100-sxm\\\"") != std::string::npos);
}

TEST_CASE("A precision the GPU lacks is refused with the ones it has", "[validation]") {
  json s = valid();
  s["hardware"]["gpu"] = "v100-sxm2-32gb";
  s["strategy"]["precision"] = "bf16";
  const json report = report_json(s);
  REQUIRE(has_error(report, "strategy.precision", "unsupported"));
  CHECK(errors_of(report).find("fp16") != std::string::npos);
  // Without a precision, V100 trains in fp16 against its 125 TFLOPS.
  s["strategy"].erase("precision");
  const auto r = run(s);
  CHECK(r.hardware.precision == traincalc::Precision::fp16);
  CHECK(r.hardware.peak_tflops == 125);
}

TEST_CASE("Text that is not JSON gives a parse error with its position", "[validation]") {
  const auto out = traincalc::estimate_json("{\"model\": {\"params\": 7e9,}\n}", traincalc::builtin_catalog());
  CHECK_FALSE(out.all_valid);
  const json report = json::parse(out.text);
  REQUIRE(has_error(report, "", "parse_error"));
  CHECK(report["errors"][0]["message"].get<std::string>().find("line 1") != std::string::npos);
}

TEST_CASE("An array of scenarios gives an array of reports in order, valid or not", "[validation]") {
  json bad = valid();
  bad["hardware"]["count"] = -1;
  const auto out = traincalc::estimate_json(json::array({valid(), bad, valid()}).dump(), traincalc::builtin_catalog());
  CHECK_FALSE(out.all_valid);
  const json reports = json::parse(out.text);
  REQUIRE(reports.size() == 3);
  CHECK(reports[0]["errors"].empty());
  CHECK(has_error(reports[1], "hardware.count", "not_positive"));
  CHECK(reports[2]["errors"].empty());
}

TEST_CASE("Values too small or too large to mean anything are refused at their field", "[validation][limits]") {
  // Each of these once passed validation and overflowed later (review of the first version).
  struct Case {
    const char* pointer;  // where the value goes in the scenario
    json value;
    const char* field;  // the error's field
  };
  const Case cases[] = {
      {"/strategy/mfu", 1e-300, "strategy.mfu"},
      {"/training/tokens", 1e-300, "training.tokens"},
      {"/training/tokens", 0.5, "training.tokens"},
      {"/hardware/count", 1e8, "hardware.count"},
      {"/hardware/gpu", json{{"name", "X"}, {"memory_gb", 80}, {"bf16_tflops", 1e-300}}, "hardware.gpu.bf16_tflops"},
  };
  for (const Case& c : cases) {
    json s = valid();
    s[json::json_pointer(c.pointer)] = c.value;
    const json report = report_json(s);
    INFO(c.pointer << " = " << c.value.dump() << ": " << report["errors"].dump());
    CHECK(has_error(report, c.field, "out_of_range"));
  }
  SECTION("a dataset read at 1e-300 bytes per token") {
    json s = valid();
    s["training"] = {{"type", "pretrain"}, {"dataset_gb", 1e9}, {"bytes_per_token", 1e-300}};
    CHECK(has_error(report_json(s), "training.bytes_per_token", "out_of_range"));
  }
  SECTION("hours_per_month below one hour") {
    json s = valid();
    s["pricing"] = {{"per_gpu_month", 1000}, {"currency", "USD"}, {"hours_per_month", 1e-300}};
    CHECK(has_error(report_json(s), "pricing.hours_per_month", "out_of_range"));
  }
  SECTION("products of valid fields beyond 1e21 tokens") {
    json s = valid();
    s["training"] = {{"type", "pretrain"}, {"samples", 1e13}, {"seq_len", 1e7}, {"epochs", 1e6}};
    CHECK(has_error(report_json(s), "training.samples", "out_of_range"));
  }
  SECTION("a monthly budget that would rent more than ten million GPUs") {
    json s = valid();
    s["hardware"].erase("count");
    s["pricing"] = {{"per_gpu_hour", 1e-6}, {"currency", "USD"}};
    s["budget"] = {{"per_month", 1e15}};
    CHECK(has_error(report_json(s), "budget.per_month", "out_of_range"));
  }
}

TEST_CASE("Hostile but well-formed inputs give a report or a field error, never NaN or Infinity", "[validation]") {
  const json hostile[] = {
      {{"model", {{"params", 1e16}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1e20}, {"epochs", 10}}},
       {"hardware", {{"gpu", "t4"}, {"count", 1}}},
       {"strategy", {{"mfu", 1e-3}}}},
      {{"model", {{"params", 1}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1}}},
       {"hardware", {{"gpu", "h200-sxm"}, {"count", 10000000}}}},
      {{"model", {{"layers", 1}, {"hidden", 1}, {"heads", 1}, {"ffn_hidden", 1}, {"vocab", 1}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1}}},
       {"hardware", {{"gpu", "a10"}, {"count", 1}}}},
      {{"model",
        {{"layers", 1e5}, {"hidden", 1e8}, {"heads", 1e6}, {"ffn_hidden", 1e8}, {"vocab", 1e8}, {"experts", 1e5}}},
       {"training", {{"type", "pretrain"}, {"samples", 1e13}, {"seq_len", 1e7}}},
       {"hardware", {{"gpu", {{"name", "slow"}, {"memory_gb", 1e-3}, {"fp32_tflops", 1e-3}}}, {"count", 1}}},
       {"strategy", {{"mfu", 1e-3}}}},
      {{"model", {{"params", 7e9}}},
       {"training", {{"type", "pretrain"}, {"dataset_gb", 1e9}, {"bytes_per_token", 0.1}}},
       {"hardware", {{"gpu", "t4"}}},
       {"pricing", {{"per_gpu_hour", 1e-6}}},
       {"budget", {{"deadline_days", 1e-3}}}},
  };
  for (const json& s : hostile) {
    const auto out = traincalc::estimate_json(s.dump(), traincalc::builtin_catalog());
    INFO(out.text);
    const json report = json::parse(out.text);
    CHECK(out.text.find("null") == std::string::npos);  // nlohmann writes NaN and Infinity as null
    CHECK(all_numbers_finite_and_non_negative(report));
    CHECK_FALSE(has_error(report, "", "internal_non_finite"));
    CHECK(out.all_valid == report["errors"].empty());
    for (const auto& e : report["errors"]) CHECK_FALSE(e["field"].get<std::string>().empty());
  }
}

TEST_CASE("A price without a currency takes the budget's, or USD with a warning", "[validation][cost]") {
  json s = valid();
  s["pricing"] = {{"per_gpu_month", 2000}};
  const auto assumed = run(s);
  CHECK(assumed.cost->currency == "USD");
  s["hardware"].erase("count");
  s["budget"] = {{"per_month", 100000}, {"currency", "CNY"}};
  const json report = report_json(s);
  INFO(report.dump());
  CHECK(report["errors"].empty());
  CHECK(report["cost"]["currency"] == "CNY");
}

TEST_CASE("An offer's GPU cannot be contradicted by hardware.gpu", "[validation][catalog]") {
  json s = {{"catalog",
             {{"offers",
               {{{"id", "o1"},
                 {"gpu", {{"name", "X"}, {"memory_gb", 80}, {"fp16_tflops", 312}}},
                 {"per_gpu_hour", 1},
                 {"currency", "USD"},
                 {"source", "test"}}}}}},
            {"model", {{"params", 7e9}}},
            {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
            {"hardware", {{"gpu", "t4"}, {"count", 8}}},
            {"pricing", {{"offer", "o1"}}}};
  CHECK(has_error(report_json(s), "hardware.gpu", "conflict"));
  s["hardware"].erase("gpu");
  CHECK(report_json(s)["errors"].empty());
}

TEST_CASE("Fields that do not change the estimate are named in a warning", "[validation]") {
  json s = valid();
  s["training"]["lora_rank"] = 64;
  s["training"]["bytes_per_token"] = 1.5;
  const auto r = run(s);
  int ignored = 0;
  for (const auto& w : r.warnings) ignored += w.code == "ignored";
  CHECK(ignored == 2);
}

TEST_CASE("The memory's likely range is what validate --memory measures, held out by framework lineage",
          "[memory][validation][range]") {
  const traincalc::MemoryValidationTable table = traincalc::validate_memory(traincalc::builtin_catalog());
  // The engine's range (memory.cpp) is the validation's, to the 4 digits written there.
  const traincalc::LikelyRange range = traincalc::detail::memory_range();
  CHECK(range.low == Approx(table.range.low).epsilon(1e-3));
  CHECK(range.high == Approx(table.range.high).epsilon(1e-3));
  CHECK(range.rows == table.range.rows);
  CHECK(range.lineages == table.range.lineages);
  // Four lineages: Lightning's LitGPT, PyTorch's (torchtitan, torchtune), Hugging Face's, NVIDIA's
  // Megatron (run by NVIDIA and by SimuMax); each source's peaks predicted with the allocator's
  // fragmentation fitted without its lineage.
  CHECK(table.range.lineages == 4);
  for (const auto& s : table.sources) {
    INFO(s.group);
    CHECK(!s.lineage.empty());
  }
  // The coverage test: each lineage's measured peaks against the range built without it, lineages
  // weighing the same: 80%, inside 70-90%. The width guard: 1.17x (high / low) at the median.
  CHECK(table.range_coverage_lineages_pct >= 70);
  CHECK(table.range_coverage_lineages_pct <= 90);
  CHECK(table.range_median_width <= 1.3);
  CHECK(table.median_of_lineages_abs_error_pct <= 5.0);  // 3.9%
}

TEST_CASE("Calibrated on one measured peak, a source's other peaks: the error by distance, beside uncalibrated",
          "[memory][validation][calibration]") {
  // Each source's measured peaks predicted with the fragmentation fitted without its lineage, then
  // calibrated on one of its peaks in turn. A peak departs from the model by its source's bias (the
  // sources' means spread by tau = 0.0290 in log) and by its own (sigma = 0.0588): one measured peak
  // carries tau^2 / (tau^2 + sigma^2) = 19.6% of its departure to another run, and the engine's
  // constants (calibration.cpp) are these.
  const traincalc::MemoryValidationTable table = traincalc::validate_memory(traincalc::builtin_catalog());
  CHECK(traincalc::detail::memory_calibration_between_sd == Approx(table.calibration_between_sd).epsilon(1e-3));
  CHECK(traincalc::detail::memory_calibration_within_sd == Approx(table.calibration_within_sd).epsilon(1e-3));
  CHECK(traincalc::detail::memory_calibration_weight(1) == Approx(table.calibration_weight).epsilon(1e-3));
  REQUIRE(table.calibration.size() == 3);
  for (const auto& d : table.calibration) {
    INFO(d.distance);
    CHECK(d.sources >= 5);
    // Carrying a fifth beats carrying it all at every distance (layout 4.8% against 5.6% in full,
    // GPU count 3.3% against 5.5%, model 4.0% against 5.6%). Uncalibrated (3.7%, 2.9%, 4.2%) the
    // peaks are already near the 3% a calibration aims at: one peak's own scatter about its
    // source is larger than its source's bias, so the target is not met on this data.
    CHECK(d.median_abs_error_pct < d.median_abs_error_full_pct);
    CHECK(d.median_abs_error_pct <= 5.0);
    CHECK(d.low < 1.0);
    CHECK(d.high > 1.0);
  }
}
