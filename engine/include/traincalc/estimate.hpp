// The engine's entry points. A validated scenario flows one way through the estimators:
// flops -> plan (GPU count) -> throughput (time) -> memory -> cost.
#pragma once

#include "traincalc/catalog.hpp"
#include "traincalc/report.hpp"
#include "traincalc/scenario.hpp"

namespace traincalc {

// With a catalog, memory suggestions include a GPU with more memory from it.
Report estimate(const Scenario& scenario, const Catalog* catalog = nullptr);

}  // namespace traincalc
