// traincalc: the engine on the command line.
//   traincalc estimate [FILE|-] [--catalog FILE]... [--pretty]
//   traincalc catalog [--catalog FILE]... [--pretty]
//   traincalc compare [FILE|-] [--gpus | --counts N,N,...] [--json] [--catalog FILE]... [--pretty]
//   traincalc validate [--planner | --memory | --speed [--search-grid N] | --runs | --summary]
//                      [--json | --markdown] [--pretty]
//   traincalc parse-log [FILE|-] [--pretty]
//   traincalc import-config [--format F] FILE... [--pretty] | --keys
//   traincalc export-config --format megatron|torchtitan [FILE|-]
//   traincalc schema scenario|catalog|report|reference|choices|issues
// Exit status: 0 when every report is valid (compare: when the comparison ran, its rows may carry
// their own errors), 2 on any error (usage errors included).
#include <algorithm>
#include <cstdio>
#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "traincalc/catalog.hpp"
#include "traincalc/contract.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"
#include "config_files.hpp"
#include "validation_markdown.hpp"

namespace {

constexpr const char* usage =
    "usage: traincalc estimate [FILE|-] [--catalog FILE]... [--pretty]\n"
    "       traincalc catalog [--catalog FILE]... [--pretty]\n"
    "       traincalc compare [FILE|-] [--gpus | --counts N,N,...] [--json] [--catalog FILE]... [--pretty]\n"
    "       traincalc import-hf [FILE|-] [--pretty]\n"
    "       traincalc parse-log [FILE|-] [--pretty]\n"
    "       traincalc import-config [--format F] FILE... [--pretty] | --keys\n"
    "       traincalc export-config --format megatron|torchtitan [FILE|-]\n"
    "       traincalc validate [--planner | --memory | --speed [--search-grid N] | --runs | --summary]\n"
    "                          [--json | --markdown] [--pretty]\n"
    "       traincalc schema scenario|catalog|report|reference|choices|issues\n"
    "\n"
    "estimate  reads a scenario (or an array of scenarios) as JSON from FILE or standard input and\n"
    "          writes the report (or array of reports). Exit 0 when all are valid, 2 otherwise.\n"
    "compare   runs the scenario on every cloud offer of the catalog (--gpus: on every GPU, with the\n"
    "          scenario's GPU count) and ranks them: days, GPUs, cost, utilisation, fit. With a fixed\n"
    "          strategy.mfu each offer is also estimated at the engine's utilisation (--json: as JSON).\n"
    "          --counts 8,64,512: the scenario at each GPU count instead, the planner choosing each\n"
    "          count's layout, in the order given (the scaling curve).\n"
    "catalog   prints the merged catalog of GPUs, cloud offers and model presets.\n"
    "parse-log reads a training log (Megatron-LM, NeMo, torchtitan, DeepSpeed, Hugging Face Trainer,\n"
    "          LitGPT, nanoGPT, or torch.cuda.max_memory_allocated()'s bytes) and prints each step time,\n"
    "          throughput, TFLOP/s and peak memory it finds, and their medians as the measured figures\n"
    "          of a scenario's calibration. Exit 0 when something was found, 2 otherwise.\n"
    "import-config reads training frameworks' configs, the files of one run (Megatron-LM launch\n"
    "          script, torchtitan TOML, DeepSpeed JSON, Hugging Face TrainingArguments with TRL/PEFT\n"
    "          options, accelerate YAML; --format before a file names its framework) and prints the\n"
    "          scenario they give, each key taken, left aside or not read, and what is still assumed.\n"
    "          --keys: every key each framework maps, as Markdown. Exit 0 when nothing was refused.\n"
    "export-config writes the run a scenario estimates, the planner's layout included, as Megatron-LM\n"
    "          arguments or a torchtitan TOML, each line commented with what the estimate assumed.\n"
    "import-hf reads a Hugging Face config.json and prints the model in the scenario's architecture\n"
    "          form, with its parameter count and a warning for every default it assumed.\n"
    "validate  predicts every published run in the engine's calibration data and prints predicted\n"
    "          against published MFU (--planner: also the planner's own layout; --json: as JSON);\n"
    "          --memory: every measured peak-memory run against the memory model, held out by lineage;\n"
    "          --speed: every measured step time against the step model, held out by software lineage\n"
    "          (--search-grid N, 4-48, default 12: the steps of the fit's grid sweeps; the held-out\n"
    "          figures move with it, scripts/fit-noise.mjs measures how far);\n"
    "          --runs: every published whole run's GPU-hours against the expected run, each held out;\n"
    "          --summary --markdown: what a new publisher meets, steps, memory and whole runs held out;\n"
    "          --markdown: the summary tables docs/validation.md shows, as Markdown.\n"
    "schema    prints the JSON Schema (draft 2020-12) of a scenario, a catalog or a report, or\n"
    "          (reference) the Markdown reference of every field, or (choices) the page's choices as a\n"
    "          JavaScript module, or (issues) every error and warning code with its meaning and every\n"
    "          reason, all from the engine's field tables.\n"
    "--catalog adds or replaces catalog rows from a JSON file; may be repeated.\n"
    "--pretty  indents the JSON output.\n";

std::optional<std::string> read_all(const std::string& path) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Prints an error report in the same shape as the engine's, so scripts parse one format.
int fail(const traincalc::Issues& errors) {
  std::cout << traincalc::error_report_json(errors) << '\n';
  return 2;
}

// A signed figure printed to one decimal: what rounds to nothing prints as +0.0, never -0.0.
double signed_tenths(double x) {
  return std::abs(x) < 0.05 ? 0.0 : x;
}

// The validation as a table: one published run per line.
void print_validation(const traincalc::ValidationTable& table, bool planner) {
  std::printf("%-58s %-4s %9s %9s %7s", "published run", "", "published", "predicted", "error");
  if (planner) std::printf("  %-34s %8s", "planner's layout", "speed-up");
  std::printf("\n");
  for (const auto& row : table.rows) {
    std::printf("%-58.58s %-4s %8.1f%% %8.1f%% %+6.1fpp", row.label.c_str(), row.metric.c_str(), 100 * row.published,
                100 * row.predicted, signed_tenths(row.error_pp));
    if (planner && row.planner) {
      const auto& p = *row.planner;
      char layout[128], interleave[16] = "";
      if (p.virtual_stages > 1) std::snprintf(interleave, sizeof interleave, "x%g", p.virtual_stages);
      std::snprintf(layout, sizeof layout, "tp%g pp%g%s cp%g dp%g mb%g z%g %s%s", p.tp, p.pp, interleave, p.cp, p.dp,
                    p.micro_batch, p.zero, traincalc::to_string(p.recompute), p.fits ? "" : " (no fit)");
      std::printf("  %-34s %7.2fx", layout, row.step_seconds / p.step_seconds);
    }
    std::printf("\n");
  }
  std::printf("median |error| %.2f pp, largest %.2f pp over %zu runs\n", table.median_abs_error_pp,
              table.max_abs_error_pp, table.rows.size());
}

// The memory validation: one measured run per line, then each source held out.
// Calibrated within each source on one measured `what` ("row", "peak"), its other ones predicted.
void print_calibration(const std::vector<traincalc::CalibrationDistance>& distances, const char* what,
                       double between_sd, double within_sd, double weight) {
  std::printf("\n%-12s %7s %8s %9s %9s %9s %9s %9s   calibrated on one measured %s of a source, its other %ss predicted\n",
              "distance", "pairs", "sources", "median", "in full", "uncalib.", "low", "high", what, what);
  for (const auto& d : distances)
    std::printf("%-12s %7.0f %8.0f %8.1f%% %8.1f%% %8.1f%% %9.3f %9.3f\n", d.distance.c_str(), d.pairs, d.sources,
                d.median_abs_error_pct, d.median_abs_error_full_pct, d.median_abs_error_uncalibrated_pct, d.low, d.high);
  std::printf("a source's bias spreads by %.4f (log), a %s about its source's by %.4f: one measured %s carries "
              "%.1f%% of its departure to another run (\"median\"; \"in full\": all of it)\n",
              between_sd, what, within_sd, what, 100 * weight);
}

void print_memory_validation(const traincalc::MemoryValidationTable& table) {
  constexpr double gib = 1073741824.0;
  std::printf("%-64s %-9s %9s %9s %8s\n", "measured run", "counter", "measured", "predicted", "error");
  for (const auto& row : table.rows) {
    std::printf("%-64.64s %-9s ", row.label.c_str(), row.counter.c_str());
    if (row.out_of_memory)
      std::printf("%9s %8.2fG %8s\n", "OOM", row.predicted_bytes / gib, row.predicted_fits ? "FITS?" : "no fit");
    else if (row.upper_bound)
      std::printf("<=%6.2fG %8.2fG %8s\n", row.measured_bytes / gib, row.predicted_bytes / gib,
                  row.predicted_fits ? "fits" : "NO FIT?");
    else
      std::printf("%8.2fG %8.2fG %+7.1f%%\n", row.measured_bytes / gib, row.predicted_bytes / gib, signed_tenths(row.error_pct));
  }
  std::printf("\n%-40s %-12s %5s %6s %8s %9s %9s\n", "source (lineage held out)", "lineage", "rows", "peaks", "frag.",
              "median", "max");
  for (const auto& s : table.sources) {
    std::printf("%-40.40s %-12.12s %5.0f %6.0f %8.3f", s.group.c_str(), s.lineage.c_str(), s.rows, s.peaks,
                s.fragmentation);
    // A source of out-of-memory runs and bounds only has no error to report.
    if (s.peaks > 0) std::printf(" %8.1f%% %8.1f%%\n", s.median_abs_error_pct, s.max_abs_error_pct);
    else std::printf(" %9s %9s\n", "-", "-");
  }
  std::printf("likely range of a peak for a new lineage (measured / predicted): %.3f-%.3f over %.0f lineages; each "
              "lineage held out whole: the median of their medians %.1f%%, %.0f%% of a held-out lineage's peaks "
              "inside the range built without it, median width %.2fx\n",
              table.range.low, table.range.high, table.range.lineages, table.median_of_lineages_abs_error_pct,
              table.range_coverage_lineages_pct, table.range_median_width);
  std::printf("held out: median |error| %.1f%%, largest %.1f%%; in sample (fragmentation %.3f): median %.1f%%, "
              "largest %.1f%%\n",
              table.median_abs_error_pct, table.max_abs_error_pct, table.fragmentation_in_sample,
              table.median_abs_error_in_sample_pct, table.max_abs_error_in_sample_pct);
  std::printf("out of memory: %.0f of %.0f predicted not to fit; capacity bounds: %.0f of %.0f respected\n",
              table.out_of_memory_predicted, table.out_of_memory_rows, table.bound_respected, table.bound_rows);
  print_calibration(table.calibration, "peak", table.calibration_between_sd, table.calibration_within_sd,
                    table.calibration_weight);
}

// The speed validation: each software lineage held out (its rows predicted with the constants fitted
// without it, checked against ranges built without it), then each source, the rank correlation
// within each group of layouts, and the fitted constants.
void print_speed_validation(const traincalc::SpeedValidationTable& table) {
  std::printf("%-20s %7s %5s %9s %9s %9s %9s   a new publisher: each lineage held out of the fit and the ranges\n",
              "lineage (held out)", "sources", "rows", "median", "bias", "in range", "width");
  for (const auto& l : table.lineages)
    std::printf("%-20.20s %7.0f %5.0f %8.1f%% %+8.1f%% %8.0f%% %8.2fx\n", l.name.c_str(), l.sources, l.rows,
                l.median_abs_error_pct, signed_tenths(l.median_error_pct), l.range_coverage_pct, l.range_median_width);
  std::printf("median of the lineages' medians %.1f%%; 80%% ranges hold %.0f%% of a held-out lineage's rows (each "
              "lineage weighing the same), median width %.2fx (high / low)\n\n",
              table.median_of_lineages_abs_error_pct, table.range_coverage_lineages_pct, table.range_median_width);
  std::printf("%-22s %-18s %5s %9s %9s %9s %9s %9s\n", "source (lineage out)", "framework", "rows", "median", "mean",
              "bias", "largest", "in sample");
  bool validation_only = false;
  for (const auto& s : table.sources) {
    std::printf("%-22.22s %-18.18s %5.0f %8.1f%% %8.1f%% %+8.1f%% %8.1f%% %8.1f%%%s\n", s.group.c_str(),
                s.framework.c_str(), s.rows, s.median_abs_error_pct, s.mean_abs_error_pct, signed_tenths(s.mean_error_pct),
                s.max_abs_error_pct, s.median_abs_error_in_sample_pct, s.fitted ? "" : " *");
    validation_only = validation_only || !s.fitted;
  }
  if (validation_only)
    std::printf("* validation only: predicted, never fitted on (engine/data/speed-validation.json says why)\n");
  std::printf("median of the sources' medians: held out %.1f%%, in sample %.1f%% (each source weighing the same)\n",
              table.median_of_sources_abs_error_pct, table.median_of_sources_abs_error_in_sample_pct);
  std::printf("the fit's grid sweeps: %d steps a constant (--search-grid; these figures move with it, "
              "node scripts/fit-noise.mjs measures how far)\n",
              table.search_grid);
  std::printf("all rows: held out median |error| %.1f%%, mean %.1f%%; in sample median %.1f%%, mean %.1f%%; engine's "
              "own constants: median %.1f%% (step time, %zu rows)\n",
              table.median_abs_error_pct, table.mean_abs_error_pct, table.median_abs_error_in_sample_pct,
              table.mean_abs_error_in_sample_pct, table.median_abs_error_built_in_pct, table.rows.size());
  std::printf("\n%-18s %9s %9s %6s %8s %9s   likely range: measured / predicted step time, 80%% for a new lineage\n",
              "kind of step", "low", "high", "rows", "sources", "lineages");
  for (const auto& r : table.ranges)
    std::printf("%-18s %9.3f %9.3f %6.0f %8.0f %9.0f\n", r.basis.c_str(), r.low, r.high, r.rows, r.sources, r.lineages);
  std::printf("rows inside their range: %.1f%% (mean of sources %.1f%%; each source's ranges without its lineage: %.1f%%)\n",
              table.range_coverage_rows_pct, table.range_coverage_sources_pct, table.range_coverage_nested_pct);
  print_calibration(table.calibration, "row", table.calibration_between_sd, table.calibration_within_sd,
                    table.calibration_weight);
  if (!table.envelope.empty()) {
    std::printf("\n%-10s %12s %12s %12s %6s %8s %9s   the validated envelope (the measured rows' span), and past an edge\n",
                "dimension", "low", "high", "edge", "rows", "sources", "/doubling");
    for (const auto& d : table.envelope)
      std::printf("%-10s %12.4g %12.4g %s%11.4g %6.0f %8.0f %9.4f\n", d.dimension.c_str(), d.low, d.high,
                  d.above ? ">" : "<", d.edge, d.rows, d.sources, d.per_doubling);
    std::printf("rows past an edge, fitted without: their log(predicted) moved by %.4f per doubling past it (pooled)\n",
                table.extrapolation_per_doubling);
  }
  if (!table.rank_groups.empty()) {
    // pick: how much slower (measured) the layout predicted fastest is than the fastest measured one.
    std::printf("\n%-44s %5s %9s %10s %10s\n", "layouts of one model on one GPU count", "rows", "Spearman",
                "pick held", "pick own");
    for (const auto& g : table.rank_groups)
      std::printf("%-44.44s %5.0f %9.2f %+9.1f%% %+9.1f%%\n", g.key.c_str(), g.rows, g.spearman, g.pick_slower_pct,
                  g.pick_slower_built_in_pct);
  }
  std::printf("\n%-26s", "constant");
  for (const auto& f : table.fits) std::printf(" %11.11s", f.without.empty() ? "all" : ("-" + f.without).c_str());
  std::printf("\n");
  for (std::size_t k = 0; !table.fits.empty() && k < table.fits.front().values.size(); ++k) {
    std::printf("%-26s", table.fits.front().values[k].first.c_str());
    for (const auto& f : table.fits) std::printf(" %11.4g", f.values[k].second);
    std::printf("\n");
  }
}

// The whole-run validation: one published run per line, the expected run held out (its run efficiency
// fitted on the other runs), the steady state and the rule of thumb beside it.
void print_run_validation(const traincalc::RunValidationTable& table) {
  std::printf("%-34s %-11s %6s %-14s %8s %11s %7s %8s %8s %8s %7s\n", "run", "confidence", "GPUs", "GPU", "MFU",
              "published", "goodput", "held out", "steady", "6NT@40%", "in smp");
  for (const auto& r : table.rows)
    std::printf("%-34.34s %-11.11s %6.0f%s%-13.13s %7.1f%%%s %11.4g %6.1f%% %+7.1f%% %+7.1f%% %+7.1f%% %+6.1f%%\n",
                r.name.c_str(), r.confidence.c_str(), r.gpus, r.count_assumed ? "*" : " ", r.gpu.c_str(),
                100 * r.mfu, r.mfu_source == "predicted" ? " " : "a", r.published_gpu_hours, 100 * r.goodput,
                signed_tenths(r.error_pct), signed_tenths(r.steady_error_pct), signed_tenths(r.rule_of_thumb_error_pct),
                signed_tenths(r.error_in_sample_pct));
  std::printf("* GPU count assumed (the source gives none); a: utilisation assumed (40%%), not predicted\n");
  std::printf("median |error| of GPU-hours over %zu runs: expected run held out %.1f%% (bias %+.1f%%), in sample "
              "%.1f%%; steady state %.1f%%; 6NT at 40%% %.1f%%\n",
              table.rows.size(), table.median_abs_error_pct, signed_tenths(table.median_error_pct),
              table.median_abs_error_in_sample_pct, table.median_abs_steady_error_pct,
              table.median_abs_rule_of_thumb_error_pct);
  std::printf("run efficiency (a real run's steady speed / the step model's), fitted on the %.0f predicted runs: %.3f\n",
              table.runs_predicted, table.run_efficiency_in_sample);
  std::printf("likely range of the expected run (published / expected, held out, 80%% for a new publisher): "
              "%.3f-%.3f; %.0f publishers, each held out whole: the median of their medians %.1f%%, %.0f%% of a "
              "held-out publisher's runs inside the range built without it, median width %.2fx\n",
              table.range_low, table.range_high, table.publishers, table.median_of_publishers_abs_error_pct,
              table.range_coverage_publishers_pct, table.range_median_width);
  std::printf("held out, by the published figure's confidence:");
  for (std::size_t i = 0; i < table.by_confidence.size(); ++i) {
    const auto& c = table.by_confidence[i];
    std::printf("%s %s %.1f%% (%.0f runs, %.0f within 12%%)", i ? ";" : "", c.confidence.c_str(),
                c.median_abs_error_pct, c.runs, c.within_12_pct);
  }
  std::printf("\n");
}

// The comparison as a table, best first: GPUs, days (and at the engine's utilisation where the
// scenario fixed its own), GPU-hours, cost, memory fit; the headline figures (the expected run's
// where the utilisation is predicted).
int print_comparison(const traincalc::Comparison& comparison, int indent) {
  if (!comparison.errors.empty()) {
    std::cout << traincalc::error_report_json(comparison.errors, indent) << '\n';
    return 2;
  }
  const bool both = comparison.fixed_utilisation && comparison.kind != traincalc::CompareKind::counts;
  std::printf("%-3s %-38s %6s %10s", "#", comparison.kind == traincalc::CompareKind::offers ? "offer"
              : comparison.kind == traincalc::CompareKind::gpus ? "GPU" : "run", "GPUs",
              "days");
  if (both) std::printf(" %20s", "days (engine's MFU)");
  std::printf(" %12s %16s %s\n", "GPU-hours", "cost", "fits");
  int rank = 0;
  for (const auto& row : comparison.rows) {
    const traincalc::Report& r = row.report;
    const std::string label = row.provider.empty() ? row.name : row.provider + " " + row.name;
    std::printf("%-3d %-38.38s ", ++rank, label.c_str());
    if (!r.valid()) {
      std::printf("%s\n", r.errors[0].message.c_str());
      continue;
    }
    // The headline figures (the expected run's with a predicted utilisation), as the rows are ranked.
    std::printf("%6g %10.1f", r.plan.gpus, traincalc::headline_days(r));
    if (both) {
      const auto& e = row.at_engine_utilisation;
      if (e && e->valid())
        std::printf(" %11.1f (%4.1f%%)", traincalc::headline_days(*e), 100 * e->time.mfu);
      else
        std::printf(" %20s", "-");
    }
    std::printf(" %12.0f", traincalc::headline_gpu_hours(r));
    if (r.cost)
      std::printf(" %12.0f %-3s", *traincalc::headline_cost(r), r.cost->currency.c_str());
    else
      std::printf(" %16s", "-");
    std::printf(" %s\n", r.memory.fits ? "yes" : "no");
  }
  return 0;
}

// What the command line asked for (after the command itself).
struct Options {
  std::string command;
  std::vector<std::string> catalogs;
  std::optional<std::string> input;
  int indent = -1;
  bool planner = false, memory = false, speed = false, runs = false, summary = false, as_json = false,
       markdown = false, gpus = false;
  std::optional<int> search_grid;
  std::vector<double> counts;  // compare --counts
};

// Usage errors are said on standard error with the usage; the exit status is then 2.
int usage_error(const std::string& what);

// import-config: each file read as its framework's text (config_files.cpp), then imported together.
int run_import_config(const std::vector<std::string>& args) {
  std::vector<traincalc::ConfigText> configs;
  std::string format;
  int indent = -1;
  bool keys = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--pretty") {
      indent = 2;
    } else if (a == "--keys") {
      keys = true;
    } else if (a == "--format") {
      if (++i >= args.size() || (args[i] != "megatron" && args[i] != "torchtitan" && args[i] != "deepspeed" &&
                                 args[i] != "hf" && args[i] != "accelerate"))
        return usage_error("--format names a framework: megatron, torchtitan, deepspeed, hf or accelerate");
      format = args[i];
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else {
      auto text = read_all(a);
      if (!text) return fail({{"", "unreadable", "Cannot read the config file " + a + "."}});
      const auto file = traincalc::cli::config_as_json(a, *text);
      if (!file.error.empty()) return fail({{"config", "parse_error", file.error}});
      configs.push_back({file.text, format});
      format.clear();
    }
  }
  if (!format.empty()) return usage_error("--format goes before the file it names");
  if (keys) {
    std::cout << traincalc::config_keys_markdown();
    return 0;
  }
  if (configs.empty()) return usage_error("import-config needs a config file");
  const std::string out = traincalc::import_configs_json(configs, traincalc::builtin_catalog(), indent);
  std::cout << out << '\n';
  return nlohmann::json::parse(out)["errors"].empty() ? 0 : 2;
}

// export-config: the scenario's run as a framework's config.
int run_export_config(const std::vector<std::string>& args) {
  std::string format, input = "-";
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--format") {
      if (++i >= args.size()) return usage_error("--format needs megatron or torchtitan");
      format = args[i];
    } else if (args[i].size() > 1 && args[i][0] == '-') {
      return usage_error("unknown option '" + args[i] + "'");
    } else {
      input = args[i];
    }
  }
  if (format.empty()) return usage_error("export-config needs --format megatron or torchtitan");
  auto text = read_all(input);
  if (!text) return fail({{"", "unreadable", "Cannot read the scenario file " + input + "."}});
  const traincalc::ConfigExport exported = traincalc::export_config(*text, format, traincalc::builtin_catalog());
  if (!exported.errors.empty()) return fail(exported.errors);
  std::cout << exported.text;
  return 0;
}

int usage_error(const std::string& what) {
  std::cerr << "traincalc: " << what << "\n" << usage;
  return 2;
}

// The flags and the input file of `command`; a usage error's exit status where they are wrong.
std::variant<Options, int> parse_options(const std::vector<std::string>& args) {
  Options o;
  o.command = args[0];
  const std::string& command = o.command;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool validate = command == "validate";
    if (arg == "--pretty") {
      o.indent = 2;
    } else if (validate && arg == "--planner") {
      o.planner = true;
    } else if (validate && arg == "--memory") {
      o.memory = true;
    } else if (validate && arg == "--speed") {
      o.speed = true;
    } else if (validate && arg == "--search-grid") {
      // Digits only, 4-48: anything else is refused, not clamped, so a typo is seen.
      const std::string value = i + 1 < args.size() ? args[++i] : "";
      const bool digits = !value.empty() && value.size() <= 2 &&
                          std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
      const int steps = digits ? std::stoi(value) : 0;
      if (steps < 4 || steps > 48)
        return usage_error("--search-grid needs a whole number of steps from 4 to 48, not '" + value + "'");
      o.search_grid = steps;
    } else if (validate && arg == "--runs") {
      o.runs = true;
    } else if (validate && arg == "--summary") {
      o.summary = true;
    } else if (validate && arg == "--markdown") {
      o.markdown = true;
    } else if (command == "compare" && arg == "--gpus") {
      o.gpus = true;
    } else if (command == "compare" && arg == "--counts") {
      if (i + 1 == args.size()) return usage_error("--counts needs GPU counts, e.g. 8,64,512");
      const std::string list = args[++i];
      o.counts.clear();  // the last --counts given
      std::stringstream items(list);
      for (std::string item; std::getline(items, item, ',');) {
        const bool digits = !item.empty() && item.size() <= 8 &&
                            std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
        const double gpus = digits ? std::stod(item) : 0;
        if (gpus < 1 || gpus > 1e7)
          return usage_error("--counts needs whole GPU counts from 1 to 10000000, comma-separated, not '" + list + "'");
        o.counts.push_back(gpus);
      }
      if (o.counts.empty() || o.counts.size() > 64)
        return usage_error("--counts needs 1 to 64 GPU counts, comma-separated, not '" + list + "'");
    } else if ((validate || command == "compare") && arg == "--json") {
      o.as_json = true;
    } else if (arg == "--catalog") {
      if (i + 1 == args.size()) return usage_error("--catalog needs a file");
      o.catalogs.push_back(args[++i]);
    } else if (command != "catalog" && !validate && !o.input && (arg == "-" || arg.rfind("--", 0) != 0)) {
      o.input = arg;
    } else {
      return usage_error("unexpected argument '" + arg + "'");
    }
  }
  return o;
}

// The built-in catalog with each --catalog file merged over it, in order; the first file's errors
// (each field named under "catalog.", each message under the file's name) end the run.
std::variant<traincalc::Catalog, traincalc::Issues> load_catalogs(const std::vector<std::string>& paths) {
  traincalc::Catalog catalog = traincalc::builtin_catalog();
  for (const auto& path : paths) {
    auto text = read_all(path);
    if (!text) return traincalc::Issues{{"catalog", "unreadable", "Cannot read the catalog file " + path + "."}};
    traincalc::CatalogLoad load = traincalc::merge_catalog_json(*text, catalog);
    if (!load.errors.empty()) {
      for (auto& e : load.errors) {
        e.field = e.field.empty() ? "catalog" : "catalog." + e.field;
        e.message = path + ": " + e.message;
      }
      return load.errors;
    }
    catalog = std::move(load.catalog);
  }
  return catalog;
}

// One table, printed as text, JSON or Markdown.
template <class Table>
void print_table(const Options& o, const Table& table, void (*text)(const Table&),
                 std::string (*as_json)(const Table&, int), void (*markdown)(const Table&)) {
  if (o.markdown)
    markdown(table);
  else if (o.as_json)
    std::cout << as_json(table, o.indent) << '\n';
  else
    text(table);
}

int run_validate(const Options& o, const traincalc::Catalog& catalog) {
  if (static_cast<int>(o.planner) + o.memory + o.speed + o.runs + o.summary > 1 || (o.markdown && o.as_json) ||
      (o.summary && !o.markdown) || (o.markdown && o.planner))
    return usage_error("validate takes one of --planner, --memory, --speed, --runs, --summary (--summary with "
                       "--markdown), and --json or --markdown");
  const int grid = o.search_grid.value_or(12);
  if (o.summary)
    traincalc::cli::markdown_summary(traincalc::validate_speed(catalog, true, grid), traincalc::validate_memory(catalog),
                                     traincalc::validate_runs(catalog));
  else if (o.speed)
    print_table(o, traincalc::validate_speed(catalog, true, grid), print_speed_validation,
                traincalc::speed_validation_to_json, traincalc::cli::markdown_speed_validation);
  else if (o.runs)
    print_table(o, traincalc::validate_runs(catalog), print_run_validation, traincalc::run_validation_to_json,
                traincalc::cli::markdown_run_validation);
  else if (o.memory)
    print_table(o, traincalc::validate_memory(catalog), print_memory_validation,
                traincalc::memory_validation_to_json, traincalc::cli::markdown_memory_validation);
  else if (o.markdown)
    traincalc::cli::markdown_validation(traincalc::validate_calibration(catalog, false));
  else if (o.as_json)
    std::cout << traincalc::validation_to_json(traincalc::validate_calibration(catalog, o.planner), o.indent) << '\n';
  else
    print_validation(traincalc::validate_calibration(catalog, o.planner), o.planner);
  return 0;
}

// The scenario on every offer (--gpus: on every GPU, at the scenario's own count or the one its
// money budget buys), ranked.
int run_compare(const Options& o, const std::string& text, const traincalc::Catalog& catalog) {
  if (o.gpus && !o.counts.empty()) return usage_error("--gpus and --counts ask for different comparisons; give one");
  traincalc::CompareRequest request;
  if (!o.counts.empty()) {
    request.kind = traincalc::CompareKind::counts;
    request.counts = o.counts;
  } else if (o.gpus) {
    request.kind = traincalc::CompareKind::gpus;
    const traincalc::ScenarioParse own = traincalc::parse_scenario(text, catalog);
    if (own.scenario) {
      const traincalc::Report report = traincalc::estimate(*own.scenario, &catalog);
      if (report.valid()) request.gpus_when_unset = report.plan.gpus;
    }
  }
  const traincalc::Comparison comparison = traincalc::compare(text, catalog, request);
  if (o.as_json) {
    std::cout << traincalc::comparison_to_json(comparison, o.indent) << '\n';
    return comparison.errors.empty() ? 0 : 2;
  }
  return print_comparison(comparison, o.indent);
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout) << usage;
    return args.empty() ? 2 : 0;
  }
  const std::string& command = args[0];
  if (command == "schema") {
    const std::string which = args.size() == 2 ? args[1] : "";
    const std::string text = which == "reference" ? traincalc::contract::markdown_reference() + traincalc::validation_reference()
                             : which == "choices" ? traincalc::contract::javascript_choices()
                             : which == "issues"  ? traincalc::contract::issues_json()
                                                  : traincalc::contract::json_schema(which);
    if (text.empty()) return usage_error("schema needs one of scenario, catalog, report, reference, choices, issues");
    std::cout << text;
    return 0;
  }
  if (command == "import-config") return run_import_config(args);
  if (command == "export-config") return run_export_config(args);
  if (command != "estimate" && command != "catalog" && command != "import-hf" && command != "validate" &&
      command != "compare" && command != "parse-log")
    return usage_error("unknown command '" + command + "'");
  const auto parsed = parse_options(args);
  if (const int* status = std::get_if<int>(&parsed)) return *status;
  const Options& o = std::get<Options>(parsed);

  if (command == "parse-log") {
    auto text = read_all(o.input.value_or("-"));
    if (!text) return fail({{"", "unreadable", "Cannot read the log file " + *o.input + "."}});
    const traincalc::LogReading reading = traincalc::parse_log(*text);
    std::cout << traincalc::log_reading_to_json(reading, o.indent) << '\n';
    return reading.readings.empty() ? 2 : 0;
  }
  if (command == "import-hf") {
    auto text = read_all(o.input.value_or("-"));
    if (!text) return fail({{"", "unreadable", "Cannot read the config file " + *o.input + "."}});
    const traincalc::HfImport imported = traincalc::import_hf_config(*text);
    std::cout << traincalc::hf_import_to_json(imported, o.indent) << '\n';
    return imported.errors.empty() ? 0 : 2;
  }
  auto loaded = load_catalogs(o.catalogs);
  if (const auto* errors = std::get_if<traincalc::Issues>(&loaded)) return fail(*errors);
  const traincalc::Catalog& catalog = std::get<traincalc::Catalog>(loaded);

  if (o.search_grid && !(command == "validate" && (o.speed || o.summary)))
    return usage_error("--search-grid goes with validate --speed or --summary");
  if (command == "validate") return run_validate(o, catalog);
  if (command == "catalog") {
    std::cout << traincalc::catalog_to_json(catalog, o.indent) << '\n';
    return 0;
  }
  auto text = read_all(o.input.value_or("-"));
  if (!text) return fail({{"", "unreadable", "Cannot read the scenario file " + *o.input + "."}});
  if (command == "compare") return run_compare(o, *text, catalog);
  traincalc::JsonOutput out = traincalc::estimate_json(*text, catalog, o.indent);
  std::cout << out.text << '\n';
  return out.all_valid ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    return fail({{"", "internal_error", std::string("traincalc failed: ") + e.what()}});
  }
}
