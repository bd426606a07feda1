// The vocabulary the contract's tables are written in: one builder per kind of field (num, flag, text,
// choice, out, holds, ...), the bindings that tie a field to the member it is read into or written
// from (bound, written, written_when, derived, flattened), and the compile-time checks that a
// record's bindings are of the struct it is written from (typed, included). contract.cpp declares
// the scenario, catalog and report records in it, validation/records.cpp the validation tables'.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "contract/json_fields.hpp"
#include "traincalc/contract.hpp"

namespace traincalc::contract {

// What a report holds: finite and never negative.
inline constexpr NumberRule amount{0, false, 1e300, false};
// The descriptions feed the JSON Schema and docs/reference.md. The calculator's WebAssembly module
// writes neither: it compiles contract.cpp with TRAINCALC_CONTRACT_DESCRIPTIONS=0, and the text stays out
// of its download (about 14 KB gzip-compressed).
#ifndef TRAINCALC_CONTRACT_DESCRIPTIONS
#define TRAINCALC_CONTRACT_DESCRIPTIONS 1
#endif
constexpr std::string_view doc(std::string_view description) {
  return TRAINCALC_CONTRACT_DESCRIPTIONS ? description : std::string_view{};
}

// ---- Builders, so each table reads as one line per field ----

constexpr Field num(std::string_view name, std::string_view unit, NumberRule rule, std::string_view default_value,
                    std::string_view description) {
  return {name, rule.integer ? Type::integer : Type::number, unit, rule, default_value, doc(description)};
}
constexpr Field flag(std::string_view name, std::string_view default_value, std::string_view description) {
  return {name, Type::boolean, {}, {}, default_value, doc(description)};
}
constexpr Field text(std::string_view name, std::string_view description) {
  return {name, Type::text, {}, {}, {}, doc(description)};
}
constexpr Field pick(std::string_view name, std::span<const std::string_view> choices, std::string_view default_value,
                     std::string_view description) {
  return {name, Type::choice, {}, {}, default_value, doc(description), choices};
}
// A choice bound to an enumeration: bound<&Section::member, its_table>(choice(...)) or written<...>,
// whose names come from the table.
constexpr Field choice(std::string_view name, std::string_view default_value, std::string_view description) {
  return {name, Type::choice, {}, {}, default_value, doc(description)};
}
constexpr Field number_or(std::string_view name, std::span<const std::string_view> words, std::string_view unit,
                          NumberRule rule, std::string_view default_value, std::string_view description) {
  return {name, Type::number_or_word, unit, rule, default_value, doc(description), words};
}
constexpr Field holds(std::string_view name, Type type, const Record* record, std::string_view description) {
  return {name, type, {}, {}, {}, doc(description), {}, record};
}
// A section whose record the field's binding gives (written<&Section::member, its_record>).
constexpr Field holds(std::string_view name, Type type, std::string_view description) {
  return holds(name, type, nullptr, description);
}
constexpr Field required(Field field) {
  field.required = true;
  return field;
}
// A report amount (never negative).
constexpr Field out(std::string_view name, std::string_view unit, std::string_view description) {
  return {name, Type::number, unit, amount, {}, doc(description)};
}

// ---- Bindings: the member each scenario field lands in (Fields::read_bound reads them) ----

template <class M>
struct MemberOf;
template <class S, class T>
struct MemberOf<T S::*> {
  using Section = S;
  using Type = T;
};

template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

// Into an optional member as given (absent: nullopt); into a plain one only when given (absent: the
// struct's default).
template <class T, class V>
void assign(T& slot, const std::optional<V>& value) {
  if constexpr (is_optional<T>)
    slot = value;
  else if (value)
    slot = *value;
}

// A number (in the declared range; "auto" and the other declared words leave it unset) or a flag.
template <auto Member>
void read_member(detail::Fields& f, const Field& field, void* target) {
  using Of = MemberOf<decltype(Member)>;
  auto& slot = static_cast<typename Of::Section*>(target)->*Member;
  if constexpr (std::is_same_v<typename Of::Type, bool> || std::is_same_v<typename Of::Type, std::optional<bool>>)
    assign(slot, f.flag(field.name));
  else if (field.type == Type::number_or_word)
    assign(slot, f.number_or_word(field.name).value);
  else
    assign(slot, f.number(field.name));
}

// One of an enumeration's names, by its table.
template <auto Member, const auto& Table>
void read_choice(detail::Fields& f, const Field& field, void* target) {
  using Of = MemberOf<decltype(Member)>;
  assign(static_cast<typename Of::Section*>(target)->*Member, f.choice(field.name, Table));
}

template <auto Member>
inline constexpr Binding member_binding{&read_member<Member>, nullptr, &section_tag<typename MemberOf<decltype(Member)>::Section>};
template <auto Member, const auto& Table>
inline constexpr Binding choice_binding{&read_choice<Member, Table>, nullptr,
                                        &section_tag<typename MemberOf<decltype(Member)>::Section>};
// An enumeration's names, kept for the fields that choose from it.
template <const auto& Table>
inline constexpr auto table_names = names_of(Table);

template <class T>
inline constexpr bool is_vector = false;
template <class T>
inline constexpr bool is_vector<std::vector<T>> = true;

// Whether a member is written by a record of its own: a struct (not a text or a list).
template <class T>
inline constexpr bool is_record = std::is_class_v<T> && !std::is_same_v<T, std::string> && !is_vector<T> &&
                                  !is_optional<T>;
template <class T>
inline constexpr bool is_record_list = false;
template <class T>
inline constexpr bool is_record_list<std::vector<T>> = is_record<T>;

// Whether a template argument is a record with its struct (RecordOf), and a list's item type.
template <class T>
inline constexpr bool is_record_of = false;
template <class S>
inline constexpr bool is_record_of<RecordOf<S>> = true;
template <class T>
struct ItemOf {
  using Type = T;
};
template <class T>
struct ItemOf<std::vector<T>> {
  using Type = T;
};
template <class T>
struct ItemOf<std::optional<T>> {
  using Type = T;
};

// A report field, from its member: a number, a flag, a text or a list of numbers or texts (an optional
// one only when set; the text of a field that is not required only when not empty), a section of its
// own (a struct member, an optional one only when set, written by its record's bindings), or a list
// of such (a field that is not required only when not empty). `source` is a Section: the member's
// struct, or one built on it (written_from).
template <auto Member, class Section = typename MemberOf<decltype(Member)>::Section>
void write_member(const Field& field, const void* source, nlohmann::ordered_json& out) {
  using T = typename MemberOf<decltype(Member)>::Type;
  const auto& value = static_cast<const Section*>(source)->*Member;
  const std::string key(field.name);
  if constexpr (is_optional<T>) {
    if constexpr (is_record<typename T::value_type>) {
      if (value) out[key] = write_bound(*field.record, &*value, nlohmann::ordered_json::object());
    } else {
      if (value) out[key] = *value;
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (field.required || !value.empty()) out[key] = value;
  } else if constexpr (is_record<T>) {
    out[key] = write_bound(*field.record, &value, nlohmann::ordered_json::object());
  } else if constexpr (is_record_list<T>) {
    if (!field.required && value.empty()) return;
    nlohmann::ordered_json items = nlohmann::ordered_json::array();
    for (const auto& item : value) items.push_back(write_bound(*field.record, &item, nlohmann::ordered_json::object()));
    out[key] = std::move(items);
  } else {
    out[key] = value;
  }
}

// An enumeration's member, by its table's name (an optional one only when set).
template <auto Member, const auto& Table, class Section = typename MemberOf<decltype(Member)>::Section>
void write_choice(const Field& field, const void* source, nlohmann::ordered_json& out) {
  const auto& value = static_cast<const Section*>(source)->*Member;
  if constexpr (is_optional<typename MemberOf<decltype(Member)>::Type>) {
    if (value) out[std::string(field.name)] = std::string(name_of(Table, *value));
  } else {
    out[std::string(field.name)] = std::string(name_of(Table, value));
  }
}

// A nested object whose fields are members of the same struct (report.time.expected.lost_hours).
inline void write_flattened(const Field& field, const void* source, nlohmann::ordered_json& out) {
  out[std::string(field.name)] = write_bound(*field.record, source, nlohmann::ordered_json::object());
}

template <auto Member, class Section = typename MemberOf<decltype(Member)>::Section>
inline constexpr Binding written_binding{nullptr, &write_member<Member, Section>, &section_tag<Section>};
template <auto Member, const auto& Table, class Section = typename MemberOf<decltype(Member)>::Section>
inline constexpr Binding written_choice_binding{nullptr, &write_choice<Member, Table, Section>, &section_tag<Section>};
inline constexpr Binding flattened_binding{nullptr, &write_flattened};

// A field and the member it lands in: bound<&Section::member>(num(...)), or for a choice
// bound<&Section::member, its_table>(choice(...)), its names the table's.
template <auto Member>
constexpr Field bound(Field field) {
  field.binding = &member_binding<Member>;
  return field;
}
template <auto Member, const auto& Table>
constexpr Field bound(Field field) {
  field.binding = &choice_binding<Member, Table>;
  field.choices = table_names<Table>;
  return field;
}
// A report field and the member it is written from: written<&Section::member>(out(...)), for an
// enumeration written<&Section::member, its_table>(choice(...)), and flattened(holds(...)) for a
// nested object of the same struct's members.
template <auto Member>
constexpr Field written(Field field) {
  using T = typename ItemOf<typename MemberOf<decltype(Member)>::Type>::Type;
  static_assert(!is_record<T>, "a section is written<&Section::member, its_record>");
  field.binding = &written_binding<Member>;
  return field;
}
template <auto Member, const auto& Table>
  requires(!is_record_of<std::remove_cvref_t<decltype(Table)>>)
constexpr Field written(Field field) {
  field.binding = &written_choice_binding<Member, Table>;
  field.choices = table_names<Table>;
  return field;
}
constexpr Field flattened(Field field) {
  field.binding = &flattened_binding;
  return field;
}
// A member of a base that the section's struct shares with another struct, written from the section:
// written_from<MemoryAssumptions, &MemoryChoices::regime, regimes>(choice(...)) for the memory model's
// choices, which its report and its own resolved regime both hold.
template <class Section, auto Member>
constexpr Field written_from(Field field) {
  static_assert(std::is_base_of_v<typename MemberOf<decltype(Member)>::Section, Section>,
                "a member written from a section is of one of its bases");
  field.binding = &written_binding<Member, Section>;
  return field;
}
template <class Section, auto Member, const auto& Table>
constexpr Field written_from(Field field) {
  static_assert(std::is_base_of_v<typename MemberOf<decltype(Member)>::Section, Section>,
                "a member written from a section is of one of its bases");
  field.binding = &written_choice_binding<Member, Table, Section>;
  field.choices = table_names<Table>;
  return field;
}

// A report field computed from its section: derived<&function>(text(...)), function(const Section&).
template <class Function>
struct FunctionOf;
template <class R, class S>
struct FunctionOf<R (*)(const S&)> {
  using Section = S;
};
template <auto Function>
void write_derived(const Field& field, const void* source, nlohmann::ordered_json& out) {
  out[std::string(field.name)] = Function(*static_cast<const typename FunctionOf<decltype(Function)>::Section*>(source));
}
template <auto Function>
inline constexpr Binding derived_binding{nullptr, &write_derived<Function>,
                                         &section_tag<typename FunctionOf<decltype(Function)>::Section>};
template <auto Function>
constexpr Field derived(Field field) {
  field.binding = &derived_binding<Function>;
  return field;
}

// A report field written from its member only when `when(section)` holds: written_when<&Section::member,
// &condition>(out(...)).
template <auto Member, auto When>
void write_member_when(const Field& field, const void* source, nlohmann::ordered_json& out) {
  if (When(*static_cast<const typename MemberOf<decltype(Member)>::Section*>(source)))
    write_member<Member>(field, source, out);
}
template <auto Member, auto When>
inline constexpr Binding written_when_binding{nullptr, &write_member_when<Member, When>,
                                              &section_tag<typename MemberOf<decltype(Member)>::Section>};
template <auto Member, auto When>
constexpr Field written_when(Field field) {
  field.binding = &written_when_binding<Member, When>;
  return field;
}

// A report section written from a struct member by that struct's record:
// written<&Section::member, its_record>(holds(name, type, description)), where its_record is a
// RecordOf<the member's struct> (of its items' struct, for a list), checked here.
template <auto Member, const auto& Section>
  requires is_record_of<std::remove_cvref_t<decltype(Section)>>
constexpr Field written(Field field) {
  using Item = typename ItemOf<typename MemberOf<decltype(Member)>::Type>::Type;
  static_assert(std::is_same_v<Item, typename std::remove_cvref_t<decltype(Section)>::Section>,
                "a section is written by the record of its member's own struct");
  field.record = &Section.record;
  field.binding = &written_binding<Member>;
  return field;
}

// The part of a struct an included record's bindings write from: its base (LayoutChoices).
template <class Whole, class Part>
const void* part_of(const void* whole) {
  return static_cast<const Part*>(static_cast<const Whole*>(whole));
}

// Whether every binding of `fields` reads or writes `Section` (a flattened field passes its struct
// through, and its record's fields are checked where that record is typed).
template <class Section, class Fields>
consteval bool binds_only(const Fields& fields) {
  for (const Field& field : fields)
    if (field.binding && field.binding->section && field.binding->section != &section_tag<Section>) return false;
  return true;
}

// A record with the struct it is written from, its bindings checked to be of that struct:
// constexpr auto likely_of = typed<LikelyRange, range_fields>(likely).
template <class Section, const auto& Fields>
constexpr RecordOf<Section> typed(const Record& record) {
  static_assert(binds_only<Section>(Fields), "a record's bindings are of the struct it is written from");
  return {record};
}

// An included record and the part of the including struct its bindings write from, checked to be of
// that part: included<ParallelismReport, LayoutChoices, layout_fields>(layout).
template <class Whole, class Part, const auto& Fields>
constexpr Include included(const Record& record) {
  static_assert(std::is_base_of_v<Part, Whole>, "an included part is a base of the including struct");
  static_assert(binds_only<Part>(Fields), "an included record's bindings are of the part it writes from");
  return {&record, &part_of<Whole, Part>};
}

}  // namespace traincalc::contract
