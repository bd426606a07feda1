// The contract is declared once (engine/src/contract/contract.cpp); these check that the readers, the writers
// and the documentation follow the declaration.
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "../../engine/src/validation/records.hpp"
#include "helpers.hpp"
#include "traincalc/contract.hpp"

using namespace traincalc;
using namespace test;

namespace {

// A value of the declared type, within the declared range.
json sample_value(const contract::Field& field) {
  switch (field.type) {
    case contract::Type::number:
    case contract::Type::integer:
    case contract::Type::number_or_word:
      return field.rule.min_exclusive ? (field.rule.integer ? field.rule.min + 1 : field.rule.min * 2 + 1)
                                      : field.rule.min;
    case contract::Type::boolean:
      return false;
    case contract::Type::choice:
      return std::string(field.choices.back());
    default:
      return "x";
  }
}

// Every scalar field of a record (and its includes) set, so that every declaration is exercised.
json every_field(const contract::Record& record) {
  json object = json::object();
  for (const auto& field : record.fields)
    if (!field.record && field.type != contract::Type::text_list) object[std::string(field.name)] = sample_value(field);
  for (const auto& included : record.includes) object.update(every_field(*included.record));
  return object;
}

bool has_internal_error(const json& report) {
  for (const auto& e : report["errors"])
    if (e["code"].get<std::string>().rfind("internal_", 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("Every field a scenario section declares is read by the engine, and nothing undeclared is", "[contract]") {
  // Fields that conflict are refused with user errors, never with internal_unread_field (declared
  // but not read) or internal_undeclared_field (read but not declared).
  for (const contract::Record* section :
       {&contract::model, &contract::training, &contract::hardware, &contract::strategy, &contract::pricing,
        &contract::budget, &contract::energy, &contract::memory_options}) {
    json s = json::parse(R"({"model": {"preset": "llama-2-7b"}, "training": {"type": "pretrain", "tokens": 1e9},
                            "hardware": {"gpu": "h100-sxm", "count": 8}})");
    s[std::string(section->name)] = every_field(*section);
    const json r = report_json(s);
    INFO(section->name << ": " << r["errors"].dump());
    CHECK_FALSE(has_internal_error(r));
  }
}

TEST_CASE("Every field of a catalog row is read: a GPU, an offer and a model preset with all of them", "[contract]") {
  json gpu = every_field(contract::gpu);
  gpu["id"] = "every-field-gpu";
  json offer = every_field(contract::offer);
  offer["id"] = "every-field-offer";
  offer["gpu"] = "h100-sxm";
  json preset = every_field(contract::model_preset);
  preset["id"] = "every-field-model";
  const json catalog = {
      {"description", "x"}, {"source", "x"}, {"gpus", {gpu}}, {"offers", {offer}}, {"models", {preset}}};
  const CatalogLoad load = merge_catalog_json(catalog.dump(), builtin_catalog());
  for (const auto& e : load.errors) {
    INFO(e.field << " " << e.code.name() << " " << e.message);
    CHECK(e.code.name().rfind("internal_", 0) != 0);
  }
}

TEST_CASE("Enumeration names read back as the values they name", "[contract]") {
  for (const auto& [name, value] : contract::precisions) CHECK(to_string(value) == name);
  for (const auto& [name, value] : contract::optimizers) CHECK(to_string(value) == name);
  for (const auto& [name, value] : contract::recomputes) CHECK(to_string(value) == name);
  for (const auto& [name, value] : contract::offloads) CHECK(to_string(value) == name);
  CHECK(contract::value_of(contract::text_kinds, "chinese-english-tokenizer") == TextKind::chinese_english_tokenizer);
  CHECK_FALSE(contract::value_of(contract::precisions, "bf17"));
}

TEST_CASE("Each declared range is the one the engine enforces, at both ends", "[contract]") {
  const json base = json::parse(R"({"model": {"preset": "llama-2-7b"}, "training": {"type": "pretrain", "tokens": 1e9},
                                    "hardware": {"gpu": "h100-sxm", "count": 8}})");
  int checked = 0;
  for (const contract::Record* section : {&contract::training, &contract::hardware, &contract::strategy,
                                          &contract::budget, &contract::energy, &contract::memory_options}) {
    for (const auto& field : section->fields) {
      if (field.rule.max >= 1e300 || field.record) continue;
      if (field.type != contract::Type::number && field.type != contract::Type::integer &&
          field.type != contract::Type::number_or_word)
        continue;
      const std::string path = std::string(section->name) + "." + std::string(field.name);
      json above = base, below = base;
      above[std::string(section->name)][std::string(field.name)] = field.rule.max * 2 + 1;
      below[std::string(section->name)][std::string(field.name)] = field.rule.min - 1;
      for (const json& s : {above, below}) {
        const json r = report_json(s);
        INFO(path << ": " << r["errors"].dump());
        bool named = false;
        for (const auto& e : r["errors"])
          named = named || (e["field"] == path && (e["code"] == "out_of_range" || e["code"] == "not_positive"));
        CHECK(named);
      }
      ++checked;
    }
  }
  CHECK(checked >= 30);
}

TEST_CASE("docs/reference.md is what the field tables generate", "[contract]") {
  INFO("regenerate it: build/native/bin/traincalc schema reference > docs/reference.md");
  CHECK(source_file("docs/reference.md") == contract::markdown_reference() + validation_reference());
}

TEST_CASE("The schemas are JSON, one for each of scenario, catalog and report", "[contract]") {
  for (const char* which : {"scenario", "catalog", "report"}) {
    const json schema = json::parse(contract::json_schema(which));
    CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
    CHECK(schema["additionalProperties"] == false);
  }
  CHECK(contract::json_schema("scenarios").empty());
  // The report's sections are required only when it has no errors (an error report is short).
  const json report = json::parse(contract::json_schema("report"));
  CHECK(report["required"] == json::array({"warnings", "errors"}));
  CHECK(report["then"]["required"].size() == 7);
}

TEST_CASE("Messages carry the engine's numbers, so no page repeats an engine constant", "[contract]") {
  SECTION("the assumed utilisation, as a fraction") {
    const json r =
        report_json(json::parse(R"({"model": {"params": 7e9}, "training": {"type": "pretrain", "tokens": 1e12},
                                                "hardware": {"gpu": "h100-sxm", "count": 8}})"));
    bool found = false;
    for (const auto& w : r["warnings"])
      if (w["code"] == "mfu_assumed") found = w["params"]["mfu"] == "0.4";
    CHECK(found);
  }
  SECTION("the assumed sequence length") {
    const json r = report_json(json::parse(R"({"model": {"layers": 2, "hidden": 64, "heads": 4, "ffn_hidden": 256,
                                                         "vocab": 1000},
                                               "training": {"type": "pretrain", "samples": 1000},
                                               "hardware": {"gpu": "h100-sxm", "count": 1}})"));
    bool found = false;
    for (const auto& w : r["warnings"])
      if (w["code"] == "seq_len_assumed") found = w["params"]["seq_len"] == "2048";
    CHECK(found);
  }
  SECTION("the bytes per token of each kind of text (flops.cpp's sourced table)") {
    const json r = report_json(json::parse(R"({"model": {"preset": "llama-2-7b"}, "training": {"type": "pretrain",
                                               "dataset_gb": 100}, "hardware": {"gpu": "h100-sxm", "count": 8}})"));
    json params;
    for (const auto& w : r["warnings"])
      if (w["code"] == "bytes_per_token_assumed") params = w["params"];
    CHECK(params["english"] == "4");
    CHECK(params["chinese"] == "4.4");
    CHECK(params["chinese_english_tokenizer"] == "2");
    CHECK(params["code"] == "3");
  }
  SECTION("a run over its total budget: the cost, its currency and the budget") {
    const json r = report_json(json::parse(R"({"model": {"preset": "llama-2-7b"}, "training": {"type": "pretrain",
                                               "tokens": 1e12}, "hardware": {"gpu": "h100-sxm", "count": 8},
                                               "pricing": {"per_gpu_hour": 2, "currency": "USD"},
                                               "budget": {"total": 1000}})"));
    json params;
    for (const auto& w : r["warnings"])
      if (w["code"] == "over_budget") params = w["params"];
    CHECK(params["currency"] == "USD");
    CHECK(params["budget"] == "1000");
    // (The utilisation is predicted, so the plan is judged on the expected run, the headline.)
    CHECK(std::stod(params["cost"].get<std::string>()) ==
          Approx(r["cost"]["expected_total"].get<double>()).epsilon(1e-9));
  }
  SECTION("the fitted scaling law's constants (Hoffmann et al. 2022, eq. 10)") {
    const json r = report_json(json::parse(R"({"model": {"preset": "llama-2-7b"}, "training": {"type": "pretrain",
                                               "tokens": 1e12}, "hardware": {"gpu": "h100-sxm", "count": 8}})"));
    const json& fit = r["scaling_law"]["fit"];
    CHECK(fit["e"].get<double>() == 1.69);
    CHECK(fit["a"].get<double>() == 406.4);
    CHECK(fit["alpha"].get<double>() == 0.34);
    CHECK(fit["b"].get<double>() == 410.7);
    CHECK(fit["beta"].get<double>() == 0.28);
  }
}

TEST_CASE("The declared ranges are the engine's limits, pinned here so a change to a table is deliberate",
          "[contract]") {
  // Each bound is far outside any real run (docs/reference.md); these are the limits the engine has
  // enforced since the first contract.
  struct Pinned {
    const contract::Record* record;
    const char* field;
    double min, max;
    bool integer;
  };
  const Pinned pinned[] = {
      {&contract::model, "params", 1, 1e16, false},
      {&contract::architecture, "layers", 1, 1e5, true},
      {&contract::architecture, "hidden", 1, 1e8, true},
      {&contract::training, "tokens", 1, 1e20, false},
      {&contract::training, "seq_len", 1, 1e7, true},
      {&contract::training, "epochs", 1e-3, 1e6, false},
      {&contract::training, "lora_rank", 1, 65536, true},
      {&contract::hardware, "count", 1, 1e7, true},
      {&contract::gpu, "memory_gb", 1e-3, 1e6, false},
      {&contract::gpu, "bf16_tflops", 1e-3, 1e6, false},
      {&contract::gpu, "matmul_efficiency", 0.01, 1, false},
      {&contract::strategy, "mfu", 1e-3, 1, false},
      {&contract::strategy, "tp", 1, 1e6, true},
      {&contract::strategy, "zero", 0, 3, true},
      {&contract::pricing, "hours_per_month", 1, 744, false},
      {&contract::budget, "months", 1e-3, 1200, false},
      {&contract::energy, "pue", 1, 5, false},
      {&contract::memory_options, "fragmentation", 0, 1, false},
  };
  for (const auto& p : pinned) {
    INFO(p.record->name << "." << p.field);
    const contract::Field* field = contract::find(*p.record, p.field);
    REQUIRE(field);
    CHECK(field->rule.min == p.min);
    CHECK(field->rule.max == p.max);
    CHECK(field->rule.integer == p.integer);
  }
  // And the engine enforces them where the scenario sections test above does not reach: the model and
  // an inline GPU.
  json s = json::parse(R"({"model": {"params": 2e16}, "training": {"type": "pretrain", "tokens": 1e9},
                           "hardware": {"gpu": {"name": "x", "memory_gb": 2e6, "bf16_tflops": 100}, "count": 8}})");
  const json r = report_json(s);
  CHECK(has_error(r, "model.params", "out_of_range"));
  CHECK(has_error(r, "hardware.gpu.memory_gb", "out_of_range"));
}

TEST_CASE("An offer's own GPU has no catalog ID: an id there is refused, as before the contract", "[contract]") {
  const json catalog = json::parse(R"({"offers": [{"id": "o", "gpu": {"id": "g", "name": "G", "memory_gb": 80,
                                        "bf16_tflops": 100}, "per_gpu_hour": 1, "currency": "USD", "source": "s"}]})");
  const CatalogLoad load = merge_catalog_json(catalog.dump(), builtin_catalog());
  REQUIRE(load.errors.size() == 1);
  CHECK(load.errors[0].field == "offers[0].gpu.id");
  CHECK(load.errors[0].code == "unknown_key");
}

TEST_CASE("A report that departs from its contract is found: an undeclared key, a missing required one", "[contract]") {
  using ordered = nlohmann::ordered_json;
  const json valid = report_json(json::parse(R"({"model": {"preset": "llama-2-7b"}, "training": {"type": "pretrain",
                                                  "tokens": 1e12}, "hardware": {"gpu": "h100-sxm", "count": 8}})"));
  const ordered written = ordered::parse(valid.dump());
  CHECK(contract::departures(written, contract::report).empty());

  ordered extra = written;
  extra["time"]["step_secs"] = 1;
  CHECK(contract::departures(extra, contract::report) == std::vector<std::string>{"time.step_secs: undeclared"});

  ordered missing = written;
  missing["memory"].erase("fits");
  missing["parallelism"]["alternatives"][0].erase("mfu");
  CHECK(contract::departures(missing, contract::report) ==
        std::vector<std::string>{"memory.fits: missing", "parallelism.alternatives[0].mfu: missing"});

  // An error report holds only warnings and errors.
  const ordered refused = ordered::parse(R"({"errors": [{"field": "", "code": "x", "message": "m"}], "warnings": []})");
  CHECK(contract::departures(refused, contract::report).empty());
}

namespace {

using Written = std::set<std::pair<const contract::Record*, std::string>>;

// The keys an object of `record` holds, marked against the record (an included record's under the
// including one), through its nested objects and lists; `records` collects every record met.
void mark_written(const nlohmann::ordered_json& value, const contract::Record& record, Written& seen,
                  std::set<const contract::Record*>& records) {
  records.insert(&record);
  for (const auto& [key, child] : value.items()) {
    const contract::Field* field = contract::find(record, key);
    if (!field) continue;  // departures() names those
    seen.insert({&record, key});
    if (!field->record) continue;
    if (child.is_object()) mark_written(child, *field->record, seen, records);
    if (child.is_array())
      for (const auto& item : child) mark_written(item, *field->record, seen, records);
  }
}

}  // namespace

// A field declared without the member it is written from would be documented and never written; a
// key written without a field would be written and never documented. The validation tables are
// written from their records (engine/src/validation/records.cpp): each field appears in some row.
// The speed table is taken without its refits (fit=false), which leave its envelope experiment out;
// the records they share with the report (a layout, a likely range) say more than a table needs.
TEST_CASE("Every field a validation table declares is written, and nothing it does not declare", "[contract]") {
  const Catalog& catalog = builtin_catalog();
  const std::pair<std::string, const contract::Record*> tables[] = {
      {validation_json(catalog, true), &contract::validation_tables::published.record},
      {memory_validation_to_json(validate_memory(catalog)), &contract::validation_tables::memory.record},
      {speed_validation_to_json(validate_speed(catalog, false)), &contract::validation_tables::speed.record},
      {run_validation_to_json(validate_runs(catalog)), &contract::validation_tables::runs.record}};
  for (const auto& [text, record] : tables) {
    const auto value = nlohmann::ordered_json::parse(text);
    INFO(record->name);
    CHECK(contract::departures(value, *record).empty());
    Written seen;
    std::set<const contract::Record*> records;
    mark_written(value, *record, seen, records);
    CHECK(records.size() >= 3);
    for (const contract::Record* r : records) {
      if (!r->name.starts_with("validation.")) continue;
      contract::for_each_field(*r, [&](const contract::Field& field) {
        INFO(std::string(r->name) + "." + std::string(field.name));
        CHECK(seen.count({r, std::string(field.name)}) == 1);
      });
    }
  }
}

TEST_CASE("A field declared with its member lands there: numbers, flags, choices, auto, and defaults when absent",
          "[contract]") {
  const auto parse = [](const json& scenario) {
    const traincalc::ScenarioParse parsed = traincalc::parse_scenario(scenario.dump(), traincalc::builtin_catalog());
    INFO(scenario.dump());
    REQUIRE(parsed.errors.empty());
    REQUIRE(parsed.scenario);
    return *parsed.scenario;
  };
  json s = {{"model", {{"preset", "llama-2-7b"}}},
            {"training", {{"type", "finetune"}, {"method", "lora"}, {"tokens", 1e8}, {"lora_rank", 64},
                          {"lora_targets", "query_value"}, {"epochs", 2}, {"global_batch_sequences", 128}}},
            {"hardware", {{"gpu", "h100-sxm"}, {"count", 16}, {"gpus_per_node", 4}}},
            {"strategy", {{"precision", "fp16"}, {"optimizer", "lion"}, {"tp", 2}, {"pp", "auto"},
                          {"overlap_grad_reduce", false}, {"sequence_parallel", true}, {"pp_schedule", "zero_bubble"}}},
            {"memory", {{"fragmentation", 0.3}, {"expandable_segments", true}}},
            {"operations", {{"recovery", "in_memory"}, {"restart_minutes", 12}}},
            {"energy", {{"pue", 1.1}}}};
  const traincalc::Scenario given = parse(s);
  CHECK(given.training.method == traincalc::FinetuneMethod::lora);
  CHECK(given.training.lora_rank == 64);
  CHECK(given.training.lora_targets == traincalc::LoraTargets::query_value);
  CHECK(given.training.epochs == 2);
  CHECK(given.training.global_batch_sequences == 128);
  CHECK(given.hardware.count == 16);
  CHECK(given.hardware.gpus_per_node == 4);
  CHECK(given.strategy.precision == traincalc::Precision::fp16);
  CHECK(given.strategy.optimizer == traincalc::Optimizer::lion);
  CHECK(given.strategy.tp == 2);
  CHECK_FALSE(given.strategy.pp.has_value());  // "auto": the planner decides
  CHECK_FALSE(given.strategy.overlap_grad_reduce);
  CHECK(given.strategy.sequence_parallel == true);
  CHECK(given.strategy.pp_schedule == traincalc::PipelineSchedule::zero_bubble);
  CHECK(given.memory.fragmentation == 0.3);
  CHECK(given.memory.expandable_segments == true);
  CHECK(given.operations.recovery == traincalc::Recovery::in_memory);
  CHECK(given.operations.restart_minutes == 12);
  CHECK(given.energy.pue == 1.1);
  // Absent: an optional member stays unset, a plain one keeps the struct's default (as scenario.hpp
  // and the contract's default both say: LoRA rank 16, all linear layers, one epoch, AdamW, overlap on).
  const traincalc::Scenario absent =
      parse({{"model", {{"preset", "llama-2-7b"}}}, {"training", {{"type", "finetune"}, {"method", "lora"}, {"tokens", 1e8}}},
             {"hardware", {{"gpu", "h100-sxm"}, {"count", 8}}}});
  CHECK(absent.training.lora_rank == 16);
  CHECK(absent.training.lora_targets == traincalc::LoraTargets::all_linear);
  CHECK(absent.training.epochs == 1);
  CHECK(absent.strategy.optimizer == traincalc::Optimizer::adamw);
  CHECK(absent.strategy.overlap_grad_reduce);
  CHECK_FALSE(absent.strategy.precision.has_value());
  CHECK_FALSE(absent.memory.fragmentation.has_value());
  CHECK_FALSE(absent.hardware.gpus_per_node.has_value());
  // The contract's stated defaults are the structs' (for the plain members bound above).
  const auto default_of = [](const traincalc::contract::Record& record, std::string_view key) {
    return std::string(traincalc::contract::find(record, key)->default_value);
  };
  CHECK(default_of(traincalc::contract::training, "lora_rank") == "16");
  CHECK(default_of(traincalc::contract::training, "lora_targets") == "all_linear");
  CHECK(default_of(traincalc::contract::training, "epochs") == "1");
  CHECK(default_of(traincalc::contract::strategy, "optimizer") == "adamw");
  CHECK(default_of(traincalc::contract::strategy, "overlap_grad_reduce") == "true");
}

TEST_CASE("The physics compiles without JSON: JSON is read and written only at the edges", "[contract]") {
  // The estimators and the planner take structs and give structs; the contract's reader and writers,
  // the report writer (contract/report_writer.cpp), the catalog loader, the importers, the comparison and the
  // validation are the edges that see JSON.
  const std::string root = TRAINCALC_SOURCE_DIR;
  const char* physics[] = {"engine/src/estimate/calibration.cpp", "engine/src/estimate/cost.cpp",
                           "engine/src/estimate/energy.cpp",      "engine/src/estimate/flops.cpp",
                           "engine/src/estimate/goodput.cpp",     "engine/src/estimate/memory.cpp",
                           "engine/src/estimate/memory_regime.cpp", "engine/src/estimate/scaling_law.cpp",
                           "engine/src/estimate/step_time.cpp",   "engine/src/estimate/throughput.cpp",
                           "engine/src/estimate/estimators.hpp",  "engine/src/estimate/stats.hpp",
                           "engine/src/estimate/estimate.cpp",
                           "engine/src/plan/plan.cpp",            "engine/src/plan/planner.cpp",
                           "engine/include/traincalc/names.hpp",  "engine/include/traincalc/report.hpp",
                           "engine/include/traincalc/scenario.hpp", "engine/include/traincalc/catalog.hpp",
                           "engine/include/traincalc/json_api.hpp", "engine/src/contract/text.hpp"};
  for (const char* file : physics) {
    INFO(file);
    std::ifstream in(root + "/" + file);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    CHECK(source.find("#include <nlohmann") == std::string::npos);
    CHECK(source.find("json_fields.hpp\"") == std::string::npos);
    CHECK(source.find("catalog/specs.hpp\"") == std::string::npos);
    CHECK(source.find("traincalc/contract.hpp\"") == std::string::npos);
  }
}
