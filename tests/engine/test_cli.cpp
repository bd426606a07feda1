// The traincalc CLI on the shared scenario files: the seed tables come out of the command line too.
#include <array>
#include <cmath>
#include <cstdio>

#include "helpers.hpp"

using namespace test;

namespace {

std::string scenario_file(const char* name) {
  return std::string(TRAINCALC_SOURCE_DIR) + "/tests/scenarios/" + name;
}

}  // namespace

TEST_CASE("CLI: seed 001's table from tests/scenarios/seed-001.json", "[cli][seed001]") {
  const Run run = cli("estimate " + scenario_file("seed-001.json"));
  REQUIRE(run.status == 0);
  const json reports = json::parse(run.out);
  REQUIRE(reports.size() == 8);
  // Rows 7B, 13B, 70B, 175B; columns 8x A100, 8x H100. A100: the article's days, to the day (its
  // 42600 is rounded to three digits). H100: the catalog's 989.4 TFLOPS is 0.04% faster than the
  // article's 989, so the exact days are asserted: 6 N (20 N) / (8 x 989.4e12 x 0.4) / 86400.
  const double a100_article[] = {68, 235, 6817, 42600};
  const double params[] = {7e9, 13e9, 70e9, 175e9};
  for (std::size_t row = 0; row < 4; ++row) {
    const double a100 = reports[2 * row]["time"]["wall_clock_days"];
    const double h100 = reports[2 * row + 1]["time"]["wall_clock_days"];
    INFO("row " << row << ": A100 " << a100 << " days, H100 " << h100 << " days");
    CHECK(std::abs(a100 - a100_article[row]) <= (row == 3 ? 3.0 : 1.0));
    CHECK_THAT(h100, WithinRel(120 * params[row] * params[row] / (8 * 989.4e12 * 0.4) / 86400, 1e-12));
  }
  CHECK(std::round(reports[7]["time"]["wall_clock_days"].get<double>() * 2) / 2 == 13434.5);
}

TEST_CASE("CLI: seed 004's table from tests/scenarios/seed-004.json", "[cli][seed004]") {
  const Run run = cli("estimate " + scenario_file("seed-004.json"));
  // The ninth offer (Alibaba's A100) is not affordable, so one report has an error: exit status 2.
  CHECK(run.status == 2);
  const json reports = json::parse(run.out);
  REQUIRE(reports.size() == 9);
  const double gpus[] = {5, 4, 2, 5, 3, 1, 3, 1};
  const double days[] = {43, 47, 54, 289, 309, 371, 482, 827};  // the article's 372 for Tencent's A100 is 371
  for (std::size_t i = 0; i < 8; ++i) {
    INFO(reports[i].dump());
    CHECK(reports[i]["plan"]["gpus"] == gpus[i]);
    CHECK(std::round(reports[i]["time"]["wall_clock_days"].get<double>()) == days[i]);
  }
  CHECK(has_error(reports[8], "budget.per_month", "budget_too_small"));
}

TEST_CASE("CLI: seed 004's table from the example vendor catalog public/catalogs/seed-004.json", "[cli][seed004]") {
  const Run run = cli("estimate " + scenario_file("seed-004-catalog.json") + " --catalog " +
                      std::string(TRAINCALC_SOURCE_DIR) + "/public/catalogs/seed-004.json");
  CHECK(run.status == 2);  // the ninth offer is not affordable
  const json reports = json::parse(run.out);
  REQUIRE(reports.size() == 9);
  const double gpus[] = {5, 4, 2, 5, 3, 1, 3, 1};
  const double days[] = {43, 47, 54, 289, 309, 371, 482, 827};
  for (std::size_t i = 0; i < 8; ++i) {
    INFO(reports[i].dump());
    CHECK(reports[i]["plan"]["gpus"] == gpus[i]);
    CHECK(std::round(reports[i]["time"]["wall_clock_days"].get<double>()) == days[i]);
    CHECK(reports[i]["cost"]["currency"] == "CNY");
  }
  CHECK(has_error(reports[8], "budget.per_month", "budget_too_small"));
}

TEST_CASE("CLI: compare ranks seed 004's offers, at 100% and at the engine's utilisation", "[cli][seed004][compare]") {
  const std::string scenario =
      R"({"model": {"params": 1e11}, "training": {"type": "pretrain", "total_flops": 1e22},)"
      R"( "strategy": {"precision": "fp16", "mfu": 1}, "pricing": {"currency": "CNY"}, "budget": {"per_month": 10000}})";
  const std::string catalog = std::string(TRAINCALC_SOURCE_DIR) + "/public/catalogs/seed-004.json";
  const Run table = cli("compare - --catalog " + catalog + " <<'EOF'\n" + scenario + "\nEOF");
  REQUIRE(table.status == 0);
  // The fastest offer first: Cloud-A100 X, 5 GPUs, 42.9 days (the article's 43), 107.2 at 40%.
  const std::size_t start = table.out.find('\n') + 1;
  const std::string first = table.out.substr(start, table.out.find('\n', start) - start);
  CHECK(first.find("Cloud-A100 X ") != std::string::npos);
  CHECK(first.find(" 5 ") != std::string::npos);
  CHECK(first.find("42.9") != std::string::npos);
  CHECK(first.find("107.2 (40.0%)") != std::string::npos);
  const Run as_json = cli("compare - --json --catalog " + catalog + " <<'EOF'\n" + scenario + "\nEOF");
  REQUIRE(as_json.status == 0);
  const json out = json::parse(as_json.out);
  CHECK(out["rows"][0]["id"] == "neuronforge-cloud-a100-x");
  CHECK(out["fixed_utilisation"] == true);
  // Unparseable input: a JSON error report, exit 2.
  const Run bad = cli("compare - <<'EOF'\n{not json\nEOF");
  CHECK(bad.status == 2);
  CHECK(json::parse(bad.out)["errors"][0]["code"] == "parse_error");
}

TEST_CASE("CLI: compare --counts gives the scenario at each GPU count, in the order given", "[cli][compare]") {
  const std::string scenario =
      R"({"model": {"preset": "llama-2-7b"}, "training": {"type": "pretrain", "tokens": 2e12},)"
      R"( "hardware": {"gpu": "h100-sxm", "count": 64}, "strategy": {"mfu": 0.4}, "pricing": {"per_gpu_hour": 2}})";
  const Run as_json = cli("compare - --json --counts 512,8 <<'EOF'\n" + scenario + "\nEOF");
  REQUIRE(as_json.status == 0);
  const json out = json::parse(as_json.out);
  CHECK(out["kind"] == "counts");
  REQUIRE(out["rows"].size() == 2);
  CHECK(out["rows"][0]["report"]["plan"]["gpus"] == 512);
  CHECK(out["rows"][1]["report"]["plan"]["gpus"] == 8);
  // At a fixed utilisation the days scale as 1 / GPUs: 64 / 512 of the scenario's own.
  const double days_at_64 = report_json(json::parse(scenario))["time"]["wall_clock_days"].get<double>();
  CHECK_THAT(out["rows"][0]["report"]["time"]["wall_clock_days"].get<double>(), WithinRel(days_at_64 * 64 / 512, 1e-9));
  const Run table = cli("compare - --counts 8 <<'EOF'\n" + scenario + "\nEOF");
  REQUIRE(table.status == 0);
  CHECK(table.out.find("\n1   8 GPUs ") != std::string::npos);
  CHECK(table.out.find("engine's MFU") == std::string::npos);  // one estimate per count
  CHECK(cli("compare - --counts 8,0 <<'EOF'\n" + scenario + "\nEOF").status == 2);
  CHECK(cli("compare - --gpus --counts 8 <<'EOF'\n" + scenario + "\nEOF").status == 2);
}

TEST_CASE("CLI: reads standard input, pretty-prints, and exits 2 on bad input", "[cli]") {
  const Run good =
      cli("estimate --pretty - <<'EOF'\n"
          R"({"model":{"preset":"llama-2-7b"},"training":{"type":"pretrain","tokens":2e12},)"
          R"("hardware":{"gpu":"h100-sxm","count":64},"strategy":{"mfu":0.4}})"
          "\nEOF");
  CHECK(good.status == 0);
  CHECK(good.out.find("\n  \"compute\"") != std::string::npos);
  const Run bad = cli("estimate - <<'EOF'\n{not json\nEOF");
  CHECK(bad.status == 2);
  CHECK(has_error(json::parse(bad.out), "", "parse_error"));
  CHECK(cli("frobnicate").status == 2);
  CHECK(cli("estimate /nonexistent/file.json").status == 2);
}

TEST_CASE("CLI: catalog prints the merged catalog, a bad catalog file is refused", "[cli][catalog]") {
  const Run run = cli("catalog");
  REQUIRE(run.status == 0);
  const json catalog = json::parse(run.out);
  CHECK(catalog["gpus"].size() >= 8);
  CHECK(catalog.contains("offers"));
  CHECK(catalog["models"].size() >= 12);
  const Run bad = cli("catalog --catalog " + scenario_file("seed-001.json"));
  CHECK(bad.status == 2);
  CHECK(json::parse(bad.out)["errors"][0]["field"] == "catalog");
}

TEST_CASE("CLI: import-hf prints the model in the scenario's form", "[cli][hf_import]") {
  const Run run = cli("import-hf " + std::string(TRAINCALC_SOURCE_DIR) + "/tests/fixtures/hf/llama-2-7b.json");
  REQUIRE(run.status == 0);
  const json out = json::parse(run.out);
  CHECK(out["params"] == 6738415616.0);
  CHECK(out["model"]["layers"] == 32);
  CHECK(cli("import-hf - <<'EOF'\n{\"hidden_size\": 1}\nEOF").status == 2);
}

TEST_CASE("traincalc validate --speed prints each lineage and source held out and the fitted constants", "[cli][speed]") {
  const Run text = cli("validate --speed");
  CHECK(text.status == 0);
  // A new publisher first: each lineage held out of the fit and of the ranges.
  CHECK(text.out.rfind("lineage (held out)", 0) == 0);
  CHECK(text.out.find("80% ranges hold") != std::string::npos);
  CHECK(text.out.find("vtrain-multi-node") != std::string::npos);
  CHECK(text.out.find("median of the sources' medians: held out") != std::string::npos);
  CHECK(text.out.find("ampere_matmul_efficiency") != std::string::npos);
  // A source kept for validation only is marked, and the mark explained.
  CHECK(text.out.find("nemo-moe") != std::string::npos);
  CHECK(text.out.find("* validation only: predicted, never fitted on") != std::string::npos);
  // The ranges' header says what the ends are, as written (a bare "%" before " f" in its format string
  // prints a stray number there).
  CHECK(text.out.find("likely range: measured / predicted step time, 80% for a new lineage\n") != std::string::npos);
  const Run as_json = cli("validate --speed --json");
  REQUIRE(as_json.status == 0);
  const json j = json::parse(as_json.out);
  CHECK(j["rows"].size() == 109 + 1440 + 43 + 6 + 48 + 69 + 40 + 45 + 13 + 3 + 8 + 18);
  CHECK(j["sources"].size() == 14);
  CHECK(j["lineages"].size() == 5);
  CHECK(j["fits"].size() == j["lineages"].size() + 1);
  CHECK(j.at("range_coverage_lineages_pct").get<double>() > 0);
  CHECK(j.at("range_median_width").get<double>() > 1);
  for (const json& s : j["sources"])
    CHECK(s.at("fitted") ==
          (s.at("group") != "nemo-moe" && s.at("group") != "megatron-at-scale" && s.at("group") != "llama3-405b" &&
           s.at("group") != "mlperf-v3.1-gpt3" && s.at("group") != "torchtitan-h100-2024"));
  // The headline, each source weighing the same, beside the all-rows median.
  CHECK(j.at("median_of_sources_abs_error_pct").get<double>() > 0);
  CHECK(j.at("median_of_sources_abs_error_pct").get<double>() < j.at("median_abs_error_pct").get<double>());
  CHECK(j.at("median_of_sources_abs_error_in_sample_pct").get<double>() > 0);
}

TEST_CASE("traincalc validate --speed --search-grid N refits with another search, and refuses what is not a step count",
          "[cli][speed]") {
  // The fit's grid sweeps take 14 steps across each constant's range instead of 12: the search ends
  // elsewhere and the held-out figures move, within the spread scripts/fit-noise.mjs measured over
  // grids 8-16 (docs/validation.md, "The fit's own noise": median of the sources' medians
  // 5.97-6.52%, vTrain multi-node MAPE 7.87-8.04%; at 14, 6.42% and 7.98%, and the one-node planner 99
  // groups within 5% against 94 at 12). Tolerance: that band, rounded outwards to 5.9-6.6% and 7.8-8.1%.
  const Run text = cli("validate --speed --search-grid 14");
  REQUIRE(text.status == 0);
  CHECK(text.out.find("the fit's grid sweeps: 14 steps a constant") != std::string::npos);
  const Run run = cli("validate --speed --search-grid 14 --json");
  REQUIRE(run.status == 0);
  const json j = json::parse(run.out);
  CHECK(j.at("search_grid") == 14);
  int within = 0;
  for (const json& g : j.at("rank_groups"))
    if (g.at("key").get<std::string>().rfind("vtrain-single-node", 0) == 0) within += g.at("pick_slower_pct").get<double>() <= 5.0;
  // 99 at 14 steps (94 at 12): inside the sweep's 88-99. The JSON's search_grid comes from the table
  // validate_speed made, so the CLI passed the grid on; the engine's own test shows the fit uses it.
  CHECK(within >= 88);
  CHECK(within <= 99);
  CHECK(j.at("median_of_sources_abs_error_pct").get<double>() >= 5.9);
  CHECK(j.at("median_of_sources_abs_error_pct").get<double>() <= 6.6);
  double sum = 0;
  int n = 0;
  for (const json& row : j.at("rows"))
    if (row.at("source_group") == "vtrain-multi-node") sum += std::abs(row.at("error_pct").get<double>()), ++n;
  REQUIRE(n == 109);
  CHECK(sum / n >= 7.8);
  CHECK(sum / n <= 8.1);
  // Not a whole number from 4 to 48, or not with --speed: refused with status 2 (and no table).
  for (const char* bad : {"validate --speed --search-grid", "validate --speed --search-grid x",
                          "validate --speed --search-grid 3", "validate --speed --search-grid 49",
                          "validate --speed --search-grid 12x", "validate --speed --search-grid 1e1",
                          "validate --speed --search-grid +12", "validate --speed --search-grid ' 12'",
                          "validate --runs --search-grid 12", "estimate --search-grid 12"}) {
    INFO(bad);
    const Run refused = cli(std::string(bad) + " </dev/null");
    CHECK(refused.status == 2);
    CHECK(refused.out.empty());
  }
}

TEST_CASE("traincalc validate --markdown prints the tables docs/validation.md shows, one mode at a time", "[cli]") {
  // The published-utilisation check: a header, one row per published run (45 in calibration.json), a summary.
  const Run published = cli("validate --markdown");
  REQUIRE(published.status == 0);
  CHECK(published.out.rfind("| published run | metric | published | predicted | error (points) |\n|---|", 0) == 0);
  CHECK(published.out.find("over 45 runs.\n") != std::string::npos);
  const Run memory = cli("validate --memory --markdown");
  REQUIRE(memory.status == 0);
  CHECK(memory.out.rfind("| source (its lineage held out) | lineage | rows | measured peaks |", 0) == 0);
  CHECK(memory.out.find("| megatron-golden-values | megatron | 26 | 26 |") != std::string::npos);
  // A source with no measured peak (torchtitan's performance docs: one out-of-memory run) has no
  // error to report, not a perfect one.
  CHECK(memory.out.find("| torchtitan-performance-docs | pytorch | 1 | 0 | 0.245 | — | — |") != std::string::npos);
  CHECK(published.out.find("| Megatron GPT 1.7B (Narayanan 2021) | HFU | 44.0% | 42.1% | −1.9 |") != std::string::npos);
  CHECK(memory.out.find("| another model |") != std::string::npos);
  const Run runs = cli("validate --runs --markdown");
  REQUIRE(runs.status == 0);
  CHECK(runs.out.find("| 6NT at 40% of the dense peak |") != std::string::npos);
  CHECK(runs.out.find("| high | 25 |") != std::string::npos);
  // Modes and formats that do not go together are refused with status 2 and no table.
  for (const char* bad : {"validate --speed --memory", "validate --summary", "validate --summary --json",
                          "validate --json --markdown", "validate --planner --markdown", "validate --runs --speed"}) {
    INFO(bad);
    const Run refused = cli(bad);
    CHECK(refused.status == 2);
    CHECK(refused.out.empty());
  }
}
