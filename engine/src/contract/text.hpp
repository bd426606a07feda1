// Numbers as messages and warnings write them. Internal header, no JSON: the estimators use it too.
#pragma once

#include <string>

namespace traincalc::detail {

// "12", "1.5e+22", "0.4": short, round-trippable enough for messages.
std::string format_number(double value);

}  // namespace traincalc::detail
