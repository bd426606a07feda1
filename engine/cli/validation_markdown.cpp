#include "validation_markdown.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace traincalc::cli {
namespace {

// A count with thousands separators: 1,842.
std::string count(double x) {
  std::string digits = std::to_string(static_cast<long long>(std::llround(x)));
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

// A percentage to one decimal, signed where asked; what rounds to nothing prints unsigned.
std::string pct(double x, bool sign = false) {
  char text[32];
  if (std::abs(x) < 0.05) x = 0;
  std::snprintf(text, sizeof text, sign && x != 0 ? "%+.1f%%" : "%.1f%%", x);
  std::string s = text;
  if (!s.empty() && s.front() == '-') s.replace(0, 1, "−");
  return s;
}

// Percentage points to one decimal, signed: "+2.2", "−1.9", "0.0".
std::string points(double x) {
  std::string s = pct(x, true);
  return s.substr(0, s.size() - 1);
}

std::string fixed(double x, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}

std::string general(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
}

// "megatron (7 sources), pytorch (3)": names in their first order, with the count of each.
std::string named_counts(const std::vector<std::pair<std::string, double>>& items, const char* unit) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) text += ", ";
    text += items[i].first + " (" + count(items[i].second) + (i == 0 ? std::string(" ") + unit : "") + ")";
  }
  return text;
}

// How many of `items` have each key, the keys in their first order.
template <class Items, class Key>
std::vector<std::pair<std::string, double>> count_by(const Items& items, Key key) {
  std::vector<std::pair<std::string, double>> counts;
  for (const auto& item : items) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == key(item); });
    if (it == counts.end()) counts.emplace_back(key(item), 1);
    else it->second += 1;
  }
  return counts;
}

void calibration_table(const std::vector<CalibrationDistance>& distances, const char* what, double between_sd,
                       double within_sd, double weight) {
  static const std::map<std::string, std::string> names = {
      {"layout", "the same model on as many GPUs, another layout"},
      {"gpus", "the same model on another GPU count"},
      {"model", "another model"}};
  std::printf("| the predicted run, against the measured one | pairs | sources | median error, calibrated | carried "
              "in full | uncalibrated | measured / calibrated, 10th–90th percentile |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  for (const auto& d : distances) {
    const auto name = names.find(d.distance);
    std::printf("| %s | %s | %s | %s | %s | %s | %s–%s |\n",
                name == names.end() ? d.distance.c_str() : name->second.c_str(), count(d.pairs).c_str(),
                count(d.sources).c_str(), pct(d.median_abs_error_pct).c_str(), pct(d.median_abs_error_full_pct).c_str(),
                pct(d.median_abs_error_uncalibrated_pct).c_str(), fixed(d.low, 2).c_str(), fixed(d.high, 2).c_str());
  }
  std::printf("\nThe sources' biases spread by τ = %s (log) and a %s about its source's by σ = %s: one measured %s "
              "carries τ² / (τ² + σ²) = %s of its departure to another run.\n",
              fixed(between_sd, 4).c_str(), what, fixed(within_sd, 4).c_str(), what,
              pct(100 * weight).c_str());
}

}  // namespace

void markdown_validation(const ValidationTable& table) {
  std::printf("| published run | metric | published | predicted | error (points) |\n");
  std::printf("|---|---|---:|---:|---:|\n");
  for (const auto& row : table.rows)
    std::printf("| %s | %s | %s | %s | %s |\n", row.label.c_str(), row.metric == "hfu" ? "HFU" : "MFU",
                pct(100 * row.published).c_str(), pct(100 * row.predicted).c_str(), points(row.error_pp).c_str());
  std::printf("\nMedian |error| %s points, largest %s, over %zu runs.\n", fixed(table.median_abs_error_pp, 2).c_str(),
              fixed(table.max_abs_error_pp, 2).c_str(), table.rows.size());
}

void markdown_memory_validation(const MemoryValidationTable& table) {
  // Rows are measured peaks, runs that ran out of memory and capacity bounds; the errors are the
  // measured peaks' (a source with none has no error to report).
  std::printf("| source (its lineage held out) | lineage | rows | measured peaks | fitted reserve | median error | "
              "largest |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  for (const auto& s : table.sources) {
    const bool measured = s.peaks > 0;
    std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", s.group.c_str(), s.lineage.c_str(), count(s.rows).c_str(),
                count(s.peaks).c_str(), fixed(s.fragmentation, 3).c_str(),
                measured ? pct(s.median_abs_error_pct).c_str() : "—", measured ? pct(s.max_abs_error_pct).c_str() : "—");
  }
  std::printf("\nHeld out: median |error| %s, largest %s; in sample (reserve %s): median %s, largest %s. Out of "
              "memory: %s of %s runs predicted not to fit; capacity bounds: %s of %s respected.\n\n",
              pct(table.median_abs_error_pct).c_str(), pct(table.max_abs_error_pct).c_str(),
              fixed(table.fragmentation_in_sample, 3).c_str(), pct(table.median_abs_error_in_sample_pct).c_str(),
              pct(table.max_abs_error_in_sample_pct).c_str(), count(table.out_of_memory_predicted).c_str(),
              count(table.out_of_memory_rows).c_str(), count(table.bound_respected).c_str(),
              count(table.bound_rows).c_str());
  std::printf("Likely range of a peak for a new lineage (measured / predicted, 80%%): %s–%s over %s lineages; each "
              "lineage held out whole: the median of their medians %s, %s of a held-out lineage's peaks inside the "
              "range built without it, median width %s×.\n\n",
              fixed(table.range.low, 3).c_str(), fixed(table.range.high, 3).c_str(), count(table.range.lineages).c_str(),
              pct(table.median_of_lineages_abs_error_pct).c_str(), pct(table.range_coverage_lineages_pct).c_str(),
              fixed(table.range_median_width, 2).c_str());
  calibration_table(table.calibration, "peak", table.calibration_between_sd, table.calibration_within_sd,
                    table.calibration_weight);
}

void markdown_speed_validation(const SpeedValidationTable& table) {
  std::printf("| lineage (held out) | sources | rows | median error | bias | rows in the 80%% range built without it "
              "| median width (high / low) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& l : table.lineages)
    std::printf("| %s | %s | %s | %s | %s | %s | %s× |\n", l.name.c_str(), count(l.sources).c_str(),
                count(l.rows).c_str(), pct(l.median_abs_error_pct).c_str(), pct(l.median_error_pct, true).c_str(),
                pct(l.range_coverage_pct).c_str(), fixed(l.range_median_width, 2).c_str());
  std::printf("\n| source (its lineage held out) | framework | rows | median error | mean | bias | largest | in "
              "sample |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
  bool validation_only = false;
  for (const auto& s : table.sources) {
    std::printf("| %s%s | %s | %s | %s | %s | %s | %s | %s |\n", s.group.c_str(), s.fitted ? "" : " *",
                s.framework.c_str(), count(s.rows).c_str(), pct(s.median_abs_error_pct).c_str(),
                pct(s.mean_abs_error_pct).c_str(), pct(s.mean_error_pct, true).c_str(),
                pct(s.max_abs_error_pct).c_str(), pct(s.median_abs_error_in_sample_pct).c_str());
    validation_only = validation_only || !s.fitted;
  }
  if (validation_only) std::printf("\n\\* validation only: predicted, never fitted on.\n");
  std::printf("\nMedian of the sources' medians: held out %s, in sample %s. All %s rows: held out median %s, mean %s; "
              "with the engine's own constants, median %s. The fit's grid sweeps take %d steps a constant.\n\n",
              pct(table.median_of_sources_abs_error_pct).c_str(),
              pct(table.median_of_sources_abs_error_in_sample_pct).c_str(), count(table.rows.size()).c_str(),
              pct(table.median_abs_error_pct).c_str(), pct(table.mean_abs_error_pct).c_str(),
              pct(table.median_abs_error_built_in_pct).c_str(), table.search_grid);
  std::printf("| kind of step | likely range, measured / predicted (80%%, a new lineage) | rows | sources | lineages |\n");
  std::printf("|---|---|---:|---:|---:|\n");
  for (const auto& r : table.ranges)
    std::printf("| %s | %s–%s | %s | %s | %s |\n", r.basis.c_str(), fixed(r.low, 3).c_str(), fixed(r.high, 3).c_str(),
                count(r.rows).c_str(), count(r.sources).c_str(), count(r.lineages).c_str());
  std::printf("\nRows inside their range: %s (mean of sources %s; each source's ranges built without its lineage: "
              "%s).\n\n",
              pct(table.range_coverage_rows_pct).c_str(), pct(table.range_coverage_sources_pct).c_str(),
              pct(table.range_coverage_nested_pct).c_str());
  calibration_table(table.calibration, "row", table.calibration_between_sd, table.calibration_within_sd,
                    table.calibration_weight);
  if (!table.envelope.empty()) {
    static const std::map<std::string, std::string> names = {
        {"params", "parameters"}, {"gpus", "GPUs"}, {"pp", "pipeline stages"}, {"dp", "data-parallel replicas"}};
    std::printf("\n| dimension | measured rows span | edge of the experiment | rows past it | sources | change of "
                "log(predicted) per doubling past it |\n");
    std::printf("|---|---|---|---:|---:|---:|\n");
    for (const auto& d : table.envelope) {
      const auto name = names.find(d.dimension);
      std::printf("| %s, %s | %s–%s | %s %s | %s | %s | %s |\n",
                  name == names.end() ? d.dimension.c_str() : name->second.c_str(), d.above ? "above" : "below",
                  general(d.low).c_str(), general(d.high).c_str(), d.above ? ">" : "<", general(d.edge).c_str(),
                  count(d.rows).c_str(), count(d.sources).c_str(), fixed(d.per_doubling, 4).c_str());
    }
    std::printf("\nPooled over the dimensions: %s per doubling.\n", fixed(table.extrapolation_per_doubling, 4).c_str());
  }
  if (!table.fits.empty() && table.fits.front().without.empty()) {
    std::printf("\n| constant | fitted on every row |\n|---|---:|\n");
    for (const auto& [name, value] : table.fits.front().values)
      std::printf("| `%s` | %s |\n", name.c_str(), general(value).c_str());
  }
}

void markdown_run_validation(const RunValidationTable& table) {
  std::printf("| figure | median \\|error\\| of GPU-hours |\n|---|---:|\n");
  std::printf("| the expected run, its publisher held out | %s (bias %s) |\n", pct(table.median_abs_error_pct).c_str(),
              pct(table.median_error_pct, true).c_str());
  std::printf("| the expected run, in sample | %s |\n", pct(table.median_abs_error_in_sample_pct).c_str());
  std::printf("| the steady state alone | %s |\n", pct(table.median_abs_steady_error_pct).c_str());
  std::printf("| 6NT at 40%% of the dense peak | %s |\n", pct(table.median_abs_rule_of_thumb_error_pct).c_str());
  std::printf("\nOver %zu runs. Run efficiency fitted on the %s runs whose utilisation the engine predicts: %s. Likely "
              "range of the expected run for a new publisher (published / expected, 80%%): %s–%s; %s publishers, "
              "each held out whole: the median of their medians %s, %s of a held-out publisher's runs inside the "
              "range built without it, median width %s×.\n\n",
              table.rows.size(), count(table.runs_predicted).c_str(), fixed(table.run_efficiency_in_sample, 3).c_str(),
              fixed(table.range_low, 3).c_str(), fixed(table.range_high, 3).c_str(), count(table.publishers).c_str(),
              pct(table.median_of_publishers_abs_error_pct).c_str(), pct(table.range_coverage_publishers_pct).c_str(),
              fixed(table.range_median_width, 2).c_str());
  std::printf("| confidence of the published figure | runs | median error, held out | bias | within 12%% |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  for (const auto& c : table.by_confidence)
    std::printf("| %s | %s | %s | %s | %s |\n", c.confidence.c_str(), count(c.runs).c_str(),
                pct(c.median_abs_error_pct).c_str(), pct(c.median_error_pct, true).c_str(),
                count(c.within_12_pct).c_str());
}

void markdown_summary(const SpeedValidationTable& speed, const MemoryValidationTable& memory,
                      const RunValidationTable& runs) {
  std::printf("| predicted | rows | groups held out | median over groups of their median error | group's rows inside "
              "the 80%% range built without it | median width (high / low) |\n");
  std::printf("|---|---:|---|---:|---:|---:|\n");
  std::vector<std::pair<std::string, double>> lineages;
  for (const auto& l : speed.lineages) lineages.emplace_back(l.name, l.sources);
  std::printf("| step time | %s | %zu lineages: %s | %s | %s | %s× |\n", count(speed.rows.size()).c_str(),
              speed.lineages.size(), named_counts(lineages, "sources").c_str(),
              pct(speed.median_of_lineages_abs_error_pct).c_str(), pct(speed.range_coverage_lineages_pct).c_str(),
              fixed(speed.range_median_width, 2).c_str());
  const auto memory_lineages = count_by(memory.sources, [](const auto& s) { return s.lineage; });
  double peaks = 0;
  for (const auto& r : memory.rows) peaks += r.out_of_memory || r.upper_bound ? 0 : 1;
  std::printf("| peak memory, framework named | %s | %zu lineages: %s | %s | %s | %s× |\n", count(peaks).c_str(),
              memory_lineages.size(), named_counts(memory_lineages, "sources").c_str(),
              pct(memory.median_of_lineages_abs_error_pct).c_str(), pct(memory.range_coverage_lineages_pct).c_str(),
              fixed(memory.range_median_width, 2).c_str());
  auto publishers = count_by(runs.rows, [](const auto& r) { return r.publisher; });
  std::stable_sort(publishers.begin(), publishers.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  const bool cut = publishers.size() > 3;
  if (cut) publishers.resize(3);
  std::printf("| whole run | %s with a predicted utilisation, of %zu | %s publishers: %s%s | %s | %s | %s× |\n",
              count(runs.runs_predicted).c_str(), runs.rows.size(), count(runs.publishers).c_str(),
              named_counts(publishers, "runs").c_str(), cut ? ", ..." : "", pct(runs.median_of_publishers_abs_error_pct).c_str(),
              pct(runs.range_coverage_publishers_pct).c_str(), fixed(runs.range_median_width, 2).c_str());
}

}  // namespace traincalc::cli
