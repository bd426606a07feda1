// User errors and warnings are data: a dotted field path, a stable machine code (the page
// translates by code), and an English message that says what to change.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace traincalc {

struct Issue {
  std::string field;  // dotted scenario path, e.g. "training.tokens"; empty for the whole input
  std::string code;   // stable, e.g. "not_positive", "unknown_key"
  std::string message;
  // What a message in another language needs, as text: "got", "min", "max", "allowed",
  // "suggestion", "expected" (number, text, choice, boolean, object, list, number-or-word); "reason"
  // names the check that failed (a page has a message per reason), beside the values that message gives.
  std::map<std::string, std::string> params = {};
};

using Issues = std::vector<Issue>;

}  // namespace traincalc
