// The electricity grids the energy estimate knows by name (energy.region), each with its average
// carbon intensity and source. The contract's list of regions is read from here.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace traincalc {

struct Grid {
  std::string_view id;
  double kg_co2_per_kwh;
  const char* source;
};

// Location-based average intensity of each grid (market-based accounting with renewable contracts
// can be far lower).
constexpr std::array<Grid, 10> grids = {{
    {"world", 0.436, "Ember Global Electricity Review 2023: world average 436 gCO2/kWh in 2022"},
    {"us", 0.367, "US EIA FAQ 74: 0.81 lb CO2/kWh from utility-scale generation in 2023"},
    {"china", 0.5306,
     "China MEE & NBS, 2023 national grid average electricity CO2 emission factor (announced Jan 2026)"},
    {"eu", 0.281, "European Environment Agency, GHG intensity of EU-27 electricity generation in 2018 (older)"},
    {"germany", 0.381, "Our World in Data (Ember, Energy Institute), 2023, lifecycle CO2e"},
    {"france", 0.056, "Our World in Data (Ember, Energy Institute), 2023, lifecycle CO2e"},
    {"india", 0.713, "Our World in Data (Ember, Energy Institute), 2023, lifecycle CO2e"},
    {"canada", 0.17, "Our World in Data (Ember, Energy Institute), 2023, lifecycle CO2e"},
    {"brazil", 0.098, "Our World in Data (Ember, Energy Institute), 2023, lifecycle CO2e"},
    {"australia", 0.549, "Our World in Data (Ember, Energy Institute), 2023, lifecycle CO2e"},
}};

constexpr std::array<std::string_view, grids.size()> grid_region_names() {
  std::array<std::string_view, grids.size()> names{};
  for (std::size_t i = 0; i < grids.size(); ++i) names[i] = grids[i].id;
  return names;
}

}  // namespace traincalc
