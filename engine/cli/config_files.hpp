// A framework's config file as the engine's import reads it (traincalc import-config).
#pragma once

#include <string>

namespace traincalc::cli {

// JSON as it is, YAML (.yaml, .yml) through yaml-cpp and TOML (.toml) through toml++ as JSON text,
// anything else (a Megatron-LM launch script) as it is; `error` says why a file could not be read.
struct ConfigFile {
  std::string text;
  std::string error;
};
ConfigFile config_as_json(const std::string& path, const std::string& text);

}  // namespace traincalc::cli
