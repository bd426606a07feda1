// One training step, predicted from the hardware: the layer's operations on the GPU (matmuls at a
// shape-dependent efficiency, attention, memory-bound element-wise work), the collectives of each
// parallel group on the link it uses, what of them overlaps with compute, the pipeline bubble,
// recomputation and the optimizer step. From the step time follow MFU and HFU.
//
// The model is analytical in the spirit of Calculon (Isaev et al. 2023, "Calculon: a methodology and
// tool for high-level co-design of systems and large language models") and of Narayanan et al. 2021
// (sec. 3, the Megatron-LM communication and bubble analysis), with a handful of global constants
// (SpeedParams), fitted once on every validation source together (not row by row or per source):
// engine/data/speed-validation.json and calibration.json, `traincalc validate --speed`.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>

#include "estimate/estimators.hpp"
#include "contract/text.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

namespace {

// --- The constants ----------------------------------------------------------------------------------
// The calibrated ones are SpeedParams (estimators.hpp), one set for all rows, never per row or per
// source, each fitted within the bounds given here (speed_validation.cpp, knobs()). The fitted values are
// the constants table of `traincalc validate --speed` (docs/validation.md): its column "all", the fit on
// every source, is SpeedParams' defaults (rounded); the others are the fits with each lineage held out.
// Below, each constant's meaning, bounds and evidence:
//  - matmul efficiency, per family (Ampere GA100; Hopper: family_of): the fraction of the dense peak a large
//    matmul sustains inside a training step. Below the best-shape measurement (A100 0.87, H100 0.80: the
//    MAMF table in github.com/stas00/ml-engineering, compute/accelerator/README.md) because of clocks
//    under a whole node's power draw, the backward pass's transposed operands and the epilogues.
//    Bounds: A100 0.4-0.95, H100 0.3-0.9.
//  - sustained fraction: other GPUs get their measured best matmul (the catalog's matmul_efficiency)
//    times this; without a measurement 0.75 x it, an assumption the report states. 0.5-1 (the B200
//    rows, the only such GPU measured, set it).
//  - gemm half-rate dimension: a matrix dimension of x elements reaches x / (x + this) of the
//    large-matmul rate: tile and wave quantisation make thin matmuls (small hidden sizes,
//    tensor-parallel slices, few tokens per expert) slower per FLOP. 16-512 elements. cuBLAS's bf16
//    matmuls on an H200 reach half rate at an inner dimension of ~100-150 and at ~30-80 rows or columns
//    (tests/data/device/h200-2026-12-01.json, section gemm).
//  - FlashAttention's forward+backward rate, per family, of the 16-bit dense peak, counting the
//    backward's recomputed scores (3.5x the forward FLOPs) and the skipped causal half, for a head of
//    width d and a sequence of s: rate x d / (d + 14) x s / (s + 712), both factors measured (below, at
//    flash_half_rate_head_dim). FlashAttention-2's microbenchmarks give 50-73% of the A100's peak
//    (Dao 2023); on the H100 its forward pass at head width 128 runs at 300-370 TFLOPS, 30-37% of the
//    peak, FlashAttention-3's at 520-650 (Shah et al. 2024, forward-speed benchmarks); PyTorch's
//    FlashAttention-2 on an H200 ran 290 TFLOPS forward + backward at width 128 and 8,192 tokens, which
//    this formula gives with 0.354; the fit inside whole steps sits below that, running it slower than
//    the microbenchmark. Bounds 0.15-0.75. Other GPUs: flash_relative_rate (0.3-0.9) of their matmul
//    efficiency (fitted on the B200 rows alone).
//  - flash3 speed-up: FlashAttention-3 or cuDNN's fused attention (attention "flash3") over
//    FlashAttention-2 on Hopper, forward and backward together. Bounded by the measurement, 1.7-1.8:
//    PyTorch 2.11's cuDNN attention ran 1.73-1.77x its FlashAttention-2 at width 128 on an H200
//    (tests/data/device/h200-2026-12-01.json; FlashAttention-3 reports 1.5-2.0x forward and 1.5-1.75x
//    backward, Shah et al. 2024, sec. 4.1).
//  - fp8 relative rate: an fp8 matmul's efficiency, of the 16-bit one's, on its doubled peak (cuBLAS's
//    fp8 GEMMs reach less of their peak than bf16's). Bounded by the measurement, 0.85-0.96: 0.87-0.96
//    at the large shapes on an H200 (speed_validation.cpp, knobs()).
//  - memory efficiency: memory-bound kernels (norms, activations, residual adds, the loss, the
//    optimizer) stream at this fraction of the HBM peak. 0.5-0.95. A large copy reaches 0.89 on an H200
//    (4.28 of 4.8 TB/s); eager element-wise kernels a little less.
//  - link efficiency: NCCL collectives reach this fraction of a link's per-direction bandwidth as bus
//    bandwidth (before the protocol's own share, nccl_ring_seconds). 0.4-0.95. The fit sits at the
//    top while A100 servers measure 0.66-0.76 over NVLink (vTrain's all-reduce tables,
//    trace/a100/AR_GPU*_LUT @f8dda84: 197-229 of 300 GB/s at 1 GB), where NCCL's model, fitted to
//    those tables, needs 40 us more per collective: the fitted value carries overlap or savings the
//    model lacks, not the links' speed. Pricing the links as measured and refitting predicts worse held
//    out (docs/validation.md, "The fit's own noise").
//  - layer dispatch: the host's time to launch one layer's forward kernels in an eager framework
//    (PyTorch dispatch, autograd and Python, some 30 operations of ~10 us each; the backward pass
//    launches twice as many). A layer whose kernels take the GPU less than that leaves it waiting:
//    small models, thin tensor-parallel slices, micro-batch 1. 20 us-2 ms. The fit rests chiefly on
//    vTrain's one-node rows (2022's eager Megatron-DeepSpeed with checkpointing), which add 3.0 ms a
//    layer, and comes out about 2x the estimate above.
//  - exchange latency (collective_latency_seconds): the fixed cost, whatever its size, of an exchange
//    the step waits on that NCCL's model below does not price: a pipeline send and receive, a
//    context-parallel ring step, an expert all-to-all, a tensor-parallel collective that leaves the
//    server. Besides NCCL's own latency (10-30 us) it holds the host's synchronisation: Megatron runs
//    torch.cuda.synchronize() after every batched pipeline exchange (megatron/p2p_communication.py
//    since 27fc468, 2021-01-20; megatron/core/pipeline_parallel/p2p_communication.py @d98e8a6,
//    batch_p2p_sync, on by default), so the GPU then waits for the host to launch again, and
//    Megatron-Core's all-to-all dispatcher reads the token counts back to the host. 2-100 us. The fit
//    sits at the top in every fold (a range to 500 us fits 193 us and predicts worse held out: 6.71%
//    against 6.55%). Confidence: low; no source times a send apart.
//  - micro-batch host work: each micro-batch the host drains the GPU's queue once and works before
//    launching again (Megatron's classic get_batch reads the broadcast batch sizes back to the host;
//    Hugging Face's Trainer tests each micro-batch's loss for NaN on the host), fetches the next batch
//    and launches the embedding and the loss. 0.1-50 ms. vTrain's one-node rows without a pipeline show
//    an intercept of about 11 ms (a 12-layer h1024 micro-batch, 43-45 ms, less 12 layers' launches);
//    the fit sits above it, trading it against the pipelines' rows, and the 12-layer models without a
//    pipeline come out 8.5% slow, the 24-layer ones 4% fast. Part of what the multi-node rows lose with
//    more, smaller micro-batches at a fixed global batch (30-45 ms a micro-batch at 64 GPUs, TP 1-8).
//    Confidence: medium; no source times the host directly.
//  - a pipeline's host share: in a pipeline that work is split between the two stages that hold the
//    model's ends. The first loads the tokens and launches the embedding, the last loads the labels and
//    launches the logits' loss (pretrain_gpt.py's get_batch loads on those two stages only). The last
//    stage sets the pace; the first waits on it and hides its own part there. This is the share the
//    last stage pays, 0.2-1 (1: the whole of it, as one GPU without a pipeline pays). The evidence:
//    charged the whole of it, vTrain's one-node pipelines at micro-batch 1 come out 17-26% slower than
//    measured while the same models without a pipeline come out within 3%.
//    Confidence: medium-low; the split is inferred from step times, not timed on a host.
constexpr double default_matmul_efficiency = 0.75;
// FlashAttention's rate grows with the head width and the sequence, each as d / (d + half): measured on
// an H200 with PyTorch 2.11's SDPA kernels, causal bf16, forward + backward at 16,384 tokens a batch
// (tests/data/device/h200-2026-12-01.json, section attention; docs/validation.md). FlashAttention-2 at head
// width 128 ran 186, 233, 267 and 290 TFLOP/s at sequences of 1,024-8,192, which s / (s + 712) fits
// within 1%; head width 64 ran 0.90-0.91 of width 128 at every sequence (half rate at ~14 elements);
// cuDNN's kernel grew the same way with the sequence (328 to 501) but lost more at head width 64: 0.81-0.83
// of width 128 (half rate at ~37 elements). High confidence for Hopper; A100's FlashAttention-2 grows
// alike in Dao 2023, fig. 4 (medium).
constexpr double flash_half_rate_head_dim = 14;
constexpr double flash3_half_rate_head_dim = 37;
constexpr double flash_half_rate_sequence = 712;
// PyTorch's memory-efficient SDPA kernel (the CUTLASS kernel from xformers, tiled like FlashAttention) ran
// 0.40-0.58 of FlashAttention-2's forward + backward rate on the same H200, median 0.48 (widths 64 and
// 128, sequences 1,024-8,192; lower at long sequences: its own rate levels off earlier, 108-135
// TFLOP/s at width 128). Measured, high confidence on Hopper; elsewhere (V100, T4, where it is the only
// tiled kernel) an assumption that the kernel keeps its place against the GPU's tiled-attention rate.
constexpr double memory_efficient_relative_rate = 0.48;
// ZeRO-Offload: PCIe 4.0 x16 (~25 GB/s per direction) to the host and DeepSpeed's CPU Adam, about
// 1e9 parameters per second per GPU's share of the host (the order Ren et al. 2021 report for it).
// Assumptions, stated in a warning.
constexpr double pcie_bytes_per_second = 25e9;
constexpr double cpu_adam_params_per_second = 1e9;
// How far a GPU outside the calibrated families may be off, in points of utilisation: the measured
// GPUs sustain 0.90 (A100), 0.77 (H100) and 0.61 (B200) of their best matmul; a quarter either way of
// a typical 40-50% MFU is about 10 points. An estimate, said in the warning.
constexpr double extrapolation_points = 10;

enum class Family { ampere, hopper, other };

// The families the fitted constants belong to, by the GPU's architecture (its compute capability,
// else the generation its name names): Ampere's GA100 at 8.0 (A100, A800, A30) and Hopper at 9.0
// (H100, H800, H20, H200, GH200). Other GPUs run at their own measured best matmul.
Family family_of(const GpuSpec& gpu) {
  const std::string architecture = architecture_of(gpu);
  if (architecture == "cc8") return Family::ampere;
  if (architecture == "cc9") return Family::hopper;
  return Family::other;
}

struct Efficiencies {
  double matmul = 0;  // sustained large-matmul fraction of the dense peak
  double flash = 0;   // FlashAttention forward+backward fraction of the 16-bit peak
  double flash3 = 0;  // the Hopper generation's (FlashAttention-3, cuDNN): Hopper's own rate; on
                      // other GPUs FlashAttention's (FA3 needs sm90; cuDNN's runs at FA2's rate on
                      // Ampere; on Blackwell neither is calibrated apart)
};

Efficiencies efficiencies_of(const GpuSpec& gpu, const SpeedParams& p) {
  switch (family_of(gpu)) {
    case Family::ampere:
      return {p.ampere_matmul_efficiency, p.ampere_flash_efficiency, p.ampere_flash_efficiency};
    case Family::hopper:
      return {p.hopper_matmul_efficiency, p.hopper_flash_efficiency, p.hopper_flash_efficiency * p.flash3_speedup};
    case Family::other:
      break;
  }
  const double matmul = gpu.matmul_efficiency.value_or(default_matmul_efficiency) * p.sustained_fraction;
  return {matmul, matmul * p.flash_relative_rate, matmul * p.flash_relative_rate};
}

}  // namespace

StepHardware step_hardware(const Scenario& s, const HardwareReport& hw, const SpeedParams& params) {
  const GpuSpec& gpu = s.hardware.gpu;
  StepHardware m;
  m.matmul_peak = units::tflops_to_flops(hw.peak_tflops);
  const Precision p = resolved_precision(s);
  double sixteen = hw.peak_tflops;
  if (p == Precision::fp8) sixteen = gpu.bf16_tflops.value_or(gpu.fp16_tflops.value_or(hw.peak_tflops / 2));
  m.attention_peak = units::tflops_to_flops(sixteen);
  // fp32 (not TF32) matmuls: the datasheet's fp32 figure, else a sixteenth of the 16-bit peak (A100:
  // 19.5 of 312, H100 SXM: 67 of 989, about 1/15).
  m.fp32_peak = units::tflops_to_flops(gpu.fp32_tflops.value_or(sixteen / 16));
  const Efficiencies efficiency = efficiencies_of(gpu, params);
  m.matmul_efficiency = efficiency.matmul;
  m.fp8_matmul_relative_rate = params.fp8_matmul_relative_rate;
  m.flash_efficiency = efficiency.flash;
  m.flash3_efficiency = efficiency.flash3;
  // cuDNN's (or FlashAttention-3's) own head-width curve where it runs as its own kernel (Hopper).
  m.flash3_half_rate_head_dim =
      family_of(gpu) == Family::hopper ? flash3_half_rate_head_dim : flash_half_rate_head_dim;
  // Without a bandwidth figure: 300 FLOP per byte, the A100/H100 ratio of bf16 peak to HBM bandwidth.
  m.memory_bytes_per_second = (gpu.memory_bandwidth_tbs ? units::tbs_to_bytes_per_second(*gpu.memory_bandwidth_tbs)
                                                        : units::tflops_to_flops(sixteen) / 300) *
                              params.memory_efficiency;
  const double intra_gbs = s.hardware.intra_node_gbs.value_or(gpu.intra_node_gbs.value_or(32));
  const double inter_gbps = inter_node_gbps(s);
  m.intra_bytes_per_second = units::gb_to_bytes(intra_gbs) * params.link_efficiency;
  m.inter_bytes_per_second = units::gbit_to_bytes(inter_gbps) * params.link_efficiency;
  // The fast link's reach: the server, or a TPU pod's inter-chip interconnect (a 3D torus of 4,096
  // TPU v4 chips, whose collectives never leave it; Google Cloud TPU docs, "TPU v4").
  m.gpus_per_node = std::max(hw.gpus_per_node, gpu.link_domain_gpus.value_or(0));
  m.gemm_half_rate_dimension = params.gemm_half_rate_dimension;
  m.layer_dispatch_seconds = params.layer_dispatch_seconds;
  m.collective_latency_seconds = params.collective_latency_seconds;
  // NCCL's llMaxBws for one node, by compute capability (src/graph/tuning.cc @5067397: Volta and
  // Turing 39.0, Ampere and Ada 87.7, Hopper 141, Blackwell 2 x 141 GB/s). A GPU without one (AMD's,
  // whose RCCL keeps NCCL's tuning model; Gaudi, TPU) takes Ampere's: NCCL's constants stand in there.
  {
    const double cc = gpu.compute_capability.value_or(8.0);
    m.ll_max_bytes_per_second = cc >= 10 ? 282e9 : cc >= 9 ? 141e9 : cc >= 8 ? 87.7e9 : 39.0e9;
  }
  // NVLink (NVSwitch) against PCIe: a link above PCIe 5.0 x16's 64 GB/s a direction is taken as NVLink.
  m.nvlink = intra_gbs > 64;
  m.micro_batch_host_seconds = params.micro_batch_host_seconds;
  m.pipeline_host_share = params.pipeline_host_share;
  return m;
}

// A ring collective inside one node as NCCL itself prices it to choose its protocol
// (src/graph/tuning.cc @5067397, ncclTopoTuneModel): each protocol p costs a base latency plus one hop
// latency per ring step (2(n-1) steps for an all-reduce, n-1 for an all-gather or reduce-scatter) plus
// the bytes at the link's bandwidth times the protocol's efficiency; the cheapest of the ring's
// protocols is taken, as NCCL takes it. Constants (microseconds): ring base latency LL 6.6, LL128
// 14.0, Simple 8.4; a hop over NVLink 0.6, 1.9, 3.4, over PCIe 1.0 and 5.7 (NCCL enables LL128 only
// over NVLink); LL moves half the bytes (8-byte lines, half of them flags) and at most llMaxBws,
// LL128 0.92 (120 of 128 bytes). Not modelled: NCCL's tree and NVLS algorithms (NVLink SHARP, on
// Hopper's NVSwitch), its channel counts and per-channel caps. Other vendors' libraries (RCCL keeps
// NCCL's model; HCCL, XLA's collectives) are priced with these constants as a stand-in.
double nccl_ring_seconds(const StepHardware& m, double bytes, double ranks, double bandwidth, bool all_reduce) {
  if (ranks <= 1) return 0.0;
  const double steps = all_reduce ? 2 * (ranks - 1) : ranks - 1;
  struct Protocol {
    double base_us, hop_us, bandwidth;
  };
  const double ll = std::min(m.ll_max_bytes_per_second, 0.5 * bandwidth);
  const Protocol nvlink[] = {{6.6, 0.6, ll}, {14.0, 1.9, 0.92 * bandwidth}, {8.4, 3.4, bandwidth}};
  const Protocol pcie[] = {{6.6, 1.0, ll}, {8.4, 5.7, bandwidth}};  // LL and Simple
  double best = std::numeric_limits<double>::infinity();
  const auto price = [&](const Protocol& p) {
    best = std::min(best, (p.base_us + steps * p.hop_us) * 1e-6 + steps / ranks * bytes / p.bandwidth);
  };
  if (m.nvlink)
    for (const Protocol& p : nvlink) price(p);
  else
    for (const Protocol& p : pcie) price(p);
  return best;
}

namespace {
// Bytes per gradient element in the data-parallel reduction: as the scenario says, else the gradients
// as the regime holds them (trainable_param_bytes, the memory model's): fp32 for Megatron-LM's bf16
// (megatron/training/arguments.py: "bfloat16 requires gradient accumulation and all-reduce to be done
// in fp32"), for FSDP2's mixed precision as torchtitan sets it (MixedPrecisionPolicy(param_dtype=
// torch.bfloat16, reduce_dtype=torch.float32), torchtitan/parallelisms/parallelize_llama.py @157a12c)
// and for PyTorch AMP, which DDP reduces as they are; 16 bits for DeepSpeed's mixed and the pure
// regimes. Megatron's fp16 reduces in 16 bits (it forces fp32 for bf16 only).
double gradient_reduce_bytes(const Scenario& s, const MemoryRegime& r) {
  if (s.strategy.grad_reduce_precision) return *s.strategy.grad_reduce_precision == Precision::fp32 ? 4.0 : 2.0;
  const Precision precision = resolved_precision(s);
  if (r.regime == Regime::megatron_mixed && precision == Precision::fp16) return 2.0;
  return trainable_param_bytes(r, precision, s.strategy.optimizer, /*adapter=*/false).gradient;
}

// Bandwidth per GPU of a group of `size` ranks whose neighbours are `stride` ranks apart: inside a
// node NVLink; across nodes the NICs, all of a node's members sharing the collective (NCCL runs one
// ring per NIC), never faster than NVLink.
double group_bandwidth(const StepHardware& m, double size, double stride) {
  if (size * stride <= m.gpus_per_node) return m.intra_bytes_per_second;
  const double members_per_node = std::max(1.0, m.gpus_per_node / stride);
  return std::min(m.intra_bytes_per_second, m.inter_bytes_per_second * std::min(members_per_node, size));
}

double all_reduce_seconds(double bytes, double ranks, double bandwidth) {
  return ranks > 1 ? 2 * (ranks - 1) / ranks * bytes / bandwidth : 0.0;
}
double all_gather_seconds(double bytes, double ranks, double bandwidth) {  // also reduce-scatter
  return ranks > 1 ? (ranks - 1) / ranks * bytes / bandwidth : 0.0;
}

// One collective over a tensor-parallel group of `ranks` (the innermost rank dimension): inside a
// server what NCCL's own model prices it at; a group larger than a server moves the bytes at its
// share of the NICs and pays the fitted fixed cost of an exchange instead.
double tensor_parallel_collective_seconds(const StepHardware& m, double bytes, double ranks, bool all_reduce) {
  const double bandwidth = group_bandwidth(m, ranks, 1);
  if (ranks <= m.gpus_per_node) return nccl_ring_seconds(m, bytes, ranks, bandwidth, all_reduce);
  return (all_reduce ? all_reduce_seconds(bytes, ranks, bandwidth) : all_gather_seconds(bytes, ranks, bandwidth)) +
         m.collective_latency_seconds;
}


// The share of a linear group's matmuls that torchtitan's per-op selective recomputation runs again in
// the backward pass: every second matmul of a layer, counted in the order the layer calls them
// (torchtitan/distributed/activation_checkpoint.py, the mm_count policy; models/llama3: wq, wk, wv, wo,
// then w1, w3, w2). So K (half of the K-and-V group), the output projection and the gated MLP's second
// up-projection (w3), or a plain MLP's down-projection (the sixth matmul). Approximations: latent
// attention (whose extra projections shift the count) and experts (grouped matmuls, which the policy
// may not save at all) take half, the policy's average; the router is recomputed (current torchtitan
// forces it: force_recompute_mm_shapes_by_fqns); a linear with a bias runs as addmm, which the 2024
// policy did not count or save, and is counted here as if it were mm.
double per_op_recomputed_share(const Architecture& a, const LinearGroup& g) {
  if (g.kind == LinearKind::router) return 1.0;
  if (latent_attention(a) || (g.kind == LinearKind::mlp && a.experts > 1)) return 0.5;
  switch (g.role) {
    case LinearRole::query: return 0.0;
    case LinearRole::key_value: return 0.5;
    case LinearRole::output: return 1.0;
    case LinearRole::mlp_up: return a.gated_mlp ? 0.5 : 0.0;
    case LinearRole::mlp_down: return a.gated_mlp ? 0.0 : 1.0;
    case LinearRole::other: break;
  }
  return 0.5;
}

// Whether a linear group reads a norm's output (the attention's input projections, a gated MLP's gate
// and up projections or a plain MLP's up projection, a router): under PyTorch AMP that input is fp32.
bool reads_norm_output(const LinearGroup& g) {
  return g.kind == LinearKind::router || g.role == LinearRole::query || g.role == LinearRole::key_value ||
         g.role == LinearRole::mlp_up;
}

struct Pass {
  double matmul = 0, attention = 0, elementwise = 0, matmul_flops = 0, attention_flops = 0;
  double total() const { return matmul + attention + elementwise; }
};

// A list for a warning: "a, b and c" in its message (last = " and "), "a,b,c" in its params.
std::string join(const std::vector<std::string_view>& items, std::string_view separator, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == items.size() ? last : separator) + std::string(items[i]);
  return out;
}

}  // namespace

// The GPUs the fitted validation sources measured (engine/data/speed-validation.json and the
// calibration rows it names; a test checks the two agree), with the names the warning gives.
const std::vector<std::pair<std::string_view, std::string_view>>& calibrated_gpus() {
  static const std::vector<std::pair<std::string_view, std::string_view>> gpus = {
      {"a100-40gb-sxm", "A100 SXM"}, {"a100-80gb-sxm", "A100 SXM"}, {"h100-sxm", "H100 SXM"},
      {"h200-sxm", "H200 SXM"},      {"b200", "B200"}};
  return gpus;
}

bool calibrated_gpu(const GpuSpec& gpu) {
  const auto& gpus = calibrated_gpus();
  return std::any_of(gpus.begin(), gpus.end(), [&](const auto& g) { return g.first == gpu.id; });
}

bool calibrated_family(const GpuSpec& gpu) {
  return family_of(gpu) != Family::other;
}

std::optional<StepPrediction> predict_step(const Scenario& s, const ComputeReport& compute,
                                           const HardwareReport& hardware, const ParallelismReport& layout,
                                           const MemoryExplanation& memory, double global_batch_sequences) {
  return predict_step(s, compute, step_hardware(s, hardware), layout, memory, global_batch_sequences);
}

namespace {

// What every part of the step's prediction reads: the model, the hardware, the layout, the
// framework's kernels, and one micro-batch's shape on one GPU.
struct StepShape {
  const Scenario& s;
  const Architecture& a;
  const StepHardware& m;
  const ParallelismReport& layout;
  MemoryRegime kernels;
  bool sixteen = true, fp8 = false;
  double e = 2;  // bytes per activation element
  double tp = 1, pp = 1, cp = 1, ep = 1, dp = 1;
  bool sp = false;
  double seq = 0;
  double tokens = 0;  // per GPU per micro-batch
  bool frozen = false;
  double h = 0;
  double blocks = 0;  // layers with an MLP
  double attention_blocks = 0;
  bool causal = true;

  double rate_factor(double dimension) const { return dimension / (dimension + m.gemm_half_rate_dimension); }

  // An fp8 run keeps some matmuls in 16 bits (the output head: Megatron-Core's fp8_autocast wraps the
  // transformer layers, not the output layer). fp8 matmuls reach a smaller fraction of their (twice as
  // high) peak than 16-bit ones: fp8_matmul_relative_rate, fitted in 0.85-0.96 (cuBLAS's fp8 GEMMs on an
  // H200 ran 0.87-0.96 of the bf16 ones' efficiency at the large shapes; speed_validation.cpp, knobs()).
  double gemm_seconds(double flop_rows, double rows, double k, double n, bool in_fp8, double fp32_bytes = 0) const {
    // fp32_bytes: an fp32 matmul (4-byte operands, the GPU's fp32 peak: PyTorch runs fp32 matmuls in
    // full precision unless TF32 is allowed, which it is not by default). Only thin adapter matmuls run
    // so, on the CUDA cores: the thin dimension's loss as for any tiled matmul, but not the tensor
    // cores' large-matmul efficiency (an fp32 SGEMM keeps its CUDA cores busier).
    const double peak = fp32_bytes > 0 ? m.fp32_peak : in_fp8 ? m.matmul_peak : m.attention_peak;
    const double efficiency = (fp32_bytes > 0 ? 1.0 : m.matmul_efficiency * (in_fp8 ? m.fp8_matmul_relative_rate : 1.0)) *
                              rate_factor(rows) * rate_factor(k) * rate_factor(n);
    const double flops = 2 * flop_rows * k * n;
    // Roofline: the operands and result move through HBM at least once per matmul.
    const double matmuls = flop_rows / rows;
    const double bytes = matmuls * (rows * k + k * n + rows * n) * (fp32_bytes > 0 ? fp32_bytes : in_fp8 ? 1.0 : e);
    return std::max(flops / (peak * efficiency), bytes / m.memory_bytes_per_second);
  }
};

StepShape step_shape(const Scenario& s, const ComputeReport& compute, const StepHardware& m,
                     const ParallelismReport& layout) {
  const Architecture& a = *s.model.architecture;
  StepShape c{s, a, m, layout, resolve_memory_regime(s)};
  const Precision precision = resolved_precision(s);
  c.sixteen = sixteen_bit(precision);
  c.fp8 = precision == Precision::fp8;
  c.e = c.sixteen ? 2.0 : 4.0;
  c.tp = layout.tp, c.pp = layout.pp, c.cp = layout.cp, c.ep = layout.ep, c.dp = layout.dp;
  c.sp = layout.sequence_parallel && c.tp > 1;
  c.seq = compute.seq_len;
  c.tokens = layout.micro_batch * c.seq / c.cp;
  c.frozen = s.training.method != FinetuneMethod::full;
  c.h = a.hidden;
  c.blocks = a.layers + a.decoder_layers;
  c.attention_blocks = a.layers + 2 * a.decoder_layers;
  c.causal = !a.encoder_only && a.decoder_layers == 0;
  return c;
}

// --- Matmuls: every linear group, sliced by tensor parallelism ---------------------------------
struct MatmulPass {
  Pass forward;                // its matmul seconds and FLOPs
  double weight_elements = 0;  // this GPU's share of the linear weights (for QLoRA dequantisation)
  double matmul_inputs = 0;    // activation elements entering matmuls (for fp8 casts)
  double norm_fed_inputs = 0;  // of them, those read from a norm's output (for AMP's casts)
  double per_op_matmul = 0, per_op_matmul_flops = 0;  // the matmuls per-op selective recomputation repeats
};

MatmulPass matmul_pass(const StepShape& c) {
  const Architecture& a = c.a;
  const double h = c.h, tp = c.tp, ep = c.ep, tokens = c.tokens;
  MatmulPass out;
  const double experts = a.experts > 1 ? a.experts : 1.0;
  for_each_linear(a, [&](const LinearGroup& g) {
    double k = g.in, n = g.out;
    if (g.kind != LinearKind::router) (g.in == h ? n : k) /= tp;  // column- or row-parallel
    double rows = tokens;
    double per_token_copies = g.active_copies;
    const bool routed = g.kind == LinearKind::mlp && g.copies > g.active_copies;
    if (routed) rows = std::max(1.0, tokens * a.experts_per_token * ep / experts);  // tokens per expert
    const double seconds = per_token_copies * c.gemm_seconds(tokens, rows, k, n, c.fp8 && g.kind != LinearKind::router);
    const double flops = per_token_copies * 2 * tokens * k * n;
    out.forward.matmul += seconds;
    out.forward.matmul_flops += flops;
    const double again = per_op_recomputed_share(a, g);
    out.per_op_matmul += again * seconds;
    out.per_op_matmul_flops += again * flops;
    out.weight_elements += (routed ? g.copies / ep : g.copies) * k * n;
    out.matmul_inputs += per_token_copies * tokens * k;
    if (reads_norm_output(g)) out.norm_fed_inputs += per_token_copies * tokens * k;
  });
  return out;
}

// --- Attention: QK^T and scores x V per attention block ----------------------------------------
struct AttentionPass {
  double qk_dim = 0, v_dim = 0;      // head widths
  double flops = 0;                  // forward
  double forward = 0, backward = 0;  // seconds
  bool tiled = false;                // FlashAttention or memory-efficient SDPA: no score matrix kept
};

AttentionPass attention_pass(const StepShape& c) {
  const Architecture& a = c.a;
  const StepHardware& m = c.m;
  const MemoryRegime& kernels = c.kernels;
  const double tp = c.tp, seq = c.seq, tokens = c.tokens, e = c.e;
  AttentionPass out;
  const double qk_dim = latent_attention(a) ? a.qk_nope_head_dim + a.qk_rope_head_dim : effective_head_dim(a);
  const double v_dim = latent_attention(a) ? a.v_head_dim : effective_head_dim(a);
  out.qk_dim = qk_dim;
  out.v_dim = v_dim;
  const double heads_here = a.heads / tp;
  const double attention_flops = 2 * tokens * seq * heads_here * (qk_dim + v_dim) * c.attention_blocks;
  out.flops = attention_flops;
  const bool tiled_attention = keeps_no_scores(kernels.attention);
  out.tiled = tiled_attention;
  if (tiled_attention) {
    // FlashAttention (and memory-efficient SDPA, tiled the same way) skips the masked half of a causal score matrix and recomputes the scores in its
    // backward pass (2.5x the forward FLOPs; Dao 2023, sec. 4.1).
    const bool flash3 = kernels.attention == AttentionKernel::flash3;
    const double efficiency = flash3 ? m.flash3_efficiency
                              : kernels.attention == AttentionKernel::memory_efficient
                                  ? m.flash_efficiency * memory_efficient_relative_rate
                                  : m.flash_efficiency;
    // Each kernel's own head-width curve, anchored at width 128, where the speed-up was measured.
    const double half_rate_head_dim = flash3 ? m.flash3_half_rate_head_dim : flash_half_rate_head_dim;
    const double width_factor = qk_dim / (qk_dim + half_rate_head_dim) * (128 + half_rate_head_dim) /
                                (128 + flash_half_rate_head_dim);
    const double kv_seq = seq / c.layout.cp;
    const double rate =
        m.attention_peak * efficiency * width_factor * kv_seq / (kv_seq + flash_half_rate_sequence);
    const double work = attention_flops * (c.causal ? 0.5 : 1.0);
    out.forward = work / rate;
    out.backward = 2.5 * work / rate;
    return out;
  }
  // Batched matmuls with the head width as inner dimension, plus the score tensor through memory:
  // scale, mask and softmax (fused: 16-bit in and out; eager PyTorch: an fp32 softmax and a cast),
  // and dropout (its mask and output).
  const double rate = m.attention_peak * m.matmul_efficiency * c.rate_factor(qk_dim) * c.rate_factor(seq);
  const double scores = tokens * seq * heads_here * c.attention_blocks;
  const double dropout_bytes = a.dropout ? 2 * e + 1 : 0.0;
  if (softmax_falls_back(kernels.attention, softmax_shape(a, c.layout, seq, c.sixteen))) {
    // Megatron's fused softmax refused for these shapes (memory_regime.cpp): forward_torch_softmax
    // casts 16-bit scores to fp32 (e in, 4 out), scales them by the layer number (query-key layer
    // scaling, on by default where this kernel is used: Megatron-DeepSpeed's
    // --no-query-key-layer-scaling; 4 + 4), masks them (4 + 4), takes the softmax (4 + 4) and casts
    // back (4 + e): 2e + 32 bytes per score against the fused kernel's 2e. Backward, each op's
    // gradient in turn: the cast's (e + 4), the softmax's reading its output and the incoming
    // gradient (4 + 4 + 4), the mask's (4 + 4), the scale's (4 + 4), the cast's (4 + e): 2e + 36. An
    // fp32 run has no casts: 24 and 28.
    const double casts = c.sixteen ? 2 * e + 8 : 0.0;
    out.forward = attention_flops / rate + scores * (casts + 24 + dropout_bytes) / m.memory_bytes_per_second;
    out.backward =
        2 * attention_flops / rate + scores * (casts + 28 + 2 * dropout_bytes) / m.memory_bytes_per_second;
  } else {
    const bool fused = kernels.attention == AttentionKernel::fused_softmax;
    const double score_bytes = (fused ? 2 * e : 2 * e + 8) + dropout_bytes;
    out.forward = attention_flops / rate + scores * score_bytes / m.memory_bytes_per_second;
    out.backward = 2 * out.forward;
  }
  return out;
}

// --- Element-wise work per token and block, in elements read + written (forward) -------------
struct ElementwiseWork {
  double forward = 0;                    // seconds per micro-batch, all layers
  double fp8_weight_casts_per_step = 0;  // Transformer Engine's cached weight casts, once a step
  double amp_weight_casts = 0;           // autocast's weight casts, per micro-batch
  double dequantise = 0;                 // QLoRA's 4-bit weights to 16 bits, one pass
};

ElementwiseWork elementwise_work(const StepShape& c, const MatmulPass& matmuls, double qk_dim) {
  const Architecture& a = c.a;
  const StepHardware& m = c.m;
  const MemoryRegime& kernels = c.kernels;
  const ParallelismReport& layout = c.layout;
  const Training& t = c.s.training;
  const double h = c.h, tp = c.tp, e = c.e, tokens = c.tokens, blocks = c.blocks;
  const bool sp = c.sp, sixteen = c.sixteen;
  const double weight_elements = matmuls.weight_elements;
  ElementwiseWork out;
  const double q_width = a.heads * qk_dim, kv_width = effective_kv_heads(a) * qk_dim;
  const double mlp_width =
      (a.experts > 1 ? expert_ffn_hidden(a) * (a.experts_per_token + a.shared_experts) : a.ffn_hidden);
  double replicated = a.norms_per_layer * 2 * h + 2 * 3 * h;  // norms; two residual adds
  if (a.dropout) replicated += 2 * 2.5 * h;                   // two dropouts (output and mask)
  double split = (a.gated_mlp ? 3.0 : 2.0) * mlp_width;       // the activation function
  if (a.position_embeddings <= 0 && !a.encoder_only) split += 2 * (q_width + kv_width);  // rotary
  if (a.experts > 1) split += 4 * a.experts_per_token * h;  // token permutation to and from experts
  const double elementwise_elements = replicated / (sp ? tp : 1.0) + split / tp;
  out.forward = blocks * tokens * elementwise_elements * e / m.memory_bytes_per_second;
  // Transformer Engine casts each matmul's inputs to fp8 (read 16 bits, write 8), and the gradients in
  // the backward pass (counted with the forward's, x3 below). The weights it casts (and transposes) once
  // a step where the framework says which micro-batch is the first (Megatron-Core passes
  // is_first_microbatch, which lets TE cache "the FP8 versions of the weights": te.pytorch.Linear's
  // forward docs); otherwise every micro-batch.
  if (c.fp8) {
    out.forward += matmuls.matmul_inputs * 3 / m.memory_bytes_per_second;
    // Under ZeRO-3 / FSDP the weights are gathered per micro-batch, so cast again each time (the
    // memory model keeps no cached copy there either).
    if (kernels.transformer_engine && layout.zero < 3)
      out.fp8_weight_casts_per_step = 2 * weight_elements * 3 / m.memory_bytes_per_second;
    else
      out.forward += weight_elements * 3 / m.memory_bytes_per_second;
  }
  // PyTorch AMP (fp32 weights under torch.autocast, 16-bit matmuls): the residual stream stays in fp32
  // (the embedding and every residual sum are fp32; the norms compute in fp32), and autocast casts the
  // input of each matmul fed from a norm as the op runs (read 4 bytes, write 2, per linear: Hugging
  // Face's separate q, k and v projections each cast the same input, as do a gated MLP's gate and up
  // projections; a fused QKV casts once, counted here as separate); the output projection's and the
  // down projection's inputs are already 16-bit. Each weight is cast once a forward pass (autocast's
  // cast cache, torch/amp/autocast_mode.py), whose gradient is cast back to fp32 in the backward pass;
  // a recomputed forward runs under a fresh autocast context (torch.utils.checkpoint re-enters it in
  // the backward pass, after the forward's cache was cleared) and casts them again. The inputs' casts
  // count with the element-wise work (their gradients are cast in the backward pass too).
  if (kernels.regime == Regime::amp && sixteen) {
    out.forward += (blocks * tokens * replicated / (sp ? tp : 1.0) * (4 - e) + matmuls.norm_fed_inputs * (4 + e)) /
                   m.memory_bytes_per_second;
    // QLoRA's 4-bit weights bypass autocast (bitsandbytes dequantises them: `dequantise` below).
    const bool recast = layout.recompute == Recompute::full || per_op_selective(layout.recompute, kernels);
    if (t.method != FinetuneMethod::qlora)
      out.amp_weight_casts =
          ((c.frozen ? 1.0 : 2.0) + (recast ? 1.0 : 0.0)) * weight_elements * (4 + e) / m.memory_bytes_per_second;
  }
  // bitsandbytes dequantises each 4-bit weight to 16 bits before its matmul (~0.5 + 2 bytes), in the
  // forward pass and again in the backward (and in a recomputed forward).
  out.dequantise = t.method == FinetuneMethod::qlora ? weight_elements * 2.5 / m.memory_bytes_per_second : 0.0;
  return out;
}

// The adapters' element size and the casts and dropout around them.
struct AdapterPath {
  double e = 2;              // bytes per activation element
  double ad = 2;             // bytes per adapter element
  bool autocast = false;     // every parameter fp32, adapters too
  bool qlora = false;
  double dropout_bytes = 0;
  double cast = 0;           // 1 where the adapters' precision differs from the activations'
};

// Bytes per element of one adapted matrix's input (width k) and output (width n), forward and
// backward. Under autocast the input is fp32 where a norm feeds the matmul (PEFT's cast does
// nothing) and 16-bit elsewhere (PEFT casts it up), the dropout runs in fp32, autocast casts its
// output down for lora_A, and lora_B's output, the scaling and the sum stay in 16 bits.
// bitsandbytes' 4-bit layers (QLoRA) cast the adapter's output to the base output's precision
// before the sum (peft/tuners/lora/bnb.py, Linear4bit.forward), so the sum is 16-bit and its
// gradient needs no cast.
struct AdapterBytes {
  double in = 0, out = 0, in_backward = 0, out_backward = 0;
};

AdapterBytes adapter_bytes(const AdapterPath& p, const LinearGroup& g) {
  const double e = p.e, ad = p.ad, dropout_bytes = p.dropout_bytes, cast = p.cast;
  AdapterBytes b;
  if (p.autocast) {
    const bool fp32_input = reads_norm_output(g);
    const double up = fp32_input ? 0.0 : e + ad;
    b.in = up + dropout_bytes + (ad + e);
    b.in_backward = up + dropout_bytes + (ad + e) + 3 * (fp32_input ? ad : e);
    b.out = 2 * e + 3 * e;
    b.out_backward = 2 * e;
    return b;
  }
  b.in = cast * (e + ad) + dropout_bytes;
  b.in_backward = cast * (ad + e) + dropout_bytes + 3 * e;
  if (p.qlora) {
    b.out = 2 * ad + cast * (ad + e) + 3 * e;
    b.out_backward = 2 * ad + cast * (e + ad);
  } else {
    b.out = 2 * ad + (e + ad + std::max(ad, e)) + cast * (ad + e);
    b.out_backward = cast * (e + ad) + cast * (std::max(ad, e) + e) + 2 * ad;
  }
  return b;
}

// LoRA adapters: two thin matmuls (rank r) per targeted matrix, and the adapter path's element-wise
// work. PEFT computes result + lora_B(lora_A(dropout(x.to(adapter dtype)))) * scaling, then casts the
// sum back (peft/tuners/lora/layer.py @5d602fd, Linear.forward), each op a pass through memory. Per
// token, in bytes, with adapter elements of `ad` bytes: on the input side (width k) the cast (read e,
// write ad; none when the adapters are in the compute precision) and the dropout (read ad, write ad and
// a 1-byte mask); on the output side (width n) the scaling (read and write ad), the sum with the base
// output (read e and ad, write the wider) and the cast back (read ad, write e; none without a cast).
// In the backward pass (x is an activation, so its gradient is wanted even with a frozen base) each
// of these ops moves about what it moved forward, not the twice of a non-linear op: the casts and
// the scaling read one gradient and write one, the dropout reads the mask as well, the sum passes its
// gradient through (cast to the base output's precision when the sum is wider), and the gradient
// reaching x through the adapter is added to the base path's (read e twice, write e). Recomputation
// repeats the forward. Fused element-wise kernels (Unsloth's LoRA kernels, torch.compile) fold it
// into the matmuls.
struct LoraWork {
  double forward = 0;  // the adapters' matmuls, seconds per micro-batch, all layers
  double elementwise_forward = 0, elementwise_backward = 0;  // seconds per micro-batch, all layers
};

LoraWork lora_work(const StepShape& c) {
  const Architecture& a = c.a;
  const MemoryRegime& kernels = c.kernels;
  const Training& t = c.s.training;
  const double h = c.h, tp = c.tp, e = c.e, tokens = c.tokens;
  const bool sixteen = c.sixteen;
  LoraWork out;
  const double r = t.lora_rank;
  // The regimes that run a step in 16 bits whatever a parameter's own dtype (DeepSpeed's, Megatron's
  // and FSDP2's mixed precision cast the parameters for compute) make fp32 adapters 16-bit ones.
  const bool casts_params = kernels.regime == Regime::mixed || kernels.regime == Regime::megatron_mixed ||
                            kernels.regime == Regime::fsdp_mixed;
  const bool autocast = kernels.regime == Regime::amp && sixteen;  // every parameter fp32, adapters too
  const double ad = autocast || (kernels.adapter_precision == AdapterPrecision::fp32 && !casts_params) ? 4.0 : e;
  // fp32 adapters on a 16-bit base outside autocast run fp32 matmuls (the H200 runs' setting); under
  // autocast (Hugging Face's Trainer with bf16=True) their inputs are cast back to 16 bits.
  const double adapter_fp32 = sixteen && !autocast && ad == 4.0 ? 4.0 : 0.0;
  const double dropout_bytes = kernels.lora_dropout > 0 ? 2 * ad + 1 : 0.0;
  const double cast = ad != e ? 1.0 : 0.0;
  const AdapterPath path{e, ad, autocast, t.method == FinetuneMethod::qlora, dropout_bytes, cast};
  double forward_bytes = 0, backward_bytes = 0;
  for_each_linear(a, [&](const LinearGroup& g) {
    const double share = lora_share(g, t.lora_targets);
    if (share == 0) return;
    double k = g.in, n = g.out;
    (g.in == h ? n : k) /= tp;
    out.forward += share * g.active_copies *
                   (c.gemm_seconds(tokens, tokens, k, r, false, adapter_fp32) + c.gemm_seconds(tokens, tokens, r, n, false, adapter_fp32));
    const AdapterBytes b = adapter_bytes(path, g);
    // LitGPT's fused QKV adapter takes its input once for q, k and v (one dropout, one gradient
    // added back): counted with q.
    const double input = kernels.fused_qkv_adapter && g.role == LinearRole::key_value ? 0.0 : 1.0;
    forward_bytes += share * g.active_copies * tokens * (input * k * b.in + n * b.out);
    backward_bytes += share * g.active_copies * tokens * (input * k * b.in_backward + n * b.out_backward);
  });
  if (!kernels.fused_elementwise) {
    out.elementwise_forward = forward_bytes / c.m.memory_bytes_per_second;
    out.elementwise_backward = backward_bytes / c.m.memory_bytes_per_second;
  }
  return out;
}

// --- The logits and the loss, on the last stage ------------------------------------------------
struct LogitsWork {
  double forward = 0, backward = 0, elementwise = 0;  // seconds per micro-batch
};

LogitsWork logits_work(const StepShape& c) {
  const MemoryRegime& kernels = c.kernels;
  const double tokens = c.tokens, e = c.e, tp = c.tp;
  const double vocab = c.a.vocab;
  LogitsWork out;
  out.forward = c.gemm_seconds(tokens, tokens, c.h, vocab / tp, false);
  out.backward = (c.frozen ? 1.0 : 2.0) * out.forward;
  // Logits written, read by the softmax in fp32, its gradient written and cast back.
  const bool in_place = kernels.cross_entropy == CrossEntropy::fused || kernels.cross_entropy == CrossEntropy::fused_linear;
  // compiled: the 16-bit logits read forward and backward, the 16-bit gradient written.
  const double loss_bytes = in_place ? 2 * e : kernels.cross_entropy == CrossEntropy::compiled ? 3 * e : 3 * e + 12;
  out.elementwise = tokens * vocab / tp * loss_bytes / c.m.memory_bytes_per_second;
  return out;
}

// --- Recomputation in the backward pass, over all layers of one micro-batch -----------------------
struct Recomputation {
  bool per_op = false;  // torchtitan's per-op selective policy
  double seconds = 0, flops = 0;
};

Recomputation recomputation(const StepShape& c, const Pass& forward, const MatmulPass& matmuls, const LoraWork& lora,
                            double dequantise, bool tiled_attention) {
  const Recompute recompute = c.layout.recompute;
  Recomputation out;
  out.per_op = per_op_selective(recompute, c.kernels);
  if (recompute == Recompute::full) {
    out.seconds = forward.total() + lora.forward + lora.elementwise_forward + dequantise;
    out.flops = forward.matmul_flops + forward.attention_flops;
  } else if (out.per_op) {
    // torchtitan's per-op policy: the unsaved matmuls and every element-wise op (norms, rotary, the
    // activation function, residual adds) run again; attention's output is kept.
    out.seconds = matmuls.per_op_matmul + forward.elementwise + lora.elementwise_forward + dequantise + lora.forward / 2;
    out.flops = matmuls.per_op_matmul_flops;
  } else if (recompute == Recompute::selective && !tiled_attention) {
    out.seconds = forward.attention;  // the core attention (Korthikanti et al. 2022, sec. 5)
    out.flops = forward.attention_flops;
  }
  return out;
}

// The slowest stage's share of the layers. Even stages: the last, with the logits and the loss.
// Uneven stages (pipeline_stage_layers): the last with its layers and the logits, or the heaviest
// stage before it, whichever takes longer (a layer's forward, backward and any recomputation against
// the logits' forward and backward), interleaved or not. Interleaved chunks that split the layers
// neither evenly nor with ends a chunk lighter: each chunk rounded up to whole layers, the logits
// on the last.
struct StagePace {
  double pace_layers = 0;
  double fill_layers = 0;  // the layers of a stage before the last, whose passes fill and drain the pipeline
  bool logits_off = false;  // the logits are off the critical stage
};

StagePace stage_pace(const StepShape& c, const Pass& forward, const LoraWork& lora, double dequantise,
                     double weight_backward, double recompute_all, const LogitsWork& logits) {
  const double pp = c.pp, blocks = c.blocks;
  const double v = c.layout.virtual_stages;
  StagePace out;
  out.pace_layers = blocks;
  out.fill_layers = blocks;
  if (pp > 1) {
    const StageLayers on = pipeline_stage_layers(c.s, pp, v);
    if (!on.valid) {
      out.pace_layers = out.fill_layers = std::ceil(blocks / (pp * v) - 1e-9) * v;
    } else {
      const double layer_seconds =
          ((forward.total() + lora.forward + dequantise) * (1 + weight_backward) + lora.elementwise_forward +
           lora.elementwise_backward + recompute_all) / blocks;
      const double before_last = std::max(on.first, on.middle);
      out.fill_layers = before_last;
      out.pace_layers = on.last;
      if (before_last * layer_seconds > on.last * layer_seconds + logits.forward + logits.backward + logits.elementwise) {
        out.pace_layers = before_last;  // the logits are off the critical stage
        out.logits_off = true;
      }
    }
  }
  return out;
}

// One micro-batch's compute on the pacing stage, and its forward and backward passes.
struct MicroBatchCompute {
  StepBreakdown per_mb;
  double recompute_flops = 0;
  double compute_mb = 0;
  double forward_mb = 0, backward_mb = 0;  // the forward pass, and the rest (backward, with any recomputation)
};

MicroBatchCompute micro_batch_compute(double stage, const Pass& forward, double attention_backward,
                                      double weight_backward, const LoraWork& lora, const ElementwiseWork& elementwise,
                                      const LogitsWork& logits, const Recomputation& recomputed) {
  MicroBatchCompute out;
  StepBreakdown& per_mb = out.per_mb;
  per_mb.matmul =
      stage * forward.matmul * (1 + weight_backward) + stage * lora.forward * 3 + logits.forward + logits.backward;
  per_mb.attention = stage * (forward.attention + attention_backward);
  per_mb.elementwise = stage * (forward.elementwise * 3 + lora.elementwise_forward + lora.elementwise_backward +
                                2 * elementwise.dequantise + elementwise.amp_weight_casts) +
                       logits.elementwise;
  per_mb.recompute = stage * recomputed.seconds;
  out.recompute_flops = stage * recomputed.flops;
  out.compute_mb = per_mb.matmul + per_mb.attention + per_mb.elementwise + per_mb.recompute;
  // The forward pass of one micro-batch, and the rest (backward, with any recomputation).
  out.forward_mb =
      stage * (forward.total() + lora.forward + lora.elementwise_forward + elementwise.dequantise) + logits.forward +
      logits.elementwise / 3;
  out.backward_mb = out.compute_mb - out.forward_mb;
  return out;
}

// Tensor parallelism: two all-reduces (or all-gather + reduce-scatter with sequence parallelism,
// the same volume) of the layer's activations per block in each pass (Narayanan et al. 2021,
// sec. 2.3; Korthikanti et al. 2022, sec. 4.2.2), and again when a layer is recomputed. torchtitan's
// per-op policy keeps the reduce-scatters' outputs and gathers again: half a forward pass's traffic
// with sequence parallelism; without it the all-reduces are not kept and run again.
// Returns the seconds that show; `hidden_under_compute` gains what overlaps this micro-batch's compute.
double tensor_parallel_seconds(const StepShape& c, double stage, bool per_op, double matmul_seconds,
                               double& hidden_under_compute) {
  const StepHardware& m = c.m;
  const double tp = c.tp;
  const bool sp = c.sp;
  const Recompute recompute = c.layout.recompute;
  const double passes = 2 + (recompute == Recompute::full ? 1 : per_op ? (sp ? 0.5 : 1.0) : 0);
  const double bytes = c.tokens * c.h * c.e;
  // With sequence parallelism inside a server an all-gather and a reduce-scatter, each with its base
  // latency and n - 1 steps; otherwise (and across servers) priced as one all-reduce.
  const double one = sp && tp <= m.gpus_per_node ? 2 * tensor_parallel_collective_seconds(m, bytes, tp, false)
                                                 : tensor_parallel_collective_seconds(m, bytes, tp, true);
  const double comm = stage * c.blocks * 2 * passes * one;
  const double exposed = c.s.strategy.overlap_tp_comm ? std::max(0.0, comm - matmul_seconds) : comm;
  hidden_under_compute += comm - exposed;
  return exposed;
}

// Context parallelism: ring attention passes each rank's keys and values around the ring (and
// their gradients back), overlapped with the attention it feeds (Liu et al. 2023, "Ring Attention").
double context_parallel_seconds(const StepShape& c, double stage, double qk_dim, double attention_seconds,
                                double& hidden_under_compute) {
  const StepHardware& m = c.m;
  const double tp = c.tp, cp = c.cp;
  const double kv_bytes = c.tokens * 2 * std::max(1.0, effective_kv_heads(c.a) / tp) * qk_dim * c.e;
  const double comm =
      stage * c.attention_blocks * 3 * (cp - 1) * (kv_bytes / group_bandwidth(m, cp, tp) + m.collective_latency_seconds);
  const double exposed = std::max(0.0, comm - attention_seconds);
  hidden_under_compute += comm - exposed;
  return exposed;
}

// Expert parallelism: an all-to-all to dispatch tokens to their experts and one to combine them,
// in each pass (Lepikhin et al. 2020, GShard).
double expert_parallel_seconds(const StepShape& c, double stage, double compute_mb, double& hidden_under_compute) {
  const Architecture& a = c.a;
  const StepHardware& m = c.m;
  const double tp = c.tp, cp = c.cp, ep = c.ep;
  // Every rank sends to every other at once: the share bound for other nodes goes through this
  // GPU's NIC, the rest over NVLink, both links busy together.
  const double members = std::min(ep, std::max(1.0, m.gpus_per_node / (tp * cp)));  // EP ranks per node
  const double nodes = ep / members;  // nodes the expert-parallel group spans
  const double k = a.experts_per_token;
  double off_node_copies = k * (ep - members) / ep, on_node_copies = k * (members - 1) / ep;
  if (c.s.strategy.ep_dispatch == ExpertDispatch::per_node) {
    // Each token crosses the network once to each node holding any of its experts, then NVLink takes
    // it to their GPUs there (DeepSeek-V3 technical report, arXiv:2412.19437, sec. 3.2.2; DeepEP).
    // Group-limited routing with the groups placed on whole nodes (or within one) keeps a token's
    // experts on at most `cap` nodes (DeepSeek-V3: 4 of 8); k experts spread over them reach
    // cap (1 - (1 - 1/cap)^k) nodes, and the token's own node is among them nodes_reached/nodes of
    // the time.
    double cap = nodes;
    if (a.expert_groups > 0 && a.expert_groups_per_token > 0)
      cap = std::min(nodes, a.expert_groups >= nodes ? a.expert_groups_per_token
                                                     : a.expert_groups_per_token * nodes / a.expert_groups);
    const double reached = cap <= 1 ? 1.0 : cap * (1 - std::pow(1 - 1 / cap, k));
    off_node_copies = reached * (nodes - 1) / nodes;
    on_node_copies = k * (members - 1) / members;
  }
  const double token_bytes = c.tokens * c.h * c.e;
  const double all_to_all = std::max(token_bytes * off_node_copies / m.inter_bytes_per_second,
                                     token_bytes * on_node_copies / m.intra_bytes_per_second);
  const double comm = stage * moe_layer_count(a) * 2 * 2 * (all_to_all + m.collective_latency_seconds);
  // Overlapped, one micro-batch's all-to-alls run under another's computation (DualPipe pairs a
  // forward chunk with a backward chunk: arXiv:2412.19437, sec. 3.2.1), what other overlapped
  // collectives leave of it; what exceeds it shows. The multiprocessors the communication kernels
  // hold meanwhile (DeepSeek's: 20 of the H800's 132, sec. 3.2.2) are not charged, as for every
  // overlapped collective here: the fitted matmul efficiencies carry that cost for the overlaps the
  // validation runs measure (gradient reduction, Transformer Engine's tensor-parallel overlap).
  const double exposed = c.s.strategy.overlap_ep_comm
                             ? std::max(0.0, comm - std::max(0.0, compute_mb - hidden_under_compute))
                             : comm;
  hidden_under_compute += comm - exposed;
  return exposed;
}

// Pipeline: each micro-batch's activations forward and gradients back between stages, once per
// chunk with the interleaved schedule (v chunks per stage: v times the sends). With sequence
// parallelism the activations are already split, each tensor-parallel rank sending its 1/tp. Without
// it, Megatron-LM's original schedules and DeepSpeed's pipeline engine still send 1/tp per rank, over
// its own link, and the next stage all-gathers the slices over NVLink (the scatter/gather
// optimisation, Narayanan et al. 2021, sec. 4.1; DeepSpeed's is_pipe_partitioned); PyTorch's own
// pipelining sends the whole tensor. Megatron-Core's schedules (get_tensor_shapes) split only with
// sequence parallelism, which they run with tensor parallelism as a rule; "megatron" here takes the
// scatter/gather of the 2021 code that vTrain's and Narayanan's runs used.
double pipeline_p2p_seconds(const StepShape& c, double compute_mb, double hidden_under_compute) {
  const StepHardware& m = c.m;
  const ParallelismReport& layout = c.layout;
  const double tp = c.tp, pp = c.pp, cp = c.cp, dp = c.dp, tokens = c.tokens, h = c.h, e = c.e;
  const bool sp = c.sp;
  const Framework framework = c.kernels.framework;
  const bool scatter_gather =
      !sp && tp > 1 && (framework == Framework::megatron || framework == Framework::deepspeed);
  const double bytes = tokens * h * e / (sp || scatter_gather ? tp : 1.0);
  const double gather = scatter_gather ? tensor_parallel_collective_seconds(m, tokens * h * e, tp, false) : 0.0;
  // Stages are the outermost rank dimension (Megatron's tp-cp-ep-dp-pp order): a pipeline that spans
  // servers has a stage boundary between two of them, and every stage waits for that slowest send,
  // which goes over each GPU's own share of the network.
  const bool spans_servers = pp * tp * cp * dp > m.gpus_per_node;
  const double p2p_bandwidth =
      spans_servers ? std::min(m.intra_bytes_per_second, m.inter_bytes_per_second) : m.intra_bytes_per_second;
  // Each exchange is batched and the host synchronises after it (Megatron-Core's batch_p2p_sync,
  // torch.cuda.synchronize() in megatron/core/pipeline_parallel/p2p_communication.py @d98e8a6;
  // Megatron-LM since 27fc468, 2021): the fitted fixed cost of an exchange. With overlap_p2p_comm
  // an interleaved stage posts them asynchronously and waits only before the chunk that needs them
  // (Megatron-Core's interleaved schedule): no synchronisation, and the bytes move while this
  // micro-batch's chunks compute, what other overlapped communication leaves of that.
  const double sends = 2 * layout.virtual_stages * (bytes / p2p_bandwidth + gather);
  if (c.s.strategy.overlap_p2p_comm && layout.virtual_stages > 1)
    return std::max(0.0, sends - std::max(0.0, compute_mb - hidden_under_compute));
  return sends + 2 * layout.virtual_stages * m.collective_latency_seconds;
}

// Each micro-batch the host stops the GPU's queue once and works before launching again: Megatron's
// classic get_batch (tensor_parallel.broadcast_data, which Megatron-DeepSpeed's pretrain_gpt.py still
// calls) broadcasts the batch's sizes over the tensor-parallel group and reads them back
// (`sizes_cpu = sizes_cuda.cpu()`, megatron/core/tensor_parallel/data.py @d98e8a6), Hugging Face's
// Trainer tests each micro-batch's loss for NaN on the host (logging_nan_inf_filter, on by default),
// then the next batch is fetched, the embedding and the loss launched. Current Megatron-Core
// (get_batch_on_this_tp_rank) broadcasts fixed-shape tensors without reading back, and torchtitan
// has no such test: one constant for all frameworks overcharges them (a limitation, documented).
// Only the first and last pipeline stages load batches (pretrain_gpt.py's get_batch returns nothing
// elsewhere), so the fill and drain, the other stages' passes, carry none of it. The pacing last
// stage pays its share of it (pipeline_host_share), the first hides the rest while it waits for
// the last. Two constants, fitted (micro_batch_host_seconds, pipeline_host_share).
double micro_batch_host_seconds(const StepHardware& m, double mbs, double pp) {
  return mbs * m.micro_batch_host_seconds * (pp > 1 ? m.pipeline_host_share : 1.0);
}

// 1F1B: pp - 1 micro-batch slots of fill and drain, divided by the virtual stages when interleaved
// (Narayanan et al. 2021, sec. 2.2). The steady state runs at the pace of the slowest stage, the
// last with the logits and the loss; the fill and the drain are the other stages' forward and
// backward passes, without them.
// A stage before the last runs the same layers without the logits; where launching sets its pace it
// takes the launch time (the logits were never part of that). With uneven stages a slot is the
// heaviest stage before the last: its layers, not the pacing stage's (7 against 8 for Llama 3's 126
// on 16).
// Schedules that split the backward pass into its input-gradient part B' and weight-gradient part W
// fill the bubble with W (Qi et al. 2023; arXiv:2412.19437, table 2, with B the whole backward):
// ZB-H1 leaves (pp - 1)(F + B - 2W) of 1F1B's (pp - 1)(F + B); DualPipe, whose ranks hold a stage
// from each end, (pp/2 - 1)(F&B + B - 3W), its overlapped forward-and-backward chunk F&B taken as
// F + B.
double pipeline_bubble_seconds(const StepShape& c, double stage, double forward_matmul, const MicroBatchCompute& mb,
                               const StagePace& pace, double launches, double stream, double logits_seconds) {
  const double pp = c.pp;
  const double forward_mb = mb.forward_mb, backward_mb = mb.backward_mb;
  double schedule = 1;
  const double weight_gradients = c.frozen ? 0.0 : stage * forward_matmul;  // W: the weight-gradient matmuls
  if (pp > 1 && forward_mb + backward_mb > 0) {
    const double slot = forward_mb + backward_mb;
    if (c.s.strategy.pp_schedule == PipelineSchedule::zero_bubble)
      schedule = std::max(0.0, slot - 2 * weight_gradients) / slot;
    else if (c.s.strategy.pp_schedule == PipelineSchedule::dualpipe)
      schedule = std::max(0.0, pp / 2 - 1) / (pp - 1) *
                 std::max(0.0, slot + backward_mb - 3 * weight_gradients) / slot;
  }
  return schedule * (pp - 1) / c.layout.virtual_stages * pace.fill_layers / pace.pace_layers *
         std::max(launches, std::max(0.0, stream - logits_seconds));
}

// --- Data parallelism ------------------------------------------------------------------------------
double data_parallel_seconds(const StepShape& c, const MemoryExplanation& memory, double mbs,
                             const MicroBatchCompute& mb) {
  const StepHardware& m = c.m;
  const ParallelismReport& layout = c.layout;
  const double e = c.e;
  const double shard_group = c.dp * c.cp;
  const double params_here = memory.params_per_gpu;
  const double trainable_here = memory.trainable_params_per_gpu;
  const double dp_bandwidth = group_bandwidth(m, shard_group, c.tp);
  const double g = gradient_reduce_bytes(c.s, c.kernels);  // bytes per gradient element reduced
  if (shard_group <= 1) return 0.0;
  if (layout.zero >= 3) {
    // FSDP / ZeRO-3: every micro-batch gathers the weights for forward and again for backward and
    // reduce-scatters the gradients, prefetched behind the previous layer's compute (Zhao et al.
    // 2023, "PyTorch FSDP", sec. 3.3); the first layer's gather is not hidden.
    const double gathers = 2 * all_gather_seconds(params_here * e, shard_group, dp_bandwidth);
    const double reduce = all_gather_seconds(trainable_here * g, shard_group, dp_bandwidth);
    const double per_micro_batch = gathers + reduce;
    return mbs * (std::max(0.0, per_micro_batch - mb.compute_mb) + per_micro_batch / std::max(1.0, c.blocks / c.pp));
  }
  // DDP all-reduces the gradients once a step, during the last micro-batch's backward pass. ZeRO-1/2
  // reduce-scatter them then and gather the updated weights after the optimizer step, during the
  // next step's first forward pass (Megatron-Core's overlap_param_gather); the same volume.
  // DeepSpeed's ZeRO-1/2 gathers them at the end of its optimizer step, before the next forward
  // pass starts ("ready for next round forward": deepspeed/runtime/zero/stage_1_and_2.py, step(),
  // all_gather_dp_groups, microsoft/DeepSpeed @cde57d29), so nothing hides it.
  const bool overlap = c.s.strategy.overlap_grad_reduce;
  if (layout.zero >= 1) {
    const double reduce = all_gather_seconds(trainable_here * g, shard_group, dp_bandwidth);
    const double gather = all_gather_seconds(trainable_here * e, shard_group, dp_bandwidth);
    const bool gather_hidden = c.kernels.framework != Framework::deepspeed;
    return overlap ? std::max(0.0, reduce - mb.backward_mb) + (gather_hidden ? std::max(0.0, gather - mb.forward_mb) : gather)
                   : reduce + gather;
  }
  const double comm = all_reduce_seconds(trainable_here * g, shard_group, dp_bandwidth);
  return overlap ? std::max(0.0, comm - mb.backward_mb) : comm;
}

// --- The optimizer step: memory-bound over this GPU's share of the states ------------------------
// Over this GPU's shard of the optimizer states (ZeRO divides dense and expert parameters over their
// own groups; the memory model's divisor).
double optimizer_seconds(const StepShape& c, const MemoryExplanation& memory) {
  const double trainable_here = memory.trainable_params_per_gpu;
  const double shard = memory.optimizer_shard;
  if (c.s.strategy.offload != Offload::none) {
    const double local = trainable_here / shard;
    return local * (2 + 2) / pcie_bytes_per_second + local / cpu_adam_params_per_second;
  }
  // Read the gradient and the states, write the states and the 16-bit weights.
  return trainable_here / shard * (2 * c.e + 2 * memory.optimizer_bytes_per_param) / c.m.memory_bytes_per_second;
}

}  // namespace

std::optional<StepPrediction> predict_step(const Scenario& s, const ComputeReport& compute, const StepHardware& m,
                                           const ParallelismReport& layout, const MemoryExplanation& memory,
                                           double global_batch_sequences) {
  if (!s.model.architecture) return std::nullopt;
  const StepShape c = step_shape(s, compute, m, layout);
  const Architecture& a = c.a;
  const double tp = c.tp, pp = c.pp, cp = c.cp, ep = c.ep, dp = c.dp;
  const double blocks = c.blocks;

  const MatmulPass matmuls = matmul_pass(c);
  Pass forward = matmuls.forward;
  const AttentionPass attention = attention_pass(c);
  forward.attention_flops = attention.flops;
  forward.attention = attention.forward;
  const ElementwiseWork elementwise = elementwise_work(c, matmuls, attention.qk_dim);
  forward.elementwise = elementwise.forward;
  LoraWork lora;
  if (c.frozen) lora = lora_work(c);
  LogitsWork logits;
  if (s.training.objective == Objective::language_model) logits = logits_work(c);

  // --- One micro-batch on the slowest stage ----------------------------------------------------------
  const double weight_backward = c.frozen ? 1.0 : 2.0;  // activation gradients (+ weight gradients)
  const Recomputation recomputed =
      recomputation(c, forward, matmuls, lora, elementwise.dequantise, attention.tiled);
  const Recompute recompute = layout.recompute;
  const bool per_op = recomputed.per_op;
  const StagePace pace =
      stage_pace(c, forward, lora, elementwise.dequantise, weight_backward, recomputed.seconds, logits);
  if (pace.logits_off) logits = LogitsWork{};
  const double stage = pace.pace_layers / blocks;
  MicroBatchCompute mb =
      micro_batch_compute(stage, forward, attention.backward, weight_backward, lora, elementwise, logits, recomputed);
  StepBreakdown& per_mb = mb.per_mb;
  const double compute_mb = mb.compute_mb;

  double hidden_under_compute = 0;  // communication already overlapped with this micro-batch's compute
  if (tp > 1)
    per_mb.tensor_parallel = tensor_parallel_seconds(c, stage, per_op, stage * forward.matmul * (1 + weight_backward),
                                                     hidden_under_compute);
  if (cp > 1)
    per_mb.context_parallel =
        context_parallel_seconds(c, stage, attention.qk_dim, per_mb.attention, hidden_under_compute);
  if (ep > 1 && a.experts > 1)
    per_mb.expert_parallel = expert_parallel_seconds(c, stage, compute_mb, hidden_under_compute);
  if (pp > 1) per_mb.pipeline_p2p = pipeline_p2p_seconds(c, compute_mb, hidden_under_compute);
  // The host launches the stage's layers, forward (again when recomputed) and backward (twice the
  // kernels), while the GPU runs what it has been given: where the launches take longer than the
  // kernels and collectives they launch, the GPU waits the difference.
  // Eager launching only: under torch.compile the element-wise ops are fused and launched from
  // generated code, a cost no validation source measures, so it is not modelled there.
  const double eager_launches = stage * blocks * m.layer_dispatch_seconds * (3 + (recompute == Recompute::full || per_op ? 1 : 0));
  const double launches = s.strategy.compile ? 0.0 : eager_launches;
  const double stream = compute_mb + per_mb.tensor_parallel + per_mb.context_parallel + per_mb.expert_parallel +
                        per_mb.pipeline_p2p;
  per_mb.kernel_launch = std::max(0.0, launches - stream);

  // --- The step: micro-batches through the pipeline --------------------------------------------------
  StepPrediction out;
  out.global_batch_sequences = global_batch_sequences;
  out.layer_stream_seconds = stream / std::max(1.0, stage * blocks);
  // Eager launching's time even under torch.compile: it says how short the layer's kernels are, which
  // sets how uncertain the step is (likely_range).
  out.layer_launch_seconds = eager_launches / std::max(1.0, stage * blocks);
  out.mixture_of_experts = a.experts > 1;
  out.micro_batches = std::max(1.0, std::ceil(global_batch_sequences / (dp * layout.micro_batch) - 1e-9));
  const double mbs = out.micro_batches;
  StepBreakdown& step = out.seconds;
  step.matmul = mbs * per_mb.matmul;
  step.attention = mbs * per_mb.attention;
  step.elementwise = mbs * per_mb.elementwise + stage * elementwise.fp8_weight_casts_per_step;
  step.recompute = mbs * per_mb.recompute;
  step.tensor_parallel = mbs * per_mb.tensor_parallel;
  step.context_parallel = mbs * per_mb.context_parallel;
  step.expert_parallel = mbs * per_mb.expert_parallel;
  step.pipeline_p2p = mbs * per_mb.pipeline_p2p;
  step.kernel_launch = mbs * per_mb.kernel_launch;
  step.micro_batch_host = micro_batch_host_seconds(m, mbs, pp);
  out.logits_seconds = logits.forward + logits.backward + logits.elementwise;
  if (pp > 1)
    step.bubble = pipeline_bubble_seconds(c, stage, forward.matmul, mb, pace, launches, stream, out.logits_seconds);
  step.data_parallel = data_parallel_seconds(c, memory, mbs, mb);
  step.optimizer = optimizer_seconds(c, memory);

  out.step_seconds = step.matmul + step.attention + step.elementwise + step.recompute + step.tensor_parallel +
                     step.context_parallel + step.expert_parallel + step.pipeline_p2p + step.data_parallel +
                     step.bubble + step.optimizer + step.kernel_launch + step.micro_batch_host;
  const double gpus = tp * pp * cp * dp;
  const double model_flops = compute.flops_per_token * global_batch_sequences * c.seq;
  const double peak = m.matmul_peak;
  out.mfu = model_flops / (gpus * peak * out.step_seconds);
  const double recomputed_flops = mb.recompute_flops * mbs * gpus;  // every GPU recomputes its own share
  out.hfu = (model_flops + recomputed_flops) / (gpus * peak * out.step_seconds);
  return out;
}

namespace {

// The global batch: a warning where it is assumed, and where it does not split into whole
// micro-batches per data-parallel rank. Returns the share of each step's work that is padding.
double batch_warnings(const Scenario& s, const ParallelismReport& layout, double batch, double seq_len,
                      Issues& warnings) {
  const bool batch_given = s.training.global_batch_sequences || s.training.global_batch_tokens;
  if (!batch_given)
    warnings.push_back({"training.global_batch_sequences",
                        "global_batch_assumed",
                        "The step time assumes a global batch of " + format_number(batch) + " sequences (" +
                            (s.training.type == TrainingType::finetune
                                 ? std::string("typical of fine-tuning")
                                 : format_number(std::round(batch * seq_len / 1e5) / 10) +
                                       "M tokens: about 4M, or 1,024 a GPU on a larger cluster, as large "
                                       "pre-training runs grow it, up to what a run of this compute tolerates") +
                            "); set training.global_batch_sequences to yours.",
                        {{"batch", format_number(batch)}, {"tokens_m", format_number(std::round(batch * seq_len / 1e5) / 10)}}});
  // Whole micro-batches per data-parallel rank: a batch they do not divide runs padded slots whose
  // work counts toward no token (step_time's ceil above), which lowers the utilisation. (Not where the
  // batch is smaller than one micro-batch a rank: no_layout and the batch error say that.)
  double padding = 0;
  if (const double per_step = layout.dp * layout.micro_batch; per_step > 0 && batch >= per_step) {
    const double slots = std::ceil(batch / per_step - 1e-9) * per_step;
    if (slots > batch * (1 + 1e-9)) {
      padding = (slots - batch) / slots;
      const double share = std::round(padding * 1000) / 10;
      warnings.push_back({"training.global_batch_sequences", "batch_padded",
                          "A global batch of " + format_number(batch) + " sequences does not split into whole "
                              "micro-batches of " + format_number(layout.micro_batch) + " on " +
                              format_number(layout.dp) + " data-parallel ranks: each step runs " +
                              format_number(slots) + " sequence slots, and " + format_number(share) +
                              "% of its work is padding that trains no token. Choose a multiple of " +
                              format_number(per_step) + " sequences.",
                          {{"batch", format_number(batch)},
                           {"micro_batch", format_number(layout.micro_batch)},
                           {"dp", format_number(layout.dp)},
                           {"slots", format_number(slots)},
                           {"share", format_number(share)},
                           {"multiple", format_number(per_step)}}});
    }
  }
  return padding;
}

// A cluster the batch cannot keep busy: half or more of each step goes to the pipeline's fill and
// drain, to the exposed gradient exchange and pipeline sends (each a cost per step, spread over too
// few sequences) and to padded slots, because each data-parallel rank gets too few sequences.
void idle_cluster_warning(const ParallelismReport& layout, const StepPrediction& step, double batch, double padding,
                          Issues& warnings) {
  if (step.step_seconds > 0) {
    const StepBreakdown& b = step.seconds;
    const double waiting = std::min(1.0, (b.bubble + b.data_parallel + b.pipeline_p2p) / step.step_seconds);
    const double idle = waiting + (1 - waiting) * padding;
    if (idle >= 0.5) {
      const double percent = std::round(idle * 100);
      const double gpus = layout.tp * layout.pp * layout.cp * layout.dp;
      warnings.push_back({"hardware.count", "batch_cannot_fill",
                          "A global batch of " + format_number(batch) + " sequences cannot keep " +
                              format_number(gpus) + " GPUs busy: each of the " + format_number(layout.dp) +
                              " data-parallel ranks gets " + format_number(std::round(batch / layout.dp * 10) / 10) +
                              " sequences a step, and the GPUs wait " + format_number(percent) +
                              "% of it (pipeline fill and drain, gradient exchange, padding). Use fewer GPUs or a larger global "
                              "batch.",
                          {{"batch", format_number(batch)},
                           {"gpus", format_number(gpus)},
                           {"dp", format_number(layout.dp)},
                           {"per_rank", format_number(std::round(batch / layout.dp * 10) / 10)},
                           {"percent", format_number(percent)}}});
    }
  }
}

// Megatron's fused softmax asked for where this layout's shapes refuse it (memory_regime.cpp): the
// step and the memory are those of PyTorch's fp32 softmax; the user may not know why.
void softmax_fallback_warnings(const Scenario& s, const ParallelismReport& layout, double seq_len, Issues& warnings) {
  if (s.model.architecture && resolve_memory_regime(s).attention == AttentionKernel::fused_softmax) {
    const SoftmaxShape shape = softmax_shape(*s.model.architecture, layout, seq_len, sixteen_bit(resolved_precision(s)));
    const std::string instead =
        "PyTorch's softmax runs in fp32 instead: about 9 times the fused kernel's memory traffic per attention "
        "score forward, and fp32 scores kept for the backward pass.";
    switch (megatron_softmax_refusal(shape)) {
      case SoftmaxRefusal::none:
        break;
      case SoftmaxRefusal::precision:
        warnings.push_back({"strategy.precision", "softmax_fallback_precision",
                            "Megatron's fused softmax runs only on 16-bit scores; in fp32 PyTorch's softmax runs instead, "
                            "three passes over the fp32 scores forward where the kernel makes one. Train in bf16 or "
                            "fp16, or choose another attention kernel.",
                            {}});
        break;
      case SoftmaxRefusal::length:
        warnings.push_back({"training.seq_len", "softmax_fallback_length",
                            "Megatron's fused softmax runs only on sequences of 17-4,096 tokens, a multiple of 4, "
                            "each GPU sees; here " + format_number(shape.seq) + ", so " + instead +
                                " Use FlashAttention where the GPU runs it, or context parallelism to split the "
                                "sequence.",
                            {{"seq_len", format_number(shape.seq)}}});
        break;
      case SoftmaxRefusal::batches: {
        const double multiple = megatron_softmax_batch_multiple(shape.seq);
        warnings.push_back({"strategy.micro_batch", "softmax_fallback",
                            "Megatron's fused softmax runs only where micro-batch x attention heads per GPU is a "
                            "multiple of " + format_number(multiple) + " at " + format_number(shape.seq) +
                                " tokens; here " + format_number(shape.micro_batch) + " x " +
                                format_number(shape.heads_per_gpu) + ", so " + instead +
                                " Choose a micro-batch that makes the product a multiple of " +
                                format_number(multiple) + ", or FlashAttention where the GPU runs it.",
                            {{"micro_batch", format_number(shape.micro_batch)},
                             {"heads_per_gpu", format_number(shape.heads_per_gpu)},
                             {"seq_len", format_number(shape.seq)},
                             {"multiple", format_number(multiple)}}});
        break;
      }
    }
  }
}

// How far the step-time model's fit reaches: a GPU outside the calibrated ones, features no
// validation row exercises, a mixture of experts' range, and the CPU offload's assumed rates.
void calibration_warnings(const Scenario& s, const HardwareReport& hardware, Issues& warnings) {
  if (!calibrated_gpu(s.hardware.gpu)) {
    const std::string how =
        calibrated_family(s.hardware.gpu)
            ? std::string("the efficiencies calibrated for its family; its clocks, power, memory bandwidth or links may differ")
        : s.hardware.gpu.matmul_efficiency
            ? std::string("its measured best matmul efficiency, scaled as on those GPUs")
            : std::string("an assumed matmul efficiency (" + format_number(default_matmul_efficiency * 100) +
                          "% of peak, not measured), scaled as on those GPUs");
    std::vector<std::string_view> names;  // one name for both A100 SXMs
    for (const auto& [id, name] : calibrated_gpus())
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    warnings.push_back({"hardware.gpu",
                        "mfu_extrapolated",
                        "The step-time model is fitted on measured runs on " + join(names, ", ", " and ") + "; for " +
                            hardware.gpu_name + " it uses " + how +
                            ", so treat the utilisation as an estimate (about ±" + format_number(extrapolation_points) +
                            " points).",
                        {{"points", format_number(extrapolation_points)}, {"gpu_list", join(names, ",", ",")}}});
  }
  // What no validation row exercises: modelled from first principles, unvalidated. Context parallelism
  // (SimuMax's and DGX Cloud's CP 2-8 rows) and LoRA (the H200 Hugging Face rows) are fitted on.
  {
    std::vector<std::string_view> ids, features;  // id, English
    auto feature = [&](std::string_view id, std::string_view english) {
      ids.push_back(id);
      features.push_back(english);
    };
    const Architecture& a = *s.model.architecture;
    if (s.training.method == FinetuneMethod::qlora) feature("qlora", "QLoRA");
    if (s.strategy.offload != Offload::none) feature("cpu_offload", "CPU offload");
    if (a.decoder_layers > 0) feature("encoder_decoder", "an encoder-decoder");
    if (a.encoder_only) feature("encoder_only", "an encoder-only model");
    if (!features.empty()) {
      const std::string list = join(features, ", ", ", ");
      warnings.push_back({"strategy.mfu",
                          "speed_uncalibrated",
                          "No measured step the step-time model is validated on has any of: " + list +
                              "; the prediction models " + (features.size() > 1 ? "them" : "it") +
                              " from first principles, unvalidated.",
                          {{"features", list}, {"feature_ids", join(ids, ",", ",")}}});
    }
  }
  // A mixture of experts: no constant of its own; its steps are checked, held out by lineage, against
  // published ones (NVIDIA's 69 never fitted on, SimuMax's 12 DeepSeek rows in a fitted source), which
  // set its likely range (likely_ranges).
  if (s.model.architecture->experts > 1) {
    const LikelyRange& moe = likely_range("mixture_of_experts");
    const std::string faster = format_number(std::round((1 - moe.low) * 100));
    const std::string slower = format_number(std::round((moe.high - 1) * 100));
    warnings.push_back({"strategy.mfu",
                        "speed_moe_range",
                        "Mixture-of-experts steps are modelled from first principles, with no constant of their own. "
                        "Against " + format_number(moe.rows) + " published steps from " + format_number(moe.sources) +
                            " sources, each predicted with the constants fitted without its software lineage, they mostly ran "
                            "slower than predicted, so the likely range leans slow: from " + faster + "% faster to " +
                            slower + "% slower than the predicted step.",
                        {{"rows", format_number(moe.rows)},
                         {"sources", format_number(moe.sources)},
                         {"faster_pct", faster},
                         {"slower_pct", slower}}});
  }
  if (s.strategy.offload != Offload::none)
    warnings.push_back({"strategy.offload",
                        "offload_time_assumed",
                        "The optimizer step on the CPU is timed with assumed rates (PCIe 4.0 x16, about " +
                            format_number(pcie_bytes_per_second / units::bytes_per_gb) + " GB/s; CPU Adam, about " +
                            format_number(cpu_adam_params_per_second) +
                            " parameters a second per GPU's share of the host).",
                        {{"pcie_gbs", format_number(pcie_bytes_per_second / units::bytes_per_gb)},
                         {"cpu_adam_params_per_second", format_number(cpu_adam_params_per_second)}}});
}

}  // namespace

void speed_warnings(const Scenario& s, const HardwareReport& hardware, const ParallelismReport& layout,
                    const StepPrediction& step, double batch, double seq_len, Issues& warnings) {
  const double padding = batch_warnings(s, layout, batch, seq_len, warnings);
  idle_cluster_warning(layout, step, batch, padding, warnings);
  // Overlapped pipeline sends need interleaved stages (Megatron-LM turns overlap_p2p_comm off without
  // them: megatron/training/arguments.py @d98e8a6), judged on the layout as resolved (a planner's, or
  // pp_virtual_stages left out of a given layout, which is 1).
  if (s.strategy.overlap_p2p_comm && layout.virtual_stages <= 1)
    warnings.push_back({"strategy.overlap_p2p_comm", "ignored",
                        "strategy.overlap_p2p_comm overlaps an interleaved pipeline's sends with its chunks; without "
                        "interleaved stages (strategy.pp_virtual_stages > 1) there is nothing to overlap, so it is "
                        "ignored.",
                        {{"reason", reason("overlap_p2p_unused")}}});
  softmax_fallback_warnings(s, layout, seq_len, warnings);
  calibration_warnings(s, hardware, warnings);
}

// Likely ranges of a predicted step, by basis: the 80% range of measured / predicted step time for a
// run of a software lineage none of the validation rows share, from the rows each predicted with the
// constants fitted without its lineage (detail::ranges_for_new_group: the lineages' biases scatter
// between lineages, the rows within one). A kind of step only one lineage measures is held out by
// model width within it (speed_validation.cpp). `traincalc validate --speed` recomputes them and
// test_speed_validation.cpp keeps these equal to it. A mixture of experts has its own: only Megatron
// rows measure one (NVIDIA's and SimuMax's), and both run slower than predicted, so it leans slow.
const std::vector<LikelyRange>& likely_ranges() {
  static const std::vector<LikelyRange> table = {
      {"launch_bound", 0.7600, 1.2926, 720, 2, 2},
      {"launch_near", 0.7857, 1.3833, 588, 6, 3},
      {"compute_bound", 0.8483, 1.2139, 453, 13, 5},
      {"mixture_of_experts", 0.8076, 1.6883, 81, 2, 1},
  };
  return table;
}

std::string speed_range_basis(const StepPrediction& step) {
  // A mixture of experts first: its steps carry what no dense row measures (routing, the expert
  // all-to-alls, grouped matmuls, the dispatcher's host work), however long its layers are.
  if (step.mixture_of_experts) return "mixture_of_experts";
  if (step.layer_launch_seconds >= step.layer_stream_seconds) return "launch_bound";
  if (3 * step.layer_launch_seconds >= step.layer_stream_seconds) return "launch_near";
  return "compute_bound";
}

const LikelyRange& likely_range(std::string_view basis) {
  for (const LikelyRange& r : likely_ranges())
    if (r.basis == basis) return r;
  return likely_ranges().back();
}

LikelyRange likely_range(const StepPrediction& step) { return likely_range(speed_range_basis(step)); }

// `traincalc validate --speed`, "the validated envelope": the span of the measured rows, and per
// doubling past the source-weighted 20th percentile of model size (6.7B
// parameters) and the 80th of each (175B parameters, 2,048 GPUs, 8 pipeline stages, 64 data-parallel
// replicas). Small models move most: their steps rest on the launch constants the small rows fit.
// test_speed_validation.cpp keeps these equal to it.
const std::vector<EnvelopeBound>& speed_envelope() {
  static const std::vector<EnvelopeBound> bounds = {
      {"params", 1.244e8, 1.008e12, 0.0868, 0.0126},
      {"gpus", 1, 16384, 0, 0.0026},
      {"pp", 1, 64, 0, 0.0260},
      {"dp", 1, 512, 0, 0.0175},
  };
  return bounds;
}

void widen_outside_envelope(LikelyRange& range, const Scenario& s, const ModelReport& model, double gpus,
                            const ParallelismReport& layout, double mfu, bool measured_on_this_gpu, Issues& warnings) {
  constexpr double z80 = 1.2816;  // the normal's 90th percentile: an 80% range's half-width in sds
  double variance = 0;
  for (const EnvelopeBound& b : speed_envelope()) {
    const double x = b.dimension == "params" ? model.params
                     : b.dimension == "gpus" ? gpus
                     : b.dimension == "pp"   ? layout.pp
                                             : layout.dp;
    if (!(x > 0)) continue;
    const bool below = x < b.low, above = x > b.high;
    const double per_doubling = below ? b.below_per_doubling : above ? b.above_per_doubling : 0;
    if (!(per_doubling > 0)) continue;
    const double edge = below ? b.low : b.high;
    const double sd = per_doubling * std::abs(std::log2(x / edge));
    variance += sd * sd;
    const bool params = b.dimension == "params";
    // Parameters in millions below a billion, else in billions, to 3 significant digits.
    auto count = [&](double n) {
      if (!params) return format_number(n);
      const double unit = n < 1e9 ? 1e6 : 1e9;
      const double scale = std::pow(10.0, 2 - std::floor(std::log10(n / unit)));
      return format_number(std::round(n / unit * scale) / scale) + (n < 1e9 ? "M" : "B");
    };
    const std::string value = count(x), reach = count(edge);
    const std::string pct = format_number(std::round(100 * std::expm1(z80 * sd) * 10) / 10);
    const char* what = params ? "A model of " : b.dimension == "gpus" ? "A run on " : b.dimension == "pp" ? "A pipeline of " : "Data parallelism over ";
    const char* unit = params ? " parameters" : b.dimension == "gpus" ? " GPUs" : b.dimension == "pp" ? " stages" : " replicas";
    warnings.push_back({params ? "model" : b.dimension == "gpus" ? "hardware.count" : "strategy." + std::string(b.dimension),
                        "outside_envelope",
                        std::string(what) + value + unit + " is " + (below ? "below" : "beyond") +
                            " what the validation's measured runs cover (they reach " + reach +
                            "): the likely range is widened by " + pct +
                            "% for it, as far as refitting without the measured rows past such an edge moved "
                            "their predictions.",
                        {{"dimension_ids", "envelope_" + std::string(b.dimension)},
                         {"value", value},
                         {"edge", reach},
                         {"pct", pct},
                         {"direction", below ? "below" : "above"}}});
  }
  const double spread = std::exp(z80 * std::sqrt(variance));
  double low = 1 / spread, high = spread;
  // A GPU of a family no source measured: its utilisation within about extrapolation_points either way
  // (the mfu_extrapolated warning), at most twice as slow; a step the user measured on it is known.
  if (!calibrated_family(s.hardware.gpu) && !measured_on_this_gpu && mfu > 0) {
    const double points = extrapolation_points / 100;
    low *= mfu / (mfu + points);
    high *= mfu / std::max(mfu - points, mfu / 2);
  }
  range.outside_low = low;
  range.outside_high = high;
  range.low *= low;
  range.high *= high;
}

}  // namespace traincalc::detail
