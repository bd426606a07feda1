// Small helpers shared by the engine tests: run a scenario written as JSON text.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "traincalc/catalog.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"

namespace test {

using json = nlohmann::json;
using Catch::Matchers::WithinRel;

// Estimates a scenario that must be valid.
inline traincalc::Report run(const json& scenario) {
  traincalc::ScenarioParse parse = traincalc::parse_scenario(scenario.dump(), traincalc::builtin_catalog());
  INFO(scenario.dump());
  for (const auto& e : parse.errors) INFO(e.field + ": " + e.message);
  REQUIRE(parse.errors.empty());
  traincalc::Report report = traincalc::estimate(*parse.scenario);
  // As estimate_json does: warnings from validation come first.
  report.warnings.insert(report.warnings.begin(), parse.warnings.begin(), parse.warnings.end());
  for (const auto& e : report.errors) INFO(e.field + ": " + e.message);
  REQUIRE(report.errors.empty());
  return report;
}

// The JSON report the public entry point gives (valid or not).
inline json report_json(const json& scenario) {
  return json::parse(traincalc::estimate_json(scenario.dump(), traincalc::builtin_catalog()).text);
}

inline bool has_error(const json& report, const std::string& field, const std::string& code) {
  for (const auto& e : report["errors"])
    if (e["field"] == field && e["code"] == code) return true;
  return false;
}

inline bool has_warning(const traincalc::Report& report, const std::string& code) {
  for (const auto& w : report.warnings)
    if (w.code == code) return true;
  return false;
}

// A JSON report's warning with this code, or nullptr.
inline const json* warning_of(const json& report, const std::string& code) {
  for (const auto& w : report["warnings"])
    if (w["code"] == code) return &w;
  return nullptr;
}

// The scenario with a memory suggestion's changes ({"strategy.zero": 3, ...}) applied.
inline json with_changes(json scenario, const json& changes) {
  for (const auto& [path, value] : changes.items()) {
    const auto dot = path.find('.');
    scenario[path.substr(0, dot)][path.substr(dot + 1)] = value;
  }
  return scenario;
}

// Every number in a JSON value is finite and not negative (what the engine promises of a report).
inline bool finite_non_negative(const json& value) {
  if (value.is_number()) return std::isfinite(value.get<double>()) && value.get<double>() >= 0;
  if (value.is_structured())
    for (const auto& child : value)
      if (!finite_non_negative(child)) return false;
  return true;
}

inline std::string errors_of(const json& report) {
  return report["errors"].dump();
}

}  // namespace test
