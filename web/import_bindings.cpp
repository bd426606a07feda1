// The imports' binding: text from other tools read into the scenario's terms. A module of its own,
// which the page loads the first time someone pastes a config or a log, so that the calculator's
// download leaves the readers out; the whole engine's module (validation_bindings.cpp) links it too.
#include <emscripten/bind.h>

#include <string>

#include "traincalc/json_api.hpp"

namespace {

// A Hugging Face config.json: the architecture, its name and what was assumed (see traincalc import-hf).
std::string import_hf(const std::string& config_json) {
  return traincalc::hf_import_to_json(traincalc::import_hf_config(config_json));
}

// A pasted training log: what it measured, for the measured run (see traincalc parse-log).
std::string parse_log(const std::string& text) {
  return traincalc::log_reading_to_json(traincalc::parse_log(text));
}

}  // namespace

EMSCRIPTEN_BINDINGS(traincalc_import) {
  emscripten::function("import_hf_config", &import_hf);
  emscripten::function("parse_log", &parse_log);
}
