// Money. A price is per GPU-hour or per GPU-month (a month of hours_per_month hours, 730 by
// default); the run costs GPU-hours x hourly price. No currency is converted.
#include "estimators.hpp"

namespace traincalc::detail {

double hourly_price(const Pricing& p) {
  return p.per_gpu_hour ? *p.per_gpu_hour : p.per_gpu_month.value_or(0) / p.hours_per_month;
}

double monthly_price(const Pricing& p) {
  return p.per_gpu_month ? *p.per_gpu_month : p.per_gpu_hour.value_or(0) * p.hours_per_month;
}

std::optional<CostReport> estimate_cost(const Scenario& s, const TimeReport& time, double gpus) {
  if (!s.pricing) return std::nullopt;
  const Pricing& p = *s.pricing;
  CostReport c;
  c.currency = p.currency;
  c.per_gpu_hour = hourly_price(p);
  c.total = time.gpu_hours * c.per_gpu_hour;
  c.per_gpu_month = monthly_price(p);
  c.per_month = gpus * c.per_gpu_month;
  c.months = time.wall_clock_hours / p.hours_per_month;
  c.offer = p.offer;
  if (time.expected) c.expected_total = time.expected->gpu_hours * c.per_gpu_hour;
  return c;
}

}  // namespace traincalc::detail
