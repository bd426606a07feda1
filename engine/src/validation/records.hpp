// The validation tables' records: what `traincalc validate ... --json` writes, field by field
// (records.cpp), for the writers in this folder; traincalc::validation_reference() documents them.
#pragma once

#include "traincalc/contract.hpp"

namespace traincalc::contract::validation_tables {

extern const RecordOf<ValidationTable> published;
extern const RecordOf<MemoryValidationTable> memory;
extern const RecordOf<SpeedValidationTable> speed;
extern const RecordOf<RunValidationTable> runs;

}  // namespace traincalc::contract::validation_tables
