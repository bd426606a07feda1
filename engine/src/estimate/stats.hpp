// Summary statistics of error lists, shared by the validations (memory, speed).
#pragma once
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "traincalc/json_api.hpp"

namespace traincalc::detail {

// 0 for an empty list, as every summary below.
inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

inline double mean(const std::vector<double>& values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / values.size();
}

inline double largest(const std::vector<double>& values) {
  return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

// The q-quantile (0..1) of weighted values read off their interpolated distribution: each value sits
// at the middle of its own weight (Hazen's plotting position, (running weight - weight / 2) / total),
// straight lines between, the extremes below the first and above the last position. 0 for an empty
// list.
inline double weighted_quantile_interpolated(std::vector<std::pair<double, double>> value_weight, double q) {
  if (value_weight.empty()) return 0;
  std::sort(value_weight.begin(), value_weight.end());
  double total = 0;
  for (const auto& vw : value_weight) total += vw.second;
  if (!(total > 0)) return value_weight.front().first;
  double running = 0, previous_position = 0, previous_value = value_weight.front().first;
  for (std::size_t i = 0; i < value_weight.size(); ++i) {
    const auto& [value, weight] = value_weight[i];
    const double position = (running + weight / 2) / total;
    running += weight;
    if (q <= position) {
      if (i == 0 || position <= previous_position) return value;
      return previous_value + (value - previous_value) * (q - previous_position) / (position - previous_position);
    }
    previous_position = position;
    previous_value = value;
  }
  return value_weight.back().first;
}

// Student's t distribution's 0.90 quantile for `df` degrees of freedom (any table of it, e.g. the
// NIST/SEMATECH e-Handbook of Statistical Methods, sec. 1.3.6.7.2), linear in 1 / df between the
// rows; the normal's 1.2816 for ever more. 3.078 (one degree) below one.
inline double student_t_90(double df) {
  static constexpr std::pair<double, double> table[] = {{1, 3.078}, {2, 1.886}, {3, 1.638}, {4, 1.533}, {5, 1.476},
                                                        {6, 1.440}, {8, 1.397}, {10, 1.372}, {15, 1.341}, {20, 1.325},
                                                        {30, 1.310}, {60, 1.296}, {120, 1.289}};
  if (!(df > 1)) return table[0].second;
  for (std::size_t i = 1; i < std::size(table); ++i)
    if (df <= table[i].first) {
      const auto [d0, t0] = table[i - 1];
      const auto [d1, t1] = table[i];
      return t0 + (t1 - t0) * (1 / df - 1 / d0) / (1 / d1 - 1 / d0);
    }
  const double last = 1 / table[std::size(table) - 1].first;
  return 1.2816 + (table[std::size(table) - 1].second - 1.2816) * (1 / df) / last;
}

// One group's log ratios (measured / predicted, held out) of one kind of prediction (`basis`): a
// group is what a new user's run shares nothing with, a software lineage or a publisher.
struct GroupLogs {
  std::string basis, group;
  std::vector<double> logs;
};

// The 80% range of measured / predicted for a run from a new group, by basis: a random-effects
// prediction interval (Higgins, Thompson & Spiegelhalter 2009, J. R. Stat. Soc. A 172:137, eq. 12).
// A group's bias is the median of its log ratios; the centre is the mean of the groups' biases; the
// groups' biases scatter with a between-group spread tau, pooled over every basis (how far one team's
// code sits from another's is not a property of the kind of step), weighted by Student's t with the
// pooled degrees of freedom and (1 + 1/k) for a centre estimated from k groups; within a group the
// rows scatter as the pooled residuals about their group's bias do (each group of two or more rows
// weighing the same, its 10th and 90th percentiles). The two add in quadrature on each side; the
// range is widened to contain 1.
struct NewGroupRange {
  double low = 1, high = 1;
  double rows = 0, groups = 0;
  double between = 0;  // tau, the between-group spread of log ratios (pooled)
};
inline std::map<std::string, NewGroupRange> ranges_for_new_group(const std::vector<GroupLogs>& cells) {
  std::map<std::string, std::vector<std::pair<double, double>>> biases;  // basis -> (bias, rows)
  for (const GroupLogs& c : cells)
    if (!c.logs.empty()) biases[c.basis].emplace_back(median(c.logs), double(c.logs.size()));
  double squares = 0, df = 0;
  std::map<std::string, double> centre;
  for (const auto& [basis, list] : biases) {
    double sum = 0;
    for (const auto& b : list) sum += b.first;
    centre[basis] = sum / list.size();
    for (const auto& b : list) squares += (b.first - centre[basis]) * (b.first - centre[basis]);
    df += double(list.size()) - 1;
  }
  const double tau = df > 0 ? std::sqrt(squares / df) : 0.0;
  const double t = student_t_90(df);
  std::map<std::string, NewGroupRange> out;
  for (const auto& [basis, list] : biases) {
    std::vector<std::pair<double, double>> within;
    double rows = 0;
    for (const GroupLogs& c : cells) {
      if (c.basis != basis || c.logs.empty()) continue;
      rows += double(c.logs.size());
      if (c.logs.size() < 2) continue;
      const double bias = median(c.logs);
      for (double x : c.logs) within.emplace_back(x - bias, 1.0 / double(c.logs.size()));
    }
    const double k = double(list.size());
    const double spread = t * tau * std::sqrt(1 + 1 / k);
    const double below = std::min(0.0, weighted_quantile_interpolated(within, 0.1));
    const double above = std::max(0.0, weighted_quantile_interpolated(within, 0.9));
    NewGroupRange r;
    r.low = std::min(1.0, std::exp(centre[basis] - std::hypot(below, spread)));
    r.high = std::max(1.0, std::exp(centre[basis] + std::hypot(above, spread)));
    r.rows = rows;
    r.groups = k;
    r.between = tau;
    out[basis] = r;
  }
  return out;
}

// One kind of prediction held out by group (log(measured / predicted) of each group's rows): the
// range for a new group, and each group's rows against the range built without it.
struct HeldOutGroups {
  NewGroupRange range;           // from every group
  double coverage_pct = 0;       // the mean over groups of the share of their rows inside the range without them
  double median_width = 1;       // the median over groups of that range's high / low
  double median_abs_error_pct = 0;  // the median over groups of their median |predicted / measured - 1|
};
inline HeldOutGroups held_out_groups(const std::map<std::string, std::vector<double>>& logs_by_group,
                                     const std::string& basis) {
  auto range_without = [&](const std::string& without) {
    std::vector<GroupLogs> cells;
    for (const auto& [group, logs] : logs_by_group)
      if (group != without) cells.push_back({basis, group, logs});
    const auto ranges = ranges_for_new_group(cells);
    return ranges.empty() ? NewGroupRange{} : ranges.begin()->second;
  };
  HeldOutGroups out;
  out.range = range_without("");
  std::vector<double> coverages, widths, medians;
  for (const auto& [group, logs] : logs_by_group) {
    const NewGroupRange nested = range_without(group);
    double inside = 0;
    std::vector<double> abs_errors;
    for (double x : logs) {
      inside += std::exp(x) >= nested.low * (1 - 1e-12) && std::exp(x) <= nested.high * (1 + 1e-12);
      abs_errors.push_back(100 * std::abs(std::exp(-x) - 1));
    }
    coverages.push_back(100 * inside / double(logs.size()));
    widths.push_back(nested.high / nested.low);
    medians.push_back(median(abs_errors));
  }
  out.coverage_pct = mean(coverages);
  out.median_width = widths.empty() ? 1.0 : median(widths);
  out.median_abs_error_pct = median(medians);
  return out;
}

// What one measured row says about its source's other rows: the sources' mean log(measured /
// predicted) spread by tau (their variance less what their own rows' scatter adds: DerSimonian &
// Laird 1986), a row about its source's mean by sigma, and the share of one row's departure that is
// its source's, tau^2 / (tau^2 + sigma^2) (the posterior mean of a normal random effect). Sources of
// one row say nothing of sigma and are left out.
struct SourceEffect {
  double between_sd = 0, within_sd = 0, weight = 0;
};
inline SourceEffect source_effect(const std::map<std::string, std::vector<double>>& logs_by_source) {
  std::vector<double> means, within, noise;
  for (const auto& [source, values] : logs_by_source) {
    if (values.size() < 2) continue;
    const double m = mean(values);
    double ss = 0;
    for (double x : values) ss += (x - m) * (x - m);
    const double variance = ss / double(values.size() - 1);
    means.push_back(m);
    within.push_back(variance);
    noise.push_back(variance / double(values.size()));
  }
  SourceEffect out;
  if (means.size() < 2) return out;
  const double grand = mean(means);
  double between = 0;
  for (double m : means) between += (m - grand) * (m - grand);
  between = std::max(0.0, between / double(means.size() - 1) - mean(noise));
  out.between_sd = std::sqrt(between);
  out.within_sd = std::sqrt(mean(within));
  out.weight = between + mean(within) > 0 ? between / (between + mean(within)) : 0.0;
  return out;
}

// One distance of a calibration-within-sources table from each source's log(measured / calibrated)
// and its |error| in percent uncalibrated and with the measured row carried in full: the medians over
// sources of each one's median, and the 10th and 90th percentiles of measured / calibrated, each
// source weighing the same.
using BySource = std::map<std::string, std::vector<double>>;
inline std::optional<CalibrationDistance> calibration_distance(const std::string& distance, const BySource& logs,
                                                               const BySource& uncalibrated, const BySource& in_full) {
  CalibrationDistance d;
  d.distance = distance;
  std::vector<double> medians, plain_medians, full_medians;
  std::vector<std::pair<double, double>> weighted;
  for (const auto& [source, values] : logs) {
    std::vector<double> abs_errors;
    for (double x : values) {
      abs_errors.push_back(100 * std::abs(std::exp(-x) - 1));
      weighted.emplace_back(x, 1.0 / double(values.size()));
    }
    medians.push_back(median(abs_errors));
    if (const auto it = uncalibrated.find(source); it != uncalibrated.end()) plain_medians.push_back(median(it->second));
    if (const auto it = in_full.find(source); it != in_full.end()) full_medians.push_back(median(it->second));
    d.pairs += double(values.size());
    ++d.sources;
  }
  if (medians.empty()) return std::nullopt;
  d.median_abs_error_pct = median(medians);
  d.median_abs_error_uncalibrated_pct = median(plain_medians);
  d.median_abs_error_full_pct = median(full_medians);
  d.low = std::min(1.0, std::exp(weighted_quantile_interpolated(weighted, 0.1)));
  d.high = std::max(1.0, std::exp(weighted_quantile_interpolated(weighted, 0.9)));
  return d;
}

}  // namespace traincalc::detail
