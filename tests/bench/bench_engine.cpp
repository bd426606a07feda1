// Benchmarks: what one estimate costs, and how many layouts a second the planner weighs.
//   scripts/bench.sh   (builds the native preset and runs this)
#include <benchmark/benchmark.h>

#include "estimate/estimators.hpp"
#include "traincalc/catalog.hpp"
#include "traincalc/estimate.hpp"
#include "traincalc/json_api.hpp"

namespace {

using namespace traincalc;

Scenario parsed(const std::string& json_text) {
  ScenarioParse parse = parse_scenario(json_text, builtin_catalog());
  if (!parse.scenario) throw std::runtime_error("invalid benchmark scenario: " + parse.errors.front().message);
  return *parse.scenario;
}

// Llama 2 70B pre-training on H100s (4M-token batches; 16M for the larger searches, so that 4096 GPUs
// each get a sequence): a given layout, or everything left to the planner.
std::string llama70b(int gpus, bool planned, int batch = 1024) {
  const std::string layout =
      planned ? R"("mfu": "auto")" : R"("mfu": "auto", "tp": 8, "pp": 4, "cp": 1, "ep": 1, "micro_batch": 1,
                                          "zero": 1, "recompute": "selective")";
  return R"({"model": {"preset": "llama-2-70b"},
             "training": {"type": "pretrain", "tokens": 2e12, "seq_len": 4096, "global_batch_sequences": )" +
         std::to_string(batch) + R"(},
             "hardware": {"gpu": "h100-sxm", "count": )" +
         std::to_string(gpus) + R"(}, "strategy": {)" + layout + "}}";
}

void BM_EstimateGivenLayout(benchmark::State& state) {
  const Scenario s = parsed(llama70b(2048, false));
  const Catalog& catalog = builtin_catalog();
  for (auto _ : state) benchmark::DoNotOptimize(estimate(s, &catalog));
}
BENCHMARK(BM_EstimateGivenLayout)->Unit(benchmark::kMicrosecond);

void BM_EstimateJsonRoundTrip(benchmark::State& state) {
  const std::string text = llama70b(2048, false);
  const Catalog& catalog = builtin_catalog();
  for (auto _ : state) benchmark::DoNotOptimize(estimate_json(text, catalog));
}
BENCHMARK(BM_EstimateJsonRoundTrip)->Unit(benchmark::kMicrosecond);

// One layout: memory and step time, what the planner does per candidate.
void BM_OneLayout(benchmark::State& state) {
  const Scenario s = parsed(llama70b(2048, false));
  const Report r = estimate(s);
  Issues ignored;
  for (auto _ : state) {
    const MemoryReport m = detail::estimate_memory(s, r.model, r.parallelism, r.hardware, r.compute, ignored);
    benchmark::DoNotOptimize(detail::predict_step(s, r.compute, r.hardware, r.parallelism, m.explain, 1024));
    ignored.clear();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OneLayout)->Unit(benchmark::kNanosecond);

// The full search at a GPU count; items = layouts weighed, so items_per_second is layouts a second.
void BM_PlanLayout(benchmark::State& state) {
  const double gpus = static_cast<double>(state.range(0));
  const Scenario s = parsed(llama70b(static_cast<int>(gpus), true, 4096));
  const Report r = estimate(s);
  double evaluated = 0;
  for (auto _ : state) {
    const detail::LayoutSearchResult result = detail::plan_layout(s, r.model, r.compute, r.hardware, gpus, 4096);
    evaluated += result.evaluated;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(static_cast<int64_t>(evaluated));
  state.counters["layouts"] = evaluated / static_cast<double>(state.iterations());
}
BENCHMARK(BM_PlanLayout)->Arg(64)->Arg(512)->Arg(4096)->Unit(benchmark::kMillisecond);

// The whole estimate with the planner (memory suggestions and what-ifs included).
void BM_EstimatePlanned(benchmark::State& state) {
  const Scenario s = parsed(llama70b(static_cast<int>(state.range(0)), true, 4096));
  const Catalog& catalog = builtin_catalog();
  for (auto _ : state) benchmark::DoNotOptimize(estimate(s, &catalog));
}
BENCHMARK(BM_EstimatePlanned)->Arg(4096)->Unit(benchmark::kMillisecond);

// The 45 published runs of the validation table, without and with the planner.
void BM_Validation(benchmark::State& state) {
  const Catalog& catalog = builtin_catalog();
  for (auto _ : state) benchmark::DoNotOptimize(validation_json(catalog, state.range(0) != 0));
}
BENCHMARK(BM_Validation)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
