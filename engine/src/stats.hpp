// Summary statistics of error lists, shared by the validations (memory, speed).
#pragma once
#include <algorithm>
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

// The q-quantile (0..1) of weighted values: the first value, in order, at which the running weight
// reaches q of the total. 0 for an empty list.
inline double weighted_quantile(std::vector<std::pair<double, double>> value_weight, double q) {
  if (value_weight.empty()) return 0;
  std::sort(value_weight.begin(), value_weight.end());
  double total = 0;
  for (const auto& vw : value_weight) total += vw.second;
  double running = 0;
  for (const auto& [value, weight] : value_weight) {
    running += weight;
    if (running >= q * total - 1e-12) return value;
  }
  return value_weight.back().first;
}

}  // namespace traincalc::detail
