// The comparison seed 004 makes, done by the engine: the user's workload on every cloud offer of
// the catalog (with the offer's GPU and price, and the user's GPU count or budget), or on every GPU
// (with the user's count), ranked by the days each delivers. With a utilisation of the user's own
// (seed 004's 100% of peak), every row is also estimated at the engine's utilisation (predicted
// from the layout, or the assumed 40% without an architecture), so that both days can be shown.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "estimate/estimators.hpp"
#include "catalog/specs.hpp"
#include "traincalc/json_api.hpp"

namespace traincalc {

using detail::json;

namespace {

// A precision the GPU has no peak for is dropped (the engine then picks the GPU's own), so that a
// bf16 scenario still compares a V100 at fp16 rather than failing on it.
void keep_precision_if_supported(json& s, const GpuSpec& gpu) {
  if (!s.contains("strategy") || !s["strategy"].is_object()) return;
  json& strategy = s["strategy"];
  if (!strategy.contains("precision") || !strategy["precision"].is_string()) return;
  const auto precision = contract::value_of(contract::precisions, strategy["precision"].get<std::string>());
  if (precision && !dense_peak_tflops(gpu, *precision)) strategy.erase("precision");
}

void erase_if_empty(json& s, const char* key) {
  if (s.contains(key) && s[key].is_object() && s[key].empty()) s.erase(key);
}

const json* at(const json& report, std::initializer_list<const char*> path) {
  const json* node = &report;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
  }
  return node;
}

std::string text_at(const json& j, std::initializer_list<const char*> path) {
  const json* node = at(j, path);
  return node && node->is_string() ? node->get<std::string>() : "";
}

// The currency a money budget is in: budget.currency, else the price's as the scenario gives it, else
// `otherwise` (USD, the currency of a price given without one).
std::string budget_currency(const json& s, const Catalog& catalog, const std::string& otherwise = "USD") {
  if (auto c = text_at(s, {"budget", "currency"}); !c.empty()) return detail::currency_code(c);
  if (auto c = text_at(s, {"pricing", "currency"}); !c.empty()) return detail::currency_code(c);
  if (const Offer* offer = catalog.find_offer(text_at(s, {"pricing", "offer"}))) return offer->currency;
  return otherwise;
}

// The user's currency, as the estimate reads it: the scenario's currency, else budget.currency, else
// pricing.currency, else the currency of the offer the scenario names; where the scenario says none,
// the currency most of the compared offers are priced in (a vendor's catalog in yuan stays in yuan).
std::string user_currency(const json& s, const Catalog& catalog, const std::string& usual) {
  if (auto c = text_at(s, {"currency"}); !c.empty()) return detail::currency_code(c);
  return budget_currency(s, catalog, usual);
}

// The scenario on one offer: the offer's GPU and price; the budget stays in the user's currency, and
// the offer's price is converted into it, so every offer is costed and ranked in one currency.
json on_offer(json s, const Offer& offer, const Catalog& catalog, const std::string& usual) {
  if (s.contains("hardware") && s["hardware"].is_object()) {
    s["hardware"].erase("gpu");
    erase_if_empty(s, "hardware");
  }
  const std::string currency = user_currency(s, catalog, usual);
  if (s.contains("budget") && s["budget"].is_object() &&
      (s["budget"].contains("per_month") || s["budget"].contains("total")) && !s["budget"].contains("currency"))
    s["budget"]["currency"] = budget_currency(s, catalog);
  // An offer in a currency the rates do not know stays in its own (said as such; with a budget in
  // another currency the estimate refuses it, naming the currency).
  if (detail::find_currency(offer.currency) && detail::find_currency(currency)) s["currency"] = currency;
  s["pricing"] = {{"offer", offer.id}};
  keep_precision_if_supported(s, offer.gpu);
  return s;
}

// The scenario on another GPU with the user's count (or gpus_when_unset where a money budget chose
// it; a deadline plans each GPU's own count); a price is for one GPU, so none, and a money budget no
// longer applies.
json on_gpu(json s, const GpuSpec& gpu, double gpus_when_unset) {
  json hardware = s.contains("hardware") && s["hardware"].is_object() ? s["hardware"] : json::object();
  if (!hardware.contains("count") && !at(s, {"budget", "deadline_days"})) hardware["count"] = gpus_when_unset;
  hardware["gpu"] = gpu.id;
  s["hardware"] = hardware;
  s.erase("pricing");
  if (s.contains("budget") && s["budget"].is_object()) {
    for (const char* key : {"per_month", "total", "currency", "months"}) s["budget"].erase(key);
    erase_if_empty(s, "budget");
  }
  keep_precision_if_supported(s, gpu);
  return s;
}

// The scenario at another GPU count, the planner choosing each count's layout: a monthly budget
// (with its months) or a deadline no longer chooses the count (a money budget's currency stays the
// report's), nor does a given data-parallel width hold; a total budget stays.
json on_count(json s, double gpus) {
  json hardware = s.contains("hardware") && s["hardware"].is_object() ? s["hardware"] : json::object();
  hardware["count"] = gpus;
  s["hardware"] = hardware;
  if (s.contains("budget") && s["budget"].is_object()) {
    const json given = s["budget"];
    if (given.contains("currency") && (given.contains("per_month") || given.contains("total")) && !s.contains("currency"))
      s["currency"] = given["currency"];
    json budget = given;
    for (const char* key : {"per_month", "months", "deadline_days"}) budget.erase(key);
    if (budget.size() == budget.count("currency")) s.erase("budget");
    else s["budget"] = std::move(budget);
  }
  if (s.contains("strategy") && s["strategy"].is_object()) s["strategy"].erase("dp");
  return s;
}

// A GPU count as a row's ID: "64".
std::string count_id(double gpus) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", gpus);
  return text;
}

// Rows that can run come first, those that fit before those that do not; then fewer days, then
// less money (the headline's: the expected run's with a predicted utilisation) within one currency (the user's: every offer's price converted into it), then the ID.
// Written into each row as "rank_key", so that rows ranked in separate requests merge in this order
// without the page knowing the rule (compare the keys element by element).
using RankKey = std::tuple<int, int, double, std::string, double, std::string>;
RankKey rank_key(const ComparisonRow& row) {
  const Report& r = row.report;
  const bool runs = r.valid();
  // The headline figures: the expected run's where the utilisation is predicted.
  return {runs ? 0 : 1,
          runs && r.memory.fits ? 0 : 1,
          runs ? headline_days(r) : 1e308,
          runs && r.cost ? r.cost->currency : "",
          runs && r.cost ? *headline_cost(r) : 1e308,
          row.id};
}

json rank_key_json(const ComparisonRow& row) {
  const auto [runs, fits, days, currency, cost, id] = rank_key(row);
  return json::array({runs, fits, days, currency, cost, id});
}

constexpr std::size_t max_counts = 64;

// compare.counts: whole GPU counts from 1 to 10 million, at most max_counts of them.
void read_counts(detail::Fields& f, const json& value, std::vector<double>& counts) {
  const contract::Field* field = f.declared("counts");
  const contract::NumberRule rule = field ? field->rule : contract::NumberRule{};
  const auto valid = [&](const json& n) {
    if (!n.is_number()) return false;
    const double x = n.get<double>();
    return std::isfinite(x) && x >= rule.min && x <= rule.max && std::floor(x) == x;
  };
  if (!value.is_array() || value.empty() || value.size() > max_counts || !std::all_of(value.begin(), value.end(), valid)) {
    f.error("counts", "wrong_type",
            "compare.counts must be a list of 1 to " + std::to_string(max_counts) +
                " GPU counts, each a whole number from 1 to 10,000,000, not " + detail::describe(value) + ".",
            {{"expected", "list"}});
    return;
  }
  for (const json& n : value) counts.push_back(n.get<double>());
}

Issues read_request(const json& value, CompareRequest& request) {
  Issues errors;
  if (!value.is_object())
    return {{"compare",
             "wrong_type",
             "The comparison request must be a JSON object ({\"kind\": \"offers\", \"ids\": [...]}), not " +
                 detail::describe(value) + ".",
             {{"expected", "object"}}}};
  detail::Fields f(value, "compare", errors, &contract::compare_request);
  if (auto kind = f.choice("kind", contract::compare_kinds)) request.kind = *kind;
  if (const json* ids = f.raw("ids")) {
    if (!ids->is_array()) {
      f.error("ids", "wrong_type", "compare.ids must be a list of catalog IDs.", {{"expected", "list"}});
    } else {
      request.ids.emplace();
      for (const auto& id : *ids) {
        if (!id.is_string()) {
          f.error("ids", "wrong_type", "compare.ids must hold IDs as strings, not " + detail::describe(id) + ".",
                  {{"expected", "text"}});
          break;
        }
        request.ids->push_back(id.get<std::string>());
      }
    }
  }
  if (auto n = f.number("gpus_when_unset")) request.gpus_when_unset = *n;
  if (const json* counts = f.raw("counts")) {
    if (request.kind == CompareKind::counts)
      read_counts(f, *counts, request.counts);
    else
      f.error("counts", "conflict", "compare.counts is for kind counts; give kind \"counts\" or leave counts out.");
  }
  if (request.kind == CompareKind::counts && request.counts.empty() && errors.empty())
    f.error("counts", "required", "compare.counts is required with kind counts: the GPU counts, e.g. [8, 64, 512].");
  f.reject_unknown();
  return errors;
}

}  // namespace

Comparison compare(std::string_view scenario_text, const Catalog& base, const CompareRequest& request) {
  Comparison out;
  out.kind = request.kind;
  const auto scenario = detail::parse_json_text(scenario_text, out.errors);
  if (!scenario) return out;
  if (!scenario->is_object()) {
    out.errors.push_back({"",
                          "wrong_type",
                          "A scenario must be a JSON object, not " + detail::describe(*scenario) + ".",
                          {{"expected", "object"}}});
    return out;
  }
  // The scenario's own catalog (a vendor's offers inline) is compared too.
  Catalog with_inline;
  const Catalog* catalog = &base;
  if (scenario->contains("catalog")) {
    CatalogLoad load = detail::merge_catalog_value((*scenario)["catalog"], base, "catalog");
    if (!load.errors.empty()) {
      out.errors = std::move(load.errors);
      return out;
    }
    with_inline = std::move(load.catalog);
    catalog = &with_inline;
  }
  const auto wanted = [&](const std::string& id) {
    return !request.ids || std::find(request.ids->begin(), request.ids->end(), id) != request.ids->end();
  };
  const json* mfu = at(*scenario, {"strategy", "mfu"});
  out.fixed_utilisation = mfu && mfu->is_number();

  const auto add = [&](ComparisonRow row, const json& s) {
    row.report = detail::estimate_scenario_value(s, *catalog);
    if (out.fixed_utilisation) {
      json engine = s;
      engine["strategy"].erase("mfu");
      row.at_engine_utilisation = detail::estimate_scenario_value(engine, *catalog);
    }
    out.rows.push_back(std::move(row));
  };
  if (request.kind == CompareKind::offers) {
    // The currency most of the compared offers are priced in (the first such in the catalog's order).
    std::vector<std::pair<std::string, int>> counts;
    for (const Offer& offer : catalog->offers) {
      if (!wanted(offer.id)) continue;
      auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == offer.currency; });
      if (it == counts.end()) counts.emplace_back(offer.currency, 1);
      else ++it->second;
    }
    const auto most = std::max_element(counts.begin(), counts.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    const std::string usual = most == counts.end() ? "USD" : most->first;
    for (const Offer& offer : catalog->offers)
      if (wanted(offer.id))
        add({offer.id, offer.provider, offer.name, offer.date, offer.gpu.id, offer.gpu.name, {}, {}},
            on_offer(*scenario, offer, *catalog, usual));
  } else if (request.kind == CompareKind::gpus) {
    for (const GpuSpec& gpu : catalog->gpus)
      if (wanted(gpu.id))
        add({gpu.id, gpu.name, gpu.form_factor, "", gpu.id, gpu.name, {}, {}},
            on_gpu(*scenario, gpu, request.gpus_when_unset));
  } else {
    // The curve is read in the order asked, at the utilisation given (or the engine's own).
    for (double gpus : request.counts) {
      ComparisonRow row{count_id(gpus), "", count_id(gpus) + " GPUs", "", "", "", {}, {}};
      row.report = detail::estimate_scenario_value(on_count(*scenario, gpus), *catalog);
      row.gpu = row.report.hardware.gpu_id;
      row.gpu_name = row.report.hardware.gpu_name;
      out.rows.push_back(std::move(row));
    }
    return out;
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const ComparisonRow& a, const ComparisonRow& b) { return rank_key(a) < rank_key(b); });
  return out;
}

std::string comparison_to_json(const Comparison& comparison, int indent) {
  if (!comparison.errors.empty()) return error_report_json(comparison.errors, indent);
  json rows = json::array();
  for (const ComparisonRow& row : comparison.rows) {
    json out = {{"id", row.id},
                {"provider", row.provider},
                {"name", row.name},
                {"date", row.date},
                {"gpu", row.gpu},
                {"gpu_name", row.gpu_name},
                {"report", detail::report_value(row.report)}};
    if (row.at_engine_utilisation) out["at_engine_utilisation"] = detail::report_value(*row.at_engine_utilisation);
    out["rank_key"] = rank_key_json(row);
    rows.push_back(std::move(out));
  }
  json out = {{"kind", contract::name_of(contract::compare_kinds, comparison.kind)},
              {"ranked_by", comparison.kind == CompareKind::counts
                                ? "the GPU counts in the order asked"
                                : "rows that run and fit first, then fewest days, then lowest total cost"},
              {"fixed_utilisation", comparison.fixed_utilisation},
              {"rows", std::move(rows)},
              {"errors", json::array()}};
  return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string compare_json(std::string_view scenario_text, const Catalog& base, const CompareRequest& request,
                         int indent) {
  return comparison_to_json(compare(scenario_text, base, request), indent);
}

std::string compare_json(std::string_view scenario_text, const Catalog& catalog, std::string_view request_text,
                         int indent) {
  Issues errors;
  CompareRequest request;
  if (!request_text.empty()) {
    const auto value = detail::parse_json_text(request_text, errors);
    if (value) errors = read_request(*value, request);
  }
  if (!errors.empty()) return error_report_json(errors, indent);
  return compare_json(scenario_text, catalog, request, indent);
}

}  // namespace traincalc
