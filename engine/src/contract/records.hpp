// The records both the report's tables (contract.cpp) and the validation tables
// (validation/records.cpp) write: a parallel layout's choices and the likely ranges of a step and of
// a memory peak. Declared here, in one place, so that each table checks them when it compiles.
#pragma once

#include "contract/declare.hpp"

namespace traincalc::contract {

inline constexpr Field layout_fields[] = {
    written<&LayoutChoices::tp>(required(out("tp", "GPUs", "Tensor-parallel degree."))),
    written<&LayoutChoices::pp>(required(out("pp", "stages", "Pipeline stages."))),
    written<&LayoutChoices::dp>(required(out("dp", "GPUs", "Data-parallel degree."))),
    written<&LayoutChoices::cp>(required(out("cp", "GPUs", "Context-parallel degree."))),
    written<&LayoutChoices::ep>(required(out("ep", "GPUs", "Expert-parallel degree."))),
    written<&LayoutChoices::zero>(required(out("zero", "", "ZeRO stage."))),
    written<&LayoutChoices::micro_batch>(required(out("micro_batch", "sequences", "Sequences per micro-batch."))),
    written<&LayoutChoices::virtual_stages>(required(out("virtual_stages", "", "Interleaved chunks per stage."))),
    written<&LayoutChoices::recompute, recomputes>(required(choice("recompute", {}, "Activation recomputation."))),
};
inline constexpr Record layout{"layout", doc("A parallel layout's choices."), layout_fields};
inline constexpr RecordOf<LayoutChoices> layout_of = typed<LayoutChoices, layout_fields>(layout);

// A likely range's counts of lineages, and the factors of what was assumed and of being outside the
// validated envelope, are written where they say something: a count, a factor that moves the range.
constexpr bool counts_lineages(const LikelyRange& r) { return r.lineages > 0; }
constexpr bool assumption_moves(const LikelyRange& r) { return r.assumed_low != 1 || r.assumed_high != 1; }
constexpr bool envelope_moves(const LikelyRange& r) { return r.outside_low != 1 || r.outside_high != 1; }
inline constexpr Field range_fields[] = {
    written<&LikelyRange::basis>(required(text("basis", "The kind of step the range comes from: \"launch_bound\" (the host's kernel launches "
                           "take longer than a layer's GPU work), \"launch_near\" (over a third of it), "
                           "\"compute_bound\", or \"mixture_of_experts\" (any step of a model with routed experts); calibrated "
                           "on a measured run, \"calibrated_layout\", \"calibrated_gpus\" or \"calibrated_model\" "
                           "(measured / calibrated over the validation sources' other rows at that distance; the run "
                           "measured itself has no range)."))),
    written<&LikelyRange::low>(required(out("low", "ratio", "Low end of measured / predicted step time for a run of a software lineage none of the validation rows share, from held-out rows of that kind (80% of such runs lie between low and high), times assumed_low."))),
    written<&LikelyRange::high>(required(out("high", "ratio", "High end of measured / predicted step time for a run of a new lineage, from held-out rows of that kind, times assumed_high."))),
    written<&LikelyRange::rows>(required(out("rows", "rows", "Held-out validation rows of that kind (calibrated: pairs of a measured row and another)."))),
    written<&LikelyRange::sources>(required(out("sources", "sources", "Validation sources they come from."))),
    written_when<&LikelyRange::lineages, &counts_lineages>(out("lineages", "lineages", "Software lineages of those sources, each held out whole and weighing the same.")),
    written_when<&LikelyRange::assumed_low, &assumption_moves>(out("assumed_low", "ratio", "Where the framework was assumed: the fastest plausible framework's step over the assumed one's (at most 1), already in low.")),
    written_when<&LikelyRange::assumed_high, &assumption_moves>(out("assumed_high", "ratio", "Where the framework was assumed: the slowest plausible framework's step over the assumed one's (at least 1), already in high.")),
    written_when<&LikelyRange::outside_low, &envelope_moves>(out("outside_low", "ratio", "Outside the validated envelope (model size, GPU count, pipeline depth, data-parallel width, or a GPU family no source measured): the factor on the low end (at most 1), already in low.")),
    written_when<&LikelyRange::outside_high, &envelope_moves>(out("outside_high", "ratio", "Outside the validated envelope: the factor on the high end (at least 1), already in high.")),
};
inline constexpr Record likely{"report.time.range",
                    doc("With a predicted utilisation: how far the truth is likely to lie from it, from the speed "
                    "validation's held-out rows (traincalc validate --speed)."),
                    range_fields};
inline constexpr RecordOf<LikelyRange> likely_of = typed<LikelyRange, range_fields>(likely);

inline constexpr Field memory_range_fields[] = {
    written<&LikelyRange::basis>(required(text("basis", "\"memory\": measured peaks held out by framework lineage (traincalc validate --memory)."))),
    written<&LikelyRange::low>(required(out("low", "ratio", "Low end of measured / predicted peak for a framework lineage the validation never saw (80% of such runs lie between low and high), times assumed_low."))),
    written<&LikelyRange::high>(required(out("high", "ratio", "High end of measured / predicted peak for a new lineage, times assumed_high."))),
    written<&LikelyRange::rows>(required(out("rows", "rows", "Held-out measured peaks."))),
    written<&LikelyRange::sources>(required(out("sources", "sources", "Validation sources they come from."))),
    written_when<&LikelyRange::lineages, &counts_lineages>(out("lineages", "lineages", "Framework lineages of those sources, each held out whole and weighing the same.")),
    written_when<&LikelyRange::assumed_low, &assumption_moves>(out("assumed_low", "ratio", "Where the framework was assumed: the smallest plausible framework's peak over the assumed one's (at most 1), already in low.")),
    written_when<&LikelyRange::assumed_high, &assumption_moves>(out("assumed_high", "ratio", "Where the framework was assumed: the largest plausible framework's peak over the assumed one's (at least 1), already in high.")),
};
inline constexpr Record memory_likely{"report.memory.range",
                           doc("How far the measured peak is likely to lie from the predicted one (per_gpu_bytes.total)."),
                           memory_range_fields};
inline constexpr RecordOf<LikelyRange> memory_likely_of = typed<LikelyRange, memory_range_fields>(memory_likely);

}  // namespace traincalc::contract
