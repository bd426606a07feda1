#include <cctype>
#include "contract/json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace traincalc::detail {

std::string format_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

std::string describe(const json& value) {
  switch (value.type()) {
    case json::value_t::string: {
      std::string s = value.get_ref<const std::string&>();
      if (s.size() > 40) s = s.substr(0, 37) + "...";
      return "a string (\"" + s + "\")";
    }
    case json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return format_number(value.get<double>());
    default:
      return "an unsupported value";
  }
}

std::string join_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return std::string(parent) + "." + std::string(key);
}

static std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> closest_key(std::string_view key, const std::vector<std::string>& allowed) {
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const auto& candidate : allowed) {
    const std::size_t distance = edit_distance(key, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

// The catalog row a mistyped ID most likely means, by its ID or its name: the typed text against the
// whole ID and name and each of their words (lower-case), nearest first; ties go to the row whose
// whole ID is nearer, then to the catalog's order. "h1000" is one edit from H100's word "h100" (and
// two from the ID "b100"), so it suggests the H100.
std::optional<std::string> closest_id(std::string_view typed, const std::vector<std::pair<std::string, std::string>>& rows) {
  const auto lower = [](std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const auto words = [](const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    for (char c : text) {
      if (c == ' ' || c == '-' || c == '_' || c == '/' || c == '(' || c == ')' || c == ',') {
        if (!word.empty()) out.push_back(word);
        word.clear();
      } else {
        word += c;
      }
    }
    if (!word.empty()) out.push_back(word);
    return out;
  };
  const std::string key = lower(typed);
  if (key.empty()) return std::nullopt;
  // Near enough to be a typo: fewer than 3 edits, and fewer than half the typed characters.
  const std::size_t limit = std::min<std::size_t>(3, (key.size() + 1) / 2);
  std::optional<std::string> best;
  std::size_t best_distance = limit, best_whole = std::string::npos;
  for (const auto& [id, name] : rows) {
    const std::string whole_id = lower(id), whole_name = lower(name);
    std::size_t distance = std::min(edit_distance(key, whole_id), edit_distance(key, whole_name));
    for (const auto& text : {whole_id, whole_name})
      for (const std::string& word : words(text)) distance = std::min(distance, edit_distance(key, word));
    const std::size_t whole = edit_distance(key, whole_id);
    if (distance < best_distance || (distance == best_distance && best && whole < best_whole)) {
      best_distance = distance;
      best_whole = whole;
      best = id;
    }
  }
  return best;
}

Fields::Fields(const json& object, std::string path, Issues& errors, const contract::Record* record)
    : object_(object), path_(std::move(path)), errors_(errors), record_(record) {}

void Fields::read_bound_into(const contract::Record& record, void* target) {
  for (const contract::Field& field : record.fields)
    if (field.binding && field.binding->read) field.binding->read(*this, field, target);
}

const contract::Field* Fields::declared(std::string_view key) const {
  return record_ ? contract::find(*record_, key) : nullptr;
}

bool Fields::has(std::string_view key) const {
  return object_.is_object() && object_.contains(key);
}

const json* Fields::raw(std::string_view key) {
  known_.emplace_back(key);
  if (record_ && !declared(key))
    errors_.push_back({path(key), "internal_undeclared_field",
                       "The engine reads " + path(key) + ", which the contract (" + std::string(record_->name) +
                           ") does not declare; please report this."});
  if (!object_.is_object()) return nullptr;
  const auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

void Fields::error(std::string_view key, IssueCode code, std::string message,
                   std::map<std::string, std::string> params) {
  errors_.push_back({path(key), std::move(code), std::move(message), std::move(params)});
}

void Fields::require(std::string_view key, std::string_view what, std::string_view id) {
  known_.emplace_back(key);
  if (!has(key))
    error(key, "required", path(key) + " is required: " + std::string(what) + ".", {{"expected", std::string(id)}});
}

std::optional<double> Fields::number(std::string_view key) {
  const contract::Field* field = declared(key);
  return number(key, field ? field->rule : positive);
}

std::optional<double> Fields::number(std::string_view key, NumberRule rule) {
  const json* value = raw(key);
  if (!value) return std::nullopt;
  if (!value->is_number()) {
    error(key, "wrong_type", path(key) + " must be a number, not " + describe(*value) + ".", {{"expected", "number"}});
    return std::nullopt;
  }
  const double x = value->get<double>();
  if (!std::isfinite(x)) {
    error(key, "not_finite", path(key) + " is too large to be a number; give a finite value.");
    return std::nullopt;
  }
  const bool below = rule.min_exclusive ? !(x > rule.min) : !(x >= rule.min);
  if (below) {
    if (x <= 0 && (rule.min > 0 || rule.min_exclusive))
      error(key, "not_positive", path(key) + " must be greater than 0 (got " + format_number(x) + ").",
            {{"got", format_number(x)}});
    else
      error(key, "out_of_range",
            path(key) + " must be " + (rule.min_exclusive ? "greater than " : "at least ") + format_number(rule.min) +
                " (got " + format_number(x) + ").",
            {{"min", format_number(rule.min)}, {"got", format_number(x)}});
    return std::nullopt;
  }
  if (x > rule.max) {
    error(key, "out_of_range",
          path(key) + " must be at most " + format_number(rule.max) + " (got " + format_number(x) + ").",
          {{"max", format_number(rule.max)}, {"got", format_number(x)}});
    return std::nullopt;
  }
  if (rule.integer && std::floor(x) != x) {
    error(key, "not_integer", path(key) + " must be a whole number (got " + format_number(x) + ").",
          {{"got", format_number(x)}});
    return std::nullopt;
  }
  return x;
}

Fields::NumberOrWord Fields::number_or_word(std::string_view key) {
  const contract::Field* field = declared(key);
  if (!field || field->choices.empty()) return number_or_word(key, "auto", field ? field->rule : positive);
  return number_or_word(key, field->choices.front(), field->rule);
}

Fields::NumberOrWord Fields::number_or_word(std::string_view key, std::string_view word, NumberRule rule) {
  NumberOrWord result;
  if (!has(key)) {
    known_.emplace_back(key);
    return result;
  }
  result.present = true;
  const json* value = raw(key);
  if (value->is_string()) {
    if (value->get_ref<const std::string&>() == word) {
      result.is_word = true;
    } else {
      error(key, "wrong_type",
            path(key) + " must be a number or \"" + std::string(word) + "\", not " + describe(*value) + ".",
            {{"expected", "number-or-word"}, {"allowed", std::string(word)}});
    }
    return result;
  }
  result.value = number(key, rule);
  return result;
}

std::optional<std::string> Fields::text(std::string_view key) {
  const json* value = raw(key);
  if (!value) return std::nullopt;
  if (!value->is_string()) {
    error(key, "wrong_type", path(key) + " must be a string, not " + describe(*value) + ".", {{"expected", "text"}});
    return std::nullopt;
  }
  return value->get<std::string>();
}

std::optional<bool> Fields::flag(std::string_view key) {
  const json* value = raw(key);
  if (!value) return std::nullopt;
  if (!value->is_boolean()) {
    error(key, "wrong_type", path(key) + " must be true or false, not " + describe(*value) + ".",
          {{"expected", "boolean"}});
    return std::nullopt;
  }
  return value->get<bool>();
}

const json* Fields::object(std::string_view key) {
  const json* value = raw(key);
  if (!value) return nullptr;
  if (!value->is_object()) {
    error(key, "wrong_type", path(key) + " must be an object ({...}), not " + describe(*value) + ".",
          {{"expected", "object"}});
    return nullptr;
  }
  return value;
}

void Fields::refuse_choice(std::string_view key, const json& value, const std::vector<std::string_view>& names) {
  std::string quoted, allowed;
  for (auto name : names) {
    quoted += (quoted.empty() ? "\"" : ", \"") + std::string(name) + "\"";
    allowed += (allowed.empty() ? "" : ", ") + std::string(name);
  }
  error(key, value.is_string() ? IssueCode("unknown_choice") : IssueCode("wrong_type"),
        path(key) + " must be one of " + quoted + ", not " + describe(value) + ".",
        {{"allowed", allowed}, {"expected", "choice"}});
}

void Fields::reject_unknown(const std::vector<std::string>& also_allowed) {
  if (!object_.is_object()) return;
  std::vector<std::string> allowed = known_;
  allowed.insert(allowed.end(), also_allowed.begin(), also_allowed.end());
  std::vector<std::string> suggestible = allowed;
  if (record_) contract::for_each_field(*record_, [&](const contract::Field& f) { suggestible.emplace_back(f.name); });
  for (const auto& [key, value] : object_.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    if (declared(key)) {  // declared but never read: the reader and the contract disagree
      errors_.push_back(
          {join_path(path_, key), "internal_unread_field",
           "The contract declares " + join_path(path_, key) + " but the engine did not read it; please report this."});
      continue;
    }
    std::string where = path_.empty() ? "at the top level" : "in " + path_;
    std::string message = "Unknown key \"" + key + "\" " + where + ".";
    std::map<std::string, std::string> params;
    if (auto suggestion = closest_key(key, suggestible)) {
      message += " Did you mean \"" + *suggestion + "\"?";
      params["suggestion"] = *suggestion;
    }
    errors_.push_back({join_path(path_, key), "unknown_key", std::move(message), std::move(params)});
  }
}

namespace {
// Records where parsing stopped; every other SAX event is accepted and ignored.
struct ErrorLocator : nlohmann::json_sax<json> {
  std::size_t position = 0;
  std::string token;
  bool number_overflow = false;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t at, const std::string& last_token, const nlohmann::detail::exception& e) override {
    position = at;
    token = last_token;
    number_overflow = std::string_view(e.what()).find("number overflow") != std::string_view::npos;
    return false;
  }
};
}  // namespace

// How deeply the text nests arrays and objects (outside strings): counted before parsing, because
// copying or printing a deeply nested value recurses once per level and would exhaust the stack.
std::size_t nesting_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

json issues_to_json(const Issues& issues) {
  json out = json::array();
  for (const auto& i : issues) {
    json issue = {{"field", i.field}, {"code", std::string(i.code.name())}, {"message", i.message}};
    if (!i.params.empty()) issue["params"] = i.params;
    out.push_back(std::move(issue));
  }
  return out;
}

std::optional<json> parse_json_text(std::string_view text, Issues& errors) {
  if (text.size() > max_input_bytes) {
    errors.push_back({"", "too_large",
                      "The input is " + format_number(std::ceil(text.size() / 1e5) / 10) +
                          " MB; the calculator reads at most " + format_number(max_input_bytes / 1e6) +
                          " MB (a scenario, catalog or config is a few KB)."});
    return std::nullopt;
  }
  if (const std::size_t depth = nesting_depth(text); depth > max_input_depth) {
    errors.push_back({"", "too_deep",
                      "The input nests " + std::to_string(depth) +
                          " levels of brackets; the calculator reads at most " + std::to_string(max_input_depth) +
                          " (a scenario, catalog or config needs fewer than 10)."});
    return std::nullopt;
  }
  json value = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (!value.is_discarded()) return value;
  ErrorLocator locator;
  json::sax_parse(text.begin(), text.end(), &locator, nlohmann::detail::input_format_t::json, /*strict=*/true);
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i + 1 < locator.position && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  std::string near = locator.token.size() > 20 ? locator.token.substr(0, 20) + "..." : locator.token;
  if (locator.number_overflow) {
    errors.push_back({"", "parse_error",
                      "The number " + near + " (line " + std::to_string(line) + ", column " + std::to_string(column) +
                          ") is too large to compute with; give a value below 1e300.",
                      {{"reason", reason("number_overflow")}, {"number", near}, {"line", std::to_string(line)}, {"column", std::to_string(column)}, {"max", "1e300"}}});
    return std::nullopt;
  }
  errors.push_back({"", "parse_error",
                    "The input is not valid JSON (line " + std::to_string(line) + ", column " + std::to_string(column) +
                        (near.empty() ? "" : ", near '" + near + "'") + "). Check quotes, commas and brackets.",
                    {{"reason", reason("json")}, {"line", std::to_string(line)}, {"column", std::to_string(column)}}});
  return std::nullopt;
}

}  // namespace traincalc::detail
