// How the work is run: numeric precision, optimizer, utilisation and the parallel layout.
#pragma once

#include <optional>

#include "traincalc/hardware.hpp"

namespace traincalc {

enum class Optimizer { adamw, adam, adamw_8bit, sgd, sgd_momentum, adafactor, lion, paged_adamw, paged_adamw_8bit };
enum class Recompute { none, selective, full };
enum class Offload { none, optimizer, optimizer_and_params };
// How expert parallelism sends a token to its experts: all_to_all, one copy per routed expert
// (Megatron-Core's alltoall dispatcher, GShard); per_node, once over the network to each node that
// holds any of its experts and from there over NVLink (DeepSeek-V3's dispatch, DeepEP).
enum class ExpertDispatch { all_to_all, per_node };
// The pipeline schedule: one_f_one_b (interleaved with pp_virtual_stages > 1; Narayanan et al. 2021);
// zero_bubble, ZB-H1, whose weight-gradient passes fill the bubble (Qi et al. 2023, "Zero Bubble
// Pipeline Parallelism"; DeepSeek-V2); dualpipe, DeepSeek-V3's bidirectional schedule, each rank
// holding two stages (arXiv:2412.19437, sec. 3.2.1, table 2).
enum class PipelineSchedule { one_f_one_b, zero_bubble, dualpipe };
// The training framework: it decides, unless the scenario says otherwise, how weights, gradients and
// optimizer states are held, which attention and loss kernels run and how adapters are stored (the
// presets and their sources are in memory_regime.cpp).
enum class Framework { megatron, deepspeed, fsdp2, hf, litgpt, torchtune, unsloth };
// How a trainable parameter is held (bytes per parameter in memory_regime.cpp):
//   mixed: 16-bit weights and gradients, fp32 master weights and optimizer states (DeepSpeed);
//   megatron_mixed: as mixed but fp32 gradients (Megatron's main-grad buffer);
//   fsdp_mixed: fp32 sharded weights, gradients and states; 16-bit copies gathered per layer (FSDP2);
//   amp: fp32 weights, gradients and states, 16-bit autocast compute (PyTorch AMP, HF Trainer);
//   pure: weights, gradients and states all 16-bit (LitGPT bf16-true, torchtune).
enum class Regime { mixed, megatron_mixed, fsdp_mixed, amp, pure };
// The attention kernel: FlashAttention and memory-efficient SDPA keep no score matrix; Megatron's
// fused softmax keeps 16-bit scores; eager attention keeps fp32 softmax scores under autocast.
// flash3 is the Hopper generation of tiled attention (FlashAttention-3, or cuDNN's fused attention,
// which Transformer Engine picks on Hopper and later): FlashAttention's memory, a faster kernel.
enum class AttentionKernel { flash, memory_efficient, fused_softmax, eager, flash3 };
// The loss over the vocabulary: eager cross-entropy upcasts every logit to fp32; a fused kernel works in
// place on the 16-bit logits; a chunked loss keeps 16-bit logits and upcasts one chunk at a time; a fused
// linear cross-entropy never holds the logits whole; a compiled one keeps the 16-bit logits and writes a
// 16-bit gradient; Megatron-LM's native fused loss holds one fp32 buffer more than its unfused one.
enum class CrossEntropy { eager, fused, chunked, fused_linear, compiled, megatron_native };

struct Strategy {
  std::optional<Precision> precision;  // nullopt: the GPU's default precision
  Optimizer optimizer = Optimizer::adamw;
  std::optional<double> mfu;  // nullopt: "auto"
  // nullopt: "auto". Until the planner exists, "auto" resolves to 1 (and dp to the rest).
  std::optional<double> tp, pp, cp, ep, dp, micro_batch, zero;
  std::optional<double> pp_virtual_stages;  // interleaved 1F1B chunks per stage; nullopt: "auto" (1 unless planned)
  // Layers on the first and on the last pipeline stage (Megatron-Core's decoder_first/last_pipeline_num_layers);
  // the stages between split the rest evenly. nullopt: "auto", even where the layers divide, else the
  // first and last stages one layer lighter (pipeline_stage_layers).
  std::optional<double> pp_first_stage_layers, pp_last_stage_layers;
  std::optional<Recompute> recompute;       // nullopt: "auto"
  std::optional<Framework> framework;  // nullopt: "auto" (Megatron-LM to pre-train, Hugging Face to fine-tune)
  std::optional<Regime> regime;        // nullopt: the framework's
  std::optional<AttentionKernel> attention;  // nullopt: the framework's on this GPU
  // The version-1 spelling of the attention kernel, still read: flash_attention false means eager
  // attention, or Megatron's fused softmax with fused_softmax true.
  std::optional<bool> flash_attention;
  std::optional<bool> fused_softmax;
  // Each parameter is updated as soon as its gradient exists, which is then freed (torchtune's
  // optimizer_in_bwd): the gradients are never all held at once.
  bool optimizer_in_backward = false;
  // Activations kept for the backward pass wait in CPU memory (torchtune's activation offloading).
  bool activation_offload = false;
  // The model runs under torch.compile (torchtune's and torchtitan's compile: True): Inductor fuses the
  // norms and activation functions, which then keep their 16-bit inputs rather than eager PyTorch's
  // fp32 upcasts and intermediates.
  bool compile = false;
  // Gradient accumulation under FSDP's no_sync (FSDP2: set_requires_gradient_sync(False)): no reduce-
  // scatter until the last micro-batch, so every rank holds the whole unsharded gradients meanwhile.
  // nullopt: the framework's (LitGPT's Fabric does; torchtitan and torchtune do not).
  std::optional<bool> no_sync_accumulation;
  std::optional<bool> sequence_parallel;  // nullopt: on when tp > 1
  Offload offload = Offload::none;
  std::optional<CrossEntropy> cross_entropy;  // nullopt: the framework's
  // The version-1 spelling: true is the fused kernel (flash-attn's xentropy, Megatron-Core's fused CE).
  std::optional<bool> fused_cross_entropy;
  // Gradient reduction (and ZeRO's parameter gather) runs during the backward pass, as PyTorch DDP,
  // FSDP, DeepSpeed and Megatron-Core do; false: after it (Megatron-LM 2021).
  bool overlap_grad_reduce = true;
  // The precision gradients are reduced in; nullopt: the regime's. Megatron-LM reduces bf16 training's
  // gradients in fp32, as torchtitan's FSDP2 does (reduce_dtype float32) and DDP does AMP's fp32
  // gradients; NeMo's grad_sync_dtype bf16 and Composer's PURE mixed precision reduce in 16 bits, as
  // DeepSpeed does.
  std::optional<Precision> grad_reduce_precision;
  // Tensor-parallel collectives overlapped with the matmuls (Transformer Engine's userbuffers).
  bool overlap_tp_comm = false;
  ExpertDispatch ep_dispatch = ExpertDispatch::all_to_all;
  // Interleaved pipeline stages post their sends and receives asynchronously and wait for them only
  // before the chunk that needs them (Megatron-Core's overlap_p2p_comm, which Megatron-LM's training
  // arguments turn on with interleaving since 4eeff55, 2023-10-12, and NeMo's and Megatron-Bridge's
  // communication-overlap configs too); false: each exchange is batched and the host synchronises
  // after it (Megatron-Core's config defaults, batch_p2p_comm and batch_p2p_sync; Megatron-LM from
  // 2021 until then, and without interleaving).
  bool overlap_p2p_comm = false;
  PipelineSchedule pp_schedule = PipelineSchedule::one_f_one_b;
  // The expert all-to-alls run while another micro-batch computes (DeepSeek's DualPipe, Megatron-Core's
  // --overlap-moe-expert-parallel-comm), hidden up to that compute.
  bool overlap_ep_comm = false;
};

const char* to_string(Optimizer optimizer);
const char* to_string(Recompute recompute);
const char* to_string(Offload offload);
const char* to_string(Framework framework);
const char* to_string(Regime regime);
const char* to_string(AttentionKernel kernel);
const char* to_string(CrossEntropy loss);

}  // namespace traincalc
