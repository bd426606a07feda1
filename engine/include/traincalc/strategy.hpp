// How the work is run: numeric precision, optimizer, utilisation and the parallel layout.
#pragma once

#include <optional>

#include "traincalc/hardware.hpp"

namespace traincalc {

enum class Optimizer { adamw, adam, adamw_8bit, sgd, sgd_momentum, adafactor, lion };
enum class Recompute { none, selective, full };
enum class Offload { none, optimizer, optimizer_and_params };

struct Strategy {
  std::optional<Precision> precision;  // nullopt: the GPU's default precision
  Optimizer optimizer = Optimizer::adamw;
  std::optional<double> mfu;  // nullopt: "auto"
  // nullopt: "auto". Until the planner exists, "auto" resolves to 1 (and dp to the rest).
  std::optional<double> tp, pp, cp, ep, dp, micro_batch, zero;
  std::optional<double> pp_virtual_stages;  // interleaved 1F1B chunks per stage; nullopt: "auto" (1 unless planned)
  std::optional<Recompute> recompute;       // nullopt: "auto"
  bool flash_attention = true;
  // Without FlashAttention: Megatron's fused softmax keeps 16-bit scores; eager PyTorch (the default
  // assumed) keeps an fp32 softmax under autocast.
  std::optional<bool> fused_softmax;
  std::optional<bool> sequence_parallel;  // nullopt: on when tp > 1
  Offload offload = Offload::none;
  // A fused cross-entropy kernel (flash-attn's xentropy, Megatron-Core's fused CE, Liger) computes the
  // loss and its gradient in place on the 16-bit logits: no fp32 copies.
  bool fused_cross_entropy = false;
  // Gradient reduction (and ZeRO's parameter gather) runs during the backward pass, as PyTorch DDP,
  // FSDP, DeepSpeed and Megatron-Core do; false: after it (Megatron-LM 2021).
  bool overlap_grad_reduce = true;
  // Tensor-parallel collectives overlapped with the matmuls (Transformer Engine's userbuffers).
  bool overlap_tp_comm = false;
};

const char* to_string(Optimizer optimizer);
const char* to_string(Recompute recompute);
const char* to_string(Offload offload);

}  // namespace traincalc
