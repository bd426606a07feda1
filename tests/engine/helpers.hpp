// Small helpers shared by the engine tests: run a scenario written as JSON text.
#pragma once

#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
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

struct Run {
  int status = -1;
  std::string out;
};

// The traincalc command line run with `args` (the shell reads them): its status and standard output.
inline Run cli(const std::string& args) {
  // The redirection goes before the arguments so that an argument may end in a here-document.
  const std::string command = std::string(TRAINCALC_CLI) + " 2>/dev/null " + args;
  Run run;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// A file of the repository, by its path from the root ("docs/reference.md"), as text.
inline std::string source_file(const std::string& path) {
  std::ifstream in(std::string(TRAINCALC_SOURCE_DIR) + "/" + path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace test
