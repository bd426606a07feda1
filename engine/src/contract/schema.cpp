// The contract's records written out: JSON Schema (draft 2020-12) for integrators' validators, and
// the Markdown reference in docs/reference.md. Nothing here knows a field by name.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "traincalc/contract.hpp"
#include "traincalc/currencies.hpp"
#include "traincalc/issue.hpp"

namespace traincalc::contract {

namespace {

using json = nlohmann::ordered_json;

std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", x);
  return buffer;
}

// "report.time.breakdown_seconds" -> "report.time.breakdown_seconds"; "[]" dropped for a $defs key.
std::string def_name(const Record& record) {
  std::string name;
  for (char c : record.name)
    if (c != '[' && c != ']') name += c;
  return name;
}

// Every record reachable from `root`, root first, each once, in the order a reader meets them.
void reachable(const Record& root, std::vector<const Record*>& out) {
  for (const Record* seen : out)
    if (seen == &root) return;
  out.push_back(&root);
  for_each_field(root, [&](const Field& field) {
    if (field.record) reachable(*field.record, out);
  });
}

json number_schema(const Field& field) {
  json s = {{"type", field.rule.integer ? "integer" : "number"}};
  if (field.rule.min_exclusive)
    s["exclusiveMinimum"] = field.rule.min;
  else
    s["minimum"] = field.rule.min;
  if (field.rule.max < 1e300) s["maximum"] = field.rule.max;
  return s;
}

std::string unit_and_default(const Field& field) {
  std::string text(field.description);
  if (!field.unit.empty()) text += " Unit: " + std::string(field.unit) + ".";
  if (!field.default_value.empty()) text += " Default: " + std::string(field.default_value) + ".";
  return text;
}

json record_schema(const Record& record, std::span<const std::string_view> also_required = {});

json field_schema(const Field& field) {
  json s;
  const auto ref = [&] { return json{{"$ref", "#/$defs/" + def_name(*field.record)}}; };
  switch (field.type) {
    case Type::number:
    case Type::integer:
      s = number_schema(field);
      break;
    case Type::boolean:
      s = {{"type", "boolean"}};
      break;
    case Type::text:
      s = {{"type", "string"}};
      // Text with known values (currency codes): others are accepted, these are the ones understood.
      if (!field.choices.empty()) s["examples"] = std::vector<std::string>(field.choices.begin(), field.choices.end());
      break;
    case Type::choice:
      s = {{"enum", json(std::vector<std::string>(field.choices.begin(), field.choices.end()))}};
      break;
    case Type::number_or_word:
      s = {{"anyOf",
            {number_schema(field), {{"enum", std::vector<std::string>(field.choices.begin(), field.choices.end())}}}}};
      break;
    case Type::object:
      s = field.record ? ref() : json{{"type", "object"}};
      break;
    case Type::id_or_object:
      s = {{"anyOf", {{{"type", "string"}}, ref()}}};
      break;
    case Type::list: {
      // A catalog row needs more than its record does (an ID and a source): its own schema, whole.
      json items = !field.row_requires.empty() ? record_schema(*field.record, field.row_requires)
                   : field.record              ? ref()
                                               : json::object();
      s = {{"type", "array"}, {"items", items}};
      break;
    }
    case Type::number_map:
      s = {{"type", "object"}, {"additionalProperties", {{"type", "number"}, {"minimum", 0}}}};
      break;
    case Type::text_map:
      s = {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}};
      break;
    case Type::text_list:
      s = {{"type", "array"}, {"items", {{"type", "string"}}}};
      break;
    case Type::number_list:
      s = {{"type", "array"}, {"items", number_schema(field)}};
      break;
    case Type::any:
      s = json::object();
      break;
  }
  s["description"] = unit_and_default(field);
  if (!field.unit.empty()) s["x-unit"] = std::string(field.unit);
  // A default that is a JSON value (a number, true/false, or one of the words) is written as one.
  if (!field.default_value.empty()) {
    const std::string d(field.default_value);
    json value = json::parse(d, nullptr, false);
    if (!value.is_discarded() && (value.is_number() || value.is_boolean())) {
      s["default"] = value;
    } else {
      for (auto word : field.choices)
        if (word == field.default_value) s["default"] = d;
    }
  }
  return s;
}

json record_schema(const Record& record, std::span<const std::string_view> also_required) {
  json properties = json::object();
  std::vector<std::string> required(also_required.begin(), also_required.end()), required_when_valid;
  for_each_field(record, [&](const Field& field) {
    properties[std::string(field.name)] = field_schema(field);
    if (!field.required || std::find(required.begin(), required.end(), field.name) != required.end()) return;
    const bool always = !record.errors_only_form || field.name == "errors" || field.name == "warnings";
    (always ? required : required_when_valid).emplace_back(field.name);
  });
  json s = {{"type", "object"},
            {"description", std::string(record.description)},
            {"properties", properties},
            {"additionalProperties", false}};
  if (!required.empty()) s["required"] = required;
  if (!required_when_valid.empty()) {
    s["if"] = {{"type", "object"}, {"properties", {{"errors", {{"type", "array"}, {"maxItems", 0}}}}}};
    s["then"] = {{"type", "object"}, {"required", required_when_valid}};
  }
  return s;
}

const Record* root_of(std::string_view which) {
  if (which == "scenario") return &scenario;
  if (which == "catalog") return &catalog;
  if (which == "report") return &report;
  return nullptr;
}

std::string range_text(const Field& field) {
  if (field.type != Type::number && field.type != Type::integer && field.type != Type::number_or_word) return "";
  std::string text;  // a signed figure of a report (-1e300 to 1e300) has no range to state
  if (field.rule.min > -1e300) text = (field.rule.min_exclusive ? "> " : "≥ ") + number_text(field.rule.min);
  if (field.rule.max < 1e300) text += (text.empty() ? "≤ " : ", ≤ ") + number_text(field.rule.max);
  if (field.rule.integer) text += ", whole";
  return text;
}

std::string type_text(const Field& field) {
  const auto words = [&] {
    std::string text;
    for (auto word : field.choices) text += (text.empty() ? "`\"" : "`, `\"") + std::string(word) + "\"";
    return text + "`";
  };
  const auto link = [&] {
    return field.record ? "[" + std::string(field.record->name) + "](#" + def_name(*field.record) + ")" : "object";
  };
  switch (field.type) {
    case Type::number:
      return "number";
    case Type::integer:
      return "integer";
    case Type::boolean:
      return "boolean";
    case Type::text:
      return field.choices.empty() ? "string" : "string, e.g. " + words();
    case Type::choice:
      return words();
    case Type::number_or_word:
      return (field.rule.integer ? "integer or " : "number or ") + words();
    case Type::object:
      return link();
    case Type::id_or_object:
      return "ID or " + link();
    case Type::list:
      return "list of " + link();
    case Type::number_map:
      return "object of numbers";
    case Type::text_map:
      return "object of strings";
    case Type::text_list:
      return "list of strings";
    case Type::number_list:
      return field.rule.integer ? "list of integers" : "list of numbers";
    case Type::any:
      return "any";
  }
  return "";
}

std::string cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::vector<std::string> departures(const json& value, const Record& record, const std::string& path) {
  std::vector<std::string> out;
  if (!value.is_object()) return {path + ": not an object"};
  const auto where = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  for (const auto& [key, child] : value.items()) {
    const Field* field = find(record, key);
    if (!field) {
      out.push_back(where(key) + ": undeclared");
      continue;
    }
    if (!field->record) continue;
    std::vector<std::string> inner;
    if (field->type == Type::object || (field->type == Type::id_or_object && child.is_object())) {
      inner = departures(child, *field->record, where(key));
    } else if (field->type == Type::list && child.is_array()) {
      for (std::size_t i = 0; i < child.size(); ++i) {
        auto row = departures(child[i], *field->record, where(key) + "[" + std::to_string(i) + "]");
        inner.insert(inner.end(), row.begin(), row.end());
      }
    }
    out.insert(out.end(), inner.begin(), inner.end());
  }
  const bool valid_form = !record.errors_only_form || (value.contains("errors") && value["errors"].empty());
  for_each_field(record, [&](const Field& field) {
    const bool needed = field.required && (valid_form || field.name == "errors" || field.name == "warnings");
    if (needed && !value.contains(field.name)) out.push_back(where(std::string(field.name)) + ": missing");
  });
  return out;
}

std::string json_schema(std::string_view which, int indent) {
  const Record* root = root_of(which);
  if (!root) return "";
  std::vector<const Record*> records;
  reachable(*root, records);
  json defs = json::object();
  for (std::size_t i = 1; i < records.size(); ++i) defs[def_name(*records[i])] = record_schema(*records[i]);
  json s = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
            {"$id", "urn:traincalc:schema:" + std::string(which) + ":1"},
            {"title", "traincalc " + std::string(which) + ", version 1"}};
  s.update(record_schema(*root));
  if (!defs.empty()) s["$defs"] = defs;
  return s.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string javascript_choices() {
  json choices = json::object();
  const auto walk = [&](const Record& record, const std::string& prefix, const auto& self) -> void {
    for_each_field(record, [&](const Field& field) {
      const std::string path = prefix.empty() ? std::string(field.name) : prefix + "." + std::string(field.name);
      if (field.type == Type::choice)
        choices[path] = std::vector<std::string>(field.choices.begin(), field.choices.end());
      else if (field.type == Type::object && field.record && field.record != &catalog)
        self(*field.record, path, self);
    });
  };
  walk(scenario, "", walk);
  std::string js =
      "// Generated by `traincalc schema choices` from the engine's field tables (engine/src/contract/contract.cpp);\n"
      "// a test keeps it current. The scenario's choices by dotted path, in the order the page offers them.\n"
      "export const CHOICES = {\n";
  for (const auto& [path, names] : choices.items()) js += "  " + json(path).dump() + ": " + names.dump() + ",\n";
  js += "};\n\n// The currencies the engine converts between (its reference rates of " + std::string(reference_rates_date) +
        "),\n// for the price's, the budget's and the report's currency.\nexport const CURRENCIES = [";
  for (std::size_t i = 0; i < reference_rates.size(); ++i)
    js += (i ? "," : "") + json(std::string(reference_rates[i].code)).dump();
  return js + "];\n";
}

namespace {

// Each record's section of the reference: its name, description and a table of its fields.
std::string record_sections(const std::vector<const Record*>& records) {
  std::string md;
  for (const Record* record : records) {
    md += "\n## " + std::string(record->name) + "\n<a id=\"" + def_name(*record) + "\"></a>\n\n" +
          std::string(record->description) + "\n\n";
    md += "| field | type | unit | range | default | description |\n|---|---|---|---|---|---|\n";
    for_each_field(*record, [&](const Field& field) {
      std::string description(field.description);
      if (field.required) description = "**Required.** " + description;
      if (!field.row_requires.empty()) {
        std::string keys;
        for (auto key : field.row_requires) keys += (keys.empty() ? "`" : "` and `") + std::string(key);
        description += " Each row needs " + keys + "`.";
      }
      md += "| `" + std::string(field.name) + "` | " + cell(type_text(field)) + " | " + cell(std::string(field.unit)) +
            " | " + range_text(field) + " | " + cell(std::string(field.default_value)) + " | " + cell(description) +
            " |\n";
    });
    if (record->errors_only_form)
      md +=
          "\nAn input that cannot be estimated gives only `warnings` and `errors`; the other required "
          "fields are required when `errors` is empty.\n";
  }
  return md;
}

// The scenario's, the catalog's and the report's records, in the order a reader meets them.
std::vector<const Record*> contract_records() {
  std::vector<const Record*> records;
  for (const char* which : {"scenario", "catalog", "report"}) reachable(*root_of(which), records);
  return records;
}

}  // namespace

std::string markdown_reference() {
  std::string md =
      "# Scenario, catalog and report reference\n\n"
      "Generated by `traincalc schema reference` from the engine's field tables "
      "(`engine/src/contract/contract.cpp`); a test fails when this file and the tables differ. Every object "
      "refuses keys it does not list. The same tables give the JSON Schemas: `traincalc schema "
      "scenario|catalog|report`, and `schema/*.schema.json` in the built site.\n";
  md += record_sections(contract_records());
  md += "\n## Issue codes\n\nEvery `code` an error or warning carries (`traincalc schema issues` gives them as "
        "JSON).\n\n| code | meaning |\n|---|---|\n";
  for (const IssueCodeInfo& info : issue_codes)
    md += "| `" + std::string(info.code) + "` | " + cell(std::string(info.meaning)) + " |\n";
  md += "\n## Issue reasons\n\nWhere a code covers several checks, `params.reason` names the one that failed, so "
        "that a page can word each in its language:";
  for (std::size_t i = 0; i < std::size(issue_reasons); ++i)
    md += std::string(i ? ", `" : " `") + std::string(issue_reasons[i]) + "`";
  return md + ".\n";
}

std::string markdown_sections(std::string_view heading, std::string_view intro, std::span<const Record* const> roots) {
  std::vector<const Record*> records = contract_records();
  const std::size_t known = records.size();
  for (const Record* root : roots) reachable(*root, records);
  records.erase(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(known));
  return "\n# " + std::string(heading) + "\n\n" + std::string(intro) + "\n" + record_sections(records);
}

std::string issues_json() {
  json codes = json::array(), reasons = json::array();
  for (const IssueCodeInfo& info : issue_codes)
    codes.push_back({{"code", std::string(info.code)}, {"meaning", std::string(info.meaning)}});
  for (std::string_view reason : issue_reasons) reasons.push_back(std::string(reason));
  return json{{"codes", codes}, {"reasons", reasons}}.dump(2) + "\n";
}

}  // namespace traincalc::contract
