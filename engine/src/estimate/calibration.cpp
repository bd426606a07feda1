// Calibration to the user's own measured runs. A measured step pins down how fast this code runs on
// this machine better than any formula; a measured peak, what this framework holds. The engine
// estimates each measured run as the user describes it, reads what was measured as a step time or a
// peak, and fits the few constants a measurement can pin down:
//   speed: three multipliers of the step model's own parts (the GPU's compute, the exposed
//     communication, the host's launches and work between micro-batches), fitted in log space by
//     least squares with a weak pull to 1 (a ridge of 1e-3), so that one measurement moves each part
//     in proportion to its share of the step: a compute-bound step calibrates the compute;
//   memory: the allocated peak as a multiple of the model's (what the framework holds beyond or short
//     of the model's parts, in proportion) and the allocator's gap between reserved and allocated, as
//     a multiple of the model's.
// The estimated scenario is then predicted with them, and the report says what was fitted. The run
// measured itself takes the fitted speed in full; another run takes the share of it that a measured
// run's source explains (calibration_weight): on the held-out rows, one measured step is more its
// own scatter than its code's, so carrying it in full predicts another run of the same code worse
// than carrying a fifth of it.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "estimate/estimators.hpp"
#include "contract/text.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

namespace {

// The step model's parts, grouped by the constant a measurement calibrates.
struct StepParts {
  double compute = 0, communication = 0, host = 0;
};
StepParts parts_of(const StepBreakdown& b) {
  return {b.matmul + b.attention + b.elementwise + b.recompute + b.optimizer + b.bubble,
          b.tensor_parallel + b.context_parallel + b.expert_parallel + b.pipeline_p2p + b.data_parallel,
          b.kernel_launch + b.micro_batch_host};
}
double step_of(const StepParts& p, const SpeedCalibration& k) {
  return k.compute * p.compute + k.communication * p.communication + k.host * p.host;
}

constexpr double ridge = 1e-3;

// A measured run's distance from the estimated one, nearest first.
std::ptrdiff_t rank_of(std::string_view distance) {
  static constexpr std::string_view nearest_first[] = {"same_run", "layout", "gpus", "model"};
  return std::find(std::begin(nearest_first), std::end(nearest_first), distance) - std::begin(nearest_first);
}
constexpr double lowest_factor = 0.2, highest_factor = 5.0;  // a part 5x slower or faster is a wrong input

std::string fixed(double x, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, x);
  return buffer;
}

}  // namespace

SpeedCalibration fit_speed(const std::vector<std::pair<StepBreakdown, double>>& measured) {
  struct SpeedPoint {
    StepParts parts;
    double measured = 0;
  };
  std::vector<SpeedPoint> speed;
  for (const auto& [breakdown, seconds] : measured) speed.push_back({parts_of(breakdown), seconds});
  // Gauss-Newton on the log factors, each row's residual log(measured / predicted), its Jacobian the
  // parts' shares of the predicted step.
  double log_k[3] = {0, 0, 0};
    for (int iteration = 0; iteration < 30; ++iteration) {
      const SpeedCalibration k{std::exp(log_k[0]), std::exp(log_k[1]), std::exp(log_k[2]), 0};
      double a[3][3] = {{ridge, 0, 0}, {0, ridge, 0}, {0, 0, ridge}};
      double g[3] = {-ridge * log_k[0], -ridge * log_k[1], -ridge * log_k[2]};
      for (const SpeedPoint& p : speed) {
        const double predicted = step_of(p.parts, k);
        if (!(predicted > 0)) continue;
        const double share[3] = {k.compute * p.parts.compute / predicted, k.communication * p.parts.communication / predicted,
                                 k.host * p.parts.host / predicted};
        const double residual = std::log(p.measured / predicted);
        for (int x = 0; x < 3; ++x) {
          g[x] += share[x] * residual;
          for (int y = 0; y < 3; ++y) a[x][y] += share[x] * share[y];
        }
      }
      // Solve the 3 x 3 system by Gaussian elimination with partial pivoting.
      double m[3][4];
      for (int x = 0; x < 3; ++x) {
        for (int y = 0; y < 3; ++y) m[x][y] = a[x][y];
        m[x][3] = g[x];
      }
      for (int c = 0; c < 3; ++c) {
        int pivot = c;
        for (int x = c + 1; x < 3; ++x)
          if (std::abs(m[x][c]) > std::abs(m[pivot][c])) pivot = x;
        std::swap(m[c], m[pivot]);
        for (int x = c + 1; x < 3; ++x) {
          const double f = m[x][c] / m[c][c];
          for (int y = c; y < 4; ++y) m[x][y] -= f * m[c][y];
        }
      }
      double step[3];
      for (int c = 2; c >= 0; --c) {
        double sum = m[c][3];
        for (int y = c + 1; y < 3; ++y) sum -= m[c][y] * step[y];
        step[c] = sum / m[c][c];
      }
      double moved = 0;
      for (int x = 0; x < 3; ++x) {
        const double next = std::clamp(log_k[x] + step[x], std::log(lowest_factor), std::log(highest_factor));
        moved = std::max(moved, std::abs(next - log_k[x]));
        log_k[x] = next;
      }
      if (moved < 1e-10) break;
    }
  return {std::exp(log_k[0]), std::exp(log_k[1]), std::exp(log_k[2]), double(speed.size())};
}

double calibrated_seconds(const StepBreakdown& breakdown, const SpeedCalibration& k) {
  return step_of(parts_of(breakdown), k);
}

// Over the 1,842 held-out step rows of 14 sources (each predicted with the constants fitted without
// its lineage): the sources' mean log(measured / predicted) spread by 0.0605, a row about its
// source's mean by 0.1231, so one measured run carries 19.5% of its departure to another run.
const double calibration_between_sd = 0.0605, calibration_within_sd = 0.1231;

// Over the 159 measured peaks of 9 sources (each predicted with the fragmentation fitted without its
// lineage): the sources' biases spread by 0.0290 in log, a peak about its source's by 0.0588.
const double memory_calibration_between_sd = 0.0290, memory_calibration_within_sd = 0.0588;

namespace {
double share_carried(double between_sd, double within_sd, double runs) {
  const double between = between_sd * between_sd, within = within_sd * within_sd;
  return runs > 0 ? between / (between + within / runs) : 0.0;
}
}  // namespace

double calibration_weight(double runs) { return share_carried(calibration_between_sd, calibration_within_sd, runs); }

double memory_calibration_weight(double runs) {
  return share_carried(memory_calibration_between_sd, memory_calibration_within_sd, runs);
}

MemoryCalibration carried_calibration(const MemoryCalibration& k, double weight) {
  return {std::pow(k.allocated_factor, weight), std::pow(k.reserved_gap, weight), k.runs};
}

SpeedCalibration carried_calibration(const SpeedCalibration& k, double weight) {
  return {std::pow(k.compute, weight), std::pow(k.communication, weight), std::pow(k.host, weight), k.runs};
}

const LikelyRange& calibration_range(std::string_view distance) {
  static const std::vector<LikelyRange> ranges = {
      // basis, low, high, pairs, sources: `traincalc validate --speed`, "calibrated on one measured row".
      {"calibrated_layout", 0.9288, 1.2606, 559, 11},
      {"calibrated_gpus", 0.9193, 1.2005, 361, 8},
      {"calibrated_model", 0.9008, 1.1989, 6095, 12},
  };
  for (const LikelyRange& r : ranges)
    if (r.basis.substr(std::string_view("calibrated_").size()) == distance) return r;
  return ranges.back();
}

void calibrate_step(StepPrediction& step, const SpeedCalibration& k) {
  const double before = step.step_seconds;
  StepBreakdown& b = step.seconds;
  for (double* part : {&b.matmul, &b.attention, &b.elementwise, &b.recompute, &b.optimizer, &b.bubble})
    *part *= k.compute;
  for (double* part : {&b.tensor_parallel, &b.context_parallel, &b.expert_parallel, &b.pipeline_p2p, &b.data_parallel})
    *part *= k.communication;
  for (double* part : {&b.kernel_launch, &b.micro_batch_host}) *part *= k.host;
  step.step_seconds = step_of(parts_of(step.seconds), {1, 1, 1, 0});
  if (step.step_seconds > 0 && before > 0) {
    // The same FLOPs in another time: utilisation scales inversely.
    step.mfu *= before / step.step_seconds;
    step.hfu *= before / step.step_seconds;
  }
}

namespace {

// A measured step: the run's step model parts and breakdown as estimated, and the step time measured.
struct MeasuredStep {
  StepParts parts;
  StepBreakdown breakdown;
  double measured = 0;
};

// A measured peak: the figure, the run's estimated allocated, reserved and device peaks, and which
// counter was measured.
struct MeasuredPeak {
  double measured = 0, allocated = 0, reserved = 0, total = 0;
  std::string counter;
};

// What the measured runs give the fits, in the order of fit.points within each kind.
struct Measurements {
  std::vector<MeasuredStep> speed;
  std::vector<MeasuredPeak> memory;
};

// One measured speed figure of run i (estimated as r) as a step time, checked against the GPU's peak.
void read_measured_step(CalibrationFit& fit, Measurements& m, std::size_t i, const MeasuredRun& run, const Report& r,
                        const std::string& key, double value, const std::string& field) {
  const bool timed = r.time.step.has_value();
  if (!timed) {
    fit.errors.push_back({field, "unsupported",
                          "A measured speed calibrates the step model, which needs the model's architecture "
                          "(a preset, or layers, hidden, heads ...); with a parameter count only, give "
                          "strategy.mfu instead.",
                          {{"reason", reason("calibration_needs_architecture")}}});
    return;
  }
  const StepPrediction& step = *r.time.step;
  // Each figure as a step time of the run as estimated.
  double seconds = value;
  if (key == "time.tokens_per_second")
    seconds = step.global_batch_sequences * r.compute.seq_len / value;
  else if (key == "time.tokens_per_second_per_gpu")
    seconds = step.global_batch_sequences * r.compute.seq_len / (value * r.plan.gpus);
  else if (key == "time.samples_per_second")
    seconds = step.global_batch_sequences / value;
  else if (key == "time.mfu")
    seconds = step.step_seconds * step.mfu / value;
  else if (key == "time.tflops_per_gpu")
    seconds = step.step_seconds * step.mfu / (value / r.hardware.peak_tflops);
  const double implied_mfu = step.mfu * step.step_seconds / seconds;
  if (!(implied_mfu <= 1.0)) {
    fit.errors.push_back({field, "out_of_range",
                          "A measured " + key + " of " + format_number(value) + " means " +
                              fixed(100 * implied_mfu, 0) + "% of the " + r.hardware.gpu_name +
                              "'s dense peak: faster than the hardware runs. Check the number, its unit and "
                              "the run it belongs to.",
                          {{"reason", reason("calibration_above_peak")}, {"got", format_number(value)}}});
    return;
  }
  m.speed.push_back({parts_of(step.seconds), step.seconds, seconds});
  if (fit.speed_distance.empty() || rank_of(run.distance) < rank_of(fit.speed_distance))
    fit.speed_distance = run.distance;
  fit.points.push_back({double(i), key, value, seconds, step.step_seconds, step.step_seconds});
}

// One measured memory peak of run i (estimated as r), checked against the weights and the GPU's memory.
void read_measured_peak(CalibrationFit& fit, Measurements& m, std::size_t i, const MeasuredRun& run, const Report& r,
                        const std::string& key, double value, const std::string& field) {
  const double weights = r.memory.per_gpu_bytes.weights;
  const double capacity = r.memory.capacity_bytes;
  if (value < weights) {
    fit.errors.push_back({field, "out_of_range",
                          "A measured peak of " + fixed(value / units::bytes_per_gib, 2) +
                              " GiB is less than the weights alone hold on each GPU (" +
                              fixed(weights / units::bytes_per_gib, 2) +
                              " GiB) in this layout. Check the number, its unit (bytes) and the layout.",
                          {{"reason", reason("calibration_below_weights")}, {"got", format_number(value)}}});
    return;
  }
  if (capacity > 0 && value > capacity * 1.001) {
    fit.errors.push_back({field, "out_of_range",
                          "A measured peak of " + fixed(value / units::bytes_per_gib, 2) + " GiB is more than the " +
                              r.hardware.gpu_name + " holds (" + fixed(capacity / units::bytes_per_gib, 2) +
                              " GiB). Check the number, its unit (bytes) and the GPU.",
                          {{"reason", reason("calibration_above_capacity")}, {"got", format_number(value)}}});
    return;
  }
  if (fit.memory_distance.empty() || rank_of(run.distance) < rank_of(fit.memory_distance))
    fit.memory_distance = run.distance;
  const std::string counter = key.substr(std::string("memory.").size());
  m.memory.push_back({value, r.memory.allocated_bytes, r.memory.reserved_bytes, r.memory.per_gpu_bytes.total, counter});
  const double predicted = counter == "allocated_bytes"  ? r.memory.allocated_bytes
                           : counter == "reserved_bytes" ? r.memory.reserved_bytes
                                                         : r.memory.per_gpu_bytes.total;
  fit.points.push_back({double(i), key, value, value, predicted, predicted});
}

// Each measured run estimated as described and each of its figures read, into fit.points and the
// returned measurements; a run or figure that cannot be used adds an error to fit.errors.
Measurements read_measurements(const Scenario& s, const Catalog* catalog, CalibrationFit& fit) {
  Measurements m;
  for (std::size_t i = 0; i < s.calibration.size(); ++i) {
    const MeasuredRun& run = s.calibration[i];
    const std::string path = "calibration[" + std::to_string(i) + "]";
    if (!run.scenario) continue;
    const Report r = estimate(*run.scenario, catalog);
    if (!r.valid()) {
      fit.errors.push_back({path + ".scenario", "invalid",
                            "The measured run " + path + " cannot be estimated: " + r.errors.front().message,
                            {{"reason", reason("calibration_run")}}});
      continue;
    }
    for (const auto& [key, value] : run.measured) {
      const std::string field = path + ".measured." + key;
      if (key.rfind("time.", 0) == 0)
        read_measured_step(fit, m, i, run, r, key, value, field);
      else
        read_measured_peak(fit, m, i, run, r, key, value, field);
    }
  }
  return m;
}

// Memory: the allocated peak's factor from the allocated peaks (their geometric mean), else from
// whatever was measured (the factor that makes it come out), then the reserved gap's factor from
// the reserved peaks.
MemoryCalibration fit_memory(const std::vector<MeasuredPeak>& memory) {
  auto outside = [](const MeasuredPeak& p) { return p.counter == "device_bytes" ? p.total - p.reserved : 0.0; };
  double log_factor = 0, with_allocated = 0;
  for (const MeasuredPeak& p : memory)
    if (p.counter == "allocated_bytes" && p.allocated > 0) {
      log_factor += std::log(p.measured / p.allocated);
      ++with_allocated;
    }
  if (with_allocated == 0)
    for (const MeasuredPeak& p : memory) {
      const double gap = p.reserved - p.allocated;
      log_factor += std::log(std::max(p.measured - gap - outside(p), 0.2 * p.allocated) / p.allocated);
    }
  const double factor =
      std::clamp(std::exp(log_factor / (with_allocated > 0 ? with_allocated : double(memory.size()))), lowest_factor,
                 highest_factor);
  double gaps = 0, with_gap = 0;
  if (with_allocated > 0)
    for (const MeasuredPeak& p : memory)
      if (p.counter != "allocated_bytes" && p.reserved > p.allocated) {
        gaps += std::clamp((p.measured - outside(p) - factor * p.allocated) / (p.reserved - p.allocated), 0.0, 10.0);
        ++with_gap;
      }
  return {factor, with_gap > 0 ? gaps / with_gap : 1.0, double(memory.size())};
}

// Each measured point as calibrated: what the fitted constants give for it.
void set_calibrated_points(CalibrationFit& fit, const Measurements& m) {
  std::size_t speed_index = 0, memory_index = 0;
  for (CalibrationPoint& point : fit.points) {
    if (point.key.rfind("time.", 0) == 0) {
      point.calibrated = step_of(m.speed[speed_index++].parts, fit.speed);
      continue;
    }
    const MeasuredPeak& p = m.memory[memory_index++];
    const double added = (fit.memory.allocated_factor - 1) * p.allocated + (fit.memory.reserved_gap - 1) * (p.reserved - p.allocated);
    point.calibrated = p.counter == "allocated_bytes"  ? fit.memory.allocated_factor * p.allocated
                       : p.counter == "reserved_bytes" ? p.reserved + added
                                                       : p.total + added;
  }
}

}  // namespace

CalibrationFit fit_calibration(const Scenario& s, const Catalog* catalog) {
  CalibrationFit fit;
  const Measurements m = read_measurements(s, catalog, fit);
  if (!fit.errors.empty()) return fit;
  // The measured runs behind each fit: one run's step time and throughput are one measurement of it.
  {
    std::set<double> speed_runs, memory_runs;
    for (const CalibrationPoint& p : fit.points) (p.key.rfind("time.", 0) == 0 ? speed_runs : memory_runs).insert(p.run);
    fit.speed_runs = double(speed_runs.size());
    fit.memory_runs = double(memory_runs.size());
  }

  if (!m.speed.empty()) {
    std::vector<std::pair<StepBreakdown, double>> points;
    for (const MeasuredStep& p : m.speed) points.push_back({p.breakdown, p.measured});
    fit.speed = fit_speed(points);
  }
  if (!m.memory.empty()) fit.memory = fit_memory(m.memory);
  set_calibrated_points(fit, m);
  return fit;
}

void calibrate_memory(MemoryReport& m, const MemoryCalibration& c) {
  const double more_allocated = (c.allocated_factor - 1) * m.allocated_bytes;
  const double added = more_allocated + (c.reserved_gap - 1) * (m.reserved_bytes - m.allocated_bytes);
  m.allocated_bytes += more_allocated;
  m.reserved_bytes += added;
  m.per_gpu_bytes.total += added;
  // What the model's parts do not explain is the framework's and the allocator's: overhead.
  m.per_gpu_bytes.overhead = std::max(0.0, m.per_gpu_bytes.overhead + added);
  for (auto& [part, bytes] : m.at_peak)
    if (part == "overhead") bytes = std::max(0.0, bytes + added);
  m.fits = m.per_gpu_bytes.total <= m.capacity_bytes;
  m.headroom_bytes = m.fits ? m.capacity_bytes - m.per_gpu_bytes.total : 0;
  m.shortfall_bytes = m.fits ? 0 : m.per_gpu_bytes.total - m.capacity_bytes;
}

}  // namespace traincalc::detail
