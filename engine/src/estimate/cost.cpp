// Money. A price is per GPU-hour or per GPU-month (a month of hours_per_month hours, 730 by
// default); the run costs GPU-hours x hourly price. A price or budget in another currency than the
// report's is converted at the reference rates (currencies.hpp) or the scenario's own.
#include <algorithm>
#include <cctype>

#include "estimate/estimators.hpp"
#include "traincalc/currencies.hpp"

namespace traincalc::detail {

const CurrencyRate* find_currency(std::string_view code) {
  const auto it = std::find_if(reference_rates.begin(), reference_rates.end(),
                               [&](const CurrencyRate& c) { return c.code == code; });
  return it == reference_rates.end() ? nullptr : &*it;
}

// A currency code as typed, as the rates know it: trimmed, upper-case, and the yuan's everyday
// abbreviation RMB as its ISO code CNY.
std::string currency_code(std::string_view typed) {
  std::size_t a = 0, b = typed.size();
  while (a < b && std::isspace(static_cast<unsigned char>(typed[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(typed[b - 1]))) --b;
  std::string code(typed.substr(a, b - a));
  for (char& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return code == "RMB" ? "CNY" : code;
}

std::string currency_list() {
  std::string out;
  for (const CurrencyRate& c : reference_rates) out += (out.empty() ? "" : ", ") + std::string(c.code);
  return out;
}

namespace {

// Units of a currency for one US dollar: the scenario's (exchange_rates), else the reference rates'
// cross rate through the euro (per_eur / USD's per_eur). None for a code neither knows.
std::optional<double> per_usd(const Scenario& s, std::string_view code, bool& given) {
  if (code == "USD") return 1.0;
  if (const auto it = s.exchange_rates.find(code); it != s.exchange_rates.end()) {
    given = true;
    return it->second;
  }
  const CurrencyRate* c = find_currency(code);
  const CurrencyRate* usd = find_currency("USD");
  if (!c || !usd) return std::nullopt;
  return c->per_eur / usd->per_eur;
}

}  // namespace

std::optional<Exchange> exchange_between(const Scenario& s, std::string_view from, std::string_view to) {
  Exchange x;
  x.from = std::string(from);
  x.to = std::string(to);
  const auto a = per_usd(s, from, x.given), b = per_usd(s, to, x.given);
  if (!a || !b) return std::nullopt;
  x.rate = *b / *a;
  x.from_per_usd = *a;
  x.to_per_usd = *b;
  return x;
}

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
  c.offer = p.own_price ? "" : p.offer;  // the offer's price, not the user's own for its instances
  c.exchange = p.exchange;
  if (s.budget) c.budget_exchange = s.budget->exchange;
  if (time.expected) c.expected_total = time.expected->gpu_hours * c.per_gpu_hour;
  return c;
}

}  // namespace traincalc::detail
