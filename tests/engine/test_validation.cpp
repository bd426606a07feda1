// Bad input never crashes and never yields a number: it yields errors naming the field, a stable
// code and a message that says what to change.
#include <cmath>

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
  CHECK(r.hardware.precision == "fp16");
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

TEST_CASE("Hostile but well-formed inputs never produce NaN or Infinity", "[validation]") {
  const json hostile[] = {
      {{"model", {{"params", 1e16}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1e20}, {"epochs", 1e6}}},
       {"hardware", {{"gpu", "t4"}, {"count", 1}}},
       {"strategy", {{"mfu", 1e-300}}}},
      {{"model", {{"params", 1}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1e-300}}},
       {"hardware", {{"gpu", "h200-sxm"}, {"count", 10000000}}}},
      {{"model", {{"layers", 1}, {"hidden", 1}, {"heads", 1}, {"ffn_hidden", 1}, {"vocab", 1}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1}}},
       {"hardware", {{"gpu", "a10"}, {"count", 1}}}},
  };
  for (const json& s : hostile) {
    const std::string text = traincalc::estimate_json(s.dump(), traincalc::builtin_catalog()).text;
    INFO(text);
    CHECK(text.find("null") == std::string::npos);  // nlohmann writes NaN and Infinity as null
    CHECK(all_numbers_finite_and_non_negative(json::parse(text)));
  }
}
