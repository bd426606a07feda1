// How many GPUs, and how they are laid out. The count is given, bought by a monthly budget
// (floor(budget / monthly price), as seed 004 does), or the fewest that meet a deadline.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "estimate/estimators.hpp"
#include "contract/text.hpp"
#include "traincalc/names.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

namespace {
double model_parallel_size(const Strategy& s) {
  return s.tp.value_or(1) * s.pp.value_or(1) * s.cp.value_or(1);
}
}  // namespace

PlanReport plan_gpus(const Scenario& s, const ComputeReport& compute, const HardwareReport& hardware, double mfu,
                     Issues& errors) {
  PlanReport plan;
  const double group = model_parallel_size(s.strategy);
  const double flops_per_gpu_second = units::tflops_to_flops(hardware.peak_tflops) * mfu;
  const Budget* budget = s.budget ? &*s.budget : nullptr;

  if (s.hardware.count) {
    plan.gpus = *s.hardware.count;
    plan.gpus_from = GpusFrom::count;
  } else if (budget && budget->per_month) {
    const double price = monthly_price(*s.pricing);
    // floor(budget / price), guarded against 10000 / 2000 landing a hair below 5 in binary.
    double affordable = std::floor(*budget->per_month / price * (1 + 1e-12));
    affordable = std::floor(affordable / group) * group;
    plan.gpus = affordable;
    plan.gpus_from = GpusFrom::monthly_budget;
    if (affordable > 1e7) {
      errors.push_back({"budget.per_month", "out_of_range",
                        "This budget rents " + format_number(affordable) +
                            " GPUs a month, more than the 10 million the calculator plans for; check the budget and "
                            "the price.",
                        {{"reason", reason("budget_gpus")}, {"gpus", format_number(affordable)}, {"max", format_number(1e7)}}});
    } else if (affordable < 1) {
      const std::string currency = " " + s.pricing->currency;
      errors.push_back({"budget.per_month", "budget_too_small",
                        "A monthly budget of " + format_number(*budget->per_month) + currency + " does not rent " +
                            (group > 1 ? format_number(group) + " GPUs" : std::string("one GPU")) + " at " +
                            format_number(price) + currency + " per GPU-month; raise it to at least " +
                            format_number(price * group) + currency + " or choose a cheaper GPU.",
                        {{"reason", reason("monthly_budget")}, {"budget", format_number(*budget->per_month)}, {"currency", s.pricing->currency}, {"gpus", format_number(group)}, {"price", format_number(price)}, {"needed", format_number(price * group)}}});
    }
  } else if (budget && budget->deadline_days) {
    const double seconds = *budget->deadline_days * units::seconds_per_day;
    double needed = std::ceil(compute.total_flops / (flops_per_gpu_second * seconds) * (1 - 1e-12));
    needed = std::max(group, std::ceil(needed / group) * group);
    plan.gpus = needed;
    plan.gpus_from = GpusFrom::deadline;
    if (needed > 1e7)
      errors.push_back({"budget.deadline_days", "out_of_range",
                        "Finishing in " + format_number(*budget->deadline_days) + " days would take " +
                            format_number(needed) +
                            " GPUs, more than the 10 million the calculator plans for; allow "
                            "more time or less work.",
                        {{"reason", reason("deadline_gpus")},
                        {"days", format_number(*budget->deadline_days)},
                        {"gpus", format_number(needed)},
                        {"max", format_number(1e7)}}});
  }
  // An offer's limit (one instance where instances cannot be joined, or the provider's cluster cap):
  // a count given above it is refused; a budget or deadline is planned within it (said in a warning).
  if (const std::optional<double> cap = s.pricing ? s.pricing->max_gpus : std::nullopt; cap && errors.empty()) {
    plan.max_gpus = *cap;
    if (group > *cap) {
      const Pricing& p = *s.pricing;
      errors.push_back({"strategy.tp", "offer_group_too_large",
                        "One job on " + p.offer_name + " gets at most " + format_number(*cap) +
                            " GPUs, fewer than one model-parallel group (tp x pp x cp = " + format_number(group) +
                            "). Make the group smaller, or choose an offer whose instances form a larger cluster.",
                        {{"offer", p.offer_name}, {"max", format_number(*cap)}, {"group", format_number(group)}}});
    } else if (s.hardware.count && *s.hardware.count > *cap) {
      const Pricing& p = *s.pricing;
      const std::string max = format_number(*cap), count = format_number(*s.hardware.count);
      if (p.one_instance)
        errors.push_back({"hardware.count", "offer_single_instance",
                          p.offer_name + " " + offer_limit_words(p) + ": " + count +
                              " GPUs would be separate machines with no network between them. "
                              "Use at most " + max + " GPUs, or an offer whose instances form a cluster.",
                          {{"offer", p.offer_name}, {"max", max}, {"count", count}}});
      else
        errors.push_back({"hardware.count", "offer_cluster_max",
                          p.offer_name + " " + offer_limit_words(p) + ", not " + count +
                              ". Use at most " + max + " GPUs, or another offer.",
                          {{"offer", p.offer_name}, {"max", max}, {"count", count}}});
    } else if (!s.hardware.count && plan.gpus > *cap) {
      plan.gpus_wanted = plan.gpus;
      plan.gpus = std::floor(*cap / group) * group;
    }
  }
  // Beyond one instance a budget rents whole instances (an 8-GPU instance is rented whole): the GPUs
  // it buys are rounded down to them, in whole model-parallel groups.
  if (const std::optional<double> instance = s.pricing ? s.pricing->instance_gpus : std::nullopt;
      instance && plan.gpus_from == GpusFrom::monthly_budget && plan.gpus > *instance && errors.empty()) {
    const double unit = static_cast<double>(
        std::lcm(static_cast<long long>(std::max(1.0, group)), static_cast<long long>(std::max(1.0, *instance))));
    if (unit > 0 && unit <= plan.gpus) plan.gpus = std::floor(plan.gpus / unit) * unit;
  }
  if (s.strategy.dp && !s.hardware.count && errors.empty() && *s.strategy.dp * group != plan.gpus)
    errors.push_back({"strategy.dp", "inconsistent",
                      "strategy.dp x tp x pp x cp = " + format_number(*s.strategy.dp * group) + " but the " +
                          std::string(contract::name_of(contract::gpus_froms, plan.gpus_from)) + " gives " + format_number(plan.gpus) +
                          " GPUs; remove strategy.dp or give hardware.count instead.",
                      {{"reason", reason("dp_plan")}, {"product", format_number(*s.strategy.dp * group)}, {"gpus", format_number(plan.gpus)}}});
  plan.nodes = std::ceil(plan.gpus / hardware.gpus_per_node);
  if (budget) {
    plan.budget_per_month = budget->per_month;
    plan.budget_total = budget->total;
    plan.deadline_days = budget->deadline_days;
    // A monthly budget for a number of months: that many billing months of time, and of money.
    if (budget->months && budget->per_month) {
      plan.budget_total = *budget->per_month * *budget->months;
      plan.deadline_days = *budget->months * (s.pricing ? s.pricing->hours_per_month : units::default_hours_per_month) /
                           units::hours_per_day;
    }
  }
  return plan;
}

StageLayers pipeline_stage_layers(double blocks, double pp, double first_given, double last_given,
                                  double virtual_stages) {
  const double v = virtual_stages;
  if (v > 1 && pp > 1) {
    StageLayers out;
    const auto whole = [](double x) { return x >= 0 && std::floor(x) == x; };
    double chunk = 0;
    if (first_given > 0 || last_given > 0) {
      out = pipeline_stage_layers(blocks, pp, first_given, last_given);  // the stages' totals as without chunks
      if (!out.valid) return out;
      // A full stage: those between; with two stages, the heavier end's layers in whole chunks.
      chunk = pp > 2 ? out.middle / v : std::ceil(std::max(out.first, out.last) / v);
    } else if (whole(blocks / (pp * v))) {
      chunk = blocks / (pp * v);
      out.first = out.last = blocks / pp;
      out.middle = pp > 2 ? blocks / pp : 0.0;
    } else {
      chunk = std::ceil(blocks / (pp * v));
      const double missing = pp * v * chunk - blocks;
      const double from_last = std::min(std::ceil(missing / 2), chunk);  // as Llama 3: both ends lighter
      out.first = v * chunk - (missing - from_last);
      out.last = v * chunk - from_last;
      out.middle = pp > 2 ? v * chunk : 0.0;
    }
    const double full = v * chunk;
    out.chunk = chunk;
    out.valid = whole(chunk) && chunk >= 1 && out.first >= 1 && out.last >= 1 && out.first <= full &&
                out.last <= full && full - out.first <= chunk && full - out.last <= chunk &&
                (pp <= 2 || out.middle == full) && out.first + out.last + (pp - 2) * out.middle == blocks;
    return out;
  }
  StageLayers out;
  const auto whole_at_least_one = [](double x) { return x >= 1 && std::floor(x) == x; };
  if (pp <= 1) {
    out.first = out.last = blocks;
  } else if (first_given > 0 || last_given > 0) {
    const double between = pp - 2;
    if (first_given > 0 && last_given > 0) {
      out.first = first_given;
      out.last = last_given;
      out.middle = between > 0 ? (blocks - first_given - last_given) / between : 0.0;
      if (between == 0 && first_given + last_given != blocks) return out;
    } else {
      // One end given: the other stages share the rest evenly, the other end with them.
      const double share = (blocks - std::max(first_given, last_given)) / (pp - 1);
      out.first = first_given > 0 ? first_given : share;
      out.last = last_given > 0 ? last_given : share;
      out.middle = between > 0 ? share : 0.0;
    }
  } else if (std::floor(blocks / pp) == blocks / pp) {
    out.first = out.last = blocks / pp;
    out.middle = pp > 2 ? blocks / pp : 0.0;
  } else {
    const double fewer = std::floor(blocks / pp);
    const double heavier = blocks - fewer * pp;  // stages with one layer more, 1 .. pp - 1
    out.first = heavier > pp - 2 ? fewer + 1 : fewer;  // both ends lighter where pp - 2 stages take the rest
    out.last = fewer;
    out.middle = pp > 2 ? fewer + 1 : 0.0;
  }
  out.valid = whole_at_least_one(out.first) && whole_at_least_one(out.last) &&
              (pp <= 2 || whole_at_least_one(out.middle));
  return out;
}

StageLayers pipeline_stage_layers(const Scenario& s, double pp, double virtual_stages) {
  const std::optional<Architecture>& a = s.model.architecture;
  if (!a) return {};
  return pipeline_stage_layers(a->layers + a->decoder_layers, pp, s.strategy.pp_first_stage_layers.value_or(0),
                               s.strategy.pp_last_stage_layers.value_or(0), virtual_stages);
}

ParallelismReport resolve_layout(const Scenario& s, double gpus, Issues& warnings) {
  const Strategy& st = s.strategy;
  ParallelismReport p;
  p.tp = st.tp.value_or(1);
  p.pp = st.pp.value_or(1);
  p.cp = st.cp.value_or(1);
  p.ep = st.ep.value_or(1);
  p.dp = std::max(1.0, std::floor(gpus / (p.tp * p.pp * p.cp)));
  p.micro_batch = st.micro_batch.value_or(1);
  p.virtual_stages = p.pp > 1 ? st.pp_virtual_stages.value_or(1) : 1;
  // ZeRO-1 (Megatron's distributed optimizer) is the usual default once there is data parallelism.
  // FSDP2 shards weights, gradients and states fully (fully_shard): ZeRO-3 in these terms.
  const bool fsdp2 = st.framework == Framework::fsdp2;
  p.zero = st.zero.value_or(p.dp > 1 ? (fsdp2 ? 3 : 1) : 0);
  p.sequence_parallel = st.sequence_parallel.value_or(p.tp > 1);
  p.recompute = st.recompute.value_or(Recompute::none);
  p.chosen_by = layout_is_searched(st) ? ChosenBy::default_layout : ChosenBy::given;
  if (!s.model.architecture && (!st.tp || !st.pp || !st.micro_batch))
    warnings.push_back({"strategy.tp", "layout_assumed",
                        "The layout planner needs the model's architecture: tensor and pipeline parallelism default to "
                        "1, micro-batch to 1 and the rest is data parallel. Set strategy.tp, pp and micro_batch to "
                        "match your run; memory per GPU depends on them."});
  return p;
}

// The GPUs a deadline needs depend on the utilisation they reach, and that on their number (and on
// how the batch divides among them). Counts tried: whole model-parallel groups, powers of two up to a
// node, whole nodes beyond; grown until the run as planned (run_seconds: the expected run's, with
// interruptions that grow with the GPUs) meets the deadline, then bisected down to the fewest that
// do. Where none does, the count whose run is shortest.
DeadlinePlan plan_for_deadline(const Scenario& s, const ComputeReport& compute, const HardwareReport& hardware,
                               const StepPrediction& first_step, const LayoutAt& layout_at, const StepAt& step_at,
                               const RunSeconds& run_seconds) {
  const double group = s.strategy.tp.value_or(1) * s.strategy.pp.value_or(1) * s.strategy.cp.value_or(1);
  const double per_node = hardware.gpus_per_node;
  const double unit = static_cast<double>(std::lcm(static_cast<long long>(group), static_cast<long long>(per_node)));
  auto round_up = [&](double g) {
    if (g <= per_node) {
      double c = group;
      while (c < g) c *= 2;
      if (c <= per_node) return c;
    }
    return std::ceil(g / unit - 1e-9) * unit;
  };
  struct Probe {
    double gpus = 0;
    ParallelismReport layout;
    std::optional<StepPrediction> step;
    Issues warnings;
    bool possible = false;  // a layout exists (the batch divides among the GPUs)
    bool meets = false;
  };
  const double deadline_seconds = *s.budget->deadline_days * units::seconds_per_day;
  std::optional<Probe> shortest;  // the possible count with the shortest run so far
  double shortest_seconds = 0;
  auto probe = [&](double g) {
    Probe p;
    p.gpus = g;
    p.layout = layout_at(g, p.warnings);
    p.step = step_at(p.layout);
    p.possible = p.step && std::none_of(p.warnings.begin(), p.warnings.end(),
                                        [](const Issue& w) { return w.code == "no_layout"; });
    if (p.possible) {
      const double seconds = run_seconds(g, *p.step);
      p.meets = seconds <= deadline_seconds * (1 + 1e-12);
      if (!shortest || seconds < shortest_seconds) shortest = p, shortest_seconds = seconds;
    }
    return p;
  };
  // An offer's limit bounds the counts tried (whole model-parallel groups within it).
  const double most = s.pricing && s.pricing->max_gpus ? std::max(1.0, std::floor(*s.pricing->max_gpus / group) * group)
                                                       : 1e7;
  Issues ignored;
  Probe high = probe(std::min(most, round_up(plan_gpus(s, compute, hardware, first_step.mfu, ignored).gpus)));
  double low = 0;  // a count known to miss (0: none tried)
  bool capped = false;
  for (int round = 0; round < 60 && !high.meets && high.possible && high.gpus < most; ++round) {
    low = high.gpus;
    const double seconds = run_seconds(high.gpus, *high.step);
    const double next = round_up(std::min(1e7, high.gpus * std::max(1.05, seconds / deadline_seconds)));
    capped = next > most;
    high = probe(std::min(most, next));
  }
  if (!high.meets && high.gpus >= most && most < 1e7) capped = true;
  if (high.meets) {
    for (int round = 0; round < 60; ++round) {
      const double mid = round_up((low + high.gpus) / 2);
      if (mid >= high.gpus || mid <= low) break;
      Probe p = probe(mid);
      if (p.meets) {
        high = std::move(p);
      } else {
        low = mid;
      }
    }
  }
  if (!high.meets && shortest) high = std::move(*shortest);
  // Held back by the limit only where the plan ends at it (the shortest run may be on fewer GPUs).
  capped = capped && !high.meets && high.gpus >= most;
  return {high.gpus, std::move(high.layout), high.step, std::move(high.warnings), capped};
}

void check_plan(const TimeReport& time, const std::optional<CostReport>& cost, PlanReport& plan, Issues& warnings) {
  // The plan is judged on the headline: the expected run where the utilisation is predicted (it is
  // then what the deadline planner planned on), else the steady state.
  const bool expected_headline = time.expected && time.expected->headline;
  const double days = expected_headline ? time.expected->wall_clock_days : time.wall_clock_days;
  const std::optional<LikelyRange>& range = expected_headline ? time.expected->range : time.range;
  std::optional<double> total;
  if (cost) total = expected_headline && cost->expected_total ? *cost->expected_total : cost->total;
  if (plan.deadline_days) plan.meets_deadline = days <= *plan.deadline_days * (1 + 1e-12);
  if (plan.budget_total && total) plan.within_budget = *total <= *plan.budget_total;
  if (plan.meets_deadline && !*plan.meets_deadline)
    warnings.push_back({"budget.deadline_days",
                        "deadline_missed",
                        (plan.gpus_from == GpusFrom::deadline ? "The " + detail::format_number(plan.gpus) + " GPUs planned"
                                                                  : "The GPUs this budget rents") +
                            " need " + detail::format_number(std::ceil(days)) + " days, more than the " +
                            detail::format_number(*plan.deadline_days) + "-day deadline.",
                        {{"days", detail::format_number(std::ceil(days))},
                         {"gpus", detail::format_number(plan.gpus)},
                         {"deadline_days", detail::format_number(*plan.deadline_days)}}});
  // Met at the prediction but not across its likely range (its high end):
  // said, so a plan is not made on the optimistic figure alone.
  const auto one_decimal = [](double x) { return detail::format_number(std::round(x * 10) / 10); };
  if (range && plan.meets_deadline && *plan.meets_deadline && days * range->high > *plan.deadline_days * (1 + 1e-12))
    warnings.push_back({"budget.deadline_days",
                        "deadline_at_risk",
                        "The predicted " + one_decimal(days) + " days meet the " +
                            detail::format_number(*plan.deadline_days) + "-day deadline, but the likely range reaches " +
                            one_decimal(days * range->high) +
                            " days: leave room (more GPUs or more time) if the date is firm.",
                        {{"days", one_decimal(days)},
                         {"high_days", one_decimal(days * range->high)},
                         {"deadline_days", detail::format_number(*plan.deadline_days)}}});
  if (range && plan.within_budget && *plan.within_budget && *total * range->high > *plan.budget_total)
    warnings.push_back({"budget.total",
                        "budget_at_risk",
                        "The predicted cost, " + detail::format_number(std::round(*total)) + " " + cost->currency +
                            ", is within the " + detail::format_number(*plan.budget_total) +
                            " budget, but the likely range reaches " +
                            detail::format_number(std::round(*total * range->high)) + ".",
                        {{"cost", detail::format_number(std::round(*total))},
                         {"high_cost", detail::format_number(std::round(*total * range->high))},
                         {"currency", cost->currency},
                         {"budget", detail::format_number(*plan.budget_total)}}});
  // With the steady state as the headline (a given utilisation), the expected run shown beside it is
  // checked against the plan and said when it misses.
  if (time.expected && !expected_headline && plan.meets_deadline && *plan.meets_deadline &&
      time.expected->wall_clock_days > *plan.deadline_days * (1 + 1e-12))
    warnings.push_back({"budget.deadline_days",
                        "deadline_missed_expected",
                        "The steady state meets the " + detail::format_number(*plan.deadline_days) +
                            "-day deadline, but the expected run (interruptions, checkpoints, restarts, a real run's "
                            "speed) takes " + one_decimal(time.expected->wall_clock_days) +
                            " days: plan for that, with more GPUs or more time.",
                        {{"days", one_decimal(time.expected->wall_clock_days)},
                         {"deadline_days", detail::format_number(*plan.deadline_days)}}});
  if (cost && cost->expected_total && !expected_headline && plan.within_budget && *plan.within_budget &&
      *cost->expected_total > *plan.budget_total)
    warnings.push_back({"budget.total",
                        "over_budget_expected",
                        "The steady state costs " + detail::format_number(std::round(cost->total)) + " " + cost->currency +
                            ", within the " + detail::format_number(*plan.budget_total) +
                            " budget, but the expected run costs " +
                            detail::format_number(std::round(*cost->expected_total)) + ".",
                        {{"cost", detail::format_number(std::round(cost->total))},
                         {"expected_cost", detail::format_number(std::round(*cost->expected_total))},
                         {"currency", cost->currency},
                         {"budget", detail::format_number(*plan.budget_total)}}});
  if (plan.within_budget && !*plan.within_budget)
    warnings.push_back({"budget.total",
                        "over_budget",
                        "The run costs " + detail::format_number(*total) + " " + cost->currency +
                            ", more than the " + detail::format_number(*plan.budget_total) + " budget.",
                        {{"cost", detail::format_number(*total)},
                         {"currency", cost->currency},
                         {"budget", detail::format_number(*plan.budget_total)}}});
}

}  // namespace traincalc::detail
