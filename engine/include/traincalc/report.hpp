// What an estimate says. Serialised by report_to_json into the report-v1 contract.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "traincalc/issue.hpp"
#include "traincalc/model.hpp"
#include "traincalc/scenario.hpp"
#include "traincalc/strategy.hpp"

namespace traincalc {

// Which pipeline stage holds the memory peak: the only one (no pipeline), the first, a middle one
// (uneven stages: the first of the heavier), or the last.
enum class PipelineStage { only, first, middle, last };
// Who chose the layout: the scenario, the engine's default, or the planner's search.
enum class ChosenBy { given, default_layout, planner };
// What decided the GPU count: the scenario's count, a monthly budget, or a deadline.
enum class GpusFrom { count, monthly_budget, deadline };
// The GPUs' power draw: given as a fraction of TDP, or from the utilisation.
enum class PowerFrom { given, utilisation };

struct ModelReport {
  std::string name;
  std::string preset;
  double params = 0;
  double active_params = 0;
  bool architecture_known = false;
  std::optional<ParameterCount> breakdown;
  std::optional<double> forward_macs_per_image;  // an image network's published forward multiply-adds
  double image_resolution = 0;
};

struct ComputeReport {
  double tokens = 0;
  double flops_per_token = 0;
  double total_flops = 0;
  std::string method;  // "detailed", "6n" or "given"
  double flops_per_token_6n = 0;
  double total_flops_6n = 0;
  std::optional<double> flops_per_token_detailed;
  std::optional<double> total_flops_detailed;
  // Per-token training FLOPs per parameter: 6 for full training (2 forward + 4 backward), 4 when
  // the base weights are frozen (LoRA/QLoRA: no weight gradients except the adapters').
  double flops_per_param_per_token = 6;
  double trainable_params = 0;
  double seq_len = 0;
  double epochs = 1;
  // Image networks: tokens counts images (per epoch x epochs) and flops_per_token is per image.
  std::optional<double> images_per_epoch;
  // A dataset in GB: the bytes per token used, and where it came from ("given", or the text preset).
  std::optional<double> bytes_per_token;
  std::string bytes_per_token_from;
  std::string bytes_per_token_source;
  std::optional<double> image_resolution;
};

struct HardwareReport {
  std::string gpu_id;
  std::string gpu_name;
  Precision precision = Precision::bf16;
  double peak_tflops = 0;  // dense, per GPU, for the precision used
  double memory_gb = 0;
  double usable_memory_gib = 0;  // what a process can allocate, GiB
  double gpus_per_node = 8;
};

// Where one training step's time goes, in seconds, on the slowest pipeline stage. Communication
// and the bubble count only where they are not hidden behind compute.
struct StepBreakdown {
  double matmul = 0;       // linear layers and the logits, forward and backward
  double attention = 0;    // scores and their product with V (FlashAttention or not)
  double elementwise = 0;  // norms, activations, residual adds, dropout, the loss (memory-bound)
  double recompute = 0;    // activation recomputation during the backward pass
  double tensor_parallel = 0;
  double context_parallel = 0;
  double expert_parallel = 0;
  double pipeline_p2p = 0;
  double data_parallel = 0;  // gradient reduction, ZeRO gathers, FSDP
  double bubble = 0;         // pipeline fill and drain
  double optimizer = 0;      // the optimizer step (and CPU offload traffic)
  double kernel_launch = 0;  // the GPU waiting for the host to launch small kernels
  double micro_batch_host = 0;  // the GPU waiting for the host's work between micro-batches
};

struct StepPrediction {
  double step_seconds = 0;
  double mfu = 0;
  double hfu = 0;  // counting recomputed FLOPs as work
  double global_batch_sequences = 0;
  double micro_batches = 0;  // per step, per pipeline
  StepBreakdown seconds;
  // The GPU's work for one layer and one micro-batch (forward, backward, recomputation and the
  // layer's own collectives): how long its kernels are, which sets how uncertain the step is.
  double layer_stream_seconds = 0;
  double layer_launch_seconds = 0;  // the host's time to launch that layer's kernels, launched eagerly
  double logits_seconds = 0;  // one micro-batch's logits and loss, on the last pipeline stage only
  bool mixture_of_experts = false;  // routed experts: its likely range is the mixture-of-experts rows'
};

// How far the true figure is likely to lie from the predicted one: the 80% range of measured /
// predicted for a run of a group none of the validation rows share (a software lineage for steps and
// memory, a publisher for whole runs), from held-out rows of the same kind (`basis`), the groups
// scattering between them and the rows within one (detail::ranges_for_new_group; step_time.cpp,
// likely_ranges). The range always contains the prediction.
struct LikelyRange {
  std::string basis;  // "launch_bound", "launch_near", "compute_bound", "mixture_of_experts", "memory" or "whole_runs"
  double low = 1, high = 1;  // multipliers of the predicted step time (and days, GPU-hours, cost)
  double rows = 0, sources = 0;  // the held-out rows behind the range, and their sources
  double lineages = 0;           // the software lineages of those sources, each held out whole
  // How far what was assumed moves the range, already in low and high: the lowest and highest ratio
  // of the figure under a plausible alternative to the assumed one (1 and 1 when nothing was assumed).
  double assumed_low = 1, assumed_high = 1;
  // How far a run outside the validated envelope moves the range, already in low and high (1 and 1
  // inside it): the extrapolation past the measured model sizes, GPU counts, pipeline depths and
  // data-parallel widths, and a GPU of a family no validation source measured.
  double outside_low = 1, outside_high = 1;
};

// The run as it is likely to go (goodput.cpp): the steady state slowed to a real run's speed, then
// interrupted, checkpointed and restarted (Daly 2006), plus other overheads. Hours are wall-clock.
struct ExpectedRun {
  Recovery recovery = Recovery::automated;
  double goodput = 1;              // steady-state wall-clock / expected wall-clock
  double run_efficiency = 1;       // applied: a real run's steady speed / the predicted one
  double interruption_goodput = 1; // the step time's share of the interrupted run (failures, checkpoints)
  double wall_clock_hours = 0, wall_clock_days = 0, gpu_hours = 0;
  double interruptions = 0;        // expected unexpected interruptions over the run
  double interruptions_per_1000_gpu_days = 0;
  std::optional<double> mean_hours_between_interruptions;  // of the whole job: 24,000 / (rate x GPUs); none at rate 0
  double checkpoint_bytes = 0;     // weights and optimizer state of the whole model
  double checkpoint_seconds = 0;   // training waits this long per checkpoint
  double checkpoint_write_gb_per_s = 0;
  double storage_write_gb_per_s = 0;     // the cluster storage's aggregate write speed
  bool checkpoint_async = false;         // training waits only for the copy to host memory
  double checkpoint_persist_seconds = 0; // until a checkpoint is on storage: the shortest interval when async
  double checkpoint_interval_hours = 0;  // of training between checkpoints
  bool checkpoint_interval_given = false;
  double checkpoints = 0;
  double restart_minutes = 0;
  double overhead_fraction = 0;
  // The expected run is the report's headline when the engine predicts the utilisation (the deadline
  // planner then plans on it); beside a given or assumed one it is shown on request.
  bool headline = false;
  // How far off the expected run is likely to be (published / expected, the 80% range for a new run):
  // for predicted pre-training the held-out whole runs' ("whole_runs"), else the step's own range.
  std::optional<LikelyRange> range;
  // Wall-clock hours lost, by cause: sum with the steady-state hours to the expected hours.
  double lost_slower_steps = 0, lost_checkpoints = 0, lost_rework = 0, lost_restarts = 0, lost_overheads = 0;
};

// Where the utilisation came from: the scenario, the assumed default, or the step model.
enum class MfuSource { given, assumed, predicted };

struct TimeReport {
  double mfu = 0;
  MfuSource mfu_source = MfuSource::assumed;
  std::optional<StepPrediction> step;   // when the architecture allows a prediction
  std::optional<LikelyRange> range;     // with a predicted utilisation: how far off it is likely to be
  // The expected run: without a given utilisation always, with one when the scenario asks (operations).
  std::optional<ExpectedRun> expected;
  // One step at the reported speed (with a given utilisation this differs from step->step_seconds).
  std::optional<double> step_seconds;
  double cluster_flops_per_second = 0;  // achieved model FLOP/s of the whole cluster
  double tokens_per_second = 0;
  double gpu_hours = 0;
  double wall_clock_hours = 0;
  double wall_clock_days = 0;
};

struct MemoryParts {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;
  double logits = 0;    // the loss's fp32 logits and their gradient, on the last pipeline stage
  double overhead = 0;  // CUDA context, communication buffers, gather buffers, allocator fragmentation
  double total = 0;     // the peak over the phases of a step
  bool operator==(const MemoryParts&) const = default;
};

// The runtime overhead, part by part (each overridable in the scenario's "memory" object).
struct MemoryOverhead {
  double cuda_context = 0;
  double communication = 0;  // NCCL buffers per communicator in use
  double gather = 0;         // ZeRO-3/FSDP: the gathered weights of the layers being computed
  double fragmentation = 0;  // the caching allocator's reserve beyond what is allocated
  double workspace = 0;      // QLoRA: one layer's matrices dequantised to 16 bits
  double cast_copies = 0;    // autocast: 16-bit copies of the fp32 matmul weights, held at the loss
  double matmul_workspace = 0;  // cuBLAS's (and Transformer Engine's) workspaces, from the first matmul on
  bool operator==(const MemoryOverhead&) const = default;
};

// The framework, regime and kernels the memory model assumes, and whether each is the scenario's
// (false) or follows the framework's preset (true).
struct MemoryChoices {
  Framework framework = Framework::megatron;
  bool framework_assumed = true;
  Regime regime = Regime::mixed;
  bool regime_assumed = true;
  AttentionKernel attention = AttentionKernel::flash;
  bool attention_assumed = true;
  CrossEntropy cross_entropy = CrossEntropy::eager;
};

// What the memory model assumed, as the report says it.
struct MemoryAssumptions : MemoryChoices {
  std::optional<AdapterPrecision> adapter_precision;  // LoRA and QLoRA only
  std::optional<Quantization> quantization;           // QLoRA only
};

// Memory in use at the end of one phase of a step (overhead included).
struct MemoryPhase {
  std::string name;  // "forward", "backward", "optimizer"
  double bytes = 0;  // the sum of parts, in their order
  // What is in memory in this phase: weights, optimizer, overhead, gradients, activations, logits,
  // and (backward, with recomputation) "recomputed", the layer rebuilt for its backward pass.
  std::vector<std::pair<std::string, double>> parts;
};

// One scenario field's new value: a number, or a choice's or an ID's word.
struct ScenarioChange {
  std::string path;  // dotted scenario path, e.g. "strategy.zero"
  std::variant<double, std::string> value;
};

// A change (one or more fields) that would alter the memory per GPU, and what the engine computed.
struct MemorySuggestion {
  std::vector<ScenarioChange> changes;
  double total_bytes = 0;
  bool fits = false;
};

// The numbers behind each part, for "show the math".
struct MemoryExplanation {
  double params_per_gpu = 0;            // weights this GPU holds before ZeRO-3 sharding
  double trainable_params_per_gpu = 0;  // what gets optimizer states
  double gradient_params_per_gpu = 0;   // what has gradient buffers: the trainable ones, or (FSDP1 with
                                        // adapters) every parameter of the wrapped blocks
  double weight_bytes_per_param = 0;
  double gradient_bytes_per_param = 0;
  double optimizer_bytes_per_param = 0;
  double weight_shard = 1;  // what ZeRO divides each part by (1: not sharded)
  double gradient_shard = 1;
  double optimizer_shard = 1;
  double tokens_per_micro_batch = 0;  // per GPU, after context parallelism
  double activation_bytes_per_token = 0;
  double logits_bytes_per_token = 0;
  double fragmentation_fraction = 0;
  // Gradient accumulation under FSDP's no_sync: the gradients stay whole until the last micro-batch.
  bool gradients_unsharded_while_accumulating = false;
  // Pipelining under FSDP2: the stage's 16-bit weights stay gathered for the whole step.
  bool stage_weights_gathered = false;
  // Held from the previous micro-batch through this one's forward pass (LitGPT's loop keeps its logits;
  // bitsandbytes before 0.43.2 its 4-bit layers' inputs too).
  double previous_micro_batch_bytes = 0;
  // Transformer Engine under fp8: the cached fp8 weights and transposes (counted in the weights).
  double fp8_weight_copies_bytes = 0;
  bool operator==(const MemoryExplanation&) const = default;
};

struct MemoryReport {
  MemoryAssumptions assumptions;
  // The peak on the pipeline rank that holds the most: total (what must fit: the allocator's
  // reserved peak, the CUDA context and NCCL's buffers), what the allocator reserves
  // (torch.cuda.max_memory_reserved) and what is allocated (torch.cuda.max_memory_allocated).
  double allocated_bytes = 0;
  double reserved_bytes = 0;
  PipelineStage worst_stage = PipelineStage::only;
  double worst_pipeline_rank = 0;
  std::vector<std::pair<PipelineStage, double>> stage_bytes;  // each stage weighed, its total peak
  std::vector<std::pair<PipelineStage, double>> stage_allocated_bytes;  // and its allocated peak
  MemoryParts per_gpu_bytes;
  MemoryExplanation explain;
  MemoryOverhead overhead_bytes;
  std::vector<MemoryPhase> phases;
  std::string peak_phase;
  std::vector<std::string> peak_parts;  // the parts in memory at the peak
  std::vector<std::pair<std::string, double>> at_peak;  // their bytes, which sum to per_gpu.total
  double capacity_bytes = 0;
  bool fits = false;
  double headroom_bytes = 0;   // capacity - total when it fits, else 0
  double shortfall_bytes = 0;  // total - capacity when it does not fit, else 0
  bool activations_known = false;
  double activation_bytes_per_micro_batch = 0;  // what one more micro-batch in flight adds
  double micro_batches_in_flight = 1;           // on the worst pipeline stage, in micro-batches of its layers
  std::optional<double> max_micro_batch;        // the largest micro-batch that fits (0: none does)
  std::optional<double> max_seq_len;            // the longest sequence that fits at max_seq_len_micro_batch (0: none)
  double max_seq_len_micro_batch = 1;           // micro-batch 1, or the scenario's strategy.micro_batch
  std::optional<double> min_gpus;               // the fewest GPUs (same layout, more data parallelism) that fit
  std::vector<MemorySuggestion> suggestions;
  // How far the measured peak (per_gpu_bytes.total) is likely to lie from the prediction: the 80%
  // range for a framework lineage the memory validation never saw (memory_range in memory.cpp),
  // widened by the plausible frameworks when the framework is assumed.
  LikelyRange range;
};

// A parallel layout's choices: the degrees of tensor, pipeline, data, context and expert parallelism,
// the ZeRO stage, the micro-batch, the interleaved chunks per stage (1: plain 1F1B) and what is
// recomputed. The report's layout, each layout the planner weighed and each validation row's layout
// are these choices and what comes with them.
struct LayoutChoices {
  double tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, zero = 0, micro_batch = 1, virtual_stages = 1;
  Recompute recompute = Recompute::none;
  bool operator==(const LayoutChoices&) const = default;
};

// One layout the planner weighed.
struct LayoutOption : LayoutChoices {
  double step_seconds = 0;
  double mfu = 0;
  double memory_bytes = 0;
  bool fits = false;
};

struct ParallelismReport : LayoutChoices {
  // Layers on the first stage, on the heaviest stage between the first and the last, and on the last
  // (with pp > 1 and the architecture known; else 0).
  double first_stage_layers = 0, middle_stage_layers = 0, last_stage_layers = 0;
  bool sequence_parallel = false;
  ChosenBy chosen_by = ChosenBy::given;
  double layouts_evaluated = 0;
  double layouts_fitting = 0;
  std::vector<LayoutOption> alternatives;  // the next fastest layouts that fit
};

struct CostReport {
  std::string currency;
  double total = 0;
  double per_gpu_hour = 0;
  double per_gpu_month = 0;
  double per_month = 0;  // the whole cluster for one billing month
  double months = 0;     // wall-clock time in billing months
  std::string offer;
  std::optional<double> expected_total;  // the expected run's cost (time.expected)
  std::optional<Exchange> exchange;         // the price, converted into this currency
  std::optional<Exchange> budget_exchange;  // the budget, converted into this currency
};

// Energy and carbon of the run: the GPUs' average draw plus the host's share, times the facility's
// PUE, over the wall-clock time; CO2 from the grid's intensity.
struct EnergyReport {
  double gpu_tdp_w = 0;
  double gpu_power_fraction = 0;
  PowerFrom gpu_power_from = PowerFrom::given;
  double host_power_fraction = 0;
  double pue = 0;
  double facility_kw = 0;  // the whole run's draw at the meter
  double kwh = 0;
  double grid_kg_co2_per_kwh = 0;
  std::string grid;  // region ID, "given", or "world" (the default)
  std::string grid_source;
  double co2_kg = 0;
  // The expected run's energy (time.expected): its busy hours (steady steps, the slower steps of a real
  // run, rework and overheads) at the GPUs' busy draw, its idle hours (checkpoint writes, restarts) at
  // the idle draw.
  struct Expected {
    double busy_hours = 0, idle_hours = 0;
    double busy_power_fraction = 0, idle_power_fraction = 0;
    double kwh = 0, co2_kg = 0;
    bool headline = false;
    std::optional<LikelyRange> range;  // the expected run's (published / expected hours)
  };
  std::optional<Expected> expected;
};

// A compute-optimal split of a compute budget into parameters and tokens, and the fitted law's loss
// there (for the run's own compute; a budget's splits leave it out).
struct LawSplit {
  double params = 0, tokens = 0;
  std::optional<double> loss;
};

// What a total money budget buys (budget.total with a price), and its compute-optimal splits.
struct BudgetSplit {
  double compute_flops = 0;
  LawSplit rule, fitted;
};

// Compute-optimal training for the run's compute (Chinchilla): the 20-tokens-per-parameter rule and the
// optimum of the fitted loss L(N, D), with the predicted loss of each and of the run.
struct ScalingLawReport {
  double params = 0, tokens = 0, compute_flops = 0, tokens_per_param = 0, loss = 0;
  LawSplit rule;    // the 20-tokens-per-parameter rule
  LawSplit fitted;  // the fitted law's optimum
  std::optional<BudgetSplit> budget;
  // The fitted law's constants, reported so that every page words it with the engine's numbers
  // (Hoffmann et al. 2022, eq. 10 and appendix D).
  double fit_e = 1.69, fit_a = 406.4, fit_b = 410.7, fit_alpha = 0.34, fit_beta = 0.28;
};

struct PlanReport {
  double gpus = 0;
  double nodes = 0;
  GpusFrom gpus_from = GpusFrom::count;
  std::optional<double> budget_per_month;
  std::optional<double> budget_total;
  std::optional<bool> within_budget;
  std::optional<double> deadline_days;
  std::optional<bool> meets_deadline;
  // The most GPUs one job can use on the offer (one instance, or the provider's cluster cap), and the
  // count the budget or deadline would have used without it.
  std::optional<double> max_gpus;
  std::optional<double> gpus_wanted;
};

// Calibration to the user's measured runs (calibration.cpp): the constants fitted and each measured
// figure beside what the engine predicted for it before and after.
struct CalibrationPoint {
  double run = 0;         // the index in scenario.calibration
  std::string key;        // what was measured, a report key ("time.step_seconds", "memory.reserved_bytes")
  double value = 0;       // as given
  double measured = 0;    // as a step time (s) or a peak (bytes)
  double predicted = 0;   // the engine's for that run, uncalibrated
  double calibrated = 0;  // with the fitted constants
};
struct SpeedCalibration {
  double compute = 1, communication = 1, host = 1;  // multipliers of the step model's parts
  double runs = 0;                                  // speed measurements fitted on
};
struct MemoryCalibration {
  double allocated_factor = 1;  // the allocated peak, as a multiple of the model's
  double reserved_gap = 1;     // the allocator's reserved - allocated, as a factor of the predicted
  double runs = 0;             // memory measurements fitted on
};
struct CalibrationReport {
  SpeedCalibration speed;
  MemoryCalibration memory;
  std::vector<CalibrationPoint> points;
  std::optional<double> step_seconds_uncalibrated;  // this scenario's step before calibration
  // The nearest measured speed's distance from this run ("same_run", "layout", "gpus", "model") and
  // the share of the fitted departure carried to it (1 for the run measured itself; calibration_weight).
  std::string speed_distance;
  double speed_carried = 1;
  std::string memory_distance;  // the same for the nearest measured peak
  double memory_carried = 1;
  double per_gpu_bytes_uncalibrated = 0;
};

// The scenario under another framework than the one assumed, at the same layout: what naming the
// framework would change. Given only when strategy.framework is not.
struct FrameworkAlternative {
  std::string framework;
  std::optional<double> step_ratio;  // its step time / the assumed framework's (a predicted utilisation only)
  double memory_ratio = 1;           // its per-GPU peak / the assumed framework's
  bool fits = true;
};

struct Report {
  ModelReport model;
  ComputeReport compute;
  HardwareReport hardware;
  TimeReport time;
  MemoryReport memory;
  ParallelismReport parallelism;
  std::optional<CostReport> cost;
  std::optional<EnergyReport> energy;
  std::optional<ScalingLawReport> scaling_law;
  PlanReport plan;
  std::vector<FrameworkAlternative> framework_alternatives;
  std::optional<CalibrationReport> calibration;
  Issues warnings;
  Issues errors;

  bool valid() const { return errors.empty(); }
};

// The headline figures: the expected run's where the utilisation is predicted (time.expected.headline),
// else the steady state's.
inline bool expected_headline(const Report& r) { return r.time.expected && r.time.expected->headline; }
inline double headline_days(const Report& r) {
  return expected_headline(r) ? r.time.expected->wall_clock_days : r.time.wall_clock_days;
}
inline double headline_gpu_hours(const Report& r) {
  return expected_headline(r) ? r.time.expected->gpu_hours : r.time.gpu_hours;
}
inline std::optional<double> headline_cost(const Report& r) {
  if (!r.cost) return std::nullopt;
  return expected_headline(r) && r.cost->expected_total ? *r.cost->expected_total : r.cost->total;
}

}  // namespace traincalc
