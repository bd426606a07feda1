// Energy and carbon: the GPUs' average draw (a fraction of TDP that grows with utilisation, or given),
// the host's share (CPUs, memory, NICs, fans), the facility's PUE, over the wall-clock time; CO2 from
// the grid's carbon intensity. Each default and grid cites its source where it is defined.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "estimate/estimators.hpp"
#include "contract/text.hpp"
#include "traincalc/grids.hpp"

namespace traincalc::detail {

namespace {

// PUE of a new large facility, "1.3 or better" (Uptime Institute, 14th annual survey, 2024); the
// industry average is 1.56-1.58 (the same survey) and hyperscale fleets about 1.1 (Google's fleet-wide
// trailing-twelve-month PUE, 1.10; google.com/about/datacenters/efficiency).
constexpr double default_pue = 1.3;
// CPUs, memory, fans and network per GPU watt. An assumption of this calculator (overridable): a DGX H100
// may draw up to 10.2 kW (NVIDIA DGX H100 datasheet), 1.8 times its eight 700 W GPUs at the worst
// case; servers in training draw less beyond their GPUs, so 40% is taken.
constexpr double default_host_power_fraction = 0.4;
// Average GPU draw against utilisation: about 30% of TDP when barely busy, all of it from 50% HFU
// on. An assumption of this calculator (the report says so); energy.gpu_power_fraction overrides it.
constexpr double idle_power_fraction = 0.3;
constexpr double full_power_hfu = 0.5;

// The average GPU draw, as a fraction of TDP, at a hardware utilisation.
double draw_at(double hfu) { return idle_power_fraction + (1 - idle_power_fraction) * std::min(1.0, hfu / full_power_hfu); }

}  // namespace

const Grid* find_grid(std::string_view id) {
  using traincalc::grids;
  const auto it = std::find_if(grids.begin(), grids.end(), [&](const Grid& g) { return id == g.id; });
  return it == grids.end() ? nullptr : &*it;
}

std::optional<double> grid_intensity(std::string_view region) {
  const Grid* grid = find_grid(region);
  return grid ? std::optional<double>(grid->kg_co2_per_kwh) : std::nullopt;
}

std::string grid_region_list() {
  using traincalc::grids;
  std::string out;
  for (std::size_t i = 0; i < grids.size(); ++i) out += (i ? ", \"" : "\"") + std::string(grids[i].id) + "\"";
  return out;
}

std::optional<EnergyReport> estimate_energy(const Scenario& s, const TimeReport& time, double gpus, Issues& warnings) {
  const Energy& e = s.energy;
  if (!s.hardware.gpu.tdp_w) {
    warnings.push_back({"hardware.gpu", "energy_unknown",
                        "Energy needs the GPU's power (tdp_w), which " + s.hardware.gpu.name +
                            " does not list; give the GPU inline with its tdp_w."});
    return std::nullopt;
  }
  EnergyReport r;
  r.gpu_tdp_w = *s.hardware.gpu.tdp_w;
  // Hardware FLOPs utilisation (recomputation counts: the GPU is busy with it): predicted, or the given
  // MFU scaled by the predicted HFU/MFU ratio of the layout.
  const double hfu = time.step && time.step->mfu > 0 ? time.mfu * time.step->hfu / time.step->mfu : time.mfu;
  r.gpu_power_fraction = e.gpu_power_fraction.value_or(draw_at(hfu));
  r.gpu_power_from = e.gpu_power_fraction ? PowerFrom::given : PowerFrom::utilisation;
  r.host_power_fraction = e.host_power_fraction.value_or(default_host_power_fraction);
  r.pue = e.pue.value_or(default_pue);
  r.facility_kw = gpus * r.gpu_tdp_w * r.gpu_power_fraction * (1 + r.host_power_fraction) * r.pue / 1000;
  r.kwh = r.facility_kw * time.wall_clock_hours;
  const Grid* grid = find_grid(e.region.empty() ? "world" : e.region);
  if (e.grid_kg_co2_per_kwh) {
    r.grid_kg_co2_per_kwh = *e.grid_kg_co2_per_kwh;
    r.grid = "given";
    r.grid_source = "given";
  } else {
    r.grid_kg_co2_per_kwh = grid->kg_co2_per_kwh;
    r.grid = grid->id;
    r.grid_source = grid->source;
  }
  r.co2_kg = r.kwh * r.grid_kg_co2_per_kwh;
  // The expected run (goodput.cpp): the same work over more hours. Its busy hours are the steady
  // steps, the slower steps of a real run (run_efficiency), the rework after interruptions and the
  // overheads (evaluation and the like, taken to keep the GPUs as busy as training); its idle hours
  // are the checkpoint writes training waits for and the restarts, when the allocated GPUs sit idle
  // at the idle draw. The slower steps do the steady steps' work in more time, so the busy draw
  // follows the utilisation they reach: HFU x steady hours / (steady + slower hours).
  if (time.expected) {
    const ExpectedRun& x = *time.expected;
    EnergyReport::Expected ex;
    const double steady = time.wall_clock_hours;
    const double computing = steady + x.lost_slower_steps;
    ex.busy_hours = computing + x.lost_rework + x.lost_overheads;
    ex.idle_hours = x.lost_checkpoints + x.lost_restarts;
    const double busy_hfu = computing > 0 ? hfu * steady / computing : hfu;
    ex.busy_power_fraction = e.gpu_power_fraction.value_or(draw_at(busy_hfu));
    ex.idle_power_fraction = std::min(idle_power_fraction, ex.busy_power_fraction);
    const double kw_per_fraction = gpus * r.gpu_tdp_w * (1 + r.host_power_fraction) * r.pue / 1000;
    ex.kwh = kw_per_fraction * (ex.busy_hours * ex.busy_power_fraction + ex.idle_hours * ex.idle_power_fraction);
    ex.co2_kg = ex.kwh * r.grid_kg_co2_per_kwh;
    ex.headline = x.headline;
    ex.range = x.range;
    r.expected = ex;
  }
  // Only what was not given is said to be assumed.
  std::vector<std::string> assumed;
  if (!e.pue) assumed.push_back("a PUE of " + format_number(r.pue) + " (energy.pue)");
  if (!e.host_power_fraction)
    assumed.push_back("hosts drawing " + format_number(r.host_power_fraction * 100) +
                      "% on top of the GPUs (energy.host_power_fraction)");
  if (!e.grid_kg_co2_per_kwh && e.region.empty())
    assumed.push_back("the world-average grid, " + format_number(r.grid_kg_co2_per_kwh) +
                      " kg CO2 per kWh (energy.region)");
  if (!assumed.empty()) {
    std::string list;
    for (std::size_t i = 0; i < assumed.size(); ++i) list += (i ? "; " : "") + assumed[i];
    warnings.push_back({"energy", "energy_assumed", "Energy assumes " + list + ": set yours to replace them."});
  }
  return r;
}

}  // namespace traincalc::detail
