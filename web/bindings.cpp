// The calculator's binding: with import_bindings.cpp and validation_bindings.cpp, the only C++ that
// knows JavaScript exists. Strings cross the boundary (JSON in, JSON out), so nothing in JavaScript
// ever has to delete a handle, and embind never turns a bad argument into NaN.
#include <emscripten/bind.h>

#include <string>

#include "traincalc/catalog.hpp"
#include "traincalc/json_api.hpp"

namespace {

// A vendor catalog (JSON text, may be empty) merged over the built-in one: once when it is first
// given, then reused for every call with the same text (the page sends it with each request).
const traincalc::CatalogLoad& catalog_with(const std::string& extra_catalog_json) {
  static const traincalc::CatalogLoad builtin{traincalc::builtin_catalog(), {}};
  static std::string merged_text;
  static traincalc::CatalogLoad merged;
  if (extra_catalog_json.empty()) return builtin;
  if (extra_catalog_json != merged_text) {
    merged = traincalc::merge_catalog_json(extra_catalog_json, traincalc::builtin_catalog());
    for (auto& e : merged.errors) e.field = e.field.empty() ? "catalog" : "catalog." + e.field;
    merged_text = extra_catalog_json;
  }
  return merged;
}

std::string estimate(const std::string& scenario_json, const std::string& extra_catalog_json) {
  const traincalc::CatalogLoad& load = catalog_with(extra_catalog_json);
  if (!load.errors.empty()) return traincalc::error_report_json(load.errors);
  return traincalc::estimate_json(scenario_json, load.catalog).text;
}

// The scenario on every cloud offer (or GPU), ranked; request as in traincalc::compare_json.
std::string compare(const std::string& scenario_json, const std::string& extra_catalog_json,
                    const std::string& request_json) {
  const traincalc::CatalogLoad& load = catalog_with(extra_catalog_json);
  if (!load.errors.empty()) return traincalc::error_report_json(load.errors);
  return traincalc::compare_json(scenario_json, load.catalog, std::string_view(request_json));
}

std::string catalog(const std::string& extra_catalog_json) {
  const traincalc::CatalogLoad& load = catalog_with(extra_catalog_json);
  if (!load.errors.empty()) return traincalc::error_report_json(load.errors);
  return traincalc::catalog_to_json(load.catalog);
}

std::string version() {
  return TRAINCALC_VERSION;
}

}  // namespace

EMSCRIPTEN_BINDINGS(traincalc) {
  emscripten::function("estimate", &estimate);
  emscripten::function("compare", &compare);
  emscripten::function("catalog", &catalog);
  emscripten::function("version", &version);
}
