// The expected run: what a benchmark's steady state becomes over weeks on a real cluster. Three
// steps, each a published mechanism with its own inputs (scenario "operations", every one overridable):
//
//  1. A real run's steady speed: the step model predicts a tuned benchmark (the planner's best layout,
//     current kernels); whole published runs go slower. run_efficiency, one fraction fitted on the whole
//     runs of engine/data/whole-runs.json and judged held out (`traincalc validate --runs`), applies
//     to a predicted utilisation only: a given one is the user's own speed.
//  2. Interruptions, checkpoints and restarts: Daly's model (J. T. Daly, "A higher order estimate of
//     the optimum checkpoint interval for restart dumps", Future Generation Computer Systems 22(3),
//     2006, eqs. 13 and 37), exponentially distributed interruptions at the job's rate (rate per GPU x
//     GPUs), a checkpoint pause priced against the GPUs' copy and the cluster's storage (asynchronous
//     or not, below), a restart time by recovery, and the interval at Daly's optimum unless given.
//  3. Other overheads (evaluation, data stalls, scheduling): a fraction of the wall-clock, 0 unless given.
#include <algorithm>
#include <cmath>
#include <limits>

#include "estimate/estimators.hpp"
#include "contract/text.hpp"
#include "traincalc/names.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

// Restart: from an interruption to training again, lost work apart. Checkpoint write: each GPU's
// share of the state per second while training waits.
//  - automated: Meta's research clusters restart in 5-20 minutes (Kokolis et al., "Revisiting Reliability
//    in Large-Scale Machine Learning Research Clusters", arXiv 2410.21680, sec. on ETTR: u0 ~ 5-20 min);
//    ByteDance's failover "often more than 10 minutes" at 10,000 GPUs (ByteRobust, arXiv 2509.16293);
//    MegaScale detects and diagnoses in under 10 minutes (arXiv 2402.15627, sec. 4): 15 minutes, medium
//    confidence. Checkpoints are asynchronous (Megatron's, PyTorch DCP's, MegaScale's two stages):
//    training waits only for the copy to host memory, 0.59 s for a 405B model's 0.63 GB per GPU on 8,960
//    GPUs (ByteCheckpoint, arXiv 2407.20143, table 8) and 6.3 s for a 7B model (PyTorch blog "Reducing
//    Model Checkpointing Times by Over 10x with PyTorch Distributed Asynchronous Checkpointing", 2024):
//    1 GB/s per GPU, medium confidence.
//  - manual: a person diagnoses and swaps machines; OPT-175B's logbook: replacing one "can take hours"
//    (metaseq projects/OPT/chronicles), BLOOM's "5-10h downtime several times" (Hugging Face blog "The
//    Technology Behind BLOOM Training"): 3 hours, low confidence (1-10 h). Checkpoints synchronous: the
//    same 7B checkpoint took 148.8 s before asynchronous saving (the PyTorch blog above), 23.6 times the
//    asynchronous pause: 1 / 23.6 GB/s per GPU.
//  - in_memory: snapshots to host memory every few minutes and recovery from peers' memory with hot
//    spares (Gemini, SOSP 2023: recovery "more than 13x" faster; ByteRobust's warm standby 10.9x faster
//    than its >10-minute failover; Gemini 2.5's elastic training loses "tens of seconds" per
//    interruption): 2 minutes, low-medium confidence; the same 1 GB/s snapshot.
RecoveryDefaults recovery_defaults(Recovery recovery) {
  constexpr double snapshot_gb_per_s = 1.0;
  switch (recovery) {
    case Recovery::manual:
      return {180, snapshot_gb_per_s * 6.3 / 148.8};
    case Recovery::in_memory:
      return {2, snapshot_gb_per_s};
    case Recovery::automated:
      break;
  }
  return {15, snapshot_gb_per_s};
}

// The cluster storage a checkpoint persists to, shared by every node: about 1 GB/s a node, up to
// 2 TB/s. Llama 3's Tectonic sustains 2 TB/s (7 TB/s peak) for 16,384 GPUs in 2,048 nodes (Dubey et
// al., arXiv 2407.21783, sec. 3.3.1, "Storage"), about 1 GB/s a node; BLOOM saved 2.3 TB in 40 s from
// 48 nodes, 1.2 GB/s a node (bigscience-workshop/bigscience @9e64edec, train/tr11-176B-ml/README.md).
// Medium confidence; DeepSeek's 3FS writes over 10 GiB/s a node (arXiv 2408.14158, sec. VII-A).
constexpr double storage_gb_per_s_per_node = 1.0;
constexpr double storage_gb_per_s_most = 2000;
// A save's fixed costs, however small the state (planning, barriers, metadata):
//  - training waits: PyTorch DCP's asynchronous save blocks 0.78 s (Llama 3 70B on 1,856 H200s, pytorch.org
//    blog "6x faster async checkpointing", 2025), MegaScale's "several seconds" (arXiv 2402.15627,
//    sec. 4.4), Megatron's save 6.8-13 s (ByteRobust, arXiv 2509.16293, table 8): 5 s, low-medium confidence;
//  - persisting in the background: DCP's with its save plan cached, 67 s for that 70B (the same blog):
//    60 s before the bytes' own time on storage, medium-low confidence.
constexpr double checkpoint_blocking_seconds = 5;
constexpr double checkpoint_persist_fixed_seconds = 60;

double default_storage_write_gb_per_s(double gpus, double gpus_per_node) {
  const double nodes = std::ceil(gpus / std::max(1.0, gpus_per_node));
  return std::min(storage_gb_per_s_most, nodes * storage_gb_per_s_per_node);
}

double daly_optimal_interval(double delta_hours, double mtbf_hours) {
  if (!std::isfinite(mtbf_hours)) return std::numeric_limits<double>::infinity();
  // Daly 2006, eq. 37: sqrt(2 delta M) [1 + (1/3) sqrt(delta / 2M) + (1/9) (delta / 2M)] - delta for
  // delta < 2M, else M. (Young 1974's first-order optimum is sqrt(2 delta M).)
  if (delta_hours >= 2 * mtbf_hours) return mtbf_hours;
  const double x = delta_hours / (2 * mtbf_hours);
  return std::sqrt(2 * delta_hours * mtbf_hours) * (1 + std::sqrt(x) / 3 + x / 9) - delta_hours;
}

double daly_wall_clock_hours(double solve_hours, double tau_hours, double delta_hours, double restart_hours,
                             double mtbf_hours) {
  constexpr double cap = 1e6;  // a run a million times its work does not progress; said by the caller
  if (solve_hours <= 0) return 0;
  if (!std::isfinite(mtbf_hours)) return tau_hours > 0 ? solve_hours * (tau_hours + delta_hours) / tau_hours : solve_hours;
  // A free checkpoint taken continuously (tau -> 0): only the restarts remain, e^{R/M}.
  if (tau_hours <= 0) return solve_hours * std::exp(std::min(restart_hours / mtbf_hours, std::log(cap)));
  // Daly 2006, eq. 13: T_w = M e^{R/M} (e^{(tau + delta)/M} - 1) T_s / tau; in logarithms, so that a
  // run interrupted faster than it checkpoints gives the cap, not an overflow.
  const double log_ratio = restart_hours / mtbf_hours + std::log(std::expm1((tau_hours + delta_hours) / mtbf_hours)) +
                           std::log(mtbf_hours / tau_hours);
  if (!(log_ratio < std::log(cap))) return solve_hours * cap;
  return solve_hours * std::exp(log_ratio);
}

double checkpoint_bytes(const Scenario& s, const ComputeReport& compute) {
  const MemoryRegime regime = resolve_memory_regime(s);
  const bool adapters = s.training.type == TrainingType::finetune && s.training.method != FinetuneMethod::full;
  const ParamBytes bytes = trainable_param_bytes(regime, resolved_precision(s), s.strategy.optimizer, adapters);
  // What a resumed run needs: the trained weights and the optimizer's state (with any fp32 master
  // copy); a frozen base is reloaded from where it came from.
  return compute.trainable_params * (bytes.weight + bytes.optimizer);
}

LikelyRange whole_run_range() { return {"whole_runs", 0.6509, 1.7227, 78, 78, 23}; }

ExpectedRun expected_run(const Scenario& s, const ComputeReport& compute, const TimeReport& time, double gpus,
                         double gpus_per_node, Issues& warnings) {
  const Operations& ops = s.operations;
  ExpectedRun e;
  const Recovery recovery = ops.recovery.value_or(Recovery::automated);
  const RecoveryDefaults defaults = recovery_defaults(recovery);
  e.recovery = recovery;
  // Fitted on weeks-long pre-training runs of 16 to 16,384 GPUs: applied to predicted pre-training only.
  const bool fitted_domain = time.mfu_source == MfuSource::predicted && s.training.type == TrainingType::pretrain;
  e.run_efficiency = ops.run_efficiency.value_or(fitted_domain ? default_run_efficiency : 1.0);
  e.interruptions_per_1000_gpu_days =
      ops.interruptions_per_1000_gpu_days.value_or(default_interruptions_per_1000_gpu_days);
  e.restart_minutes = ops.restart_minutes.value_or(defaults.restart_minutes);
  e.checkpoint_write_gb_per_s = ops.checkpoint_write_gb_per_s.value_or(defaults.checkpoint_write_gb_per_s);
  e.overhead_fraction = ops.overhead_fraction.value_or(0);

  const double steady_hours = time.wall_clock_hours;
  const double solve_hours = steady_hours / e.run_efficiency;
  // The job stops when any of its GPUs' nodes fails: its rate is the per-GPU rate times the GPUs.
  const double per_gpu_hour = e.interruptions_per_1000_gpu_days / (1000 * units::hours_per_day);
  const double mtbf = per_gpu_hour > 0 ? 1 / (per_gpu_hour * gpus) : std::numeric_limits<double>::infinity();
  if (std::isfinite(mtbf)) e.mean_hours_between_interruptions = mtbf;
  // Every GPU writes its share at once (Megatron's and PyTorch DCP's parallel saves spread the state
  // over the data-parallel ranks too), and all of them share the cluster's storage.
  //  - asynchronous (Megatron's async_save, DCP's async_save): training waits for the fixed cost and
  //    the copy to host memory; the checkpoint then persists in the background, and the next one
  //    starts once it is on storage, so the interval is at least that long;
  //  - synchronous: training waits until the checkpoint is on storage;
  //  - in memory: snapshots to host memory and peers, never waiting on storage (ByteRobust
  //    checkpoints every step that way, arXiv 2509.16293, sec. 8.2.2).
  const Framework framework = resolve_memory_regime(s).framework;
  e.checkpoint_async = recovery != Recovery::in_memory &&
                       ops.async_checkpoint.value_or(recovery != Recovery::manual &&
                                                     (framework == Framework::megatron || framework == Framework::fsdp2));
  e.storage_write_gb_per_s = ops.storage_write_gb_per_s.value_or(default_storage_write_gb_per_s(gpus, gpus_per_node));
  e.checkpoint_bytes = checkpoint_bytes(s, compute);
  const double to_host_seconds = e.checkpoint_bytes / (gpus * e.checkpoint_write_gb_per_s * 1e9);
  const double to_storage_seconds =
      e.checkpoint_bytes / (std::min(gpus * e.checkpoint_write_gb_per_s, e.storage_write_gb_per_s) * 1e9);
  if (recovery == Recovery::in_memory) {
    e.checkpoint_seconds = to_host_seconds;
    e.checkpoint_persist_seconds = to_host_seconds;
  } else if (e.checkpoint_async) {
    e.checkpoint_seconds = checkpoint_blocking_seconds + to_host_seconds;
    e.checkpoint_persist_seconds =
        checkpoint_persist_fixed_seconds + e.checkpoint_bytes / (e.storage_write_gb_per_s * 1e9);
  } else {
    e.checkpoint_seconds = checkpoint_blocking_seconds + to_storage_seconds;
    e.checkpoint_persist_seconds = e.checkpoint_seconds;
  }
  const double delta = e.checkpoint_seconds / units::seconds_per_hour;
  const double restart = e.restart_minutes / 60;
  e.checkpoint_interval_given = ops.checkpoint_interval_hours.has_value();
  double tau = ops.checkpoint_interval_hours.value_or(daly_optimal_interval(delta, mtbf));
  // Never more often than once a step, nor (asynchronous) before the last checkpoint is on storage; a
  // run shorter than the interval checkpoints once, at its end.
  if (time.step_seconds) tau = std::max(tau, *time.step_seconds / units::seconds_per_hour);
  // A given interval shorter than that is taken as given, and said: the saves would queue.
  if (e.checkpoint_async && !e.checkpoint_interval_given)
    tau = std::max(tau, e.checkpoint_persist_seconds / units::seconds_per_hour);
  else if (e.checkpoint_async && tau * units::seconds_per_hour < e.checkpoint_persist_seconds)
    warnings.push_back({"operations.checkpoint_interval_hours", "checkpoint_before_persisted",
                        "A checkpoint every " + format_number(std::round(tau * 36000) / 10) +
                            " s starts before the last one is on storage (" +
                            format_number(std::round(e.checkpoint_persist_seconds * 10) / 10) +
                            " s at the cluster's storage speed): the saves would queue. Checkpoint less often, or "
                            "give operations.storage_write_gb_per_s if your storage is faster.",
                        {{"interval_s", format_number(std::round(tau * 36000) / 10)},
                         {"persist_s", format_number(std::round(e.checkpoint_persist_seconds * 10) / 10)}}});
  tau = std::min(tau, solve_hours);
  e.checkpoint_interval_hours = tau;
  const double interrupted = daly_wall_clock_hours(solve_hours, tau, delta, restart, mtbf);
  e.wall_clock_hours = interrupted / (1 - e.overhead_fraction);
  e.wall_clock_days = e.wall_clock_hours / units::hours_per_day;
  e.gpu_hours = e.wall_clock_hours * gpus;
  e.interruptions = std::isfinite(mtbf) ? interrupted / mtbf : 0;
  e.checkpoints = tau > 0 ? solve_hours / tau : 0;
  e.goodput = e.wall_clock_hours > 0 ? steady_hours / e.wall_clock_hours : 1;
  e.interruption_goodput = interrupted > 0 ? solve_hours / interrupted : 1;
  e.lost_slower_steps = solve_hours - steady_hours;
  e.lost_checkpoints = e.checkpoints * delta;
  // An interruption can strike a restart too: each costs M (1 - e^(-R/M)) in expectation (Daly's model).
  e.lost_restarts = std::isfinite(mtbf) ? -interrupted * std::expm1(-restart / mtbf) : 0.0;
  e.lost_rework = std::max(0.0, interrupted - solve_hours - e.lost_checkpoints - e.lost_restarts);
  e.lost_overheads = e.wall_clock_hours - interrupted;
  e.headline = time.mfu_source == MfuSource::predicted;
  if (fitted_domain && !ops.run_efficiency)
    e.range = whole_run_range();
  else if (time.range)
    e.range = time.range;
  if (interrupted > 0 && (e.lost_rework + e.lost_restarts) / interrupted > 0.5)
    warnings.push_back({"operations.interruptions_per_1000_gpu_days",
                        "interruptions_dominate",
                        "With an interruption every " + format_number(std::round(mtbf * 600) / 10) +
                            " minutes across " + format_number(gpus) + " GPUs, only " +
                            format_number(std::round(e.interruption_goodput * 100)) +
                            "% of the time goes into training: recover faster (operations.recovery \"in_memory\"), "
                            "checkpoint faster, or use fewer GPUs for longer.",
                        {{"minutes", format_number(std::round(mtbf * 600) / 10)},
                         {"gpus", format_number(gpus)},
                         {"percent", format_number(std::round(e.interruption_goodput * 100))}}});
  return e;
}

}  // namespace traincalc::detail
