// The built-in catalog is data, validated like any vendor catalog, and every row cites a source.
#include <set>

#include "helpers.hpp"

using namespace test;

TEST_CASE("The built-in catalog loads without a single error", "[catalog]") {
  traincalc::Catalog merged;
  for (const auto& file : traincalc::builtin_catalog_files()) {
    const auto load = traincalc::merge_catalog_json(file.text, merged, file.rows);
    for (const auto& e : load.errors) INFO(std::string(file.name) + ": " + e.field + ": " + e.message);
    CHECK(load.errors.empty());
    merged = load.catalog;
  }
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
  for (const auto& gpu : catalog.gpus) {
    INFO(gpu.id);
    CHECK_FALSE(gpu.source.empty());
    CHECK_FALSE(gpu.confidence.empty());
    CHECK(gpu.gpus_per_node.has_value());
  }
}

TEST_CASE("Every cloud offer is a dated, sourced snapshot of a catalog GPU's price", "[catalog][offers]") {
  const auto& catalog = traincalc::builtin_catalog();
  REQUIRE(catalog.offers.size() >= 80);
  for (const auto& offer : catalog.offers) {
    INFO(offer.id);
    CHECK_FALSE(offer.source.empty());
    CHECK_FALSE(offer.date.empty());
    CHECK_FALSE(offer.provider.empty());
    CHECK(catalog.find_gpu(offer.gpu.id) != nullptr);
    CHECK((offer.per_gpu_hour.has_value() != offer.per_gpu_month.has_value()));
    CHECK((offer.currency == "USD" || offer.currency == "CNY"));
  }
  // AWS p5.48xlarge on demand, us-east-1, 2026-09-10 price feed: $55.04 per instance-hour / 8 GPUs
  // (the offer row cites it).
  const auto* p5 = catalog.find_offer("aws-p5.48xlarge-on-demand-h100-sxm");
  REQUIRE(p5);
  CHECK(p5->gpu.id == "h100-sxm");
  CHECK(p5->date == "2026-09-10");
  CHECK(*p5->per_gpu_hour == 6.88);
}

TEST_CASE("GPU peaks are dense, never 2:4-sparse headlines", "[catalog]") {
  const auto& catalog = traincalc::builtin_catalog();
  SECTION("on NVIDIA and AMD parts since Ampere, dense BF16 is 2x dense TF32 and dense FP8 2x BF16") {
    // The vendors' datasheets (NVIDIA A100/H100/H200/L40S/L4/Blackwell, AMD MI300X/MI325X/MI355X).
    // Published figures round, so within 3% (L40S lists
    // 183 TF32 / 362 BF16 / 733 FP8; B200 1,100 / 2,250).
    for (const auto& gpu : catalog.gpus) {
      if (gpu.vendor != "NVIDIA" && gpu.vendor != "AMD") continue;
      INFO(gpu.id);
      if (gpu.bf16_tflops && gpu.tf32_tflops) CHECK_THAT(*gpu.bf16_tflops, WithinRel(2 * *gpu.tf32_tflops, 0.03));
      if (gpu.bf16_tflops && gpu.fp8_tflops) CHECK_THAT(*gpu.fp8_tflops, WithinRel(2 * *gpu.bf16_tflops, 0.03));
    }
  }
  SECTION("no BF16 peak equals the vendor's sparse headline; each is half of it") {
    // Headline (with 2:4 sparsity) BF16 TFLOPS from the vendors' datasheets, footnoted "with sparsity".
    const std::pair<const char*, double> sparse_headlines[] = {
        {"h100-sxm", 1979}, {"h200-sxm", 1979}, {"h100-pcie", 1513}, {"h100-nvl", 1671}, {"l40s", 733},
        {"l4", 242},        {"b200", 4500},     {"gb200", 5000},     {"mi300x", 2614.9}};
    for (const auto& [id, headline] : sparse_headlines) {
      INFO(id);
      const auto* gpu = catalog.find_gpu(id);
      REQUIRE(gpu);
      REQUIRE(gpu->bf16_tflops);
      CHECK_THAT(*gpu->bf16_tflops, WithinRel(headline / 2, 0.02));  // L40S: 733 sparse, 362.05 dense
    }
  }
  CHECK(*catalog.find_gpu("h100-sxm")->bf16_tflops == 989.4);
  CHECK(*catalog.find_gpu("a100-80gb-sxm")->bf16_tflops == 312);
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
  for (const auto& e : load.errors) fields.insert(e.field + " " + std::string(e.code.name()));
  INFO(json(std::vector<std::string>(fields.begin(), fields.end())).dump());
  CHECK(fields.count("gpus[0].id invalid_id"));
  CHECK(fields.count("gpus[0].memory_gb not_positive"));
  CHECK(fields.count("gpus[0].source required"));
  CHECK(fields.count("gpus[1].bf16_tflops required"));
  CHECK(fields.count("offers[0].gpu unknown_id"));
  CHECK(fields.count("modles unknown_key"));
}

TEST_CASE("Only the built-in files read without their texts may leave a row's source out", "[catalog]") {
  // The calculator's WebAssembly module carries the built-in catalog so (its page fetches the texts);
  // a vendor's catalog, and the built-in files as written, must cite a source on every row.
  const std::string rows = R"json({
    "gpus": [{"id": "x1", "name": "X1", "memory_gb": 48, "fp16_tflops": 100}],
    "offers": [{"id": "x1-hourly", "gpu": "x1", "per_gpu_hour": 1, "currency": "USD"}],
    "models": [{"id": "m1", "name": "M1", "params": 7e9}]
  })json";
  const auto without_texts = traincalc::merge_catalog_json(rows, traincalc::Catalog{}, traincalc::CatalogRows::builtin_without_texts);
  CHECK(without_texts.errors.empty());
  CHECK(without_texts.catalog.find_offer("x1-hourly")->source.empty());
  // Printed without a source, not with an empty one.
  const json printed = json::parse(traincalc::catalog_to_json(without_texts.catalog));
  CHECK_FALSE(printed["gpus"][0].contains("source"));
  CHECK_FALSE(printed["offers"][0].contains("source"));
  CHECK_FALSE(printed["models"][0].contains("source"));
  for (const auto whose : {traincalc::CatalogRows::vendor, traincalc::CatalogRows::builtin}) {
    std::set<std::string> fields;
    for (const auto& e : traincalc::merge_catalog_json(rows, traincalc::Catalog{}, whose).errors)
      fields.insert(e.field + " " + std::string(e.code.name()));
    INFO(json(std::vector<std::string>(fields.begin(), fields.end())).dump());
    CHECK(fields.count("gpus[0].source required"));
    CHECK(fields.count("offers[0].source required"));
    CHECK(fields.count("models[0].source required"));
  }
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
