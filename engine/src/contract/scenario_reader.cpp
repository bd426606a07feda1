// Scenario JSON -> validated Scenario. Every field is checked for type and range, every catalog
// reference is resolved, and combinations that cannot be estimated are refused with a message that
// says what to change. Nothing here estimates anything.
#include <cmath>

#include "estimate/estimators.hpp"
#include "contract/json_fields.hpp"
#include "catalog/specs.hpp"
#include "traincalc/json_api.hpp"

namespace traincalc {

namespace {

using detail::describe;
using detail::Fields;
using detail::format_number;
using detail::json;

const std::string& name_of(const GpuSpec& gpu) { return gpu.name; }
// "AWS p5.48xlarge", not "AWS AWS p5.48xlarge": the provider once.
std::string name_of(const Offer& offer) {
  if (offer.provider.empty() || offer.name.rfind(offer.provider, 0) == 0) return offer.name.empty() ? offer.id : offer.name;
  return offer.provider + " " + offer.name;
}
const std::string& name_of(const ModelPreset& preset) { return preset.model.name; }

// An ID the catalog does not have: said, with the row it most likely means (by ID or name) as the
// error's suggestion, for the page's one-click fix.
template <class Rows>
void unknown_id(Fields& f, std::string_view key, const std::string& what, const std::string& id, const Rows& rows) {
  std::vector<std::pair<std::string, std::string>> known;
  for (const auto& row : rows) known.emplace_back(id_of(row), name_of(row));
  std::string message = "No " + what + " with ID \"" + id + "\" in the catalog.";
  if (auto near = detail::closest_id(id, known)) {
    message += " Did you mean \"" + *near + "\"?";
    f.error(key, "unknown_id", message, {{"suggestion", *near}});
  } else {
    f.error(key, "unknown_id", message, {{"got", id}});
  }
}

// A field that is valid but has no effect on this estimate: said, so nobody believes it counted.
// reason names why, for a page's message in another language.
void note_unused(const Fields& f, std::string_view key, const std::string& why, const char* why_code, Issues& warnings) {
  if (f.has(key)) warnings.push_back({f.path(key), "ignored", f.path(key) + " " + why, {{"reason", why_code}}});
}

void read_model(const json& value, const Catalog& catalog, ModelSpec& spec, Issues& errors) {
  Fields f(value, "model", errors, &contract::model);
  const auto preset_id = f.text("preset");
  const auto name = f.text("name");
  const auto params = f.number("params");
  const auto active = f.number("active_params");

  Architecture arch;
  const ModelPreset* preset = nullptr;
  if (preset_id) {
    preset = catalog.find_model(*preset_id);
    if (!preset) {
      unknown_id(f, "preset", "model preset", *preset_id, catalog.models);
    } else {
      spec = preset->model;
      if (spec.architecture) arch = *spec.architecture;
    }
  }
  const bool architecture_given = detail::read_architecture_fields(f, arch);

  if (preset_id) {
    if (params || active || f.has("params") || f.has("active_params"))
      f.error("params", "conflict", "model.params cannot be combined with model.preset; remove one of them.",
              {{"reason", reason("preset_and_params")}});
    if (preset && architecture_given) {
      if (!spec.architecture)
        f.error("preset", "conflict",
                "The preset \"" + *preset_id + "\" has no architecture to override; give a full architecture instead.",
                {{"reason", reason("preset_architecture")}, {"preset", *preset_id}});
      else
        detail::check_architecture(arch, f);
      spec.architecture = arch;
    }
  } else if (architecture_given) {
    if (f.has("params") || f.has("active_params"))
      f.error("params", "conflict",
              "model gives both params and an architecture; keep one (the architecture derives the parameter count).",
              {{"reason", reason("architecture_and_params")}});
    detail::check_architecture(arch, f);
    spec.architecture = arch;
  } else if (params) {
    spec.params = *params;
    spec.active_params = active.value_or(*params);
    if (active && *active > *params)
      f.error("active_params", "inconsistent",
              "model.active_params (" + format_number(*active) + ") cannot exceed model.params (" +
                  format_number(*params) + ").",
              {{"reason", reason("active_params")}, {"active", format_number(*active)}, {"params", format_number(*params)}});
  } else if (!f.has("params")) {
    f.error("preset", "required",
            "model needs one of: a preset (e.g. \"llama-2-7b\"), params (e.g. 7e9), or an architecture "
            "(layers, hidden, heads, ffn_hidden, vocab).",
            {{"expected", "model_form"}});
  }
  if (spec.architecture) {
    const ParameterCount count = count_parameters(*spec.architecture);
    spec.params = count.total;
    spec.active_params = count.active;
  }
  if (f.has("forward_macs_per_image") || f.has("image_resolution")) detail::read_vision_fields(f, spec);
  if (name) spec.name = *name;
  if (spec.name.empty()) spec.name = spec.preset.empty() ? "custom model" : spec.preset;
  f.reject_unknown();
}

void read_training(const json& value, Training& t, Issues& errors, Issues& warnings) {
  Fields f(value, "training", errors, &contract::training);
  f.require("type", "\"pretrain\" or \"finetune\"", "training_type");
  if (auto v = f.choice("type", contract::training_types)) t.type = *v;
  f.read_bound(t);
  if (t.type == TrainingType::pretrain && t.method != FinetuneMethod::full)
    f.error("method", "conflict",
            "training.method \"lora\"/\"qlora\" applies to fine-tuning; set training.type to \"finetune\" or method to "
            "\"full\".",
            {{"reason", reason("lora_pretrain")}});

  std::vector<std::string> given;
  for (const auto& [key, kind] : contract::data_amount_keys)
    if (f.has(key)) given.emplace_back(key);
  if (given.empty())
    f.error("tokens", "required",
            "Say how much data the run sees: training.tokens (a number or \"chinchilla\"), dataset_gb, samples, steps "
            "or total_flops.",
            {{"reason", reason("data_amount")}});
  for (std::size_t i = 1; i < given.size(); ++i)
    f.error(given[i], "conflict",
            "training." + given[0] + " and training." + given[i] + " both set the amount of data; keep one.",
            {{"reason", reason("two_amounts")}, {"first", given[0]}, {"second", given[i]}});

  const auto tokens = f.number_or_word("tokens");
  if (tokens.is_word) t.data_kind = DataKind::chinchilla;
  if (tokens.value) {
    t.data_kind = DataKind::tokens;
    t.data_amount = *tokens.value;
  }
  for (const auto& [key, kind] : contract::data_amount_keys) {
    if (kind == DataKind::tokens) continue;
    if (auto v = f.number(key)) {
      t.data_kind = kind;
      t.data_amount = *v;
    }
  }
  if (given.size() == 1) {
    t.data_kind = *contract::value_of(contract::data_amount_keys, given[0]);
    if (tokens.is_word) t.data_kind = DataKind::chinchilla;
  }

  if (f.has("epochs") && t.data_kind == DataKind::total_flops)
    f.error("epochs", "conflict", "training.epochs does not apply to total_flops, which already states all the work.",
            {{"reason", reason("epochs_total_flops")}});
  if (f.has("global_batch_tokens") && f.has("global_batch_sequences"))
    f.error("global_batch_sequences", "conflict",
            "training.global_batch_tokens and global_batch_sequences both set the batch; keep one.",
            {{"reason", reason("two_batches")}});
  if (given.size() == 1 && given[0] == "steps" && !f.has("global_batch_tokens") && !f.has("global_batch_sequences"))
    f.error("global_batch_tokens", "required",
            "training.steps needs the batch size: set training.global_batch_tokens or global_batch_sequences.",
            {{"reason", reason("steps_batch")}});
  if (t.method == FinetuneMethod::full) {
    note_unused(f, "lora_rank", "only applies to LoRA and QLoRA, and is ignored.", reason("lora_only"), warnings);
    note_unused(f, "lora_targets", "only applies to LoRA and QLoRA, and is ignored.", reason("lora_only"), warnings);
    note_unused(f, "adapter_precision", "only applies to LoRA and QLoRA, and is ignored.", reason("lora_only"), warnings);
    note_unused(f, "lora_dropout", "only applies to LoRA and QLoRA, and is ignored.", reason("lora_only"), warnings);
  }
  if (t.method != FinetuneMethod::qlora)
    note_unused(f, "quantization", "only applies to QLoRA, and is ignored.", reason("qlora_only"), warnings);
  if (t.data_kind != DataKind::dataset_gb) {
    note_unused(f, "bytes_per_token", "only converts dataset_gb into tokens, and is ignored.", reason("dataset_only"), warnings);
    note_unused(f, "text", "only converts dataset_gb into tokens, and is ignored.", reason("dataset_only"), warnings);
  } else if (f.has("bytes_per_token") && f.has("text")) {
    note_unused(f, "text", "is ignored: training.bytes_per_token, given, says how dense the text is.", reason("bytes_given"),
                warnings);
  }
  f.reject_unknown();
}

void read_pricing(const json& value, const Catalog& catalog, Pricing& p, const Offer*& offer, Issues& errors) {
  Fields f(value, "pricing", errors, &contract::pricing);
  const auto offer_id = f.text("offer");
  p.per_gpu_hour = f.number("per_gpu_hour");
  p.per_gpu_month = f.number("per_gpu_month");
  const auto currency = f.text("currency");
  if (auto v = f.number("hours_per_month")) p.hours_per_month = *v;
  // A price given beside an offer is the user's own for the offer's instances (a negotiated or
  // edited price): the offer still says the GPU, the instance size and the network.
  const bool own_price = f.has("per_gpu_hour") || f.has("per_gpu_month");
  if (!own_price && !f.has("offer"))
    f.error("per_gpu_hour", "required", "pricing needs per_gpu_hour, per_gpu_month or an offer ID.",
            {{"reason", reason("pricing_price")}});
  if (f.has("per_gpu_hour") && f.has("per_gpu_month"))
    f.error("per_gpu_month", "conflict", "pricing gives both per_gpu_hour and per_gpu_month; keep one.",
            {{"reason", reason("both_prices")}});
  if (offer_id) {
    offer = catalog.find_offer(*offer_id);
    if (!offer) {
      unknown_id(f, "offer", "cloud offer", *offer_id, catalog.offers);
    } else {
      p.offer = offer->id;
      p.offer_source = offer->source;
      p.offer_name = name_of(*offer);
      p.instance_gpus = offer->instance_gpus;
      p.cluster = offer->cluster;
      p.inter_node_gbps = offer->inter_node_gbps;
      if (auto limit = offer_gpu_limit(*offer)) {
        p.max_gpus = limit->gpus;
        p.one_instance = limit->one_instance;
      }
      if (own_price) {
        p.own_price = true;
        p.currency = currency ? detail::currency_code(*currency) : offer->currency;
      } else {
        p.per_gpu_hour = offer->per_gpu_hour;
        p.per_gpu_month = offer->per_gpu_month;
        p.currency = offer->currency;
        if (!f.has("hours_per_month")) p.hours_per_month = offer->hours_per_month;
      }
      if (!own_price && currency && detail::currency_code(*currency) != offer->currency)
        f.error("currency", "conflict",
                "The offer \"" + offer->id + "\" is priced in " + offer->currency + ", not " + *currency +
                    "; remove pricing.currency or change it.",
                {{"reason", reason("offer_currency")}, {"offer", offer->id}, {"currency", offer->currency}, {"got", *currency}});
    }
  } else if (currency) {
    p.currency = detail::currency_code(*currency);
  } else {
    p.currency.clear();  // resolved with the budget's currency, or assumed, in check_combinations
  }
  if (currency && (currency->empty() || currency->size() > 8))
    f.error("currency", "invalid", "pricing.currency must be a short currency code such as \"USD\" or \"CNY\".",
            {{"reason", reason("currency_code")}});
  f.reject_unknown();
}

void read_hardware(const json& value, const Catalog& catalog, const Offer* offer, HardwareChoice& h, Issues& errors) {
  Fields f(value, "hardware", errors, &contract::hardware);
  const json* gpu = f.raw("gpu");
  if (!gpu && !offer) f.require("gpu", "a GPU ID from the catalog (e.g. \"h100-sxm\") or an inline GPU spec", "gpu");
  if (gpu) {
    if (gpu->is_string()) {
      const auto& id = gpu->get_ref<const std::string&>();
      if (const GpuSpec* known = catalog.find_gpu(id)) {
        h.gpu = *known;
        if (offer && offer->gpu.id != id)
          f.error("gpu", "conflict",
                  "pricing.offer \"" + offer->id + "\" rents " + offer->gpu.name + ", not " + known->name +
                      "; remove hardware.gpu or choose a matching offer.",
                  {{"reason", reason("offer_gpu")}, {"offer", offer->id}, {"offer_gpu", offer->gpu.name}, {"gpu", known->name}});
      } else {
        unknown_id(f, "gpu", "GPU", id, catalog.gpus);
      }
    } else if (gpu->is_object()) {
      if (offer)
        f.error("gpu", "conflict",
                "pricing.offer \"" + offer->id + "\" already says which GPU is rented (" + offer->gpu.name +
                    "); remove hardware.gpu.",
                {{"reason", reason("offer_has_gpu")}, {"offer", offer->id}, {"offer_gpu", offer->gpu.name}});
      Fields g(*gpu, "hardware.gpu", errors, &contract::gpu);
      detail::read_gpu_fields(g, h.gpu);
      g.text("id");  // an inline spec may carry the ID a vendor knows it by
      detail::check_gpu(h.gpu, g);
      g.reject_unknown();
      if (h.gpu.name.empty()) h.gpu.name = "custom GPU";
    } else {
      f.error("gpu", "wrong_type", "hardware.gpu must be a GPU ID or a GPU spec object, not " + describe(*gpu) + ".",
              {{"reason", reason("gpu_id_or_spec")}});
    }
  } else if (offer) {
    h.gpu = offer->gpu;
  }
  f.read_bound(h);
  f.reject_unknown();
}

void read_strategy(const json& value, Strategy& s, Issues& errors) {
  Fields f(value, "strategy", errors, &contract::strategy);
  f.read_bound(s);
  const auto zero = f.number_or_word("zero");
  s.zero = zero.is_word ? 3 : zero.value;  // "fsdp" is ZeRO-3
  if (f.has("recompute") && value.at("recompute") == "auto") {
    f.raw("recompute");
  } else {
    s.recompute = f.choice("recompute", contract::recomputes);
  }
  if (f.has("attention") && f.has("flash_attention"))
    f.error("flash_attention", "conflict",
            "strategy.attention and strategy.flash_attention both choose the attention kernel; keep attention.",
            {{"reason", reason("attention_kernel")}});
  if (f.has("cross_entropy") && f.has("fused_cross_entropy"))
    f.error("fused_cross_entropy", "conflict",
            "strategy.cross_entropy and strategy.fused_cross_entropy both choose the loss kernel; keep cross_entropy.",
            {{"reason", reason("loss_kernel")}});
  f.reject_unknown();
}

void read_budget(const json& value, Budget& b, Issues& errors) {
  Fields f(value, "budget", errors, &contract::budget);
  f.read_bound(b);
  if (auto v = f.text("currency")) b.currency = detail::currency_code(*v);
  if (f.has("months") && !f.has("per_month"))
    f.error("months", "inconsistent",
            "budget.months says for how long a monthly budget runs: give budget.per_month too.",
            {{"reason", reason("months_without_monthly")}});
  if (f.has("months") && f.has("deadline_days"))
    f.error("months", "conflict", "budget.months and budget.deadline_days both set the time; keep one.",
            {{"reason", reason("months_and_deadline")}});
  if (!f.has("per_month") && !f.has("total") && !f.has("deadline_days"))
    f.error("per_month", "required", "budget needs per_month, total or deadline_days.",
            {{"reason", reason("budget_kind")}});
  if (f.has("per_month") && f.has("total"))
    f.error("total", "conflict", "budget.per_month and budget.total are two different budgets; keep one.",
            {{"reason", reason("two_budgets")}});
  f.reject_unknown();
}

void read_memory_options(const json& value, MemoryOptions& m, Issues& errors) {
  Fields f(value, "memory", errors, &contract::memory_options);
  f.read_bound(m);
  f.reject_unknown();
}

void read_operations(const json& value, Operations& o, Issues& errors) {
  Fields f(value, "operations", errors, &contract::operations);
  o.given = true;
  f.read_bound(o);
  f.reject_unknown();
}

void read_energy(const json& value, Energy& e, Issues& errors) {
  Fields f(value, "energy", errors, &contract::energy);
  f.read_bound(e);
  if (auto region = f.text("region")) {
    if (detail::grid_intensity(*region)) {
      e.region = *region;
    } else {
      f.error("region", "unknown_choice",
              "energy.region must be one of " + detail::grid_region_list() +
                  ", or give energy.grid_kg_co2_per_kwh for another grid.",
              {{"reason", reason("region")}, {"allowed", detail::grid_region_list()}});
    }
  }
  if (f.has("region") && f.has("grid_kg_co2_per_kwh"))
    f.error("grid_kg_co2_per_kwh", "conflict", "Give energy.region or energy.grid_kg_co2_per_kwh, not both.",
            {{"reason", reason("region_and_grid")}});
  f.reject_unknown();
}

// Images go through image networks; tokens through language models.
void check_data_kind(const Scenario& s, Issues& errors) {
  const bool vision = s.model.forward_macs_per_image.has_value();
  if (s.training.data_kind == DataKind::images && !vision)
    errors.push_back({"training.images", "inconsistent",
                      "training.images needs an image network: a preset such as \"resnet-50\" or \"vit-b-16\", or "
                      "model.forward_macs_per_image with image_resolution.",
                      {{"reason", reason("images_network")}}});
  if (vision && s.training.data_kind != DataKind::images && s.training.data_kind != DataKind::total_flops)
    errors.push_back({"training.images", "required",
                      s.model.name + " is an image network: give training.images (images per epoch) and epochs.",
                      {{"reason", reason("image_data")}, {"model", s.model.name}}});
  if (s.training.resolution && s.training.data_kind != DataKind::images)
    errors.push_back({"training.resolution", "inconsistent", "training.resolution applies to training.images only.",
                      {{"reason", reason("resolution_images")}}});
}

// The GPU count comes from exactly one place: hardware.count, or a budget per month or deadline.
void check_gpu_count_source(const json& root, const Scenario& s, Issues& errors) {
  const bool count_key =
      root.contains("hardware") && root["hardware"].is_object() && root["hardware"].contains("count");
  const Budget* budget = s.budget ? &*s.budget : nullptr;
  const bool budget_decides = budget && (budget->per_month || budget->deadline_days);

  if (count_key && budget_decides)
    errors.push_back({"hardware.count", "conflict",
                      std::string("hardware.count and budget.") + (budget->per_month ? "per_month" : "deadline_days") +
                          " both decide how many GPUs to use; remove one of them.",
                      {{"reason", reason("count_and_budget")}, {"budget_field", std::string(budget->per_month ? "per_month" : "deadline_days")}}});
  else if (!count_key && !budget_decides)
    errors.push_back({"hardware.count", "required",
                      "hardware.count is required (how many GPUs), unless budget.per_month or budget.deadline_days "
                      "decides it.",
                      {{"reason", reason("gpu_count")}}});
}

// A money budget needs a price; the price's currency, when not given, is the budget's or else USD,
// and a budget without a currency takes the price's.
void check_budget_price(Scenario& s, Issues& errors, Issues& warnings) {
  Budget* budget = s.budget ? &*s.budget : nullptr;
  if (budget && (budget->per_month || budget->total) && !s.pricing)
    errors.push_back(
        {budget->per_month ? "budget.per_month" : "budget.total", "required",
         "A money budget needs a price: set pricing.per_gpu_hour, pricing.per_gpu_month or pricing.offer.",
                               {{"reason", reason("budget_price")}}});
  if (s.pricing && s.pricing->currency.empty()) {
    if (budget && !budget->currency.empty()) {
      s.pricing->currency = budget->currency;
    } else {
      s.pricing->currency = "USD";
      warnings.push_back(
          {"pricing.currency", "currency_assumed", "pricing.currency was not given; the price is taken to be in USD."});
    }
  }
  if (budget && s.pricing && budget->currency.empty()) budget->currency = s.pricing->currency;
}

// The report's money is in one currency: the scenario's, else the budget's, else the price's. A
// price or budget in another is converted (never reinterpreted): at the reference rates, or the
// scenario's exchange_rates, each conversion kept for the report.
void convert_currencies(Scenario& s, Issues& errors) {
  Budget* budget = s.budget ? &*s.budget : nullptr;
  if (s.pricing) {
    const std::string report_currency =
        !s.currency.empty() ? s.currency : budget && !budget->currency.empty() ? budget->currency : s.pricing->currency;
    auto convert = [&](const std::string& field, const std::string& from) -> std::optional<Exchange> {
      if (from == report_currency) return std::nullopt;
      auto x = detail::exchange_between(s, from, report_currency);
      if (!x) {
        const std::string unknown = detail::exchange_between(s, from, "USD") ? report_currency : from;
        errors.push_back({field, "no_exchange_rate",
                          "The calculator has no exchange rate for " + unknown + " (it converts " +
                              detail::currency_list() + "): give the price and the budget in one currency, or in "
                              "currencies it converts.",
                          {{"currency", unknown}, {"known", detail::currency_list()}}});
      }
      return x;
    };
    if (auto x = convert(s.pricing->offer.empty() || s.pricing->own_price ? "pricing.currency" : "pricing.offer",
                         s.pricing->currency)) {
      Pricing& p = *s.pricing;
      x->per_gpu_hour = p.per_gpu_hour;
      x->per_gpu_month = p.per_gpu_month;
      if (p.per_gpu_hour) *p.per_gpu_hour *= x->rate;
      if (p.per_gpu_month) *p.per_gpu_month *= x->rate;
      p.currency = report_currency;
      p.exchange = x;
    }
    if (budget && (budget->per_month || budget->total)) {
      if (auto x = convert("budget.currency", budget->currency)) {
        x->per_month = budget->per_month;
        x->total = budget->total;
        if (budget->per_month) *budget->per_month *= x->rate;
        if (budget->total) *budget->total *= x->rate;
        budget->exchange = x;
      }
    }
    if (budget) budget->currency = report_currency;
  }
}

// The precision must be one this GPU has a dense peak for; QLoRA computes in 16-bit.
void check_precision(const Scenario& s, Issues& errors) {
  // The precision must be one this GPU has a dense peak for.
  if (!s.hardware.gpu.name.empty() || s.hardware.gpu.memory_gb > 0) {
    const GpuSpec& gpu = s.hardware.gpu;
    if (s.strategy.precision && !dense_peak_tflops(gpu, *s.strategy.precision)) {
      std::string have;
      for (Precision p : {Precision::bf16, Precision::fp16, Precision::fp8, Precision::tf32, Precision::fp32})
        if (dense_peak_tflops(gpu, p)) have += (have.empty() ? "" : ", ") + std::string(to_string(p));
      errors.push_back({"strategy.precision", "unsupported",
                        gpu.name + " has no dense " + to_string(*s.strategy.precision) +
                            " peak; choose one it has: " + (have.empty() ? "none given" : have) + ".",
                        {{"reason", reason("precision_peak")}, {"gpu", gpu.name}, {"precision", std::string(to_string(*s.strategy.precision))}, {"have", have.empty() ? std::string("-") : have}}});
    }
  }

  const Precision precision = resolved_precision(s);
  if (s.training.method == FinetuneMethod::qlora && (precision == Precision::fp32 || precision == Precision::tf32))
    errors.push_back({"strategy.precision", "conflict",
                      "QLoRA computes in 16-bit (bf16 or fp16) over 4-bit weights; choose bf16 or fp16.",
                      {{"reason", reason("qlora_precision")}}});
}

// tp x pp x cp: the GPUs one model replica spans.
double model_parallel_of(const Scenario& s) {
  return s.strategy.tp.value_or(1) * s.strategy.pp.value_or(1) * s.strategy.cp.value_or(1);
}

// The model-parallel product and expert parallelism against the GPU count, and expert parallelism on
// a model without experts.
void check_parallel_degrees(const Scenario& s, Issues& errors, Issues& warnings) {
  const bool count_given = s.hardware.count.has_value();
  // The model-parallel product must divide the GPU count it is given.
  const double model_parallel = model_parallel_of(s);
  if (count_given && std::fmod(*s.hardware.count, model_parallel) != 0)
    errors.push_back({"strategy.tp", "inconsistent",
                      "tp x pp x cp = " + format_number(model_parallel) + " does not divide hardware.count (" +
                          format_number(*s.hardware.count) + " GPUs); change the layout or the GPU count.",
                      {{"reason", reason("model_parallel_divides")}, {"model_parallel", format_number(model_parallel)}, {"count", format_number(*s.hardware.count)}}});
  if (count_given && s.strategy.ep && *s.strategy.ep > 1 &&
      std::fmod(*s.hardware.count / (s.strategy.tp.value_or(1) * s.strategy.pp.value_or(1)), *s.strategy.ep) != 0)
    errors.push_back({"strategy.ep", "inconsistent",
                      "Expert parallelism is carved out of the data- and context-parallel ranks: strategy.ep (" +
                          format_number(*s.strategy.ep) + ") must divide hardware.count / (tp x pp).",
                      {{"reason", reason("ep_divides")}, {"ep", format_number(*s.strategy.ep)}}});
  if (s.strategy.ep && *s.strategy.ep > 1 && s.model.active_params >= s.model.params)
    warnings.push_back({"strategy.ep", "ignored",
                        "strategy.ep splits the experts of a mixture of experts; this model "
                        "has none, so it is ignored.",
                        {{"reason", reason("ep_dense")}}});
}

// Zero-bubble and DualPipe schedules are not interleaved; DualPipe pairs stage r with pp - 1 - r.
void check_pipeline_schedule(const Scenario& s, Issues& errors, Issues& warnings) {
  if (s.strategy.pp_schedule != PipelineSchedule::one_f_one_b) {
    const std::string schedule(contract::name_of(contract::pipeline_schedules, s.strategy.pp_schedule));
    const double pp = s.strategy.pp.value_or(1);
    if (s.strategy.pp_virtual_stages && *s.strategy.pp_virtual_stages > 1)
      errors.push_back({"strategy.pp_schedule", "conflict",
                        "strategy.pp_schedule " + schedule +
                            " is not interleaved; remove strategy.pp_virtual_stages or choose 1f1b.",
                        {{"reason", reason("pp_schedule_interleaved")}, {"schedule", schedule}}});
    else if (s.strategy.pp_schedule == PipelineSchedule::dualpipe && s.strategy.pp && std::fmod(pp, 2) != 0)
      errors.push_back({"strategy.pp_schedule", "inconsistent",
                        "DualPipe gives each GPU two stages, r and pp - 1 - r: strategy.pp (" + format_number(pp) +
                            ") must be even.",
                        {{"reason", reason("dualpipe_even")}, {"pp", format_number(pp)}}});
    else if (s.strategy.pp && pp <= 1)
      warnings.push_back({"strategy.pp_schedule", "ignored",
                          "strategy.pp_schedule orders the micro-batches of a pipeline; with one stage there is "
                          "none, so it is ignored.",
                          {{"reason", reason("pp_schedule_unused")}}});
  }
}

// How the experts' all-to-all runs matters only where there is one.
// (An ep left to the planner may split the experts.)
void check_expert_comm(const json& root, const Scenario& s, Issues& warnings) {
  const bool experts_split = s.model.active_params < s.model.params && (!s.strategy.ep || *s.strategy.ep > 1);
  const bool strategy_given = root.contains("strategy") && root["strategy"].is_object();
  for (const char* key : {"ep_dispatch", "overlap_ep_comm"})
    if (strategy_given && root["strategy"].contains(key) && !experts_split)
      warnings.push_back({std::string("strategy.") + key, "ignored",
                          std::string("strategy.") + key +
                              " says how the experts' all-to-all runs; without expert parallelism (strategy.ep > 1 "
                              "on a mixture of experts) there is none, so it is ignored.",
                          {{"reason", reason("ep_comm_unused")}, {"setting", key}}});
}

// Whether the first or last pipeline stage's layers are given, and the field the messages name.
struct StageLayersGiven {
  bool given = false;
  const char* field = nullptr;
};
StageLayersGiven stage_layers_given(const Scenario& s) {
  // The stage-layer messages name the field given (the first stage's when both are).
  const bool stages_given = s.strategy.pp_first_stage_layers || s.strategy.pp_last_stage_layers;
  const char* stages_field =
      s.strategy.pp_first_stage_layers ? "strategy.pp_first_stage_layers" : "strategy.pp_last_stage_layers";
  return {stages_given, stages_field};
}

// Given first and last stage layers must leave the middle stages (and, interleaved, each stage's
// chunks) whole layers.
void check_given_stage_layers(const Scenario& s, const Architecture& a, Issues& errors) {
  const auto [stages_given, stages_field] = stage_layers_given(s);
  const double blocks = a.layers + a.decoder_layers;
  if (stages_given && s.strategy.pp && *s.strategy.pp > 1 && *s.strategy.pp <= blocks) {
    const detail::StageLayers given = detail::pipeline_stage_layers(s, *s.strategy.pp);
    if (!given.valid)
      errors.push_back({stages_field, "inconsistent",
                        "The pipeline stages between the first and the last split the other layers evenly: with " +
                            format_number(blocks) + " layers on " + format_number(*s.strategy.pp) +
                            " stages, these first and last stage layers leave a share that is not a whole number "
                            "of at least one layer; change them (or leave them \"auto\").",
                        {{"reason", reason("stage_layers")}, {"layers", format_number(blocks)}, {"pp", format_number(*s.strategy.pp)}}});
    else if (s.strategy.pp_virtual_stages && *s.strategy.pp_virtual_stages > 1 &&
             !detail::pipeline_stage_layers(s, *s.strategy.pp, *s.strategy.pp_virtual_stages).valid)
      errors.push_back({stages_field, "inconsistent",
                        "Interleaved, a full stage holds strategy.pp_virtual_stages equal chunks of whole layers "
                        "and the first and last stages at most one chunk fewer: with " +
                            format_number(given.first) + ", " +
                            (*s.strategy.pp > 2 ? format_number(given.middle) + " (between), " : std::string()) +
                            format_number(given.last) + " layers on stages of " +
                            format_number(*s.strategy.pp_virtual_stages) +
                            " chunks there is no such split; change the chunks per stage or the stage layers.",
                        {{"reason", reason("stage_chunks")}, {"first", format_number(given.first)}, {"last", format_number(given.last)}, {"chunks", format_number(*s.strategy.pp_virtual_stages)}}});
  }
}

// The pipeline and tensor parallelism against the model's layers and heads.
void check_layout_against_architecture(const Scenario& s, Issues& errors, Issues& warnings) {
  const auto [stages_given, stages_field] = stage_layers_given(s);
  if (stages_given && !s.model.architecture)
    warnings.push_back({stages_field, "ignored",
                        "Without the architecture (layers) the parameters split evenly over the pipeline stages: the "
                        "stage layers are ignored.",
                        {{"reason", reason("stages_without_layers")}}});
  if (const auto& a = s.model.architecture) {
    if (s.strategy.pp && *s.strategy.pp > a->layers + a->decoder_layers)
      errors.push_back({"strategy.pp", "inconsistent",
                        "strategy.pp (" + format_number(*s.strategy.pp) +
                            ") is more pipeline stages than the model has "
                            "layers (" +
                            format_number(a->layers + a->decoder_layers) + ").",
                        {{"reason", reason("pp_layers")}, {"pp", format_number(*s.strategy.pp)}, {"layers", format_number(a->layers + a->decoder_layers)}}});
    const double blocks = a->layers + a->decoder_layers;
    check_given_stage_layers(s, *a, errors);
    if (s.strategy.pp && s.strategy.pp_virtual_stages && *s.strategy.pp_virtual_stages > 1 && !stages_given &&
        *s.strategy.pp <= blocks &&
        !detail::pipeline_stage_layers(s, *s.strategy.pp, *s.strategy.pp_virtual_stages).valid)
      warnings.push_back({"strategy.pp_virtual_stages", "approximated",
                          "The " + format_number(blocks) + " layers do not split into " +
                              format_number(*s.strategy.pp) + " stages of " +
                              format_number(*s.strategy.pp_virtual_stages) +
                              " chunks of whole layers, not even with the first and last stages one chunk lighter: the step "
                              "is timed with each chunk rounded up to whole layers, the memory with an even share.",
                          {{"reason", reason("stage_chunks_rounded")},
                           {"layers", format_number(blocks)},
                           {"pp", format_number(*s.strategy.pp)},
                           {"chunks", format_number(*s.strategy.pp_virtual_stages)}}});
    if (stages_given && s.strategy.pp && *s.strategy.pp == 1)
      warnings.push_back(
          {stages_field, "ignored", "With one pipeline stage every layer is on it: the stage layers are ignored.",
           {{"reason", reason("stages_one_stage")}}});
    if (s.strategy.tp && std::fmod(a->heads, *s.strategy.tp) != 0)
      errors.push_back({"strategy.tp", "inconsistent",
                        "Tensor parallelism splits the attention heads: strategy.tp (" + format_number(*s.strategy.tp) +
                            ") must divide heads (" + format_number(a->heads) + ").",
                        {{"reason", reason("tp_heads")}, {"tp", format_number(*s.strategy.tp)}, {"heads", format_number(a->heads)}}});
  }
}

// Context parallelism splits each sequence into 2 x cp chunks.
void check_context_parallel(const Scenario& s, Issues& errors) {
  if (s.strategy.cp && *s.strategy.cp > 1) {
    const double seq = s.training.seq_len.value_or(s.model.default_seq_len > 0 ? s.model.default_seq_len : 2048);
    if (std::fmod(seq, 2 * *s.strategy.cp) != 0)
      errors.push_back({"strategy.cp", "inconsistent",
                        "Context parallelism splits each sequence into 2 x cp chunks: seq_len (" + format_number(seq) +
                            ") must be a multiple of 2 x strategy.cp (" + format_number(2 * *s.strategy.cp) + ").",
                        {{"reason", reason("cp_sequence")}, {"seq", format_number(seq)}, {"chunks", format_number(2 * *s.strategy.cp)}}});
  }
}

// The global batch must give every data-parallel rank at least one micro-batch.
void check_batch_covers_ranks(const Scenario& s, Issues& errors) {
  const bool count_given = s.hardware.count.has_value();
  const double model_parallel = model_parallel_of(s);
  // With tp, pp or cp left to the planner the data parallelism is not known yet; the planner looks for
  // a layout the batch allows (and says when there is none).
  const bool layout_fixed = (s.strategy.tp && s.strategy.pp && s.strategy.cp) || !s.model.architecture;
  if (count_given && layout_fixed && s.training.global_batch_sequences) {
    const double dp = *s.hardware.count / model_parallel;
    if (*s.training.global_batch_sequences < dp * s.strategy.micro_batch.value_or(1))
      errors.push_back({"training.global_batch_sequences", "inconsistent",
                        "A global batch of " + format_number(*s.training.global_batch_sequences) +
                            " sequences is smaller than data parallelism x micro_batch (" +
                            format_number(dp * s.strategy.micro_batch.value_or(1)) +
                            "); raise the batch or use fewer GPUs.",
                        {{"reason", reason("batch_too_small")}, {"batch", format_number(*s.training.global_batch_sequences)}, {"needed", format_number(dp * s.strategy.micro_batch.value_or(1))}}});
  }
}

// Offloading parameters needs ZeRO-3; a given dp must complete tp x pp x cp to the GPU count.
void check_offload_and_dp(const Scenario& s, Issues& errors) {
  const bool count_given = s.hardware.count.has_value();
  const double model_parallel = model_parallel_of(s);
  if (s.strategy.offload == Offload::optimizer_and_params && s.strategy.zero.value_or(0) < 3)
    errors.push_back(
        {"strategy.offload", "inconsistent",
         "Offloading parameters (ZeRO-Infinity) needs them sharded: set strategy.zero to 3 (or \"fsdp\").",
                               {{"reason", reason("offload_params")}}});
  if (count_given && s.strategy.dp && *s.strategy.dp * model_parallel != *s.hardware.count)
    errors.push_back({"strategy.dp", "inconsistent",
                      "tp x pp x cp x dp = " + format_number(model_parallel * *s.strategy.dp) +
                          " must equal hardware.count (" + format_number(*s.hardware.count) + ").",
                      {{"reason", reason("dp_product")}, {"product", format_number(model_parallel * *s.strategy.dp)}, {"count", format_number(*s.hardware.count)}}});
}

// Checks that need several sections at once, each pushing its errors and warnings in this order.
void check_combinations(const json& root, Scenario& s, Issues& errors, Issues& warnings) {
  check_data_kind(s, errors);
  check_gpu_count_source(root, s, errors);
  check_budget_price(s, errors, warnings);
  convert_currencies(s, errors);
  check_precision(s, errors);
  check_parallel_degrees(s, errors, warnings);
  check_pipeline_schedule(s, errors, warnings);
  check_expert_comm(root, s, warnings);
  check_layout_against_architecture(s, errors, warnings);
  check_context_parallel(s, errors);
  check_batch_covers_ranks(s, errors);
  check_offload_and_dp(s, errors);
}

}  // namespace

namespace detail {

namespace {

// The measured runs: each its scenario (this one, or this one changed by a merge patch) and what was
// measured. What a measurement cannot physically be is refused when the run is estimated
// (calibration.cpp); here the shape, the keys and the ranges.
constexpr std::size_t max_measured_runs = 16;
// How far a measured run (the scenario with its patch) is from the one estimated: another model or GPU
// type, another GPU count, another layout, or the same step (what changes only the tokens, the price,
// the budget, energy, the expected run's terms or the labels leaves the step as it is).
std::string measured_distance(json measured, json estimated) {
  auto at = [](const json& j, const char* pointer) {
    const json::json_pointer p(pointer);
    return j.contains(p) ? j.at(p) : json();
  };
  if (at(measured, "/model") != at(estimated, "/model") || at(measured, "/hardware/gpu") != at(estimated, "/hardware/gpu"))
    return "model";
  if (at(measured, "/hardware/count") != at(estimated, "/hardware/count")) return "gpus";
  for (json* j : {&measured, &estimated}) {
    for (const char* key : {"label", "pricing", "budget", "energy", "operations", "currency", "exchange_rates", "version"})
      j->erase(key);
    if (j->contains("training") && (*j)["training"].is_object()) (*j)["training"].erase("tokens");
  }
  return measured == estimated ? "same_run" : "layout";
}

void read_calibration(const json& root, Fields& top, const Catalog& catalog, Scenario& s, Issues& errors) {
  const json* list = top.raw("calibration");
  if (!list) return;
  if (!list->is_array()) {
    top.error("calibration", "wrong_type",
              "calibration must be a list of measured runs, each {\"measured\": {\"time.step_seconds\": 1.9}}, not " +
                  describe(*list) + ".",
              {{"expected", "list"}});
    return;
  }
  if (list->size() > max_measured_runs) {
    top.error("calibration", "too_many",
              "calibration holds " + std::to_string(list->size()) + " measured runs; at most " +
                  std::to_string(max_measured_runs) + " are used. Keep the ones nearest the run you plan.",
              {{"reason", reason("calibration_runs")}, {"max", std::to_string(max_measured_runs)}});
    return;
  }
  json base = root;
  base.erase("calibration");
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = "calibration[" + std::to_string(i) + "]";
    const json& entry = (*list)[i];
    if (!entry.is_object()) {
      errors.push_back({path, "wrong_type", path + " must be an object with \"measured\", not " + describe(entry) + ".",
                        {{"expected", "object"}}});
      continue;
    }
    Fields f(entry, path, errors, &contract::measured_run);
    MeasuredRun run;
    json scenario = base;
    bool usable = true;
    if (const json* patch = f.object("scenario")) {
      if (patch->contains("calibration")) {
        f.error("scenario", "conflict",
                "A measured run cannot hold a calibration of its own; remove " + path + ".scenario.calibration.",
                {{"reason", reason("calibration_nested")}});
        usable = false;
      } else if (!patch->empty()) {
        scenario.merge_patch(*patch);
        // A run measured on a GPU count of its own was measured at that count: this scenario's budget
        // or deadline (which would choose a count) is not part of it.
        if (patch->contains("hardware") && (*patch)["hardware"].is_object() && (*patch)["hardware"].contains("count"))
          scenario.erase("budget");
        run.same_as_estimated = false;
        run.distance = measured_distance(scenario, base);
      }
    }
    f.require("measured", "what was measured, by report key", "measured");
    if (const json* m = f.object("measured")) {
      Fields mf(*m, path + ".measured", errors, &contract::measured);
      for (const contract::Field& field : contract::measured.fields)
        if (auto v = mf.number(field.name)) run.measured[std::string(field.name)] = *v;
      mf.reject_unknown();
      if (m->empty())
        f.error("measured", "required",
                path + ".measured is empty; give at least one figure, e.g. {\"time.step_seconds\": 1.9}.",
                {{"reason", reason("measured_empty")}});
    }
    f.reject_unknown();
    // The measured run is read only when this scenario reads cleanly: its errors would be this one's again.
    if (usable && !run.same_as_estimated && errors.empty()) {
      ScenarioParse parsed = parse_scenario_value(scenario, catalog);
      for (Issue e : parsed.errors) {
        e.field = path + ".scenario" + (e.field.empty() ? "" : "." + e.field);
        e.message = "In the measured run " + path + ": " + e.message;
        errors.push_back(std::move(e));
      }
      if (parsed.scenario) run.scenario = std::make_shared<const Scenario>(std::move(*parsed.scenario));
    }
    s.calibration.push_back(std::move(run));
  }
}

}  // namespace

ScenarioParse parse_scenario_value(const json& root, const Catalog& base) {
  ScenarioParse out;
  Issues& errors = out.errors;
  if (!root.is_object()) {
    errors.push_back({"",
                      "wrong_type",
                      "A scenario must be a JSON object with model, training and hardware, not " + describe(root) + ".",
                      {{"expected", "object"}}});
    return out;
  }
  Fields top(root, "", errors, &contract::scenario);
  if (const json* version = top.raw("version"); version && *version != 1)
    top.error("version", "unsupported", "Only scenario version 1 is understood.",
              {{"reason", reason("version")}});
  top.text("label");

  Catalog with_inline;
  const Catalog* catalog = &base;
  if (const json* inline_catalog = top.raw("catalog")) {
    CatalogLoad load = merge_catalog_value(*inline_catalog, base, "catalog");
    errors.insert(errors.end(), load.errors.begin(), load.errors.end());
    with_inline = std::move(load.catalog);
    catalog = &with_inline;
  }

  Scenario s;
  top.require("model", "the model to train", "model");
  if (const json* v = top.object("model")) read_model(*v, *catalog, s.model, errors);
  top.require("training", "what the run does and how much data it sees", "training");
  if (const json* v = top.object("training")) read_training(*v, s.training, errors, out.warnings);

  const Offer* offer = nullptr;
  if (const json* v = top.object("pricing")) {
    s.pricing.emplace();
    read_pricing(*v, *catalog, *s.pricing, offer, errors);
  }
  if (!offer) top.require("hardware", "the GPU and how many", "hardware");
  if (const json* v = top.object("hardware")) {
    read_hardware(*v, *catalog, offer, s.hardware, errors);
  } else if (offer) {
    s.hardware.gpu = offer->gpu;
  }
  if (const json* v = top.object("strategy")) read_strategy(*v, s.strategy, errors);
  if (const json* v = top.object("budget")) {
    s.budget.emplace();
    read_budget(*v, *s.budget, errors);
  }
  if (const json* v = top.object("energy")) read_energy(*v, s.energy, errors);
  if (const json* v = top.object("memory")) read_memory_options(*v, s.memory, errors);
  if (const json* v = top.object("operations")) read_operations(*v, s.operations, errors);
  if (const json* v = top.object("exchange_rates")) {
    Fields f(*v, "exchange_rates", errors, &contract::exchange_rates);
    for (const CurrencyRate& c : reference_rates)
      if (c.code != "USD")
        if (auto rate = f.number(std::string(c.code))) s.exchange_rates[std::string(c.code)] = *rate;
    f.reject_unknown();
  }
  if (auto v = top.text("currency")) {
    const std::string code = detail::currency_code(*v);
    if (detail::find_currency(code)) s.currency = code;
    else
      top.error("currency", "invalid",
                "currency must be one the calculator converts (" + detail::currency_list() + "), not \"" + *v + "\".",
                {{"reason", reason("currency_known")}, {"known", detail::currency_list()}, {"got", *v}});
  }
  read_calibration(root, top, base, s, errors);
  top.reject_unknown();

  check_combinations(root, s, errors, out.warnings);
  // A measured run without changes is the scenario itself, its own calibration apart.
  if (errors.empty() && !s.calibration.empty()) {
    Scenario plain = s;
    plain.calibration.clear();
    const auto shared = std::make_shared<const Scenario>(std::move(plain));
    for (MeasuredRun& run : s.calibration)
      if (run.same_as_estimated) run.scenario = shared;
  }
  if (errors.empty()) out.scenario = std::move(s);
  return out;
}

}  // namespace detail

ScenarioParse parse_scenario(std::string_view json_text, const Catalog& catalog) {
  Issues errors;
  auto value = detail::parse_json_text(json_text, errors);
  if (!value) return {std::nullopt, errors, {}};
  return detail::parse_scenario_value(*value, catalog);
}

}  // namespace traincalc
