// Summary statistics of error lists, shared by the validations (memory, speed).
#pragma once
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

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

}  // namespace traincalc::detail
