// The validation view's binding: the engine against its validation data, and the contract as JSON
// Schema. Linked with bindings.cpp into a module of its own, so that the calculator's download leaves
// the data and the contract's descriptions out (the page loads this one when the view opens; the
// offline single file embeds it alone). Each table comes as JSON, as `traincalc validate --json`
// prints it.
#include <emscripten/bind.h>

#include <string>

#include "traincalc/catalog.hpp"
#include "traincalc/contract.hpp"
#include "traincalc/json_api.hpp"

namespace {

// The engine against the published runs it was calibrated on (see traincalc validate).
std::string validation(bool with_planner) {
  return traincalc::validation_json(traincalc::builtin_catalog(), with_planner);
}

// The memory model against measured peaks, held out by source (see traincalc validate --memory).
std::string memory_validation() {
  return traincalc::memory_validation_to_json(traincalc::validate_memory(traincalc::builtin_catalog()));
}

// The step model against measured step times, held out by source, with the likely ranges' coverage
// (see traincalc validate --speed). About a second: the constants are refitted without each source.
std::string speed_validation() {
  return traincalc::speed_validation_to_json(traincalc::validate_speed(traincalc::builtin_catalog()));
}

// Published whole runs against the expected run, each held out (see traincalc validate --runs).
std::string run_validation() {
  return traincalc::run_validation_to_json(traincalc::validate_runs(traincalc::builtin_catalog()));
}

// The contract as JSON Schema ("scenario", "catalog" or "report"; empty text for another name).
std::string schema(const std::string& which) {
  return traincalc::contract::json_schema(which);
}

}  // namespace

EMSCRIPTEN_BINDINGS(traincalc_validation) {
  emscripten::function("schema", &schema);
  emscripten::function("validation", &validation);
  emscripten::function("memory_validation", &memory_validation);
  emscripten::function("speed_validation", &speed_validation);
  emscripten::function("run_validation", &run_validation);
}
