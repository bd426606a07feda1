// YAML and TOML read by Debian's yaml-cpp and toml++, converted to the JSON tree the engine's config
// import reads. Scalars keep the types their readers give: YAML's plain scalars as booleans (true,
// false), nulls and numbers where they read as one, quoted ones as text; TOML's dates and times as
// text.
#include "config_files.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

namespace traincalc::cli {

namespace {

using json = nlohmann::ordered_json;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

json from_yaml(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& item : node) out[item.first.as<std::string>()] = from_yaml(item.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node) out.push_back(from_yaml(item));
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string text = node.Scalar();
      if (node.Tag() == "!") return text;  // quoted
      if (text == "true" || text == "True" || text == "TRUE") return true;
      if (text == "false" || text == "False" || text == "FALSE") return false;
      if (text == "null" || text == "Null" || text == "NULL" || text == "~") return nullptr;
      if (!text.empty()) {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (end == text.c_str() + text.size() && std::isfinite(x)) return x;
      }
      return text;
    }
    default:
      return nullptr;
  }
}

json from_toml(const toml::node& node) {
  if (const auto* table = node.as_table()) {
    json out = json::object();
    for (const auto& [key, value] : *table) out[std::string(key.str())] = from_toml(value);
    return out;
  }
  if (const auto* array = node.as_array()) {
    json out = json::array();
    for (const auto& value : *array) out.push_back(from_toml(value));
    return out;
  }
  if (const auto* v = node.as_string()) return v->get();
  if (const auto* v = node.as_integer()) return v->get();
  if (const auto* v = node.as_floating_point()) return v->get();
  if (const auto* v = node.as_boolean()) return v->get();
  std::ostringstream text;  // a date, a time or both
  node.visit([&](const auto& value) { text << value; });
  return text.str();
}

}  // namespace

ConfigFile config_as_json(const std::string& path, const std::string& text) {
  try {
    if (ends_with(path, ".yaml") || ends_with(path, ".yml")) return {from_yaml(YAML::Load(text)).dump(), ""};
    if (ends_with(path, ".toml")) return {from_toml(toml::parse(text, path)).dump(), ""};
  } catch (const YAML::Exception& e) {
    return {"", path + " is not YAML: " + e.what()};
  } catch (const toml::parse_error& e) {
    std::ostringstream where;
    where << e.source().begin;
    return {"", path + " is not TOML: " + std::string(e.description()) + " (" + where.str() + ")"};
  }
  return {text, ""};
}

}  // namespace traincalc::cli
