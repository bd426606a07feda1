#include "catalog/specs.hpp"

#include "estimate/estimators.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "traincalc/json_api.hpp"

namespace traincalc::detail {

namespace {

// Where each GPU field lives in GpuSpec; its type, unit and range are the contract's (contract::gpu).
struct GpuText {
  std::string_view key;
  std::string GpuSpec::*member;
};
// What a vendor's row that leaves a number out takes from the closest built-in GPU of its
// architecture (fill_missing_gpu_fields): nothing (a precision's peak: a missing fp8 figure may mean
// no fp8), the figure itself, or the figure scaled by the rows' 16-bit peaks (fp32 and tf32 peaks).
enum class Borrow { never, as_is, scaled };
struct GpuNumber {
  std::string_view key;
  std::optional<double> GpuSpec::*member;
  Borrow borrow = Borrow::never;
};
constexpr GpuText gpu_texts[] = {
    {"id", &GpuSpec::id},
    {"name", &GpuSpec::name},
    {"vendor", &GpuSpec::vendor},
    {"form_factor", &GpuSpec::form_factor},
    {"memory_type", &GpuSpec::memory_type},
    {"interconnect", &GpuSpec::interconnect},
    {"source", &GpuSpec::source},
    {"confidence", &GpuSpec::confidence},
    {"notes", &GpuSpec::notes},
};
constexpr GpuNumber gpu_numbers[] = {
    {"usable_memory_gib", &GpuSpec::usable_memory_gib},
    {"memory_bandwidth_tbs", &GpuSpec::memory_bandwidth_tbs, Borrow::as_is},
    {"fp32_tflops", &GpuSpec::fp32_tflops, Borrow::scaled},
    {"tf32_tflops", &GpuSpec::tf32_tflops, Borrow::scaled},
    {"bf16_tflops", &GpuSpec::bf16_tflops},
    {"fp16_tflops", &GpuSpec::fp16_tflops},
    {"fp8_tflops", &GpuSpec::fp8_tflops},
    {"fp4_tflops", &GpuSpec::fp4_tflops},
    {"int8_tops", &GpuSpec::int8_tops},
    {"tdp_w", &GpuSpec::tdp_w, Borrow::as_is},
    {"gpus_per_node", &GpuSpec::gpus_per_node, Borrow::as_is},
    {"link_domain_gpus", &GpuSpec::link_domain_gpus, Borrow::as_is},
    {"intra_node_gbs", &GpuSpec::intra_node_gbs, Borrow::as_is},
    {"inter_node_gbps", &GpuSpec::inter_node_gbps, Borrow::as_is},
    {"matmul_efficiency", &GpuSpec::matmul_efficiency, Borrow::as_is},
    {"release_year", &GpuSpec::release_year},
    {"compute_capability", &GpuSpec::compute_capability, Borrow::as_is},
};
}  // namespace

// The ID is read by whoever knows what it means (a catalog row's, or an inline spec's vendor name).
// Descriptions first, then the numbers, then where they come from (the order errors are reported in).
void read_gpu_fields(Fields& f, GpuSpec& gpu) {
  const auto read_texts = [&](bool provenance) {
    for (const auto& field : gpu_texts) {
      const bool is_provenance = field.key == "source" || field.key == "confidence" || field.key == "notes";
      if (field.key != "id" && is_provenance == provenance)
        if (auto v = f.text(field.key)) gpu.*field.member = *v;
    }
  };
  read_texts(false);
  if (auto v = f.number("memory_gb")) gpu.memory_gb = *v;
  for (const auto& field : gpu_numbers)
    if (auto v = f.number(field.key)) gpu.*field.member = *v;
  read_texts(true);
}

void read_vision_fields(Fields& f, ModelSpec& model) {
  model.forward_macs_per_image = f.number("forward_macs_per_image");
  if (auto v = f.number("image_resolution")) model.image_resolution = *v;
  if (model.forward_macs_per_image && model.image_resolution <= 0)
    f.require("image_resolution", "the side in pixels at which forward_macs_per_image was counted",
              "image_resolution");
}

void check_gpu(const GpuSpec& gpu, Fields& f) {
  if (gpu.name.empty() && !f.has("name")) f.require("name", "a GPU needs a display name", "gpu_name");
  if (gpu.memory_gb <= 0 && !f.has("memory_gb")) f.require("memory_gb", "the GPU's memory in GB", "gpu_memory");
  const bool any_peak = gpu.fp32_tflops || gpu.tf32_tflops || gpu.bf16_tflops || gpu.fp16_tflops || gpu.fp8_tflops;
  if (!any_peak && !f.has("bf16_tflops") && !f.has("fp16_tflops") && !f.has("fp8_tflops") && !f.has("tf32_tflops") &&
      !f.has("fp32_tflops"))
    f.error("bf16_tflops", "required",
            f.object_path() +
                " needs a dense peak for at least one precision (bf16_tflops, fp16_tflops, fp8_tflops, "
                "tf32_tflops or fp32_tflops), without 2:4 sparsity.",
            {{"reason", reason("gpu_peak")}});
}

const std::vector<std::string>& architecture_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> names;
    for (const auto& field : contract::architecture.fields) names.emplace_back(field.name);
    return names;
  }();
  return keys;
}

bool read_architecture_fields(Fields& f, Architecture& a) {
  bool any = false;
  for (const auto& key : architecture_keys()) any = any || f.has(key);
  f.read_bound(contract::architecture, a);
  return any;
}

void check_architecture(const Architecture& a, Fields& f) {
  const std::pair<const char*, double> required[] = {
      {"layers", a.layers}, {"hidden", a.hidden}, {"heads", a.heads}, {"ffn_hidden", a.ffn_hidden}, {"vocab", a.vocab}};
  bool complete = true;
  for (const auto& [key, value] : required) {
    if (value <= 0 && !f.has(key)) {
      f.require(key, "an architecture needs layers, hidden, heads, ffn_hidden and vocab (or give params instead)",
                "architecture");
      complete = false;
    } else if (value <= 0) {
      complete = false;  // already reported by the reader
    }
  }
  if (!complete) return;
  if (a.head_dim <= 0 && std::fmod(a.hidden, a.heads) != 0)
    f.error("heads", "inconsistent",
            "hidden (" + format_number(a.hidden) + ") is not divisible by heads (" + format_number(a.heads) +
                "); give head_dim explicitly.",
            {{"reason", reason("hidden_heads")}, {"hidden", format_number(a.hidden)}, {"heads", format_number(a.heads)}});
  if (a.kv_heads > 0 && (a.kv_heads > a.heads || std::fmod(a.heads, a.kv_heads) != 0))
    f.error("kv_heads", "inconsistent",
            "kv_heads (" + format_number(a.kv_heads) + ") must divide heads (" + format_number(a.heads) + ").",
            {{"reason", reason("kv_heads")}, {"kv_heads", format_number(a.kv_heads)}, {"heads", format_number(a.heads)}});
  if (a.dense_layers > a.layers)
    f.error(
        "dense_layers", "inconsistent",
        "dense_layers (" + format_number(a.dense_layers) + ") cannot exceed layers (" + format_number(a.layers) + ").",
            {{"reason", reason("dense_layers")}, {"dense_layers", format_number(a.dense_layers)}, {"layers", format_number(a.layers)}});
  if (latent_attention(a) && (a.qk_nope_head_dim <= 0 || a.qk_rope_head_dim <= 0 || a.v_head_dim <= 0))
    f.error("kv_lora_rank", "inconsistent",
            "Latent attention (kv_lora_rank > 0) needs qk_nope_head_dim, qk_rope_head_dim and v_head_dim.",
            {{"reason", reason("latent_dims")}});
  if (a.experts_per_token > a.experts)
    f.error("experts_per_token", "inconsistent",
            "experts_per_token (" + format_number(a.experts_per_token) + ") cannot exceed experts (" +
                format_number(a.experts) + ").",
            {{"reason", reason("experts_per_token")}, {"experts_per_token", format_number(a.experts_per_token)}, {"experts", format_number(a.experts)}});
  if (a.expert_groups > 0 && std::fmod(a.experts, a.expert_groups) != 0)
    f.error("expert_groups", "inconsistent",
            "expert_groups (" + format_number(a.expert_groups) + ") must divide experts (" + format_number(a.experts) +
                ").",
            {{"reason", reason("expert_groups")}, {"expert_groups", format_number(a.expert_groups)}, {"experts", format_number(a.experts)}});
  if (a.expert_groups_per_token > 0 && a.expert_groups <= 0)
    f.error("expert_groups_per_token", "inconsistent",
            "expert_groups_per_token limits a token to that many of the expert_groups: give expert_groups too.",
            {{"reason", reason("expert_groups_missing")}});
  else if (a.expert_groups_per_token > 0 && a.expert_groups_per_token * a.experts / a.expert_groups < a.experts_per_token &&
           a.expert_groups_per_token <= a.expert_groups)
    f.error("expert_groups_per_token", "inconsistent",
            "expert_groups_per_token (" + format_number(a.expert_groups_per_token) + ") groups of " +
                format_number(a.experts / a.expert_groups) + " experts hold fewer than experts_per_token (" +
                format_number(a.experts_per_token) + ").",
            {{"reason", reason("expert_groups_too_few")}, {"expert_groups_per_token", format_number(a.expert_groups_per_token)}, {"group_experts", format_number(a.experts / a.expert_groups)}, {"experts_per_token", format_number(a.experts_per_token)}});
  else if (a.expert_groups_per_token > a.expert_groups)
    f.error("expert_groups_per_token", "inconsistent",
            "expert_groups_per_token (" + format_number(a.expert_groups_per_token) + ") cannot exceed expert_groups (" +
                format_number(a.expert_groups) + ").",
            {{"reason", reason("expert_groups_per_token")}, {"expert_groups_per_token", format_number(a.expert_groups_per_token)}, {"expert_groups", format_number(a.expert_groups)}});
}

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_')) return false;
  return true;
}

namespace {

// A row with a known ID replaces it; a new ID is added.
template <class Row>
void upsert(std::vector<Row>& rows, Row row) {
  for (auto& existing : rows)
    if (id_of(existing) == id_of(row)) {
      existing = std::move(row);
      return;
    }
  rows.push_back(std::move(row));
}

std::optional<std::string> read_id(Fields& f) {
  f.require("id", "every catalog row needs an ID", "catalog_id");
  auto id = f.text("id");
  if (id && !valid_id(*id)) {
    f.error("id", "invalid_id",
            f.path("id") + " must use only lower-case letters, digits, '.', '_' and '-' (got \"" + *id + "\").");
    return std::nullopt;
  }
  return id;
}

void require_source(Fields& f, CatalogRows rows) {
  if (rows == CatalogRows::builtin_without_texts) return;
  f.require("source", "every catalog number must cite where it comes from", "source");
  if (auto s = f.text("source"); s && s->empty())
    f.error("source", "required", f.path("source") + " must not be empty.",
            {{"reason", reason("not_empty")}});
}

}  // namespace

// A GPU row's architecture (estimators.hpp says how it is told).
std::string architecture_of(const GpuSpec& gpu) {
  if (gpu.compute_capability) return "cc" + format_number(*gpu.compute_capability);
  std::string text = gpu.id + " " + gpu.name;
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  auto mentions = [&](const char* what) { return text.find(what) != std::string::npos; };
  if (mentions("a100") || mentions("a800")) return "cc8";
  if (mentions("h100") || mentions("h800") || mentions("h200") || mentions("h20")) return "cc9";
  if (mentions("b200") || mentions("b300") || mentions("gb200") || mentions("gb300")) return "cc10";
  return "";
}

namespace {

std::optional<double> sixteen_bit_peak(const GpuSpec& gpu) { return gpu.bf16_tflops ? gpu.bf16_tflops : gpu.fp16_tflops; }

// Lower-case words of a name, for telling apart built-in GPUs equally close in their figures.
std::vector<std::string> name_words(const std::string& name) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : name + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  return words;
}
}  // namespace

const GpuSpec* closest_builtin_gpu(const GpuSpec& gpu, const Catalog& builtin) {
  const std::string arch = architecture_of(gpu);
  const std::vector<std::string> words = name_words(gpu.name);
  const GpuSpec* best = nullptr;
  double best_distance = 0;
  std::size_t best_shared = 0;
  for (const GpuSpec& candidate : builtin.gpus) {
    // A row with neither an architecture nor a vendor is not placed: no guess across vendors.
    const bool same_vendor = gpu.vendor.empty() ? !arch.empty() : candidate.vendor == gpu.vendor;
    const bool same_arch = !arch.empty() ? architecture_of(candidate) == arch
                                         : architecture_of(candidate).empty() &&
                                               gpu.fp8_tflops.has_value() == candidate.fp8_tflops.has_value() &&
                                               gpu.fp4_tflops.has_value() == candidate.fp4_tflops.has_value();
    if (!same_vendor || !same_arch) continue;
    const auto mine = sixteen_bit_peak(gpu), theirs = sixteen_bit_peak(candidate);
    if (!mine || !theirs || candidate.memory_gb <= 0 || gpu.memory_gb <= 0) continue;
    // Nearest in the 16-bit peak, then in memory, on a log scale.
    const double distance = std::abs(std::log(*mine / *theirs)) + 0.5 * std::abs(std::log(gpu.memory_gb / candidate.memory_gb));
    std::size_t shared = 0;
    for (const std::string& w : name_words(candidate.name)) shared += std::count(words.begin(), words.end(), w);
    if (!best || distance < best_distance - 1e-9 || (distance < best_distance + 1e-9 && shared > best_shared)) {
      best = &candidate;
      best_distance = distance;
      best_shared = shared;
    }
  }
  return best;
}

void fill_missing_gpu_fields(GpuSpec& gpu, const GpuSpec& from) {
  // What a vendor's datasheet row often leaves out and the step, memory and energy models use
  // (gpu_numbers' borrow column); never what names or cites the row.
  const auto mine = sixteen_bit_peak(gpu), theirs = sixteen_bit_peak(from);
  for (const GpuNumber& field : gpu_numbers) {
    if (field.borrow == Borrow::never || gpu.*field.member || !(from.*field.member)) continue;
    if (field.borrow == Borrow::scaled && !(mine && theirs)) continue;
    gpu.*field.member = field.borrow == Borrow::scaled ? *(from.*field.member) * *mine / *theirs : *(from.*field.member);
    gpu.filled_fields.emplace_back(field.key);
  }
  // What the driver gives a process, for the same memory.
  if (!gpu.usable_memory_gib && from.usable_memory_gib && gpu.memory_gb == from.memory_gb) {
    gpu.usable_memory_gib = from.usable_memory_gib;
    gpu.filled_fields.emplace_back("usable_memory_gib");
  }
  if (!gpu.filled_fields.empty()) gpu.filled_from = from.id;
}

namespace {

// An offer's row (its ID read by the caller): the GPU it rents, named from `catalog` (the GPUs read
// so far) or given inline, its price, and how its instances join into a cluster.
Offer read_offer(Fields& f, const std::string& where, const Catalog& catalog, Issues& errors, CatalogRows rows) {
  Offer offer;
  if (auto v = f.text("name")) offer.name = *v;
  if (auto v = f.text("provider")) offer.provider = *v;
  f.require("gpu", "an offer names a catalog GPU ID or gives an inline GPU spec", "offer_gpu");
  if (const json* gpu = f.raw("gpu")) {
    if (gpu->is_string()) {
      if (const GpuSpec* known = catalog.find_gpu(gpu->get<std::string>()))
        offer.gpu = *known;
      else
        f.error("gpu", "unknown_id",
                f.path("gpu") + ": no GPU with ID \"" + gpu->get<std::string>() + "\" in the catalog.",
                {{"reason", reason("gpu_id")}, {"got", gpu->get<std::string>()}});
    } else if (gpu->is_object()) {
      Fields g(*gpu, f.path("gpu"), errors, &contract::gpu);
      if (g.raw("id"))  // the offer's ID names this row; its own GPU has none in the catalog
        g.error("id", "unknown_key",
                "Unknown key \"id\" in " + f.path("gpu") +
                    ": an offer's own GPU has no catalog ID; give the offer's gpu as a catalog GPU ID instead, "
                    "or remove id.",
                {{"reason", reason("offer_gpu_id")}});
      read_gpu_fields(g, offer.gpu);
      check_gpu(offer.gpu, g);
      g.reject_unknown();
    } else {
      f.error("gpu", "wrong_type",
              f.path("gpu") + " must be a GPU ID or a GPU spec object, not " + describe(*gpu) + ".",
              {{"reason", reason("gpu_id_or_spec")}});
    }
  }
  offer.per_gpu_hour = f.number("per_gpu_hour");
  offer.per_gpu_month = f.number("per_gpu_month");
  if (auto v = f.number("hours_per_month")) offer.hours_per_month = *v;
  if (!f.has("per_gpu_hour") && !f.has("per_gpu_month"))
    f.error("per_gpu_hour", "required", where + " needs per_gpu_hour or per_gpu_month.",
            {{"reason", reason("price")}});
  if (f.has("per_gpu_hour") && f.has("per_gpu_month"))
    f.error("per_gpu_month", "conflict", where + " gives both per_gpu_hour and per_gpu_month; keep one.",
            {{"reason", reason("both_prices")}});
  f.require("currency", "the price's currency, e.g. \"USD\" or \"CNY\"", "currency");
  if (auto v = f.text("currency")) offer.currency = currency_code(*v);  // "cny", "RMB": CNY
  if (auto v = f.text("date")) offer.date = *v;
  if (auto v = f.text("pricing_type")) offer.pricing_type = *v;
  if (auto v = f.text("region")) offer.region = *v;
  if (auto v = f.text("confidence")) offer.confidence = *v;
  if (auto v = f.text("notes")) offer.notes = *v;
  require_source(f, rows);
  if (auto v = f.text("source")) offer.source = *v;
  offer.instance_gpus = f.number("instance_gpus");
  offer.cluster = f.choice("cluster", contract::offer_clusters);
  offer.inter_node_gbps = f.number("inter_node_gbps");
  offer.max_gpus = f.number("max_gpus");
  if (auto v = f.text("network_source")) offer.network_source = *v;
  if (offer.cluster == OfferCluster::none && !offer.instance_gpus)
    f.error("instance_gpus", "required",
            where + ": an offer whose instances cannot be joined (cluster \"none\") says how many GPUs one "
                    "instance holds (instance_gpus).",
            {{"reason", reason("instance_gpus")}});
  if (offer.max_gpus && offer.instance_gpus && *offer.max_gpus < *offer.instance_gpus)
    f.error("max_gpus", "out_of_range",
            where + ": max_gpus (" + format_number(*offer.max_gpus) + ") is fewer than one instance's " +
                format_number(*offer.instance_gpus) + " GPUs.",
            {{"reason", reason("max_below_instance")}, {"max", format_number(*offer.max_gpus)}, {"instance", format_number(*offer.instance_gpus)}});
  return offer;
}

// A model preset's row (its ID read by the caller): an architecture, or a parameter count.
ModelPreset read_model_preset(Fields& f, const std::string& where, CatalogRows rows) {
  ModelPreset preset;
  if (auto v = f.text("name")) preset.model.name = *v;
  preset.published_params = f.number("published_params");
  preset.published_active_params = f.number("published_active_params");
  if (auto v = f.number("seq_len")) preset.model.default_seq_len = *v;
  read_vision_fields(f, preset.model);
  if (auto v = f.text("notes")) preset.notes = *v;
  if (auto v = f.text("confidence")) preset.confidence = *v;
  require_source(f, rows);
  if (auto v = f.text("source")) preset.source = *v;
  // Derived counts that catalog_to_json writes; accepted so its output reads back, never trusted.
  f.raw("computed_params");
  f.raw("computed_active_params");
  Architecture arch;
  const bool has_architecture = read_architecture_fields(f, arch);
  const auto params = f.number("params");
  const auto active = f.number("active_params");
  if (has_architecture) {
    if (params || active)
      f.error("params", "conflict", where + " gives both an architecture and params; keep one.",
              {{"reason", reason("architecture_and_params")}});
    check_architecture(arch, f);
    preset.model.architecture = arch;
    const ParameterCount count = count_parameters(arch);
    preset.model.params = count.total;
    preset.model.active_params = count.active;
  } else if (params) {
    preset.model.params = *params;
    preset.model.active_params = active.value_or(*params);
    if (active && *active > *params)
      f.error("active_params", "inconsistent", where + ": active_params cannot exceed params.",
              {{"reason", reason("active_params_total")}});
  } else if (!f.has("params")) {
    f.error("params", "required", where + " needs an architecture (layers, hidden, ...) or params.",
            {{"reason", reason("architecture_or_params")}});
  }
  return preset;
}

}  // namespace

CatalogLoad merge_catalog_value(const json& value, const Catalog& base, const std::string& path, CatalogRows whose) {
  CatalogLoad load{base, {}};
  Issues& errors = load.errors;
  if (!value.is_object()) {
    errors.push_back({path,
                      "wrong_type",
                      "A catalog must be a JSON object with \"gpus\", \"offers\" and/or \"models\" arrays.",
                      {{"expected", "object"}}});
    return load;
  }
  Fields top(value, path, errors, &contract::catalog);
  top.text("description");
  top.text("source");

  auto rows = [&](const char* key) -> const json* {
    const json* list = top.raw(key);
    if (list && !list->is_array()) {
      top.error(key, "wrong_type", top.path(key) + " must be an array ([...]).", {{"expected", "list"}});
      return nullptr;
    }
    return list;
  };
  auto row_path = [&](const char* key, std::size_t i) { return join_path(path, key) + "[" + std::to_string(i) + "]"; };

  // Each row of a list: an object (else one error, and on to the next row), its ID and fields read
  // against the list's declaration by `read`; kept under its ID (`keep`) only when it added no error.
  auto each_row = [&](const char* key, const contract::Record& record, auto read, auto keep) {
    const json* list = rows(key);
    if (!list) return;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string where = row_path(key, i);
      if (!(*list)[i].is_object()) {
        errors.push_back({where, "wrong_type", where + " must be an object.", {{"expected", "object"}}});
        continue;
      }
      Fields f((*list)[i], where, errors, &record);
      const std::size_t before = errors.size();
      auto id = read_id(f);
      auto row = read(f, where);
      f.reject_unknown();
      if (id && errors.size() == before) keep(*id, std::move(row));
    }
  };

  each_row(
      "gpus", contract::gpu,
      [&](Fields& f, const std::string&) {
        GpuSpec gpu;
        read_gpu_fields(f, gpu);
        require_source(f, whose);
        check_gpu(gpu, f);
        return gpu;
      },
      [&](const std::string& id, GpuSpec gpu) {
        gpu.id = id;
        if (whose == CatalogRows::vendor)
          if (const GpuSpec* closest = closest_builtin_gpu(gpu, builtin_catalog())) fill_missing_gpu_fields(gpu, *closest);
        upsert(load.catalog.gpus, std::move(gpu));
      });

  each_row(
      "offers", contract::offer,
      [&](Fields& f, const std::string& where) { return read_offer(f, where, load.catalog, errors, whose); },
      [&](const std::string& id, Offer offer) {
        offer.id = id;
        upsert(load.catalog.offers, std::move(offer));
      });

  each_row(
      "models", contract::model_preset,
      [&](Fields& f, const std::string& where) { return read_model_preset(f, where, whose); },
      [&](const std::string& id, ModelPreset preset) {
        preset.model.preset = id;
        if (preset.model.name.empty()) preset.model.name = id;
        upsert(load.catalog.models, std::move(preset));
      });
  top.reject_unknown();
  return load;
}

// Writes a field only when it has a value, so printed catalogs read like the files they came from.
void put(json& j, std::string_view key, const std::optional<double>& v) {
  if (v) j[std::string(key)] = *v;
}
void put(json& j, std::string_view key, const std::string& v) {
  if (!v.empty()) j[std::string(key)] = v;
}

// In the contract's order; a field is written only when it has a value (memory_gb always).
json gpu_to_json(const GpuSpec& g) {
  json j = json::object();
  for (const auto& field : contract::gpu.fields) {
    if (field.name == "memory_gb") j["memory_gb"] = g.memory_gb;
    for (const auto& text : gpu_texts)
      if (text.key == field.name) put(j, text.key, g.*text.member);
    for (const auto& number : gpu_numbers)
      if (number.key == field.name) put(j, number.key, g.*number.member);
  }
  return j;
}

json architecture_to_json(const Architecture& a) {
  json j = {{"layers", a.layers},
            {"hidden", a.hidden},
            {"heads", a.heads},
            {"kv_heads", effective_kv_heads(a)},
            {"head_dim", effective_head_dim(a)},
            {"ffn_hidden", a.ffn_hidden},
            {"vocab", a.vocab},
            {"gated_mlp", a.gated_mlp},
            {"tied_embeddings", a.tied_embeddings},
            {"experts", a.experts},
            {"experts_per_token", a.experts_per_token},
            {"encoder_only", a.encoder_only},
            {"bias", a.bias},
            {"norm", a.norm == NormKind::layer ? "layernorm" : "rmsnorm"},
            {"position_embeddings", a.position_embeddings}};
  // Extensions only where set, so the common case stays short.
  const Architecture plain;
  if (a.qkv_bias) j["qkv_bias"] = true;
  if (a.qk_norm) j["qk_norm"] = true;
  if (a.norms_per_layer != plain.norms_per_layer) j["norms_per_layer"] = a.norms_per_layer;
  if (a.embedding_norm) j["embedding_norm"] = true;
  if (a.lm_head_bias) j["lm_head_bias"] = true;
  if (a.dropout) j["dropout"] = true;
  const std::pair<const char*, double> optional_numbers[] = {
      {"moe_ffn_hidden", a.moe_ffn_hidden},     {"shared_experts", a.shared_experts},
      {"dense_layers", a.dense_layers},         {"expert_groups", a.expert_groups},
      {"expert_groups_per_token", a.expert_groups_per_token}, {"q_lora_rank", a.q_lora_rank},
      {"kv_lora_rank", a.kv_lora_rank},         {"qk_nope_head_dim", a.qk_nope_head_dim},
      {"qk_rope_head_dim", a.qk_rope_head_dim}, {"v_head_dim", a.v_head_dim},
      {"decoder_layers", a.decoder_layers}};
  for (const auto& [key, value] : optional_numbers)
    if (value > 0) j[key] = value;
  return j;
}

}  // namespace traincalc::detail

namespace traincalc {

CatalogLoad merge_catalog_json(std::string_view json_text, const Catalog& base, CatalogRows whose) {
  Issues errors;
  auto value = detail::parse_json_text(json_text, errors);
  if (!value) return {base, errors};
  return detail::merge_catalog_value(*value, base, "", whose);
}

std::string catalog_to_json(const Catalog& catalog, int indent) {
  using detail::json;
  json out = {{"gpus", json::array()}, {"offers", json::array()}, {"models", json::array()}};
  for (const auto& g : catalog.gpus) out["gpus"].push_back(detail::gpu_to_json(g));
  for (const auto& o : catalog.offers) {
    json j = {{"id", o.id}, {"currency", o.currency}, {"hours_per_month", o.hours_per_month}};
    if (!o.name.empty()) j["name"] = o.name;
    if (!o.provider.empty()) j["provider"] = o.provider;
    j["gpu"] = o.gpu.id.empty() ? detail::gpu_to_json(o.gpu) : json(o.gpu.id);
    if (o.per_gpu_hour) j["per_gpu_hour"] = *o.per_gpu_hour;
    if (o.per_gpu_month) j["per_gpu_month"] = *o.per_gpu_month;
    detail::put(j, "pricing_type", o.pricing_type);
    detail::put(j, "region", o.region);
    if (!o.date.empty()) j["date"] = o.date;
    detail::put(j, "source", o.source);
    detail::put(j, "confidence", o.confidence);
    if (!o.notes.empty()) j["notes"] = o.notes;
    if (o.instance_gpus) j["instance_gpus"] = *o.instance_gpus;
    if (o.cluster) j["cluster"] = std::string(contract::name_of(contract::offer_clusters, *o.cluster));
    if (o.inter_node_gbps) j["inter_node_gbps"] = *o.inter_node_gbps;
    if (o.max_gpus) j["max_gpus"] = *o.max_gpus;
    detail::put(j, "network_source", o.network_source);
    out["offers"].push_back(j);
  }
  for (const auto& m : catalog.models) {
    json j = {{"id", m.model.preset}, {"name", m.model.name}};
    if (m.model.architecture) j.update(detail::architecture_to_json(*m.model.architecture));
    j[m.model.architecture ? "computed_params" : "params"] = m.model.params;
    j[m.model.architecture ? "computed_active_params" : "active_params"] = m.model.active_params;
    if (m.model.default_seq_len > 0) j["seq_len"] = m.model.default_seq_len;
    if (m.model.forward_macs_per_image) {
      j["forward_macs_per_image"] = *m.model.forward_macs_per_image;
      j["image_resolution"] = m.model.image_resolution;
    }
    if (m.published_params) j["published_params"] = *m.published_params;
    if (m.published_active_params) j["published_active_params"] = *m.published_active_params;
    detail::put(j, "source", m.source);
    detail::put(j, "confidence", m.confidence);
    if (!m.notes.empty()) j["notes"] = m.notes;
    out["models"].push_back(j);
  }
  return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace traincalc
