// The catalog: GPUs, cloud offers and model presets. The built-in one is data compiled in from
// engine/data/catalog.json; vendors add or replace rows with catalogs of their own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincalc/hardware.hpp"
#include "traincalc/model.hpp"
#include "traincalc/units.hpp"

namespace traincalc {

struct Offer {
  std::string id;
  std::string name;
  std::string provider;
  GpuSpec gpu;  // a catalog GPU resolved, or the offer's own inline spec
  std::optional<double> per_gpu_hour;
  std::optional<double> per_gpu_month;
  std::string currency;
  double hours_per_month = units::default_hours_per_month;
  std::string pricing_type;  // on-demand, spot, reserved, ...
  std::string region;
  std::string confidence;
  std::string date;
  std::string source;
  std::string notes;
  // Whether the offer can form a cluster (catalog.md, "Offers and clusters"): the most GPUs one
  // instance holds (joined by the GPU's own link), whether instances can be joined into one job and
  // over what, and the network between instances per GPU. Unset: not said (no limit is applied).
  std::optional<double> instance_gpus;
  std::optional<OfferCluster> cluster;
  std::optional<double> inter_node_gbps;
  std::optional<double> max_gpus;  // the provider's own cap on one cluster of this offer
  std::string network_source;
};

// The most GPUs one job can use on an offer (nullopt: no known limit), and why.
struct OfferLimit {
  double gpus = 0;
  bool one_instance = false;  // the limit is one instance (instances cannot be joined)
};
std::optional<OfferLimit> offer_gpu_limit(const Offer& offer);

struct ModelPreset {
  ModelSpec model;  // model.preset holds the ID
  std::optional<double> published_params;
  std::optional<double> published_active_params;
  std::string source;
  std::string confidence;
  std::string notes;
};

// The ID a catalog row is known by.
inline const std::string& id_of(const GpuSpec& gpu) {
  return gpu.id;
}
inline const std::string& id_of(const Offer& offer) {
  return offer.id;
}
inline const std::string& id_of(const ModelPreset& preset) {
  return preset.model.preset;
}

struct Catalog {
  std::vector<GpuSpec> gpus;
  std::vector<Offer> offers;
  std::vector<ModelPreset> models;

  const GpuSpec* find_gpu(std::string_view id) const;
  const Offer* find_offer(std::string_view id) const;
  const ModelPreset* find_model(std::string_view id) const;
};

// The catalog compiled into the engine. Parsed and validated once, on first use.
const Catalog& builtin_catalog();

// Whose rows a catalog holds, which decides how they are read: a vendor's (each row cites its source;
// a GPU row's missing figures come from the closest built-in GPU), the built-in files as written, or
// the built-in files without their source and notes texts. The calculator's WebAssembly module
// carries the latter: its page loads those texts apart (catalog-texts.json) when it shows them.
enum class CatalogRows { vendor, builtin, builtin_without_texts };

// The built-in catalog's files, in merge order (GPUs before the offers that name them), compiled in
// from engine/data/*.json at build time.
struct CatalogFile {
  std::string_view name;
  std::string_view text;
  CatalogRows rows = CatalogRows::builtin;
};
std::vector<CatalogFile> builtin_catalog_files();
// engine/data/calibration.json: published throughput rows as scenarios (see validation_json).
std::string_view builtin_calibration_json();
// Measured peak memory of real runs, each as a scenario (engine/data/memory-validation.json).
std::string_view builtin_memory_validation_json();
// engine/data/speed-validation.json: measured step times by source, for `traincalc validate --speed`.
std::string_view builtin_speed_validation_json();
std::string_view builtin_whole_runs_json();

}  // namespace traincalc
