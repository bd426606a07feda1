// Summary statistics of error lists, shared by the validations (memory, speed).
#pragma once
#include <algorithm>
#include <cmath>
#include <numeric>
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

// The lower quantile level of an 80% range meant for a new group, from draws of `groups` exchangeable
// groups: a new draw falls between the i-th and j-th smallest of k draws with probability (j - i) /
// (k + 1) (order statistics; e.g. Wilks 1941, the rank rule behind split conformal prediction), so the
// range's ends are the ranks 0.1 (k + 1) and 0.9 (k + 1), at Hazen's positions (rank - 1/2) / k; none
// below 0 (with four groups or fewer, the extremes). 0.1 for ever more groups. Exact for one draw per
// group; read on pooled rows, each group weighing the same, it is an approximation.
inline double range_low_level_for_new_group(double groups) {
  if (!(groups >= 1)) return 0;
  // (0.1 (k + 1) - 1/2) / k, written so that four groups give exactly 0: (k - 4) / (10 k).
  return std::max(0.0, (groups - 4) / (10 * groups));
}

// A likely range's ends from weighted log ratios (measured / predicted) of `groups` groups: the 80%
// range for a new group (range_low_level_for_new_group), as ratios, widened to contain 1. The speed
// validation's ranges by kind of step and the whole runs' range are both this.
inline std::pair<double, double> range_ends_for_new_group(const std::vector<std::pair<double, double>>& log_ratios,
                                                          double groups) {
  const double level = range_low_level_for_new_group(groups);
  return {std::min(1.0, std::exp(weighted_quantile_interpolated(log_ratios, level))),
          std::max(1.0, std::exp(weighted_quantile_interpolated(log_ratios, 1 - level)))};
}

}  // namespace traincalc::detail
