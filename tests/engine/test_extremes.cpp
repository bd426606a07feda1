// Extreme but valid inputs give finite, sensible reports; inputs beyond the limits are refused with
// a message naming the field (or, for text too large or too deeply nested to read, the input).
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

#include "helpers.hpp"

using namespace test;

namespace {

json valid(const json& scenario) {
  const json r = report_json(scenario);
  INFO(r.dump().substr(0, 2000));
  REQUIRE(r["errors"].empty());
  CHECK(finite_non_negative(r));
  return r;
}

}  // namespace

TEST_CASE("Extreme but valid: 10^15 parameters, one token, a million GPUs", "[validation][extreme]") {
  // A quadrillion parameters: 6 x 10^15 x 10^13 FLOPs, a finite number of days, and far too big for
  // any GPU, which the report says rather than printing a fit.
  const json huge = valid({{"model", {{"params", 1e15}}},
                           {"training", {{"type", "pretrain"}, {"tokens", 1e13}}},
                           {"hardware", {{"gpu", "h100-sxm"}, {"count", 1024}}}});
  CHECK(huge["compute"]["total_flops"] == Approx(6e28));
  CHECK(huge["memory"]["fits"] == false);

  // One token: a positive, tiny time (not zero, not NaN), and the minimum data warning-free.
  const json one = valid({{"model", {{"preset", "llama-2-7b"}}},
                          {"training", {{"type", "pretrain"}, {"tokens", 1}}},
                          {"hardware", {{"gpu", "h100-sxm"}, {"count", 1}}}});
  CHECK(one["time"]["wall_clock_days"].get<double>() > 0);
  CHECK(one["time"]["wall_clock_days"].get<double>() < 1e-3);

  // A million GPUs for a 405B model (126 layers). With a batch of 256 sequences no layout can use them
  // (each data-parallel rank needs a sequence, and tp 8 x cp 2 x 126 stages x 256 is 516,096): a
  // finite report that says so. (With 512, 125 uneven stages of one or two layers would do.) With a
  // batch of two million sequences the planner finds one within its search budget.
  json s = {{"model", {{"preset", "llama-3.1-405b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 1.5e13}, {"global_batch_sequences", 256}}},
            {"hardware", {{"gpu", "h100-sxm"}, {"count", 1000000}}}};
  const json no_layout = valid(s);
  CHECK(no_layout["warnings"].dump().find("no_layout") != std::string::npos);
  s["training"]["global_batch_sequences"] = 2000000;
  const json million = valid(s);
  CHECK(million["plan"]["gpus"] == 1000000);
  CHECK(million["parallelism"]["chosen_by"] == "planner");
  CHECK(million["parallelism"]["layouts_evaluated"].get<double>() <= 200000);
  CHECK(million["time"]["mfu"].get<double>() > 0);
}

TEST_CASE("Extreme but valid: a 1 MB pasted config imports like the small one", "[validation][extreme][hf_import]") {
  std::ifstream in(TRAINCALC_SOURCE_DIR "/tests/fixtures/hf/llama-2-7b.json");
  REQUIRE(in);
  json config = json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  const traincalc::HfImport small = traincalc::import_hf_config(config.dump());
  REQUIRE(small.errors.empty());
  // Padded to over a megabyte with the kind of keys real configs carry (a long id list, notes).
  config["_comment"] = std::string(700000, 'x');
  config["suppress_tokens"] = json::array();
  for (int i = 0; i < 60000; ++i) config["suppress_tokens"].push_back(i);
  const std::string text = config.dump();
  REQUIRE(text.size() > 1000000);
  const traincalc::HfImport big = traincalc::import_hf_config(text);
  CHECK(big.errors.empty());
  CHECK(big.params == small.params);  // 6,738,415,616 (Llama 2 7B)
  CHECK(big.params == 6738415616.0);
}

TEST_CASE("Beyond the limits: refused with a message, not computed", "[validation][extreme]") {
  const json base = {{"model", {{"params", 7e9}}},
                     {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
                     {"hardware", {{"gpu", "h100-sxm"}, {"count", 8}}}};
  json s = base;
  s["model"]["params"] = 1e17;
  CHECK(has_error(report_json(s), "model.params", "out_of_range"));
  s = base;
  s["hardware"]["count"] = 1e8;
  CHECK(has_error(report_json(s), "hardware.count", "out_of_range"));
  s = base;
  s["training"]["tokens"] = 1e21;
  CHECK(has_error(report_json(s), "training.tokens", "out_of_range"));

  // Text too large, or nested too deeply, to read: one error for the input, before any parsing
  // (a deeply nested config once exhausted the stack in the importer).
  const std::string deep = "{\"model\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK(has_error(json::parse(traincalc::estimate_json(deep, traincalc::builtin_catalog()).text), "", "too_deep"));
  const traincalc::HfImport deep_config = traincalc::import_hf_config(deep);
  REQUIRE(deep_config.errors.size() == 1);
  CHECK(deep_config.errors[0].code == "too_deep");
  CHECK(traincalc::merge_catalog_json(deep, traincalc::builtin_catalog()).errors.at(0).code == "too_deep");
  const std::string large = "{\"label\": \"" + std::string(17000000, 'x') + "\"}";
  const json too_large = json::parse(traincalc::estimate_json(large, traincalc::builtin_catalog()).text);
  REQUIRE(has_error(too_large, "", "too_large"));
  CHECK(too_large["errors"][0]["message"].get<std::string>().find("16 MB") != std::string::npos);
  // 64 levels are still read (and the extra nesting named as the wrong type).
  const std::string nested_ok = "{\"model\":" + std::string(63, '[') + std::string(63, ']') + "}";
  CHECK(has_error(json::parse(traincalc::estimate_json(nested_ok, traincalc::builtin_catalog()).text), "model",
                  "wrong_type"));
}
