// The estimate's headline figures: the expected run (interruptions, checkpoints, restarts, a real
// run's speed) where the engine predicts the utilisation (report.time.expected.headline), else the
// steady state. Each figure with its report path, so the page marks exactly what it shows.
export function headline(report) {
  const time = report.time;
  const cost = report.cost;
  const e = time.expected;
  if (e?.headline) {
    return {
      expected: true,
      days: e.wall_clock_days,
      daysPath: 'time.expected.wall_clock_days',
      daysRange: e.wall_clock_days_range,
      daysRangePath: 'time.expected.wall_clock_days_range',
      gpuHours: e.gpu_hours,
      gpuHoursPath: 'time.expected.gpu_hours',
      gpuHoursRange: e.gpu_hours_range,
      gpuHoursRangePath: 'time.expected.gpu_hours_range',
      cost: cost?.expected_total ?? cost?.total,
      costPath: cost?.expected_total !== undefined ? 'cost.expected_total' : 'cost.total',
      costRange: cost?.expected_total_range,
      costRangePath: 'cost.expected_total_range',
      ...energy(report, true),
    };
  }
  return {
    expected: false,
    days: time.wall_clock_days,
    daysPath: 'time.wall_clock_days',
    daysRange: time.wall_clock_days_range,
    daysRangePath: 'time.wall_clock_days_range',
    gpuHours: time.gpu_hours,
    gpuHoursPath: 'time.gpu_hours',
    gpuHoursRange: time.gpu_hours_range,
    gpuHoursRangePath: 'time.gpu_hours_range',
    cost: cost?.total,
    costPath: 'cost.total',
    costRange: cost?.total_range,
    costRangePath: 'cost.total_range',
    ...energy(report, false),
  };
}

// The energy and emissions of the same run (report.energy.expected with the expected headline).
function energy(report, expected) {
  const e = report.energy;
  if (!e) return {};
  if (expected && e.expected) {
    return { kwh: e.expected.kwh, kwhPath: 'energy.expected.kwh', co2: e.expected.co2_kg, co2Path: 'energy.expected.co2_kg' };
  }
  return { kwh: e.kwh, kwhPath: 'energy.kwh', co2: e.co2_kg, co2Path: 'energy.co2_kg' };
}
