// The layout planner: every way to lay the GPUs out (tensor, pipeline, context, expert and data
// parallelism, micro-batch, ZeRO stage, recomputation) that the scenario leaves "auto", each checked
// against memory and timed by predict_step; the fastest that fits wins.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "estimate/estimators.hpp"

namespace traincalc::detail {

namespace {

std::vector<double> powers_of_two_up_to(double most) {
  std::vector<double> out;
  for (double x = 1; x <= most; x *= 2) out.push_back(x);
  return out;
}

bool whole(double x) {
  return std::floor(x) == x;
}

// Micro-batch sizes worth trying for a data-parallel rank's share of the batch: the divisors of a
// whole share (no padded micro-batch), else powers of two; at most 256 sequences.
std::vector<double> micro_batch_candidates(double share) {
  std::vector<double> out;
  if (whole(share)) {
    for (double d = 1; d <= std::min(256.0, share); ++d)
      if (whole(share / d)) out.push_back(d);
    return out;
  }
  return powers_of_two_up_to(std::min(256.0, share));
}

bool better(const LayoutOption& x, const LayoutOption& y) {
  if (x.fits != y.fits) return x.fits;
  if (!x.fits) return x.memory_bytes < y.memory_bytes;
  if (x.step_seconds != y.step_seconds) return x.step_seconds < y.step_seconds;
  return x.memory_bytes < y.memory_bytes;
}

}  // namespace

double default_batch_tokens(const ComputeReport& compute, double gpus) {
  // About 4M tokens a step (Llama 2: 4M, Touvron et al. 2023, table 1; GPT-3 175B: 3.2M), and 1,024
  // tokens a GPU on a larger cluster, as large runs grow the batch to keep every replica busy (Llama 3
  // 405B: 16M tokens on 16,384 H100s, arXiv 2407.21783, table 4; MegaScale 175B: 6,144 sequences of
  // 2,048 tokens on 12,288 GPUs, arXiv 2402.15627, table 2), up to the batch a run of this compute
  // still trains well at: B_opt = 0.292 C^0.3271 tokens for C training FLOPs (DeepSeek LLM, arXiv
  // 2401.02954, eq. 1, fitted on non-embedding FLOPs up to 3e20 and extrapolated; 68M tokens for
  // Llama 3 405B's 3.8e25 FLOPs, where Meta ran 16M and DeepSeek-V3 63M at 3.3e24).
  constexpr double base_tokens = 4194304;
  constexpr double tokens_per_gpu = 1024;
  const double tolerated = std::max(base_tokens, 0.292 * std::pow(std::max(compute.total_flops, 1.0), 0.3271));
  return std::min(std::max(base_tokens, tokens_per_gpu * gpus), tolerated);
}

double resolved_global_batch(const Scenario& s, const ComputeReport& compute, double gpus) {
  const Training& t = s.training;
  if (t.global_batch_sequences) return *t.global_batch_sequences;
  if (t.global_batch_tokens) return std::max(1.0, std::round(*t.global_batch_tokens / compute.seq_len));
  // Fine-tuning: 128 sequences, the order of Alpaca's and QLoRA's batches.
  if (t.type == TrainingType::finetune) return 128;
  return std::max(1.0, std::round(default_batch_tokens(compute, gpus) / compute.seq_len));
}

// Enough for any real cluster's full search (4096 GPUs weigh about a thousand layouts); a pathological
// input stops here, about 0.1 s natively, and the report says so.
constexpr double max_layouts = 200000;

bool layout_is_searched(const Strategy& st) {
  return !st.tp || !st.pp || !st.cp || !st.ep || !st.micro_batch || !st.zero || !st.recompute;
}

namespace {

// The layout axes searched the same way at every stage count: tensor and context parallelism, and
// the recomputation kinds.
struct LayoutAxes {
  std::vector<double> tps, cps;
  std::vector<Recompute> recomputes;
};

// The values of tp, cp and recomputation worth weighing (a given one alone).
LayoutAxes layout_axes(const Scenario& s, const ComputeReport& compute, const HardwareReport& hardware, double gpus) {
  const Strategy& st = s.strategy;
  const Architecture& a = *s.model.architecture;
  const double kv_heads = effective_kv_heads(a);
  const double seq = compute.seq_len;
  LayoutAxes axes;
  std::vector<double>& tps = axes.tps;
  std::vector<double>& cps = axes.cps;
  std::vector<Recompute>& recomputes = axes.recomputes;

  tps = st.tp ? std::vector<double>{*st.tp} : powers_of_two_up_to(std::min({gpus, hardware.gpus_per_node, a.heads}));
  std::erase_if(tps, [&](double tp) {
    return !st.tp && (!whole(a.heads / tp) || !(whole(kv_heads / tp) || whole(tp / kv_heads)));
  });
  // Context parallelism pays for long sequences only: each rank keeps at least 4096 tokens, the
  // range where Megatron-Core recommends it.
  cps = st.cp ? std::vector<double>{*st.cp} : powers_of_two_up_to(std::min(32.0, seq / 4096));
  std::erase_if(cps, [&](double cp) { return !st.cp && !whole(seq / (2 * cp)); });  // 2 x cp chunks per sequence
  if (cps.empty()) cps = {1};
  // Megatron's selective recomputation redoes only what FlashAttention already recomputes: with it,
  // the same as none in time and memory, so not weighed twice. torchtitan's per-op kind (FSDP2) lies
  // between none and full in both, and is weighed.
  recomputes = {Recompute::none, Recompute::full};
  const MemoryRegime regime = resolve_memory_regime(s);
  if (!keeps_no_scores(regime.attention) || per_op_selective(Recompute::selective, regime)) {
    recomputes.insert(recomputes.begin() + 1, Recompute::selective);
  }
  if (st.recompute) recomputes = {*st.recompute};
  return axes;
}

// The pipeline stage counts worth weighing for `rest` GPUs per tp x cp group, in increasing order.
std::vector<double> pipeline_candidates(const Scenario& s, double rest, double blocks) {
  const Strategy& st = s.strategy;
  std::vector<double> pps = st.pp ? std::vector<double>{*st.pp} : std::vector<double>{};
  if (!st.pp) {
    // The divisors of rest (found up to sqrt(rest)) that leave every stage a whole number of layers:
    // even, or with lighter first and last stages where they do not divide (pipeline_stage_layers).
    for (double d = 1; d * d <= rest; ++d) {
      if (!whole(rest / d)) continue;
      for (double pp : {d, rest / d})
        if (pp <= blocks && pipeline_stage_layers(s, pp).valid && std::find(pps.begin(), pps.end(), pp) == pps.end())
          pps.push_back(pp);
    }
    std::sort(pps.begin(), pps.end());
  }
  return pps;
}

// The choices weighed on one tp x cp x pp: expert parallelism, micro-batch, ZeRO stage and chunks per
// pipeline stage.
struct StageChoices {
  std::vector<double> eps, mbs, zeros, vs;
};

// The choices on pp stages of dp data-parallel ranks; nullopt where that stage count is not weighed.
std::optional<StageChoices> stage_choices(const Scenario& s, double cp, double pp, double dp, double global_batch) {
  const Strategy& st = s.strategy;
  const Architecture& a = *s.model.architecture;
  const double blocks = a.layers + a.decoder_layers;
  StageChoices c;
  std::vector<double>& eps = c.eps;
  std::vector<double>& zeros = c.zeros;
  std::vector<double>& vs = c.vs;
  eps = st.ep ? std::vector<double>{*st.ep} : std::vector<double>{1};
  if (!st.ep && a.experts > 1)
    for (double ep = 2; ep <= std::min(a.experts, dp * cp); ep *= 2)
      if (whole(a.experts / ep) && whole(dp * cp / ep)) eps.push_back(ep);
  c.mbs = st.micro_batch ? std::vector<double>{*st.micro_batch} : micro_batch_candidates(global_batch / dp);
  // ZeRO-2 takes the same time as ZeRO-1 (a reduce-scatter and a gather either way) in less
  // memory, so ZeRO-1 is not weighed separately.
  zeros = st.zero ? std::vector<double>{*st.zero} : std::vector<double>{0};
  if (!st.zero && dp * cp > 1) zeros = {0, 2, 3};
  if (!st.zero && dp * cp > 1 && st.framework == Framework::fsdp2) zeros = {3};  // fully_shard
  // Interleaved 1F1B: v chunks of layers per stage cut the bubble v-fold for v times the sends
  // and a little more activation memory (Narayanan et al. 2021, sec. 2.2).
  vs = {1};
  // A given number of chunks applies where they split the stages (pipeline_stage_layers: equal
  // chunks, the ends at most a chunk lighter; else skip that stage count).
  if (pp > 1 && st.pp_virtual_stages) {
    if (*st.pp_virtual_stages > 1 && !st.pp && !pipeline_stage_layers(s, pp, *st.pp_virtual_stages).valid)
      return std::nullopt;
    vs = {*st.pp_virtual_stages};
  }
  // Zero-bubble and DualPipe schedules are not interleaved, and DualPipe pairs the stages.
  const bool one_f_one_b = st.pp_schedule == PipelineSchedule::one_f_one_b;
  if (st.pp_schedule == PipelineSchedule::dualpipe && !st.pp && pp > 1 && std::fmod(pp, 2) != 0) return std::nullopt;
  if (pp > 1 && !st.pp_virtual_stages && one_f_one_b)
    for (double v = 2; v <= std::min(8.0, std::ceil(blocks / pp)); ++v)
      if (pipeline_stage_layers(s, pp, v).valid) vs.push_back(v);
  return c;
}

// The search's running state: the layout being built, the count of those weighed and the best few.
struct LayoutSearch {
  static constexpr std::size_t keep = 6;
  const Scenario& s;
  const ModelReport& model;
  const ComputeReport& compute;
  const HardwareReport& hardware;
  double global_batch;
  StepHardware machine;
  LayoutSearchResult result;
  std::vector<LayoutOption> best;  // kept sorted, at most keep entries
  Issues ignored;
  ParallelismReport layout;

  // Estimates the memory and step of one layout and keeps it among the best; whether it fits.
  bool weigh(const ParallelismReport& l) {
    ignored.clear();
    const MemoryReport memory = estimate_memory(s, model, l, hardware, compute, ignored, MemoryDetail::numbers);
    const auto step = predict_step(s, compute, machine, l, memory.explain, global_batch);
    ++result.evaluated;
    LayoutOption option{static_cast<const LayoutChoices&>(l), step ? step->step_seconds : 0.0,
                        step ? step->mfu : 0.0, memory.per_gpu_bytes.total, memory.fits};
    if (option.fits) ++result.fitting;
    if (best.size() < keep || better(option, best.back())) {
      best.insert(std::upper_bound(best.begin(), best.end(), option, better), option);
      if (best.size() > keep) best.pop_back();
    }
    return option.fits;
  }
};

// Weighs every choice on one tp x cp x pp x dp; false when the search's budget of layouts runs out.
bool weigh_stage(LayoutSearch& search, double tp, double cp, double pp, double dp, const StageChoices& c,
                 const std::vector<Recompute>& recomputes) {
  const Strategy& st = search.s.strategy;
  LayoutSearchResult& result = search.result;
  ParallelismReport& layout = search.layout;
  for (double v : c.vs)
    for (double ep : c.eps)
      for (double zero : c.zeros)
        for (Recompute recompute : recomputes) {
          static_cast<LayoutChoices&>(layout) = {
              .tp = tp, .pp = pp, .dp = dp, .cp = cp, .ep = ep, .zero = zero, .virtual_stages = v, .recompute = recompute};
          layout.sequence_parallel = st.sequence_parallel.value_or(tp > 1);
          // Memory grows with the micro-batch: past the first that does not fit, none will.
          for (double mb : c.mbs) {
            if (result.evaluated >= max_layouts) {
              result.truncated = true;
              return false;
            }
            layout.micro_batch = mb;
            if (!search.weigh(layout)) break;
          }
        }
  return true;
}

// Weighs every layout of `gpus` GPUs the strategy leaves open, until the budget of layouts runs out.
void search_layouts(LayoutSearch& search, const LayoutAxes& axes, double gpus) {
  const Strategy& st = search.s.strategy;
  const Architecture& a = *search.s.model.architecture;
  const double blocks = a.layers + a.decoder_layers;
  for (double tp : axes.tps) {
    for (double cp : axes.cps) {
      const double rest = gpus / (tp * cp);
      if (!whole(rest) || rest < 1) continue;
      for (double pp : pipeline_candidates(search.s, rest, blocks)) {
        const double dp = rest / pp;
        if (!whole(dp) || dp < 1 || (st.dp && *st.dp != dp)) continue;
        if (dp > search.global_batch) continue;  // every data-parallel rank needs at least one sequence
        const std::optional<StageChoices> choices = stage_choices(search.s, cp, pp, dp, search.global_batch);
        if (!choices) continue;
        if (!weigh_stage(search, tp, cp, pp, dp, *choices, axes.recomputes)) return;
      }
    }
  }
}

// The best layout found as the result's layout, the others that fit as its alternatives.
void choose_best(LayoutSearchResult& result, const std::vector<LayoutOption>& best, const Strategy& st) {
  const LayoutOption& chosen = best.front();
  ParallelismReport& p = result.layout;
  static_cast<LayoutChoices&>(p) = chosen;
  p.sequence_parallel = st.sequence_parallel.value_or(chosen.tp > 1);
  p.chosen_by = ChosenBy::planner;
  p.layouts_evaluated = result.evaluated;
  p.layouts_fitting = result.fitting;
  for (std::size_t i = 1; i < best.size(); ++i)
    if (best[i].fits) p.alternatives.push_back(best[i]);
  result.found = true;
}

}  // namespace

LayoutSearchResult plan_layout(const Scenario& s, const ModelReport& model, const ComputeReport& compute,
                               const HardwareReport& hardware, double gpus, double global_batch) {
  const LayoutAxes axes = layout_axes(s, compute, hardware, gpus);
  LayoutSearch search{s, model, compute, hardware, global_batch, step_hardware(s, hardware), {}, {}, {}, {}};
  search_layouts(search, axes, gpus);
  if (search.best.empty()) return search.result;
  choose_best(search.result, search.best, s.strategy);
  return search.result;
}

}  // namespace traincalc::detail
