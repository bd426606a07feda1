// libFuzzer target: arbitrary bytes into every JSON entry point of the engine (scenario, catalog,
// Hugging Face config, comparison), as the CLI and the page call them. Built with clang's
// -fsanitize=fuzzer,address,undefined (preset "sanitize"); scripts/test.sh runs it for a bounded
// time over the checked-in corpus (tests/fuzz/corpus). A finding is a crash, a sanitizer report,
// or an output that breaks the contract: not JSON, no "errors" list, a number that is not finite
// or is negative, or the engine's own internal_* error (a guard that caught a bug).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "traincalc/catalog.hpp"
#include "traincalc/json_api.hpp"

namespace {

using json = nlohmann::json;

[[noreturn]] void finding(const char* what, std::string_view output) {
  std::fprintf(stderr, "fuzz_engine: %s\n%.*s\n", what, static_cast<int>(std::min<std::size_t>(output.size(), 4000)),
               output.data());
  std::abort();
}

// Every number finite and (in a report) not negative; every error code not an internal one.
void check_value(const json& value, bool numbers_non_negative, std::string_view output) {
  if (value.is_number_float() || value.is_number_integer()) {
    const double x = value.get<double>();
    if (!std::isfinite(x)) finding("a number that is not finite", output);
    if (numbers_non_negative && x < 0) finding("a negative number in a report", output);
  } else if (value.is_object()) {
    if (auto code = value.find("code");
        code != value.end() && code->is_string() && code->get<std::string>().rfind("internal", 0) == 0)
      finding("an internal error: a guard in the engine caught a bug", output);
    for (const auto& child : value) check_value(child, numbers_non_negative, output);
  } else if (value.is_array()) {
    for (const auto& child : value) check_value(child, numbers_non_negative, output);
  }
}

json parse_output(const std::string& output) {
  json out = json::parse(output, nullptr, false);
  if (out.is_discarded()) finding("output that is not JSON", output);
  return out;
}

void check_report(const std::string& output) {
  const json out = parse_output(output);
  const auto check_one = [&](const json& r) {
    if (!r.is_object() || !r.contains("errors") || !r["errors"].is_array())
      finding("a report without errors[]", output);
    // A scenario's own "label" may be any text; numbers in a report are amounts.
    check_value(r, true, output);
  };
  if (out.is_array()) {
    for (const auto& r : out) check_one(r);
  } else {
    check_one(out);
  }
}

// A comparison: an error report, or rows each with a report.
void check_report_list(const std::string& output) {
  const json out = parse_output(output);
  if (!out.is_object() || !out.contains("errors")) finding("a comparison without errors[]", output);
  check_value(out, true, output);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const traincalc::Catalog& catalog = traincalc::builtin_catalog();

  check_report(traincalc::estimate_json(text, catalog).text);

  // The same bytes as a vendor catalog over the built-in one, and as a Hugging Face config.
  const traincalc::CatalogLoad load = traincalc::merge_catalog_json(text, catalog);
  for (const auto& e : load.errors)
    if (e.code.name().rfind("internal", 0) == 0) finding("an internal error reading a catalog", e.message);
  if (load.errors.empty()) {
    // A catalog that loads is printed back and used, as the page does with a vendor's: a scenario on
    // its first GPU and on its first offer.
    const std::string listed = traincalc::catalog_to_json(load.catalog);
    check_value(parse_output(listed), false, listed);
    if (!load.catalog.gpus.empty()) {
      const std::string s = R"({"model": {"preset": "llama-2-7b"}, "training": {"type": "pretrain", "tokens": 1e11},)"
                            R"( "hardware": {"gpu": ")" +
                            load.catalog.gpus.front().id + R"(", "count": 16}})";
      check_report(traincalc::estimate_json(s, load.catalog).text);
    }
    if (!load.catalog.offers.empty()) {
      const std::string s = R"({"model": {"params": 7e9}, "training": {"type": "pretrain", "tokens": 1e11},)"
                            R"( "strategy": {"mfu": 0.4}, "pricing": {"offer": ")" +
                            load.catalog.offers.front().id + R"("}, "budget": {"per_month": 100000}})";
      check_report(traincalc::estimate_json(s, load.catalog).text);
    }
  }
  const std::string imported = traincalc::hf_import_to_json(traincalc::import_hf_config(text));
  check_value(parse_output(imported), true, imported);

  // And as the scenario of a comparison over two offers and two GPUs (all of them would be slow).
  traincalc::CompareRequest offers;
  offers.ids = {"aws-p5.48xlarge-on-demand-h100-sxm", "aws-g6.xlarge-on-demand-l4"};
  const std::string ranked = traincalc::compare_json(text, catalog, offers);
  check_report_list(ranked);
  traincalc::CompareRequest gpus;
  gpus.kind = traincalc::CompareKind::gpus;
  gpus.ids = {"a100-80gb-sxm", "v100-sxm2-32gb"};
  gpus.gpus_when_unset = 16;
  const std::string on_gpus = traincalc::compare_json(text, catalog, gpus);
  check_report_list(on_gpus);
  return 0;
}
