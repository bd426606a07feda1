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

#include "traincalc/issue.hpp"

namespace traincalc::detail {

// Keys keep their order, so reports read in the contract's order (model, compute, time, ...).
using json = nlohmann::ordered_json;

struct NumberRule {
  double min = 0;
  bool min_exclusive = true;  // default rule: strictly positive
  double max = 1e300;
  bool integer = false;
};

inline constexpr NumberRule positive{};
inline constexpr NumberRule positive_integer{0, true, 1e300, true};
inline constexpr NumberRule non_negative{0, false, 1e300, false};

// "12", "1.5e+22", "0.4": short, round-trippable enough for messages.
std::string format_number(double value);
// A JSON value described for a message: "a string (\"abc\")", "an array", ...
std::string describe(const json& value);
std::string join_path(std::string_view parent, std::string_view key);
// The allowed key closest to a typo, if any is close (Levenshtein distance <= 2).
std::optional<std::string> closest_key(std::string_view key, const std::vector<std::string>& allowed);

class Fields {
 public:
  Fields(const json& object, std::string path, Issues& errors);

  bool has(std::string_view key) const;
  // The raw value (marks the key as known); nullptr when absent.
  const json* raw(std::string_view key);
  std::optional<double> number(std::string_view key, NumberRule rule = positive);

  // A number, or a keyword such as "auto" or "chinchilla".
  struct NumberOrWord {
    bool present = false;
    bool is_word = false;
    std::optional<double> value;  // set when a valid number was given
  };
  NumberOrWord number_or_word(std::string_view key, std::string_view word, NumberRule rule = positive);

  std::optional<std::string> text(std::string_view key);
  std::optional<bool> flag(std::string_view key);
  const json* object(std::string_view key);  // nullptr when absent or not an object (error)

  template <class E>
  std::optional<E> choice(std::string_view key, std::initializer_list<std::pair<std::string_view, E>> options) {
    const json* value = raw(key);
    if (!value) return std::nullopt;
    if (value->is_string()) {
      const auto& s = value->get_ref<const std::string&>();
      for (const auto& [name, e] : options)
        if (name == s) return e;
    }
    std::string names;
    for (const auto& [name, e] : options) names += (names.empty() ? "\"" : ", \"") + std::string(name) + "\"";
    std::string allowed;
    for (const auto& [name, e] : options) allowed += (allowed.empty() ? "" : ", ") + std::string(name);
    error(key, value->is_string() ? "unknown_choice" : "wrong_type",
          path(key) + " must be one of " + names + ", not " + describe(*value) + ".",
          {{"allowed", allowed}, {"expected", "choice"}});
    return std::nullopt;
  }

  void require(std::string_view key, std::string_view what);
  void error(std::string_view key, std::string code, std::string message,
             std::map<std::string, std::string> params = {});
  // Reports every key that no accessor asked for, suggesting the closest allowed one.
  void reject_unknown(const std::vector<std::string>& also_allowed = {});

  std::string path(std::string_view key) const { return join_path(path_, key); }
  const std::string& object_path() const { return path_; }
  Issues& errors() { return errors_; }

 private:
  const json& object_;
  std::string path_;
  Issues& errors_;
  std::vector<std::string> known_;
};

// Parses JSON text without exceptions; on failure returns nullopt and appends a parse_error, or
// too_large / too_deep for input beyond these bounds (far beyond any real scenario, catalog or config).
inline constexpr std::size_t max_input_bytes = 16'000'000;
inline constexpr std::size_t max_input_depth = 64;
std::optional<json> parse_json_text(std::string_view text, Issues& errors);

}  // namespace traincalc::detail
