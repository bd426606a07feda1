// The scenario, catalog and report contract, declared once. Each record (a scenario section, a GPU,
// an offer, a model preset, a report section) is a table of fields: name, type, unit, range, default
// and a one-line description. The same tables drive reading and range checks (json_fields.hpp),
// the JSON Schemas (`traincalc schema`), and the reference in docs/reference.md; enum names are
// declared once in names.hpp and read, written and documented from these tables.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "traincalc/hardware.hpp"
#include "traincalc/json_api.hpp"
#include "traincalc/names.hpp"
#include "traincalc/report.hpp"
#include "traincalc/scenario.hpp"
#include "traincalc/strategy.hpp"

namespace traincalc::detail {
class Fields;  // the strict reader (engine/src/contract/json_fields.hpp)
}

namespace traincalc::contract {

// The range a number may take. Each bound is far outside any real run and keeps every product the
// estimate forms finite and meaningful, so a report only holds numbers the engine stands behind.
struct NumberRule {
  double min = 0;
  bool min_exclusive = true;  // default rule: strictly positive
  double max = 1e300;
  bool integer = false;
};

enum class Type {
  number,          // a JSON number within rule
  integer,         // a whole number within rule
  boolean,         //
  text,            // a string
  choice,          // one of choices
  number_or_word,  // a number within rule, or one of choices (e.g. "auto")
  object,          // an object of record `record`
  id_or_object,    // a catalog ID (string) or an object of record `record` (an inline GPU)
  list,            // an array of objects of record `record`
  number_map,      // an object whose values are numbers (keys named by the engine)
  text_map,        // an object whose values are strings
  text_list,       // an array of strings
  number_list,     // an array of numbers, each within rule
  any,             // any JSON value (a suggestion's new value)
};

struct Record;
struct Field;

// How a declared field reaches its member of the section's struct: `read` takes the field's value
// from the strict reader into the struct the section's reader passes (Fields::read_bound). Declared
// with the field (contract.cpp, bound<&Section::member>), so one row gives a field's name, type,
// range, default, description and where it lands.
// A report field's binding writes it from its member of the section's struct instead (write_record).
// `section` names the struct both read from and write to (section_tag<Section>; nullptr for a
// binding that passes its struct through, flattened), so that a record's bindings can be checked,
// when the engine compiles, to be of the struct the record is written from (RecordOf).
template <class Section>
inline constexpr char section_tag = 0;
struct Binding {
  void (*read)(detail::Fields& fields, const Field& field, void* target) = nullptr;
  void (*write)(const Field& field, const void* source, nlohmann::ordered_json& out) = nullptr;
  const void* section = nullptr;
};

struct Field {
  std::string_view name;
  Type type = Type::number;
  std::string_view unit = {};  // "tokens", "bytes", "GB", "s", "FLOPs", ... ("" where dimensionless)
  NumberRule rule = {};
  std::string_view default_value = {};  // in words, where absent means something ("1", "the GPU's")
  std::string_view description = {};
  std::span<const std::string_view> choices = {};       // choice; number_or_word's words
  const Record* record = nullptr;                       // object, id_or_object, list
  bool required = false;                                // always required (conditional needs are in the reader)
  std::span<const std::string_view> row_requires = {};  // list: keys each row needs beyond its record's
  const Binding* binding = nullptr;                     // read by Fields::read_bound; nullptr: by its reader
};

// A record whose fields also belong to another: the architecture's in the model's, the layout's
// choices in the report's layout. `part` gives, from the including record's struct, the part the
// included record's bindings write from (LayoutChoices in a ParallelismReport); nullptr where the
// included fields are not written from a struct.
struct Include {
  const Record* record = nullptr;
  const void* (*part)(const void* whole) = nullptr;
};

struct Record {
  std::string_view name;  // "training", "gpu", "report.time", ...
  std::string_view description;
  std::span<const Field> fields;
  std::span<const Include> includes = {};
  // A report: with errors it holds only warnings and errors, so its other required fields are
  // required only when errors is empty.
  bool errors_only_form = false;
};

// The field named `name` in the record or its includes; nullptr when none.
const Field* find(const Record& record, std::string_view name);

// Every field of the record, then of its includes, in declared order.
template <class Visit>
void for_each_field(const Record& record, const Visit& visit) {
  for (const Field& field : record.fields) visit(field);
  for (const Include& included : record.includes) for_each_field(*included.record, visit);
}

// ---- The records ----

// Scenario: the top level and its sections.
extern const Record scenario, model, architecture, training, hardware, gpu, strategy, pricing, budget, energy,
    memory_options, operations, exchange_rates, measured_run, measured;
// Catalog: the file (or a scenario's inline "catalog") and its rows.
extern const Record catalog, offer, model_preset;
// The comparison request (`traincalc compare`, the module's compare()).
extern const Record compare_request;
// Report: the top level and its sections.
extern const Record report, issue;

// A record with the struct its bindings read (written<&Section::member>), so that it is written
// from that struct only.
template <class Section_>
struct RecordOf {
  using Section = Section_;
  const Record& record;
};

// The report's sections, for the report writer (contract/report_writer.cpp).
namespace report_sections {
extern const RecordOf<ModelReport> model;
extern const RecordOf<ComputeReport> compute;
extern const RecordOf<HardwareReport> hardware;
extern const RecordOf<TimeReport> time;
extern const RecordOf<StepBreakdown> breakdown_seconds;
extern const RecordOf<ExpectedRun> expected_run;
extern const RecordOf<MemoryReport> memory;
extern const RecordOf<PlanReport> plan;
extern const RecordOf<CalibrationReport> calibration;
extern const RecordOf<SpeedCalibration> speed_calibration;
extern const RecordOf<MemoryCalibration> memory_calibration;
extern const RecordOf<CostReport> cost;
extern const RecordOf<EnergyReport> energy;
extern const RecordOf<EnergyReport::Expected> energy_expected;
extern const RecordOf<ScalingLawReport> scaling_law;
extern const RecordOf<ParallelismReport> parallelism;
extern const RecordOf<LayoutOption> alternative;
extern const RecordOf<LayoutChoices> layout;
extern const RecordOf<Report> report;
}  // namespace report_sections

// write_record's work, on the struct the record's bindings read (source points to one); call
// write_record, which ties the two.
nlohmann::ordered_json write_bound(const Record& record, const void* source, nlohmann::ordered_json extras);

// The record's object, its fields in declared order: each bound field from its member of `source`
// (an optional member only when set, the text of a field that is not required only when not empty,
// a struct by its own record, a list of structs by its items' record and, when the field is not
// required, only when not empty), each other field from `extras` where it holds one. A key of
// `extras` the record does not declare is kept, last, for the report's check to refuse. `source` is
// the record's struct, or a struct built on it (a ParallelismReport for the layout's choices).
template <class Section>
nlohmann::ordered_json write_record(const RecordOf<Section>& record, const std::type_identity_t<Section>& source,
                                    nlohmann::ordered_json extras = nlohmann::ordered_json::object()) {
  return write_bound(record.record, &source, std::move(extras));
}

// ---- Checked against the records ----

// Where a JSON object departs from its record: keys the record does not declare and required keys
// that are missing, as dotted paths ("time.step_secs: undeclared"). Empty when it conforms. The engine
// checks every report it writes this way, as the readers check every key they read.
std::vector<std::string> departures(const nlohmann::ordered_json& value, const Record& record,
                                    const std::string& path = "");

// ---- Generated from the records ----

// JSON Schema (draft 2020-12) for "scenario", "catalog" or "report"; empty for another name.
std::string json_schema(std::string_view which, int indent = 2);
// The Markdown reference of every record, the issue codes and reasons included (docs/reference.md).
std::string markdown_reference();
// A further part of that reference: a heading, a paragraph, and the sections of the records reachable
// from `roots` that markdown_reference() does not already give (the validation tables').
std::string markdown_sections(std::string_view heading, std::string_view intro, std::span<const Record* const> roots);
// Every issue code with its meaning, and every reason (traincalc/issue.hpp), as JSON:
// {"codes": [{"code", "meaning"}, ...], "reasons": [...]}.
std::string issues_json();
// The scenario's choices by dotted path, as an ES module for the page (web/js/contract.js):
// export const CHOICES = {"strategy.precision": ["bf16", ...], ...}.
std::string javascript_choices();

}  // namespace traincalc::contract
