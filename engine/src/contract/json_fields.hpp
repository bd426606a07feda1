// Strict reading of one JSON object: every key is checked for type and range, and any key that
// nobody asked for is an error (a typo must never silently change an estimate). Internal header.
#pragma once

#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "contract/text.hpp"
#include "traincalc/contract.hpp"
#include "traincalc/issue.hpp"

namespace traincalc::detail {

// Keys keep their order, so reports read in the contract's order (model, compute, time, ...).
using json = nlohmann::ordered_json;

using contract::NumberRule;
inline constexpr NumberRule positive{};

// A JSON value described for a message: "a string (\"abc\")", "an array", ...
std::string describe(const json& value);
std::string join_path(std::string_view parent, std::string_view key);
// The allowed key closest to a typo, if any is close (Levenshtein distance <= 2).
std::optional<std::string> closest_key(std::string_view key, const std::vector<std::string>& allowed);
std::optional<std::string> closest_id(std::string_view typed, const std::vector<std::pair<std::string, std::string>>& rows);

// Reads one object. Bound to a contract record, every key it reads must be declared there (else an
// internal_undeclared_field error, which the tests and the fuzzer treat as a bug), numbers take the
// declared range, and reject_unknown() allows exactly the declared keys.
class Fields {
 public:
  Fields(const json& object, std::string path, Issues& errors, const contract::Record* record = nullptr);

  bool has(std::string_view key) const;
  // The raw value (marks the key as known); nullptr when absent.
  const json* raw(std::string_view key);
  // A number in the declared range (bound), or in rule.
  std::optional<double> number(std::string_view key);
  std::optional<double> number(std::string_view key, NumberRule rule);

  // A number, or one of the declared words such as "auto" or "chinchilla".
  struct NumberOrWord {
    bool present = false;
    bool is_word = false;
    std::optional<double> value;  // set when a valid number was given
  };
  NumberOrWord number_or_word(std::string_view key);
  NumberOrWord number_or_word(std::string_view key, std::string_view word, NumberRule rule);

  std::optional<std::string> text(std::string_view key);
  std::optional<bool> flag(std::string_view key);
  const json* object(std::string_view key);  // nullptr when absent or not an object (error)

  // One of an enumeration's names (contract.hpp); a wrong one is refused with the declared choices.
  template <class E, std::size_t N>
  std::optional<E> choice(std::string_view key, const contract::Named<E> (&table)[N]) {
    const json* value = raw(key);
    if (!value) return std::nullopt;
    if (value->is_string())
      if (auto e = contract::value_of(table, value->get_ref<const std::string&>())) return e;
    const contract::Field* field = declared(key);
    const auto names = contract::names_of(table);
    if (field && !field->choices.empty())
      refuse_choice(key, *value, {field->choices.begin(), field->choices.end()});
    else
      refuse_choice(key, *value, {names.begin(), names.end()});
    return std::nullopt;
  }
  void refuse_choice(std::string_view key, const json& value, const std::vector<std::string_view>& names);
  // The declaration of key in the bound record (nullptr when unbound or undeclared).
  const contract::Field* declared(std::string_view key) const;

  // Every field of the bound record that declares its member (contract::Binding), read into target
  // in declared order: target is the struct of the record's section (MemoryOptions for "memory", ...).
  template <class Section>
  void read_bound(Section& target) {
    if (record_) read_bound_into(*record_, &target);
  }
  // The same for one of the bound record's includes (the architecture in a model).
  template <class Section>
  void read_bound(const contract::Record& record, Section& target) {
    read_bound_into(record, &target);
  }

  // A missing key: the message names what it should hold (what); id names that for a translation
  // (params.expected, which the page reads as required_<id>).
  void require(std::string_view key, std::string_view what, std::string_view id);
  void error(std::string_view key, IssueCode code, std::string message,
             std::map<std::string, std::string> params = {});
  // Reports every key that no accessor asked for, suggesting the closest allowed one.
  void reject_unknown(const std::vector<std::string>& also_allowed = {});

  std::string path(std::string_view key) const { return join_path(path_, key); }
  const std::string& object_path() const { return path_; }
  Issues& errors() { return errors_; }

 private:
  void read_bound_into(const contract::Record& record, void* target);

  const json& object_;
  std::string path_;
  Issues& errors_;
  const contract::Record* record_;
  std::vector<std::string> known_;
};

// Parses JSON text without exceptions; on failure returns nullopt and appends a parse_error, or
// too_large / too_deep for input beyond these bounds (far beyond any real scenario, catalog or config).
inline constexpr std::size_t max_input_bytes = 16'000'000;
inline constexpr std::size_t max_input_depth = 64;
std::optional<json> parse_json_text(std::string_view text, Issues& errors);

// Errors or warnings as every answer writes them: [{field, code, message, params?}].
json issues_to_json(const Issues& issues);

}  // namespace traincalc::detail
