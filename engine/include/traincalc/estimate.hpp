// The engine's entry points. A validated scenario flows one way through the estimators:
// flops -> plan (GPU count) -> throughput (time) -> memory -> cost.
#pragma once

#include "traincalc/report.hpp"
#include "traincalc/scenario.hpp"

namespace traincalc {

Report estimate(const Scenario& scenario);

}  // namespace traincalc
