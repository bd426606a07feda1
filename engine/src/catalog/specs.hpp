// Readers shared by scenarios and catalogs: an inline GPU spec is read exactly like a catalog GPU
// row, and a model's architecture exactly like a preset's. Internal header.
#pragma once

#include <string>
#include <vector>

#include "contract/json_fields.hpp"
#include "traincalc/catalog.hpp"
#include "traincalc/hardware.hpp"
#include "traincalc/json_api.hpp"
#include "traincalc/contract.hpp"
#include "traincalc/model.hpp"
#include "traincalc/report.hpp"
#include "traincalc/scenario.hpp"

namespace traincalc::detail {

// Readers take a Fields bound to the record they read (contract::gpu, contract::model, ...), whose
// declarations give each field's range.
// Reads GPU fields present in f into gpu (fields absent keep gpu's values).
void read_gpu_fields(Fields& f, GpuSpec& gpu);
// Errors for a GPU that cannot be used: no memory, no peak at any precision.
void check_gpu(const GpuSpec& gpu, Fields& f);

// Reads architecture fields present in f into arch; returns whether any was present.
bool read_architecture_fields(Fields& f, Architecture& arch);
// Errors for an incomplete or inconsistent architecture.
void check_architecture(const Architecture& arch, Fields& f);

const std::vector<std::string>& architecture_keys();

// IDs are lower-case ASCII letters, digits, '.', '_' and '-'.
bool valid_id(const std::string& id);

// The catalog file format, validated strictly; rows are merged over base.
CatalogLoad merge_catalog_value(const json& value, const Catalog& base, const std::string& path,
                                CatalogRows whose = CatalogRows::vendor);
// The built-in GPU a vendor's row is closest to, of the same architecture (compute capability where
// given, else the family its name says, else the same low-precision peaks), or null.
const GpuSpec* closest_builtin_gpu(const GpuSpec& gpu, const Catalog& builtin);
// Copies into a vendor's row the figures it leaves out from `from`, recording which.
void fill_missing_gpu_fields(GpuSpec& gpu, const GpuSpec& from);

// A scenario object validated against a catalog (see contract/scenario_reader.cpp).
ScenarioParse parse_scenario_value(const json& root, const Catalog& base);
// Its report as JSON (contract/report_writer.cpp); valid becomes false when the report has errors.
json estimate_value(const json& scenario, const Catalog& catalog, bool& valid);
// The same as a struct: a scenario the reader refuses gives a report with its errors.
Report estimate_scenario_value(const json& scenario, const Catalog& catalog);
// A report as its JSON (an invalid one as {"errors", "warnings"}).
json report_value(const Report& report);

void put(json& j, std::string_view key, const std::optional<double>& v);
void put(json& j, std::string_view key, const std::string& v);
json gpu_to_json(const GpuSpec& gpu);
json architecture_to_json(const Architecture& arch);
// An image network's forward_macs_per_image and image_resolution (catalog rows and inline models).
void read_vision_fields(Fields& f, ModelSpec& model);

// How a run trains, as the validation tables name it: "pretrain", else the fine-tuning method's
// contract name ("full", "lora", "qlora").
inline std::string training_method_name(const Training& t) {
  return t.type == TrainingType::pretrain ? "pretrain" : std::string(contract::name_of(contract::finetune_methods, t.method));
}

// A model's transformer layers (an encoder-decoder's both stacks); 0 without an architecture.
inline double model_layers(const ModelSpec& m) {
  return m.architecture ? m.architecture->layers + m.architecture->decoder_layers : 0.0;
}

// What ran, as every validation table's row carries it for the page to word in the reader's language,
// as the engine read the row's scenario.
inline void describe_run(ValidationRun& row, const Scenario& s, const Report& r) {
  row.gpu = r.hardware.gpu_id.empty() ? r.hardware.gpu_name : r.hardware.gpu_id;
  row.gpu_name = r.hardware.gpu_name;
  row.gpus = r.plan.gpus;
  row.model = r.model.name;
  row.params = r.model.params;
  row.layers = model_layers(s.model);
  row.method = training_method_name(s.training);
  row.precision = to_string(r.hardware.precision);
  row.seq_len = r.compute.seq_len;
  row.layout = r.parallelism;
}

}  // namespace traincalc::detail
