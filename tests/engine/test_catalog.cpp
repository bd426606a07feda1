// The built-in catalog is data, validated like any vendor catalog, and every row cites a source.
#include <set>

#include "helpers.hpp"

using namespace test;

TEST_CASE("The built-in catalog loads without a single error", "[catalog]") {
  const auto load = traincalc::merge_catalog_json(traincalc::builtin_catalog_text(), traincalc::Catalog{});
  for (const auto& e : load.errors) INFO(e.field + ": " + e.message);
  CHECK(load.errors.empty());
}

TEST_CASE("The catalog has the GPUs the seeds and users ask for, each with a source", "[catalog]") {
  const auto& catalog = traincalc::builtin_catalog();
  for (const char* id :
       {"v100-sxm2-32gb", "t4", "a10", "a100-40gb-sxm", "a100-80gb-sxm", "h100-sxm", "h800-sxm", "h200-sxm"}) {
    INFO(id);
    const auto* gpu = catalog.find_gpu(id);
    REQUIRE(gpu);
    CHECK_FALSE(gpu->source.empty());
    CHECK(gpu->memory_gb > 0);
  }
  for (const auto& preset : catalog.models) CHECK_FALSE(preset.source.empty());
}

TEST_CASE("GPU peaks are dense, never 2:4-sparse headlines", "[catalog]") {
  // shared/reference/hardware.md sec. 0: dense BF16 = 2 x dense TF32 on every part since Ampere;
  // NVIDIA's sparse headlines for H100/H200 are 1,979 BF16 and 3,958 FP8.
  for (const auto& gpu : traincalc::builtin_catalog().gpus) {
    INFO(gpu.id);
    if (gpu.bf16_tflops && gpu.tf32_tflops) CHECK_THAT(*gpu.bf16_tflops, WithinRel(2 * *gpu.tf32_tflops, 0.01));
    if (gpu.bf16_tflops && gpu.fp8_tflops) CHECK_THAT(*gpu.fp8_tflops, WithinRel(2 * *gpu.bf16_tflops, 0.01));
    if (gpu.bf16_tflops) CHECK(*gpu.bf16_tflops < 1979);
  }
  CHECK(*traincalc::builtin_catalog().find_gpu("h100-sxm")->bf16_tflops == 989.4);
  CHECK(*traincalc::builtin_catalog().find_gpu("a100-80gb-sxm")->bf16_tflops == 312);
}

TEST_CASE("A vendor catalog adds and replaces rows by ID", "[catalog]") {
  const auto load = traincalc::merge_catalog_json(R"json({
    "gpus": [{"id": "h100-sxm", "name": "H100 (vendor clocks)", "memory_gb": 80, "bf16_tflops": 900, "source": "vendor sheet"},
             {"id": "my-gpu", "name": "My GPU", "memory_gb": 48, "fp16_tflops": 100, "source": "vendor sheet"}],
    "offers": [{"id": "my-offer", "gpu": "my-gpu", "per_gpu_month": 1000, "currency": "CNY", "source": "price list"}]
  })json",
                                                  traincalc::builtin_catalog());
  REQUIRE(load.errors.empty());
  CHECK(*load.catalog.find_gpu("h100-sxm")->bf16_tflops == 900);
  CHECK(load.catalog.find_gpu("my-gpu")->name == "My GPU");
  CHECK(load.catalog.find_offer("my-offer")->gpu.name == "My GPU");
  CHECK(load.catalog.gpus.size() == traincalc::builtin_catalog().gpus.size() + 1);
}

TEST_CASE("A malformed vendor catalog gives field errors", "[catalog][validation]") {
  const auto load = traincalc::merge_catalog_json(R"json({
    "gpus": [{"id": "Bad ID", "name": "X", "memory_gb": -1, "bf16_tflops": 100},
             {"id": "no-peak", "name": "Y", "memory_gb": 24, "source": "s"}],
    "offers": [{"id": "o", "gpu": "missing-gpu", "per_gpu_hour": 1, "currency": "USD", "source": "s"}],
    "modles": []
  })json",
                                                  traincalc::Catalog{});
  std::set<std::string> fields;
  for (const auto& e : load.errors) fields.insert(e.field + " " + e.code);
  INFO(json(std::vector<std::string>(fields.begin(), fields.end())).dump());
  CHECK(fields.count("gpus[0].id invalid_id"));
  CHECK(fields.count("gpus[0].memory_gb not_positive"));
  CHECK(fields.count("gpus[0].source required"));
  CHECK(fields.count("gpus[1].bf16_tflops required"));
  CHECK(fields.count("offers[0].gpu unknown_id"));
  CHECK(fields.count("modles unknown_key"));
}

TEST_CASE("The catalog prints in the same field names that inputs use, and reads back", "[catalog]") {
  const std::string text = traincalc::catalog_to_json(traincalc::builtin_catalog());
  const json printed = json::parse(text);
  CHECK(printed["gpus"].size() == traincalc::builtin_catalog().gpus.size());
  CHECK(printed["models"].size() == traincalc::builtin_catalog().models.size());
  const auto again = traincalc::merge_catalog_json(text, traincalc::Catalog{});
  for (const auto& e : again.errors) INFO(e.field + ": " + e.message);
  CHECK(again.errors.empty());
  CHECK(again.catalog.models.size() == traincalc::builtin_catalog().models.size());
}

TEST_CASE("A scenario can carry its own catalog", "[catalog][scenario]") {
  const auto r = run({{"catalog",
                       {{"gpus",
                         {{{"id", "vendor-x"},
                           {"name", "Vendor X"},
                           {"memory_gb", 96},
                           {"bf16_tflops", 500},
                           {"source", "vendor datasheet"}}}}}},
                      {"model", {{"params", 1e9}}},
                      {"training", {{"type", "pretrain"}, {"tokens", 1e9}}},
                      {"hardware", {{"gpu", "vendor-x"}, {"count", 1}}},
                      {"strategy", {{"mfu", 0.5}}}});
  CHECK(r.hardware.peak_tflops == 500);
  CHECK(r.hardware.gpu_name == "Vendor X");
}
