// The estimators, each a pure function of the scenario and what earlier estimators produced.
// Internal header; estimate.cpp runs them in order.
#pragma once

#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "traincalc/catalog.hpp"
#include "traincalc/currencies.hpp"
#include "traincalc/report.hpp"
#include "traincalc/scenario.hpp"

namespace traincalc::detail {

struct TextDensity {  // for the kind named contract::text_kinds
  double bytes_per_token;
  const char* source;
};
const TextDensity& text_density(TextKind kind);

// The fraction of dense peak assumed when the scenario gives none: seed 001 calls ~40% reasonable,
// and well-tuned LLM training reaches 35-55% of dense peak (PaLM 540B: 46.2% MFU, Chowdhery et al. 2022,
// Table 3; Llama 3 405B: 38-43%, Dubey et al. 2024, Table 4).
inline constexpr double assumed_mfu = 0.40;
// Chinchilla's compute-optimal ratio, ~20 tokens per parameter (Hoffmann et al. 2022, Table 3).
inline constexpr double chinchilla_tokens_per_param = 20.0;
// Sequence length used when neither the scenario nor the preset says.
inline constexpr double fallback_seq_len = 2048.0;

double resolved_seq_len(const Scenario& s);
// LoRA adapters on the targeted matrices; per_token counts only the experts a token is routed to
// (what compute sees), otherwise every expert's adapters (what memory holds).
// The share of a linear group LoRA adapts (1, 0, or 0.5 for V out of the key-and-value group).
double lora_share(const LinearGroup& g, LoraTargets targets);
double trainable_lora_params(const Architecture& a, const Training& t, bool per_token);

ModelReport report_model(const Scenario& s);
ComputeReport estimate_compute(const Scenario& s, Issues& warnings, Issues& errors);
HardwareReport report_hardware(const Scenario& s);
// The network between servers, per GPU (Gbit/s): as given, else the cloud offer's between its
// instances, else the GPU's usual, else 100.
double inter_node_gbps(const Scenario& s);
// What limits a cloud offer's jobs, in words after its name: "cannot join instances into one job, and
// one instance holds at most 8 GPUs" or "joins at most 256 GPUs into one cluster".
std::string offer_limit_words(const Pricing& p);

double resolved_mfu(const Scenario& s, Issues& warnings);
// How many GPUs: given, bought by a monthly budget, or needed by a deadline.
PlanReport plan_gpus(const Scenario& s, const ComputeReport& compute, const HardwareReport& hardware, double mfu,
                     Issues& errors);
ParallelismReport resolve_layout(const Scenario& s, double gpus, Issues& warnings);

// Layers (transformer blocks) on each pipeline stage: the first stage's, the most that any stage
// between the first and the last holds (0 with fewer than three stages), the last stage's.
struct StageLayers {
  double first = 0, middle = 0, last = 0;
  bool valid = false;  // whole, at least one layer a stage, adding up to the model's
  double chunk = 0;    // interleaved: the layers of a full chunk (a full stage holds v of them)
};
// Given counts for the first and last stage (0: not given) leave the rest to the stages between,
// evenly. Without them: even where the layers divide the stages; else as large runs balance them,
// the first and last stages lighter (Llama 3's 126 layers on 16 stages: 7, 8 x 14, 7; Llama Team
// 2024, "The Llama 3 Herd of Models", sec. 3.3.2: the last stage also runs the output head and the
// loss, the first the embedding), floor(L/pp) layers on the ends and L/pp rounded up between.
//
// Interleaved (v > 1 chunks a stage): a full stage holds v chunks of c layers; the first stage's first
// chunk and the last stage's last chunk may hold fewer, at most c fewer each (Llama 3 interleaves its
// 126 layers on 16 stages with one layer fewer on the first and the last stage, sec. 3.3.2; Megatron-
// Core places any layers per virtual stage with --pipeline-model-parallel-layout). Without given
// counts: even where L divides pp v, else chunks of ceil(L/(pp v)) layers with the missing ones taken
// from the last chunk and the first, half each (the last the odd one), at most a chunk each. valid is false where no such split exists.
StageLayers pipeline_stage_layers(double blocks, double pp, double first_given = 0, double last_given = 0,
                                  double virtual_stages = 1);
// The same for a layout of a model (its given counts from the strategy).
StageLayers pipeline_stage_layers(const Scenario& s, double pp, double virtual_stages = 1);
TimeReport estimate_time(const ComputeReport& compute, const HardwareReport& hardware, double gpus, double mfu);
// The predicted step, and one step's seconds at the time's reported speed.
void attach_step(TimeReport& time, const std::optional<StepPrediction>& step, double seq_len);
// The framework, regime and kernels the memory model assumes: the scenario's, else its framework's.
struct MemoryRegime : MemoryChoices {
  AdapterPrecision adapter_precision = AdapterPrecision::compute;
  double lora_dropout = 0;  // on each adapted layer's input
  // LitGPT's fused QKV layer drops its input out once for all three adapters; PEFT and torchtune adapt
  // each projection as its own module, each with its own dropout.
  bool fused_qkv_adapter = false;
  Quantization quantization = Quantization::nf4_double;
  // Norms and the gated MLP's activation run as fused kernels that keep 16-bit inputs (Transformer
  // Engine, Triton), rather than eager PyTorch ops that keep fp32 upcasts and every intermediate.
  bool fused_elementwise = false;
  // Transformer Engine's linear layers, which keep a cuBLAS workspace of their own (Megatron-core).
  bool transformer_engine = false;
  // QLoRA's 4-bit matmul keeps its 16-bit input for the backward pass even though the weight is frozen
  // (bitsandbytes' MatMul4Bit saves A whenever an input needs a gradient); torchao's NF4 linear keeps
  // only the weight.
  bool nf4_keeps_input = true;
  // The training loop binds the model's output to a variable that it rebinds only once the next
  // micro-batch's forward pass has returned (LitGPT's fit: "logits = model(input_ids, ...)"), so the
  // previous micro-batch's logits and, through their grad_fn, its autograd graph live through that
  // pass. Backward frees what autograd saved, but not what a Python autograd.Function keeps as a plain
  // attribute of its context: bitsandbytes' MatMul4Bit before 0.43.2 ("ctx.tensors = (A, B)",
  // bitsandbytes/autograd/_functions.py; removed by PR #1270, 2024-07-16, "fix QLoRA mem bug: delete
  // useless buffered activation"), so with nf4_keeps_input the previous micro-batch's 4-bit inputs stay.
  bool previous_micro_batch_held = false;
  // FSDP's root unit, what no transformer block's wrapping takes (the embedding, the final norm and the
  // output head), stays gathered from its forward pass through the backward pass: FSDP does not reshard
  // the root after forward, "with the intention that they are immediately used for backward"
  // (torch/distributed/fsdp/_runtime_utils.py, _post_forward_reshard: free only "not state._is_root";
  // FSDP2: _composable/fsdp/_fsdp_state.py, _lazy_init, "For the root, do not reshard after forward",
  // post_forward_mesh_info = None).
  bool root_unit_gathered = false;
  // The output head as its own matrix even where the model ties it to the embedding (LitGPT's GPT builds
  // lm_head and wte separately), and QLoRA quantising it with the other linear layers (Lightning Fabric's
  // BitsandbytesPrecision replaces every nn.Linear; transformers' bitsandbytes integration keeps lm_head
  // in 16 bits).
  bool separate_output_head = false;
  bool nf4_output_head = false;
  // The allocator runs with expandable segments (torchtitan's launcher sets them): no fragmentation.
  bool expandable_segments = false;
  // Gradient accumulation inside FSDP1's no_sync(): every rank accumulates the full, unsharded gradients
  // until the micro-batch that synchronises (PyTorch docs, FullyShardedDataParallel.no_sync: "FSDP will
  // accumulate the full model gradients (instead of gradient shards) until the eventual sync").
  // FSDP2 (torchtitan, torchtune) reduce-scatters after every micro-batch unless told otherwise.
  bool no_sync_accumulation = false;
  // FSDP1 flattens each wrapped block's parameters, frozen and trainable alike, into one flat parameter
  // (use_orig_params=True), whose gradient then covers the whole block, not only its adapters (PyTorch's
  // warning in torch/distributed/fsdp/_wrap_utils.py, quoted in Lightning-AI/litgpt PR #1538: "1451376640
  // numel instead of 106496 numel"). PEFT's fsdp_auto_wrap_policy wraps the adapters on their own.
  bool flat_gradients_cover_frozen = false;
  // Pipelining under FSDP2 holds each stage unsharded through the step: torchtitan keeps the gathered
  // parameters after the forward pass when pipelining ("For PP, do not reshard after forward to avoid
  // per-microbatch all-gathers": torchtitan/parallelisms/parallelize_llama.py @9dec370, apply_fsdp,
  // reshard_after_forward = False), and PyTorch's pipeline schedules run every backward but the last
  // without gradient synchronisation or resharding (torch/distributed/pipelining/stage.py,
  // backward_maybe_with_nosync: set_reshard_after_backward(False), set_requires_gradient_sync(False)), so
  // the gradients accumulate whole, upcast to the fp32 reduce dtype (torch/distributed/fsdp/
  // _fully_shard/_fsdp_param.py, to_accumulated_grad_if_needed).
  bool pipeline_holds_stage_unsharded = false;
  // Sequence parallelism through DTensor keeps each column-parallel layer's all-gathered input (see
  // Kernels::sp_keeps_gathered in memory.cpp); Megatron-LM keeps the shard.
  bool sp_keeps_gathered = false;
  // Whose loss splits the vocabulary over the tensor-parallel ranks (see logits_bytes_per_token in
  // memory.cpp): Megatron-LM's vocab-parallel cross-entropy, or PyTorch's loss parallel (DTensor).
  enum class VocabParallelLoss { none, megatron, dtensor };
  VocabParallelLoss vocab_parallel_loss = VocabParallelLoss::none;
  // torchtune compiles each chunk of its chunked loss with the model (compile_loss).
  bool compiled_loss_chunks = false;
};
MemoryRegime resolve_memory_regime(const Scenario& s);
bool runs_flash_attention(const GpuSpec& gpu);
bool keeps_no_scores(AttentionKernel kernel);
// Megatron's fused softmax (AttentionKernel::fused_softmax) runs its CUDA kernel only for the shapes it
// supports; elsewhere PyTorch's softmax runs in its place, in fp32 (memory_regime.cpp says which).
// seq: the keys each query sees on this GPU (the sequence over context parallelism).
struct SoftmaxShape {
  double micro_batch = 1, heads_per_gpu = 1, seq = 0;
  bool causal = true, sixteen_bit = true;
};
// Why the kernel refuses a shape, the first reason that applies; none where it runs.
enum class SoftmaxRefusal { none, precision, length, batches };
SoftmaxRefusal megatron_softmax_refusal(const SoftmaxShape& shape);
// The batches of scores micro-batch x heads per GPU must be a multiple of: 4, or 8 at 128 keys or fewer.
double megatron_softmax_batch_multiple(double seq);
// The shape a layout gives the kernel: micro-batch, heads over tensor parallelism, the sequence over
// context parallelism, a causal mask unless the model is an encoder or an encoder-decoder.
SoftmaxShape softmax_shape(const Architecture& a, const ParallelismReport& layout, double seq, bool sixteen_bit);
// The scenario asks for Megatron's fused softmax and this layout's shapes make it fall back.
bool softmax_falls_back(AttentionKernel kernel, const SoftmaxShape& shape);
// Selective recomputation as torchtitan runs it (selective_ac_option "op", FSDP2's framework): each
// layer keeps its matmuls' outputs except every second one and attention's, and recomputes the rest
// (torchtitan/distributed/activation_checkpoint.py, the mm_count policy); other frameworks' selective
// recomputation is Megatron's, of the core attention alone (Korthikanti et al. 2022, sec. 5).
inline bool per_op_selective(Recompute recompute, const MemoryRegime& regime) {
  return recompute == Recompute::selective && regime.framework == Framework::fsdp2;
}
// Bytes per trainable parameter: weight, gradient, optimizer (states and any fp32 master copy).
struct ParamBytes {
  double weight = 0, gradient = 0, optimizer = 0;
};
ParamBytes trainable_param_bytes(const MemoryRegime& r, Precision precision, Optimizer optimizer, bool adapter);
double frozen_weight_bytes(const MemoryRegime& r, Precision precision);
double nf4_bits_per_param(Quantization q);
// The caching allocator's reserve beyond what is allocated, as a fraction of what comes and goes within
// a step (activations, logits, gradients): fitted on the reserved and device peaks of
// engine/data/memory-validation.json (`traincalc validate --memory`: 0.245 on all sources, 0.205-0.285
// with one source held out). Every published run of engine/data/calibration.json that ran still fits at
// it (llm-foundry's MPT-7B runs stop fitting above 0.28). Plausible range 0-0.5.
inline constexpr double default_fragmentation = 0.245;
// What the GPU offers a process: its memory in GiB (vendors' "80 GB" of HBM is 80 GiB).
double usable_capacity_bytes(const HardwareReport& hardware);
// The longest sequence (whole tokens) at which the memory fits, the layout fixed; 0 when none does.
std::optional<double> max_seq_len_that_fits(const Scenario& s, const ModelReport& model,
                                            const ParallelismReport& layout, const HardwareReport& hardware,
                                            const ComputeReport& compute);
// How much of the memory report to fill: everything, or (for the planner, which weighs about a million
// layouts a second) the numbers only: the same totals, fit and explanation, without the phases'
// compositions, the per-stage lists and the assumptions' names.
enum class MemoryDetail { full, numbers };
// Calibration to the user's measured runs (calibration.cpp): each run estimated, each measurement
// checked against what it can physically be (errors at its field), the constants fitted.
struct CalibrationFit {
  SpeedCalibration speed;
  std::string speed_distance;   // the nearest run with a measured speed ("same_run" ... "model")
  std::string memory_distance;  // the nearest run with a measured peak
  double speed_runs = 0, memory_runs = 0;  // measured runs (not figures) behind each fit
  MemoryCalibration memory;
  std::vector<CalibrationPoint> points;
  Issues errors;
};
CalibrationFit fit_calibration(const Scenario& s, const Catalog* catalog);
void calibrate_step(StepPrediction& step, const SpeedCalibration& k);
// The speed multipliers fitted on measured steps (each the model's breakdown and the measured seconds),
// and a breakdown's step under them.
SpeedCalibration fit_speed(const std::vector<std::pair<StepBreakdown, double>>& measured);
double calibrated_seconds(const StepBreakdown& breakdown, const SpeedCalibration& k);
// How much of a measured run's departure from the step model carries to another run of the same
// code: tau^2 / (tau^2 + sigma^2 / runs), tau the spread of sources' biases, sigma a row's scatter
// about its source's (both over the held-out rows; `traincalc validate --speed` prints them, a test
// keeps these equal to it). The run measured itself carries in full.
extern const double calibration_between_sd, calibration_within_sd;
double calibration_weight(double runs);
// The same for a measured peak (`traincalc validate --memory`): the memory's allocated factor and gap.
extern const double memory_calibration_between_sd, memory_calibration_within_sd;
double memory_calibration_weight(double runs);
MemoryCalibration carried_calibration(const MemoryCalibration& k, double weight);
// The multipliers with only `weight` of their departure from 1 (in log space): k^weight.
SpeedCalibration carried_calibration(const SpeedCalibration& k, double weight);
// The likely range of a step calibrated on a measured run at a distance ("layout", "gpus", "model"),
// basis "calibrated_" + distance: measured / calibrated over the sources' other rows, each source
// weighing the same (`traincalc validate --speed`).
const LikelyRange& calibration_range(std::string_view distance);
void calibrate_memory(MemoryReport& m, const MemoryCalibration& c);

// The likely range of a predicted peak for a framework lineage the memory validation never saw:
// measured / predicted over the 159 measured peaks of engine/data/memory-validation.json, each
// predicted with the fragmentation fitted without its lineage (detail::ranges_for_new_group over 4
// lineages; `traincalc validate --memory` prints it; test_validation.cpp keeps these equal to it).
LikelyRange memory_range();
MemoryReport estimate_memory(const Scenario& s, const ModelReport& model, const ParallelismReport& layout,
                             const HardwareReport& hardware, const ComputeReport& compute, Issues& warnings,
                             MemoryDetail detail = MemoryDetail::full);
// The fewest GPUs (multiples of tp x pp x cp, up to 10 million) at which the memory fits, keeping
// the layout and adding data parallelism; nullopt when no count does.
std::optional<double> min_gpus_that_fit(const Scenario& s, const ModelReport& model, const HardwareReport& hardware,
                                        const ComputeReport& compute);
// Changes that would make it fit, each with the memory the engine computes for it.
// The memory a scenario gets at a GPU count, its layout resolved as estimate() does (planned or given).
using MemoryProbe = std::function<MemoryReport(const Scenario&, double gpus)>;
// Changes to the user's scenario `s` that would make it fit, each with the memory the engine computes
// for it; `pinned` is s with the layout chosen for it.
std::vector<MemorySuggestion> memory_suggestions(const Scenario& s, const Scenario& pinned, const Report& report,
                                                 const Catalog* catalog, const MemoryProbe& probe);
// The sequences of one optimizer step: given, or a typical batch (said in the report).
// Sequences per step: the scenario's, else the default for this many GPUs (default_batch_tokens).
double resolved_global_batch(const Scenario& s, const ComputeReport& compute, double gpus);
double default_batch_tokens(const ComputeReport& compute, double gpus);
// The step model's calibrated constants, each a physical quantity (step_time.cpp says what each is and
// its plausible range). The defaults are the fit on every validation source; `traincalc validate
// --speed` refits them without each source in turn to predict it held out.
struct SpeedParams {
  double ampere_matmul_efficiency = 0.788;     // of the dense peak, a large matmul inside a step
  double hopper_matmul_efficiency = 0.624;
  double sustained_fraction = 0.612;           // other GPUs: of their measured best matmul
  double gemm_half_rate_dimension = 70.8;      // elements: a dimension this size runs at half rate
  double ampere_flash_efficiency = 0.267;      // FlashAttention forward+backward, of the 16-bit peak
  double hopper_flash_efficiency = 0.243;
  double flash3_speedup = 1.752;               // Hopper: FlashAttention-3 / cuDNN over FlashAttention-2
  double flash_relative_rate = 0.883;          // other GPUs: of their matmul efficiency
  double fp8_matmul_relative_rate = 0.960;     // an fp8 matmul's efficiency, of the 16-bit one's
  double memory_efficiency = 0.809;            // of the HBM peak, memory-bound kernels
  double link_efficiency = 0.950;              // of a link's per-direction bandwidth, NCCL bus bandwidth
  double layer_dispatch_seconds = 693e-6;      // host time to launch one layer's forward kernels
  double collective_latency_seconds = 100e-6;  // fixed cost of an exchange that syncs the host
  double micro_batch_host_seconds = 15.7e-3;   // host work per micro-batch the GPU waits for
  double pipeline_host_share = 0.650;          // of it, on a pipeline's last stage
};
// What the step model needs of the hardware (rates and bandwidths as achieved), computed once.
struct StepHardware {
  double matmul_peak = 0;     // FLOP/s in the compute precision
  double attention_peak = 0;  // FLOP/s in 16 bits (attention is not run in fp8)
  double fp32_peak = 0;       // FLOP/s of fp32 matmuls without TF32 (fp32 LoRA adapters)
  double matmul_efficiency = 0;
  double flash_efficiency = 0;  // FlashAttention forward+backward, of the 16-bit peak
  double flash3_efficiency = 0;  // its Hopper generation (AttentionKernel::flash3)
  double flash3_half_rate_head_dim = 14;  // elements: the head width at which it runs at half rate
  double fp8_matmul_relative_rate = 1;  // an fp8 matmul's efficiency, of the 16-bit one's
  double memory_bytes_per_second = 0;
  double intra_bytes_per_second = 0;  // per GPU, per direction, achieved
  double inter_bytes_per_second = 0;
  double gpus_per_node = 8;  // the fast link's reach: a server, or a TPU pod (link_domain_gpus)
  double gemm_half_rate_dimension = 0;
  double layer_dispatch_seconds = 0;
  double collective_latency_seconds = 0;
  // NCCL's cost model of a ring inside the fast link's reach (nccl_ring_seconds): whether that link is
  // NVLink (else PCIe), and the LL protocol's bandwidth ceiling for this GPU generation.
  bool nvlink = true;
  double ll_max_bytes_per_second = 87.7e9;
  double micro_batch_host_seconds = 0;
  double pipeline_host_share = 1;
};
StepHardware step_hardware(const Scenario& s, const HardwareReport& hardware, const SpeedParams& params = {});
// One ring collective inside one node (NVLink or PCIe) of `bytes` (an all-reduce's buffer, an
// all-gather's output) over `ranks` GPUs at a per-direction `bandwidth`, as NCCL's own model prices it.
double nccl_ring_seconds(const StepHardware& m, double bytes, double ranks, double bandwidth, bool all_reduce);
std::optional<StepPrediction> predict_step(const Scenario& s, const ComputeReport& compute, const StepHardware& machine,
                                           const ParallelismReport& layout, const MemoryExplanation& memory,
                                           double global_batch_sequences);
// One step on this layout, predicted from the hardware; nullopt without an architecture.
std::optional<StepPrediction> predict_step(const Scenario& s, const ComputeReport& compute,
                                           const HardwareReport& hardware, const ParallelismReport& layout,
                                           const MemoryExplanation& memory, double global_batch_sequences);
// The kind of step a likely range is taken for: the host's kernel launches take longer than the GPU's
// work on a layer ("launch_bound"), more than a third of it ("launch_near"), or less ("compute_bound"); any
// step of a mixture of experts ("mixture_of_experts").
std::string speed_range_basis(const StepPrediction& step);
// The likely range of a predicted step: the 80% range of its basis for a new source, which `traincalc
// validate --speed` computes from the validation rows (a test keeps the two equal).
LikelyRange likely_range(const StepPrediction& step);
const LikelyRange& likely_range(std::string_view basis);  // the row of that basis (the last if none)
const std::vector<LikelyRange>& likely_ranges();
// The step model's validated envelope along one dimension of a run ("params", "gpus", "pp", "dp"):
// the span of the validation's measured rows, and the change of log(predicted step) per
// doubling past the envelope below and above (what refitting without the rows past an edge moved
// their predictions by; 0 where no experiment measures it). `traincalc validate --speed` prints them.
struct EnvelopeBound {
  std::string_view dimension;
  double low = 0, high = 0;
  double below_per_doubling = 0, above_per_doubling = 0;
};
const std::vector<EnvelopeBound>& speed_envelope();
// Widens a predicted step's range for a run outside the envelope (and for a GPU of a family no
// validation source measured, by extrapolation_points of utilisation, unless the user measured a step
// on this GPU), recording the factors in outside_low and outside_high, and says so in a warning per
// dimension.
void widen_outside_envelope(LikelyRange& range, const Scenario& s, const ModelReport& model, double gpus,
                            const ParallelismReport& layout, double mfu, bool measured_on_this_gpu, Issues& warnings);
// What the user should know about a predicted step: an assumed batch, a GPU the step model was not
// calibrated on, features no validation row exercises, a mixture of experts' likely range, assumed
// offload rates.
void speed_warnings(const Scenario& s, const HardwareReport& hardware, const ParallelismReport& layout,
                    const StepPrediction& step, double batch, double seq_len, Issues& warnings);
// Whether the run meets the deadline and stays within the total budget, said when it does not.
void check_plan(const TimeReport& time, const std::optional<CostReport>& cost, PlanReport& plan, Issues& warnings);
// Whether the step model was fitted on rows measured on this GPU (A100 SXM 40/80GB, H100 SXM, H200 SXM, B200),
// or on its family (A100/A800, H100/H800/H200/GH200 in any form, which get the family's efficiencies);
// elsewhere it extrapolates. calibrated_gpus() lists them by catalog id, with the warning's names.
const std::vector<std::pair<std::string_view, std::string_view>>& calibrated_gpus();
bool calibrated_gpu(const GpuSpec& gpu);
bool calibrated_family(const GpuSpec& gpu);
// Whether any layout field is "auto" (the planner searches it).
bool layout_is_searched(const Strategy& st);
struct LayoutSearchResult {
  bool found = false;  // false: no layout of these GPUs is possible (the batch is too small, ...)
  ParallelismReport layout;
  double evaluated = 0;
  double fitting = 0;
  bool truncated = false;  // the search stopped at its budget of layouts
};
// The fastest layout of `gpus` GPUs that fits in memory (or, when none fits, the one needing least);
// needs an architecture.
LayoutSearchResult plan_layout(const Scenario& s, const ModelReport& model, const ComputeReport& compute,
                               const HardwareReport& hardware, double gpus, double global_batch);
// The fewest GPUs that meet budget.deadline_days at the utilisation the step model predicts for them,
// with their layout and step; layout_at and step_at give a count's layout and its predicted step.
struct DeadlinePlan {
  double gpus = 0;
  ParallelismReport layout;
  std::optional<StepPrediction> step;
  Issues warnings;
  bool capped = false;  // the offer's GPU limit stopped the search short of the deadline
};
using LayoutAt = std::function<ParallelismReport(double gpus, Issues& warnings)>;
using StepAt = std::function<std::optional<StepPrediction>(const ParallelismReport& layout)>;
// The wall-clock seconds of the run as the plan judges it (the expected run's) at a GPU count and step.
using RunSeconds = std::function<double(double gpus, const StepPrediction& step)>;
DeadlinePlan plan_for_deadline(const Scenario& s, const ComputeReport& compute, const HardwareReport& hardware,
                               const StepPrediction& first_step, const LayoutAt& layout_at, const StepAt& step_at,
                               const RunSeconds& run_seconds);
// The built-in grids' carbon intensity (kg CO2 per kWh) by region ID, and their IDs for messages.
std::optional<double> grid_intensity(std::string_view region);
std::string grid_region_list();
// Energy and CO2 of the run (nullopt when the GPU's power is unknown, said in a warning).
std::optional<EnergyReport> estimate_energy(const Scenario& s, const TimeReport& time, double gpus, Issues& warnings);
// Chinchilla's compute-optimal splits and fitted loss for a dense language model's pre-training.
std::optional<ScalingLawReport> estimate_scaling_law(const Scenario& s, const ComputeReport& compute,
                                                     const HardwareReport& hardware, const TimeReport& time);
// ---- The catalog (catalog/specs.cpp) ----

// The architecture a GPU row belongs to, by what it says: "cc" and its compute capability ("cc8",
// "cc9", "cc8.6"); else the generation its name names (NVIDIA's A100/A800, H100/H800/H20/H200,
// B200/B300/GB200); else empty.
std::string architecture_of(const GpuSpec& gpu);

// ---- The expected run (goodput.cpp) ----
// Each recovery's sourced defaults (goodput.cpp says where each comes from).
struct RecoveryDefaults {
  double restart_minutes = 0;
  double checkpoint_write_gb_per_s = 0;  // per GPU, while training waits
};
RecoveryDefaults recovery_defaults(Recovery recovery);
// Unexpected job interruptions per 1,000 GPU-days: Llama 3's 419 in a 54-day snapshot of pre-training on
// 16,384 H100s (Grattafiori et al., "The Llama 3 Herd of Models", arXiv 2407.21783, sec. 3.3.4; the GPU
// count of that snapshot is the paper's "up to 16K", medium confidence). Meta's research clusters:
// 0.81 (RSC-1) and 0.29 (RSC-2) from 6.50 and 2.34 failures per 1,000 node-days (Kokolis et al. 2024);
// BLOOM's "1-2 GPU failures a week" on about 400 A100s: 0.54; OPT-175B's cloud A100s about 2.
inline constexpr double default_interruptions_per_1000_gpu_days = 419.0 / (16384 * 54) * 1000;
// A real run's steady speed as a fraction of the step model's prediction, fitted on the whole runs of
// engine/data/whole-runs.json (`traincalc validate --runs`, which refits it without each run).
inline constexpr double default_run_efficiency = 0.746;
// The expected run's likely range for predicted pre-training: published / expected GPU-hours over the
// 78 whole runs the utilisation is predicted for, each held out with its publisher's runs, the 80%
// range for a run of a new publisher (detail::ranges_for_new_group over 23 publishers; `traincalc
// validate --runs` prints it; test_goodput.cpp keeps these equal to it). Its `lineages` counts the
// publishers.
LikelyRange whole_run_range();
// Daly (2006): the checkpoint interval (hours of work) that minimises the expected wall-clock, for a
// checkpoint taking delta hours and a mean time between interruptions of m hours.
double daly_optimal_interval(double delta_hours, double mtbf_hours);
// Daly (2006): the expected wall-clock hours of solve_hours of work, checkpointed every tau hours
// (delta hours each), restarting in r hours after each interruption, interruptions at mean m hours
// (exponentially distributed). Capped at a million times the work (the run would not progress).
double daly_wall_clock_hours(double solve_hours, double tau_hours, double delta_hours, double restart_hours,
                             double mtbf_hours);
// The whole model's checkpoint: its trainable parameters' weights and optimizer state.
double checkpoint_bytes(const Scenario& s, const ComputeReport& compute);
// The expected run of a report's steady state; warnings when interruptions dominate.
ExpectedRun expected_run(const Scenario& s, const ComputeReport& compute, const TimeReport& time, double gpus,
                         double gpus_per_node, Issues& warnings);
// Currencies: a code the reference rates know (currencies.hpp), their list, and the conversion of
// one currency into another (none where a code has no rate, given or reference).
const CurrencyRate* find_currency(std::string_view code);
std::string currency_list();
std::string currency_code(std::string_view typed);
std::optional<Exchange> exchange_between(const Scenario& s, std::string_view from, std::string_view to);
double hourly_price(const Pricing& p);
double monthly_price(const Pricing& p);
std::optional<CostReport> estimate_cost(const Scenario& s, const TimeReport& time, double gpus);

}  // namespace traincalc::detail
