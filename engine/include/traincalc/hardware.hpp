// An accelerator, as the catalog or an inline spec describes it. Peaks are dense (never with 2:4
// sparsity), per GPU, in vendor TFLOPS.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace traincalc {

enum class Precision { fp32, tf32, fp16, bf16, fp8 };

// How a cloud offer's instances join into one job: over a training fabric with RDMA (InfiniBand,
// EFA, RoCE, GPUDirect-TCPX), over ordinary Ethernet/TCP only, or not at all (one instance at most).
enum class OfferCluster { rdma, ethernet, none };
// bf16, fp16 and fp8 training keep 16-bit weights, gradients and activations (fp8 only inside the matmuls).
constexpr bool sixteen_bit(Precision p) {
  return p == Precision::bf16 || p == Precision::fp16 || p == Precision::fp8;
}

struct GpuSpec {
  std::string id;  // empty for an inline spec
  std::string name;
  std::string vendor;
  std::string form_factor;
  double memory_gb = 0;  // GiB, as vendors state it
  // What the CUDA driver gives a process, GiB (torch.cuda.get_device_properties().total_memory).
  std::optional<double> usable_memory_gib;
  std::string memory_type;
  std::optional<double> memory_bandwidth_tbs;
  std::optional<double> fp32_tflops;
  std::optional<double> tf32_tflops;
  std::optional<double> bf16_tflops;
  std::optional<double> fp16_tflops;
  std::optional<double> fp8_tflops;
  std::optional<double> fp4_tflops;  // informational: no fp4 training precision yet
  std::optional<double> int8_tops;   // informational
  std::optional<double> tdp_w;
  std::string interconnect;  // the intra-node link, in words
  std::optional<double> gpus_per_node;
  // GPUs that reach each other over the fast link (intra_node_gbs): a server's by default; a TPU
  // pod's inter-chip interconnect (4,096 TPU v4 chips) spans hosts.
  std::optional<double> link_domain_gpus;
  std::optional<double> intra_node_gbs;   // per GPU, per direction, GB/s
  std::optional<double> inter_node_gbps;  // per GPU, Gbit/s
  // The fraction of the dense peak the best-shaped matrix multiplication reaches, measured (MAMF).
  std::optional<double> matmul_efficiency;
  std::optional<double> release_year;
  // NVIDIA's CUDA compute capability (9.0 for Hopper): what sizes the cuBLAS workspaces.
  std::optional<double> compute_capability;
  std::string source;
  std::string confidence;
  std::string notes;
  // A vendor's row that leaves out figures the step model uses takes them from the closest built-in
  // GPU of its architecture: that GPU's ID, and the fields taken.
  std::string filled_from;
  std::vector<std::string> filled_fields;
};

// What a process can use, GiB: what the driver reports as total; without a measurement, the card's
// stated GiB.
inline double usable_memory_gib(const GpuSpec& gpu) {
  return gpu.usable_memory_gib && *gpu.usable_memory_gib < gpu.memory_gb ? *gpu.usable_memory_gib : gpu.memory_gb;
}

constexpr std::optional<double> dense_peak_tflops(const GpuSpec& gpu, Precision precision) {
  switch (precision) {
    case Precision::fp32:
      return gpu.fp32_tflops;
    case Precision::tf32:
      return gpu.tf32_tflops;
    case Precision::fp16:
      return gpu.fp16_tflops;
    case Precision::bf16:
      return gpu.bf16_tflops;
    case Precision::fp8:
      return gpu.fp8_tflops;
  }
  return std::nullopt;
}

const char* to_string(Precision precision);

// The precision a practitioner would train in on this GPU: bf16 where it has bf16 tensor cores,
// else fp16 (V100, T4), else whatever it has.
std::optional<Precision> default_precision(const GpuSpec& gpu);

}  // namespace traincalc
