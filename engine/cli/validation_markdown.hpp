// The validation's summary tables as Markdown: what docs/validation.md shows between its
// `<!-- traincalc validate ... --markdown -->` markers (scripts/doc-tables.mjs writes them; the CTest
// test docs_validation_tables fails when they drift).
#pragma once

#include "traincalc/json_api.hpp"

namespace traincalc::cli {

// Published MFU (or HFU) against predicted, one row per published run.
void markdown_validation(const ValidationTable& table);
// Each source held out with its lineage, the summary, and calibration by distance.
void markdown_memory_validation(const MemoryValidationTable& table);
// Each lineage and source held out, the likely ranges, calibration by distance, the validated
// envelope and the constants fitted on every row.
void markdown_speed_validation(const SpeedValidationTable& table);
// The expected run against published GPU-hours: the summary and the error by confidence.
void markdown_run_validation(const RunValidationTable& table);
// What a new publisher meets: step time, peak memory and whole runs, each group held out.
void markdown_summary(const SpeedValidationTable& speed, const MemoryValidationTable& memory,
                      const RunValidationTable& runs);

}  // namespace traincalc::cli
