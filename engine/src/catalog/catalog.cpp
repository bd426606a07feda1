#include "traincalc/catalog.hpp"
#include "traincalc/contract.hpp"

#include <algorithm>

#include "traincalc/json_api.hpp"

namespace traincalc {

namespace {
template <class Row>
const Row* find_by_id(const std::vector<Row>& rows, std::string_view id) {
  auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& row) { return id_of(row) == id; });
  return it == rows.end() ? nullptr : &*it;
}
}  // namespace

const GpuSpec* Catalog::find_gpu(std::string_view id) const {
  return find_by_id(gpus, id);
}
const Offer* Catalog::find_offer(std::string_view id) const {
  return find_by_id(offers, id);
}
const ModelPreset* Catalog::find_model(std::string_view id) const {
  return find_by_id(models, id);
}

std::optional<OfferLimit> offer_gpu_limit(const Offer& offer) {
  // Instances that cannot be joined: one instance is the largest job. Else the provider's cap, if any.
  if (offer.cluster == OfferCluster::none && offer.instance_gpus) return OfferLimit{*offer.instance_gpus, true};
  if (offer.max_gpus) return OfferLimit{*offer.max_gpus, false};
  return std::nullopt;
}

const Catalog& builtin_catalog() {
  // The built-in data is checked by the same validator as any vendor catalog; a Catch2 test
  // asserts that it loads without a single error.
  static const Catalog catalog = [] {
    Catalog merged;
    for (const CatalogFile& file : builtin_catalog_files()) merged = merge_catalog_json(file.text, merged, file.rows).catalog;
    return merged;
  }();
  return catalog;
}

const char* to_string(Precision precision) {
  return contract::name_of(contract::precisions, precision).data();  // the names are NUL-terminated literals
}

std::optional<Precision> default_precision(const GpuSpec& gpu) {
  for (Precision p : {Precision::bf16, Precision::fp16, Precision::tf32, Precision::fp32, Precision::fp8})
    if (dense_peak_tflops(gpu, p)) return p;
  return std::nullopt;
}

const char* to_string(Optimizer optimizer) {
  return contract::name_of(contract::optimizers, optimizer).data();  // the names are NUL-terminated literals
}

const char* to_string(Recompute recompute) {
  return contract::name_of(contract::recomputes, recompute).data();  // the names are NUL-terminated literals
}

const char* to_string(Offload offload) {
  return contract::name_of(contract::offloads, offload).data();  // the names are NUL-terminated literals
}

}  // namespace traincalc
