#include "traincalc/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "contract/text.hpp"
#include "estimate/estimators.hpp"
#include "traincalc/units.hpp"

namespace traincalc {

namespace {

// The scenario with its layout fixed to the one chosen, so that what-ifs (memory suggestions, the
// fewest GPUs that fit) start from it.
Scenario pinned_to(const Scenario& s, const ParallelismReport& p) {
  Scenario v = s;
  v.strategy.tp = p.tp;
  v.strategy.pp = p.pp;
  v.strategy.cp = p.cp;
  v.strategy.ep = p.ep;
  v.strategy.micro_batch = p.micro_batch;
  v.strategy.pp_virtual_stages = p.virtual_stages;
  v.strategy.zero = p.zero;
  v.strategy.recompute = p.recompute;
  v.strategy.dp.reset();
  return v;
}

// An offer whose instances cannot be joined (or that caps its clusters) held the budget's or the
// deadline's count down: said, with the count it would have used where known. An offer that joins
// its instances over ordinary Ethernet only: said when the job spans instances.
void offer_cluster_warnings(const Scenario& s, const PlanReport& plan, bool deadline_capped, Issues& warnings) {
  if (!s.pricing) return;
  const Pricing& p = *s.pricing;
  if (plan.max_gpus && (plan.gpus_wanted || deadline_capped)) {
    const bool by_deadline = plan.gpus_from == GpusFrom::deadline;
    const std::string max = detail::format_number(*plan.max_gpus);
    std::map<std::string, std::string> params{
        {"offer", p.offer_name}, {"max", max}, {"gpus", detail::format_number(plan.gpus)}};
    std::string wanted;
    if (plan.gpus_wanted) {
      params["wanted"] = detail::format_number(*plan.gpus_wanted);
      wanted = (by_deadline ? "The deadline needs " : "The budget rents ") + detail::format_number(*plan.gpus_wanted) +
               " GPUs, but ";
    }
    const std::string limit = detail::offer_limit_words(p);
    const std::string first = wanted.empty() ? p.offer_name + " " + limit : wanted + p.offer_name + " " + limit;
    warnings.push_back({by_deadline ? "budget.deadline_days" : "budget.per_month",
                        p.one_instance ? IssueCode("offer_single_instance_capped") : IssueCode("offer_cluster_max_capped"),
                        first + "; planned on " + detail::format_number(plan.gpus) +
                            ". Choose an offer whose instances form a cluster for more.",
                        params});
  }
  // A count that leaves an instance part-used: the whole instance is rented.
  if (p.instance_gpus && plan.gpus_from == GpusFrom::count && plan.gpus > *p.instance_gpus &&
      std::fmod(plan.gpus, *p.instance_gpus) > 1e-9) {
    const double instances = std::ceil(plan.gpus / *p.instance_gpus);
    const std::string n = detail::format_number(instances), rented = detail::format_number(instances * *p.instance_gpus);
    warnings.push_back({"hardware.count", "offer_partial_instance",
                        detail::format_number(plan.gpus) + " GPUs on " + p.offer_name + " instances of " +
                            detail::format_number(*p.instance_gpus) + " take " + n + " instances, " + rented +
                            " GPUs rented; the cost counts the " + detail::format_number(plan.gpus) +
                            " used. A multiple of " + detail::format_number(*p.instance_gpus) + " uses all it pays for.",
                        {{"offer", p.offer_name}, {"gpus", detail::format_number(plan.gpus)},
                         {"instance", detail::format_number(*p.instance_gpus)}, {"instances", n}, {"rented", rented}}});
  }
  if (p.cluster == OfferCluster::ethernet && p.instance_gpus && plan.gpus > *p.instance_gpus) {
    const std::string instances = detail::format_number(std::ceil(plan.gpus / *p.instance_gpus));
    // The network the step model uses between instances.
    const std::string gbps = detail::format_number(detail::inter_node_gbps(s));
    warnings.push_back({"pricing.offer",
                        "offer_ethernet_cluster",
                        "The " + detail::format_number(plan.gpus) + " GPUs take " + instances + " instances of " +
                            p.offer_name + ", joined over ordinary Ethernet" +
                            (gbps.empty() ? "" : " (" + gbps + " Gbit/s per GPU)") +
                            ", not a training fabric: every step's traffic between instances is slow, and the "
                            "estimate counts it so.",
                        {{"offer", p.offer_name}, {"instances", instances}, {"gbps", gbps}}});
  }
}

// The frameworks a user who did not name one may be running, besides the one assumed, at this
// layout: with tensor, pipeline, context or expert parallelism the three that split a model that way
// (Megatron-LM, DeepSpeed's Megatron fork, torchtitan's FSDP2); else to pre-train those and the
// trainers that train data-parallel (Hugging Face Trainer, LitGPT); to fine-tune those and
// torchtune, and Unsloth on one GPU (its open release trains on one).
std::vector<Framework> plausible_frameworks(const Scenario& s, const ParallelismReport& p, double gpus) {
  const Framework assumed = detail::resolve_memory_regime(s).framework;
  std::vector<Framework> out;
  const bool split = p.tp > 1 || p.pp > 1 || p.cp > 1 || p.ep > 1;
  const bool finetune = s.training.type == TrainingType::finetune;
  for (const Framework f : {Framework::megatron, Framework::deepspeed, Framework::fsdp2, Framework::hf,
                            Framework::litgpt, Framework::torchtune, Framework::unsloth}) {
    if (f == assumed) continue;
    const bool splits = f == Framework::megatron || f == Framework::deepspeed || f == Framework::fsdp2;
    if (split && !splits) continue;
    if (f == Framework::torchtune && !finetune) continue;
    if (f == Framework::unsloth && (!finetune || gpus > 1)) continue;
    out.push_back(f);
  }
  return out;
}

// A likely range widened to cover what an assumption's alternatives would give: its ends times the
// lowest and highest ratio of the alternatives to the assumed figure (the envelope of the plausible
// choices, plus the held-out residuals of the range itself).
void widen_for_assumption(LikelyRange& range, double low, double high) {
  range.assumed_low = std::min(1.0, low);
  range.assumed_high = std::max(1.0, high);
  range.low *= range.assumed_low;
  range.high *= range.assumed_high;
}

// A framework's name as its users know it.
std::string framework_name(const std::string& id) {
  static const std::pair<const char*, const char*> names[] = {
      {"megatron", "Megatron-LM"},  {"deepspeed", "DeepSpeed"},          {"fsdp2", "FSDP2 (torchtitan)"},
      {"hf", "Hugging Face Trainer"}, {"litgpt", "LitGPT"},           {"torchtune", "torchtune"},
      {"unsloth", "Unsloth"}};
  for (const auto& [key, name] : names)
    if (id == key) return name;
  return id;
}

std::string signed_percent(double ratio) {
  const double pct = std::round((ratio - 1) * 100);
  return (pct > 0 ? "+" : "") + detail::format_number(pct == 0 ? 0.0 : pct) + "%";
}

// The framework was assumed: what each plausible other one would change, and how to narrow it.
void framework_assumed_warning(const Report& r, Framework assumed, bool with_memory, Issues& warnings) {
  if (r.framework_alternatives.empty()) return;
  std::string step_list, memory_list, spoken, not_fitting;
  for (const FrameworkAlternative& alt : r.framework_alternatives) {
    const std::string name = framework_name(alt.framework);
    std::string said = name + ":";
    if (alt.step_ratio) {
      step_list += (step_list.empty() ? "" : ",") + name + " " + signed_percent(*alt.step_ratio);
      said += " step " + signed_percent(*alt.step_ratio) + ",";
    }
    if (!with_memory) {
      if (alt.step_ratio) spoken += (spoken.empty() ? "" : "; ") + said.substr(0, said.size() - 1);
      continue;
    }
    memory_list += (memory_list.empty() ? "" : ",") + name + " " + signed_percent(alt.memory_ratio);
    said += " memory " + signed_percent(alt.memory_ratio);
    if (!alt.fits) not_fitting += (not_fitting.empty() ? "" : ",") + name;
    spoken += (spoken.empty() ? "" : "; ") + said;
  }
  const std::string assumed_name = framework_name(to_string(assumed));
  if (step_list.empty() && memory_list.empty()) return;
  std::map<std::string, std::string> params = {{"framework", assumed_name}};
  if (!memory_list.empty()) params["memory_list"] = memory_list;
  if (!step_list.empty()) params["step_list"] = step_list;
  const IssueCode code = memory_list.empty() ? IssueCode("framework_assumed_step")
                          : step_list.empty() ? IssueCode("framework_assumed_memory")
                                              : IssueCode("framework_assumed");
  warnings.push_back({"strategy.framework", code,
                      "The framework is not given: " + assumed_name + " is assumed. At this layout the others " +
                          "would change the estimate by: " + spoken +
                          ". The likely ranges cover them; name your framework (strategy.framework) to narrow them.",
                      params});
  // Whether it fits may hang on the framework: said when the assumed one fits and another would not.
  if (r.memory.fits && !not_fitting.empty())
    warnings.push_back({"strategy.framework", "framework_fit_depends",
                        "It fits under " + assumed_name + "; at this layout it would not under " + not_fitting +
                            ". Name your framework (strategy.framework) to know which.",
                        {{"framework", assumed_name}, {"framework_list", not_fitting}}});
}

}  // namespace

namespace {

// What the layouts, steps and what-ifs of one estimate share: the scenario and its model, compute and
// hardware as reported.
struct EstimateBasis {
  const Scenario& s;
  const Report& r;  // model, compute and hardware
  bool known;       // the architecture is known

  // The scenario with its global batch: the user's, or the default for this many GPUs, so that the
  // planner, the memory and the step see what typing the default would give.
  Scenario with_batch(const Scenario& v, double gpus, const ComputeReport* what_if = nullptr) const {
    using namespace detail;
    if (v.training.global_batch_sequences || v.training.global_batch_tokens) return v;
    Scenario b = v;
    b.training.global_batch_sequences = resolved_global_batch(v, what_if ? *what_if : r.compute, gpus);
    return b;
  }

  // A scenario's layout at a GPU count: given, planned, or (without an architecture) the defaults.
  // Used for the user's scenario and for each what-if of the memory suggestions.
  // (compute: the scenario's, or a what-if's whose sequence length differs.)
  ParallelismReport layout_for(const Scenario& given, double gpus, Issues& warnings,
                               const ComputeReport* what_if = nullptr) const {
    using namespace detail;
    const ComputeReport& compute = what_if ? *what_if : r.compute;
    const Scenario v = with_batch(given, gpus, &compute);
    const double batch = resolved_global_batch(v, compute, gpus);
    if (known && layout_is_searched(v.strategy)) {
      LayoutSearchResult search = plan_layout(v, r.model, compute, r.hardware, gpus, batch);
      if (search.truncated)
        warnings.push_back({"strategy.tp",
                            "planner_truncated",
                            "The planner stopped after " + format_number(search.evaluated) +
                                " layouts; fix some of tp, pp, cp, ep or micro_batch to search the rest.",
                            {{"evaluated", format_number(search.evaluated)}}});
      if (search.found) return search.layout;
      warnings.push_back({"strategy.tp",
                          "no_layout",
                          "No layout of " + format_number(gpus) + " GPUs matches the strategy and a global batch of " +
                              format_number(batch) +
                              " sequences (each data-parallel rank needs at least one); the defaults are shown. "
                              "Give fewer GPUs, a larger training.global_batch_sequences or the layout yourself.",
                          {{"gpus", format_number(gpus)}, {"batch", format_number(batch)}}});
      ParallelismReport p = resolve_layout(v, gpus, warnings);
      p.chosen_by = ChosenBy::default_layout;
      return p;
    }
    ParallelismReport p = resolve_layout(v, gpus, warnings);
    if (!known && !v.strategy.zero && p.dp * p.cp > 1) choose_zero_stage(v, compute, p);
    return p;
  }

  // With a parameter count only there is no layout to search, but the sharding still decides what
  // fits: ZeRO stage 1, 2, then 3 (FSDP), the lowest that fits (each stage adds communication;
  // Rajbhandari et al. 2020, "ZeRO", sec. 5), else the most sharded.
  void choose_zero_stage(const Scenario& v, const ComputeReport& compute, ParallelismReport& p) const {
    using namespace detail;
    Issues ignored;
    double evaluated = 0, fitting = 0;
    std::optional<double> chosen;
    for (double stage = std::max(1.0, p.zero); stage <= 3; ++stage) {
      ParallelismReport option = p;
      option.zero = stage;
      ++evaluated;
      if (estimate_memory(v, r.model, option, r.hardware, compute, ignored).fits) {
        ++fitting;
        if (!chosen) chosen = stage;
      }
    }
    if (chosen != p.zero) {
      p.zero = chosen.value_or(3);
      p.chosen_by = ChosenBy::planner;
      p.layouts_evaluated = evaluated;
      p.layouts_fitting = fitting;
    }
  }

  // The predicted step of the user's scenario at a layout (none without an architecture).
  std::optional<StepPrediction> step_at(const ParallelismReport& layout) const {
    using namespace detail;
    if (!known) return std::nullopt;
    Issues ignored;
    const double gpus = layout.tp * layout.pp * layout.cp * layout.dp;
    const Scenario v = with_batch(s, gpus);
    const MemoryReport memory = estimate_memory(v, r.model, layout, r.hardware, r.compute, ignored);
    return predict_step(v, r.compute, r.hardware, layout, memory.explain, resolved_global_batch(v, r.compute, gpus));
  }
};

// A vendor's GPU row that left figures out: which, and from which built-in GPU they come.
void gpu_fields_filled_warning(const Scenario& s, Issues& warnings) {
  const GpuSpec& gpu = s.hardware.gpu;
  if (gpu.filled_from.empty()) return;
  const GpuSpec* from = builtin_catalog().find_gpu(gpu.filled_from);
  const std::string from_name = from ? from->name : gpu.filled_from;
  std::string fields;
  std::string field_ids;  // the same, comma-separated, for a translation to name each
  for (const std::string& field : gpu.filled_fields) {
    fields += (fields.empty() ? "" : ", ") + field;
    field_ids += (field_ids.empty() ? "" : ",") + field;
  }
  warnings.push_back({"hardware.gpu", "gpu_fields_filled",
                      "The catalog's " + gpu.name + " does not give " + fields +
                          "; they are taken from the closest built-in GPU of its architecture, " + from_name +
                          ". Give them in the catalog where they differ.",
                      {{"gpu", gpu.name}, {"from", from_name}, {"field_ids", field_ids}}});
}

// QLoRA's 4-bit layers and the 8-bit optimizer are bitsandbytes' CUDA kernels (its docs: CUDA fully
// supported, other backends in preview): on another vendor's GPU, said.
void bitsandbytes_warning(const Scenario& s, Issues& warnings) {
  if (const std::string& vendor = s.hardware.gpu.vendor;
      !vendor.empty() && vendor != "NVIDIA" &&
      (s.training.method == FinetuneMethod::qlora || s.strategy.optimizer == Optimizer::adamw_8bit))
    warnings.push_back({s.training.method == FinetuneMethod::qlora ? "training.method" : "strategy.optimizer",
                        "bitsandbytes_gpu",
                        "QLoRA's 4-bit layers and the 8-bit optimizer run on bitsandbytes' CUDA kernels; the " +
                            s.hardware.gpu.name + " is not a GPU bitsandbytes fully supports. Check that your "
                            "framework runs them on it before planning on it.",
                        {{"gpu", s.hardware.gpu.name}}});
}

// The step as the user's measured runs calibrate it (the layout chosen before, on the model's own).
void calibrate_predicted_step(const Scenario& s, const detail::CalibrationFit& calibration, bool predicted,
                              std::optional<StepPrediction>& step, Report& r) {
  using namespace detail;
  if (predicted) {
    r.calibration->step_seconds_uncalibrated = step->step_seconds;
    // The run measured itself carries in full; another run, the share its source's bias explains.
    r.calibration->speed_distance = calibration.speed_distance;
    r.calibration->speed_carried =
        calibration.speed_distance == "same_run" ? 1.0 : calibration_weight(calibration.speed_runs);
    calibrate_step(*step, carried_calibration(calibration.speed, r.calibration->speed_carried));
  } else {
    r.warnings.push_back({"calibration", "calibration_speed_unused",
                          s.strategy.mfu ? "strategy.mfu is given, so the measured speed is not used; remove "
                                           "strategy.mfu to calibrate the step model to your run."
                                         : "The step model needs the model's architecture; the measured speed is "
                                           "not used.",
                          {{"reason", s.strategy.mfu ? reason("mfu_given") : reason("no_architecture")}}});
  }
}

// The predicted step's likely range.
void predicted_step_range(const Scenario& s, const StepPrediction& step, Report& r) {
  using namespace detail;
  r.time.range = likely_range(step);
  // A calibrated step's range is the calibrated rows' at the measured run's distance; the run measured
  // itself is its measurement.
  if (r.calibration && r.calibration->step_seconds_uncalibrated) {
    if (r.calibration->speed_distance == "same_run")
      r.time.range.reset();
    else
      r.time.range = calibration_range(r.calibration->speed_distance);
  }
  // A step measured on this GPU type (any distance but another model or GPU) has its GPU's speed known.
  if (r.time.range) {
    const bool measured_here = r.calibration && r.calibration->step_seconds_uncalibrated &&
                               r.calibration->speed_distance != "model";
    widen_outside_envelope(*r.time.range, s, r.model, r.plan.gpus, r.parallelism, step.mfu, measured_here, r.warnings);
  }
}

// The memory at the chosen layout, its limits (the fewest GPUs, the longest sequence), the fixes that
// make it fit, and the user's measured peaks' calibration.
void report_memory(const EstimateBasis& basis, const Scenario& batched, const Catalog* catalog,
                   const std::optional<detail::CalibrationFit>& calibration, Report& r) {
  using namespace detail;
  const Scenario& s = basis.s;
  r.memory = estimate_memory(batched, r.model, r.parallelism, r.hardware, r.compute, r.warnings);
  const Scenario pinned = pinned_to(batched, r.parallelism);
  r.memory.min_gpus = min_gpus_that_fit(pinned, r.model, r.hardware, r.compute);
  r.memory.max_seq_len = max_seq_len_that_fits(batched, r.model, r.parallelism, r.hardware, r.compute);
  r.memory.max_seq_len_micro_batch = s.strategy.micro_batch.value_or(1);
  // Each what-if with its own batch: the user's, or the default at its GPU count and sequence length.
  const MemoryProbe probe = [&](const Scenario& what_if, double gpus) {
    Issues ignored;
    // A what-if with another sequence length (a shorter sequence to make it fit) has its own compute.
    if (what_if.training.seq_len != s.training.seq_len) {
      Issues errors;
      const ComputeReport compute = estimate_compute(what_if, ignored, errors);
      if (errors.empty()) {
        const Scenario v = basis.with_batch(what_if, gpus, &compute);
        return estimate_memory(v, r.model, basis.layout_for(v, gpus, ignored, &compute), r.hardware, compute, ignored);
      }
    }
    const Scenario v = basis.with_batch(what_if, gpus);
    return estimate_memory(v, r.model, basis.layout_for(v, gpus, ignored), r.hardware, r.compute, ignored);
  };
  r.memory.suggestions = memory_suggestions(s, pinned, r, catalog, probe);
  r.memory.range = memory_range();
  if (calibration && calibration->memory.runs > 0) {
    r.calibration->per_gpu_bytes_uncalibrated = r.memory.per_gpu_bytes.total;
    r.calibration->memory_distance = calibration->memory_distance;
    r.calibration->memory_carried =
        calibration->memory_distance == "same_run" ? 1.0 : memory_calibration_weight(calibration->memory_runs);
    calibrate_memory(r.memory, carried_calibration(calibration->memory, r.calibration->memory_carried));
  }
}

// The framework assumed: each plausible other one at the same layout, and the ranges widened to
// cover them (what naming the framework would narrow). What the user measured is their framework's:
// a calibrated step or peak is not widened.
void weigh_other_frameworks(const Scenario& s, const Scenario& batched, const std::optional<StepPrediction>& step,
                            bool predicted, double gpus, Report& r) {
  using namespace detail;
  const bool widen_step = !(r.calibration && r.calibration->step_seconds_uncalibrated);
  const bool widen_memory = !(r.calibration && r.calibration->memory.runs > 0);
  if (!(!s.strategy.framework && (widen_step || widen_memory))) return;
  const double peak = widen_memory ? r.memory.per_gpu_bytes.total : r.calibration->per_gpu_bytes_uncalibrated;
  const double assumed_step = step ? step->step_seconds : 0;
  double step_low = 1, step_high = 1, memory_low = 1, memory_high = 1;
  for (const Framework framework : plausible_frameworks(s, r.parallelism, gpus)) {
    Scenario v = batched;
    v.strategy.framework = framework;
    Issues ignored;
    const MemoryReport memory = estimate_memory(v, r.model, r.parallelism, r.hardware, r.compute, ignored);
    if (!(memory.per_gpu_bytes.total > 0) || !(peak > 0)) continue;
    FrameworkAlternative alt;
    alt.framework = to_string(framework);
    alt.memory_ratio = memory.per_gpu_bytes.total / peak;
    alt.fits = memory.fits;
    if (predicted && widen_step) {
      const auto at = predict_step(v, r.compute, r.hardware, r.parallelism, memory.explain,
                                   resolved_global_batch(v, r.compute, gpus));
      if (at && at->step_seconds > 0 && assumed_step > 0) alt.step_ratio = at->step_seconds / assumed_step;
    }
    memory_low = std::min(memory_low, alt.memory_ratio);
    memory_high = std::max(memory_high, alt.memory_ratio);
    if (alt.step_ratio) {
      step_low = std::min(step_low, *alt.step_ratio);
      step_high = std::max(step_high, *alt.step_ratio);
    }
    r.framework_alternatives.push_back(alt);
  }
  if (widen_memory) widen_for_assumption(r.memory.range, memory_low, memory_high);
  if (r.time.range && widen_step) widen_for_assumption(*r.time.range, step_low, step_high);
  framework_assumed_warning(r, resolve_memory_regime(s).framework, widen_memory, r.warnings);
}

}  // namespace

Report estimate(const Scenario& s, const Catalog* catalog) {
  using namespace detail;
  Report r;
  r.model = report_model(s);
  r.compute = estimate_compute(s, r.warnings, r.errors);
  if (!r.errors.empty()) return r;
  r.hardware = report_hardware(s);
  // The user's measured runs: fitted first, so that a measurement that cannot be is refused before
  // anything is estimated on it.
  std::optional<CalibrationFit> calibration;
  if (!s.calibration.empty()) {
    calibration = fit_calibration(s, catalog);
    if (!calibration->errors.empty()) {
      r.errors = calibration->errors;
      return r;
    }
    r.calibration.emplace();
    r.calibration->speed = calibration->speed;
    r.calibration->memory = calibration->memory;
    r.calibration->points = calibration->points;
  }
  const bool known = s.model.architecture.has_value();
  const EstimateBasis basis{s, r, known};
  auto layout_at = [&](double gpus, Issues& warnings) { return basis.layout_for(s, gpus, warnings); };
  auto step_at = [&](const ParallelismReport& layout) -> std::optional<StepPrediction> {
    return basis.step_at(layout);
  };

  double mfu = resolved_mfu(s, r.warnings);
  r.plan = plan_gpus(s, r.compute, r.hardware, mfu, r.errors);
  if (!r.errors.empty()) return r;
  Issues layout_warnings;
  r.parallelism = layout_at(r.plan.gpus, layout_warnings);
  std::optional<StepPrediction> step = step_at(r.parallelism);
  const bool predicted = !s.strategy.mfu && step;
  bool deadline_capped = false;  // the offer's limit kept the deadline plan from more GPUs
  if (predicted && s.budget && s.budget->deadline_days && !s.hardware.count && !s.budget->per_month) {
    // Planned on the expected run, the headline of a predicted utilisation: interruptions grow with the
    // GPUs, so the count that meets the deadline is found on it, not on the steady state.
    const RunSeconds expected_seconds = [&](double g, const StepPrediction& at) {
      TimeReport t = estimate_time(r.compute, r.hardware, g, at.mfu);
      t.mfu_source = MfuSource::predicted;
      attach_step(t, at, r.compute.seq_len);
      Issues ignored;
      return expected_run(s, r.compute, t, g, r.hardware.gpus_per_node, ignored).wall_clock_hours * units::seconds_per_hour;
    };
    DeadlinePlan plan = plan_for_deadline(s, r.compute, r.hardware, *step, layout_at, step_at, expected_seconds);
    r.plan.gpus = plan.gpus;
    r.plan.nodes = std::ceil(plan.gpus / r.hardware.gpus_per_node);
    r.parallelism = std::move(plan.layout);
    layout_warnings = std::move(plan.warnings);
    step = plan.step;
    r.plan.gpus_wanted.reset();  // the first guess's count (at an assumed utilisation) is not the plan's
    deadline_capped = plan.capped;
  }
  offer_cluster_warnings(s, r.plan, deadline_capped, r.warnings);
  gpu_fields_filled_warning(s, r.warnings);
  bitsandbytes_warning(s, r.warnings);
  r.warnings.insert(r.warnings.end(), layout_warnings.begin(), layout_warnings.end());
  if (const StageLayers on = pipeline_stage_layers(s, r.parallelism.pp, r.parallelism.virtual_stages);
      r.parallelism.pp > 1 && on.valid) {
    r.parallelism.first_stage_layers = on.first;
    r.parallelism.middle_stage_layers = on.middle;
    r.parallelism.last_stage_layers = on.last;
  }
  if (calibration && calibration->speed.runs > 0) calibrate_predicted_step(s, *calibration, predicted, step, r);
  if (predicted) mfu = step->mfu;
  const double gpus = r.plan.gpus;
  r.time = estimate_time(r.compute, r.hardware, gpus, mfu);
  r.time.mfu_source = s.strategy.mfu ? MfuSource::given : predicted ? MfuSource::predicted : MfuSource::assumed;
  attach_step(r.time, step, r.compute.seq_len);
  if (predicted) predicted_step_range(s, *step, r);
  const Scenario batched = basis.with_batch(s, gpus);
  if (step) speed_warnings(s, r.hardware, r.parallelism, *step, resolved_global_batch(batched, r.compute, gpus),
                           r.compute.seq_len, r.warnings);
  report_memory(basis, batched, catalog, calibration, r);
  weigh_other_frameworks(s, batched, step, predicted, gpus, r);
  // The expected run: whenever the utilisation is the engine's, and on request (operations) beside a
  // given one, which stays exact.
  if (r.time.mfu_source != MfuSource::given || s.operations.given)
  {
    // A step calibrated to the user's measured one is already a real run's steady speed: its run
    // efficiency is 1 unless given.
    Scenario run = s;
    if (r.calibration && r.calibration->step_seconds_uncalibrated && !run.operations.run_efficiency)
      run.operations.run_efficiency = 1.0;
    r.time.expected = expected_run(run, r.compute, r.time, gpus, r.hardware.gpus_per_node, r.warnings);
  }
  r.cost = estimate_cost(s, r.time, gpus);
  r.energy = estimate_energy(s, r.time, gpus, r.warnings);
  r.scaling_law = estimate_scaling_law(s, r.compute, r.hardware, r.time);

  check_plan(r.time, r.cost, r.plan, r.warnings);
  return r;
}

}  // namespace traincalc
