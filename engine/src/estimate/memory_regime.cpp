// Training regimes and framework presets: how each framework holds weights, gradients and optimizer
// states, and which attention and loss kernels it runs, unless the scenario says otherwise. Each
// preset cites the framework's documentation or default configuration.
#include <algorithm>
#include <cmath>

#include "estimate/estimators.hpp"
#include "traincalc/names.hpp"

namespace traincalc {

const char* to_string(Framework framework) { return contract::name_of(contract::frameworks, framework).data(); }
const char* to_string(Regime regime) { return contract::name_of(contract::regimes, regime).data(); }
const char* to_string(AttentionKernel kernel) { return contract::name_of(contract::attention_kernels, kernel).data(); }
const char* to_string(CrossEntropy loss) { return contract::name_of(contract::cross_entropies, loss).data(); }

}  // namespace traincalc

namespace traincalc::detail {

// FlashAttention-2 needs an Ampere (sm80) or newer GPU (Dao 2023, github.com/Dao-AILab/flash-attention
// README, "Requirements"). In the catalog the GPUs without bf16 tensor cores (V100, T4, older) are the
// pre-Ampere ones; AMD's CDNA 3 runs FlashAttention through composable kernels.
bool runs_flash_attention(const GpuSpec& gpu) { return gpu.bf16_tflops.has_value(); }

namespace {

// A framework's defaults where the scenario says nothing: regime, attention on an Ampere-or-newer GPU
// and before, loss kernel, adapters, NF4.
struct Preset {
  Regime regime = Regime::mixed;
  AttentionKernel attention = AttentionKernel::flash;
  CrossEntropy loss = CrossEntropy::eager;
  AdapterPrecision adapters = AdapterPrecision::compute;
  Quantization nf4 = Quantization::nf4_double;
  double dropout = 0;  // LoRA dropout: PEFT's LoraConfig, torchtune's builders, Unsloth and NeMo default to 0
};

// The preset of Megatron-LM.
void megatron_preset(const Scenario& s, bool flash_ok, Preset& p, MemoryRegime& r) {
  // Megatron-LM: bf16 training accumulates and all-reduces gradients in fp32 (megatron/training/
  // arguments.py: "if args.bf16: ... args.accumulate_allreduce_grads_in_fp32 = True"); Transformer
  // Engine's fused attention, norms and SwiGLU; the loss fusion is opt-in (--cross-entropy-loss-fusion).
  p.regime = Regime::megatron_mixed;
  if (!flash_ok) p.attention = AttentionKernel::fused_softmax;
  // On Hopper and later Transformer Engine prefers cuDNN's fused attention to FlashAttention-2 "for
  // performance reasons" (NVIDIA/TransformerEngine transformer_engine/pytorch/attention.py @6792eca,
  // get_attention_backend; dot_product_attention/utils.py @a0b36d0 keeps it).
  if (flash_ok && s.hardware.gpu.compute_capability.value_or(0) >= 9) p.attention = AttentionKernel::flash3;
  r.fused_elementwise = true;
  r.transformer_engine = true;
  // NeMo's QLoRA has its own NF4 linear autograd function which, like torchao's, saves only the weight
  // (nemo/collections/nlp/modules/common/megatron/adapters/qlora.py).
  r.nf4_keeps_input = false;
  r.vocab_parallel_loss = MemoryRegime::VocabParallelLoss::megatron;
}

// The preset of DeepSpeed.
void deepspeed_preset(Preset& p) {
  // DeepSpeed bf16/fp16: 16-bit parameters and gradients, fp32 master weights and Adam states in the
  // (ZeRO-partitioned) optimizer (deepspeed.ai/docs/config-json, "BFLOAT16 training options"; Rajbhandari
  // et al. 2020, sec. 3.1: 2 + 2 + 12 bytes per parameter).
  p.regime = Regime::mixed;
}

// The preset of torchtitan on FSDP2.
void fsdp2_preset(Preset& p, MemoryRegime& r) {
  // torchtitan / FSDP2: fp32 sharded parameters and optimizer states, bf16 all-gather and compute,
  // fp32 reduce-scatter (torchtitan config: mixed_precision_param "bfloat16", mixed_precision_reduce
  // "float32"; PyTorch docs, torch.distributed.fsdp.MixedPrecisionPolicy).
  p.regime = Regime::fsdp_mixed;
  // run_train.sh launches with PYTORCH_ALLOC_CONF="expandable_segments:True" (torchtitan @0168bd51).
  r.expandable_segments = true;
  r.pipeline_holds_stage_unsharded = true;
  // Tensor and sequence parallelism through DTensor's parallel styles (torchtitan/parallelisms/
  // parallelize_llama.py @9dec370, apply_tp: PrepareModuleInput(desired_input_layouts=Replicate())
  // ahead of ColwiseParallel wq/wk/wv and w1/w3, and the output head's input).
  r.sp_keeps_gathered = true;
  // Loss parallel, on whenever tp > 1 (torchtitan: enable_loss_parallel = not disable_loss_parallel).
  r.vocab_parallel_loss = MemoryRegime::VocabParallelLoss::dtensor;
  // apply_fsdp shards each transformer block, then fully_shard(model): tok_embeddings, norm and output
  // form the root (torchtitan/parallelisms/parallelize_llama.py @9dec370; the same at e7c0cae).
  r.root_unit_gathered = true;
}

// The preset of the Hugging Face Trainer (and PEFT).
void hf_preset(const Scenario& s, bool flash_ok, Preset& p) {
  const bool frozen_base = s.training.method != FinetuneMethod::full;
  // Hugging Face Trainer: a model loaded in fp32 trains under autocast (--bf16/--fp16: AMP), so full
  // fine-tuning keeps fp32 weights, gradients and states; PEFT loads the base in 16 bits and casts
  // adapters to fp32 (peft LoraConfig / get_peft_model autocast_adapter_dtype=True). SDPA picks
  // FlashAttention where it can; pre-Ampere, transformers' eager attention. BitsAndBytesConfig's
  // bnb_4bit_use_double_quant defaults to False.
  p.regime = frozen_base ? Regime::pure : Regime::amp;
  if (!flash_ok) p.attention = AttentionKernel::eager;
  p.adapters = AdapterPrecision::fp32;
  p.nf4 = Quantization::nf4;
}

// The preset of LitGPT.
void litgpt_preset(Preset& p, MemoryRegime& r) {
  // LitGPT config hub: precision "bf16-true" (weights, gradients and AdamW states in bf16), torch SDPA,
  // chunked cross-entropy (lm_head_chunk_size 128, litgpt/utils.py chunked_cross_entropy), and
  // quantize "bnb.nf4" in the qlora.yaml configs.
  // lora_dropout 0.05 (litgpt/finetune/lora.py and the config hub's lora.yaml/qlora.yaml), applied
  // once to the fused QKV layer's input (litgpt/lora.py, LoRAQKVLinear).
  p.regime = Regime::pure;
  p.loss = CrossEntropy::chunked;
  p.nf4 = Quantization::nf4;
  p.dropout = 0.05;
  r.fused_qkv_adapter = true;
  // litgpt/model.py, GPT.__init__: lm_head = nn.Linear(...) beside wte = nn.Embedding(...), never tied;
  // lightning/fabric/plugins/precision/bitsandbytes.py converts every nn.Linear, lm_head included.
  r.separate_output_head = true;
  r.nf4_output_head = true;
  // Multi-GPU: Fabric's FSDPStrategy (FSDP1) wrapping each Block whole, LoRA weights included
  // (litgpt/finetune/lora.py and full.py: auto_wrap_policy={Block}), and gradient accumulation under
  // fabric.no_backward_sync, which for FSDP is module.no_sync() (lightning/fabric/strategies/fsdp.py,
  // _FSDPBackwardSyncControl).
  r.no_sync_accumulation = true;
  r.flat_gradients_cover_frozen = true;
  // litgpt/finetune/lora.py and full.py (@4a9b7e62, fit): "logits = model(input_ids, ...)" is
  // rebound only after the next micro-batch's forward pass; LitGPT pinned bitsandbytes==0.41.0
  // (pyproject.toml @e120da19), ==0.42.0 from 2024-03-15 (@929f9c79) until 2025-03-12 (@1f00c068:
  // >=0.45.2).
  r.previous_micro_batch_held = true;
  // Fabric's FSDPStrategy wraps each Block; wte, ln_f and lm_head stay in the root unit.
  r.root_unit_gathered = true;
}

// The preset of torchtune.
void torchtune_preset(const Scenario& s, Preset& p, MemoryRegime& r) {
  // torchtune recipes: dtype bf16 for everything, SDPA, CEWithChunkedOutputLoss (8 chunks) since v0.3,
  // torchao NF4Tensor (scalers double-quantised in blocks of 256), whose linear_nf4 autograd function
  // saves only the NF4 weight, not its input (torchao/dtypes/nf4tensor.py, LinearNF4.forward).
  p.regime = Regime::pure;
  p.loss = CrossEntropy::chunked;
  r.nf4_keeps_input = false;
  r.compiled_loss_chunks = s.strategy.compile;
}

// The preset of Unsloth.
void unsloth_preset(Preset& p, MemoryRegime& r) {
  // Unsloth: 16-bit base, Triton kernels for RMSNorm, RoPE and SwiGLU, a fused cross-entropy that never
  // holds the logits whole, and its pre-quantised bnb-4bit models with double quantisation.
  p.regime = Regime::pure;
  p.loss = CrossEntropy::fused_linear;
  r.fused_elementwise = true;
}

// The preset of r.framework: the defaults returned, the framework's own flags set in r.
Preset framework_preset(const Scenario& s, MemoryRegime& r) {
  const bool flash_ok = runs_flash_attention(s.hardware.gpu);
  Preset p;
  p.attention = flash_ok ? AttentionKernel::flash : AttentionKernel::memory_efficient;
  r.fused_elementwise = false;
  switch (r.framework) {
    case Framework::megatron:
      megatron_preset(s, flash_ok, p, r);
      break;
    case Framework::deepspeed:
      deepspeed_preset(p);
      break;
    case Framework::fsdp2:
      fsdp2_preset(p, r);
      break;
    case Framework::hf:
      hf_preset(s, flash_ok, p);
      break;
    case Framework::litgpt:
      litgpt_preset(p, r);
      break;
    case Framework::torchtune:
      torchtune_preset(s, p, r);
      break;
    case Framework::unsloth:
      unsloth_preset(p, r);
      break;
  }
  return p;
}

}  // namespace

MemoryRegime resolve_memory_regime(const Scenario& s) {
  const Strategy& st = s.strategy;
  const Training& t = s.training;
  MemoryRegime r;
  r.framework_assumed = !st.framework;
  r.framework = st.framework.value_or(t.type == TrainingType::pretrain ? Framework::megatron : Framework::hf);
  Preset p = framework_preset(s, r);

  // torch.compile fuses the elementwise ops whatever the framework (Inductor's pointwise fusion; the
  // fused kernel saves its inputs and recomputes the rest in the backward pass).
  if (st.compile) r.fused_elementwise = true;
  // torchtitan compiles its loss function with the model (torchtitan/components/loss.py @e7c0cae,
  // build_cross_entropy_loss: "if job_config.training.compile: ... loss_fn = torch.compile(loss_fn)").
  if (st.compile && r.framework == Framework::fsdp2 && p.loss == CrossEntropy::eager) p.loss = CrossEntropy::compiled;
  r.expandable_segments = s.memory.expandable_segments.value_or(r.expandable_segments);
  r.previous_micro_batch_held = s.memory.previous_micro_batch_held.value_or(r.previous_micro_batch_held);
  r.nf4_keeps_input = s.memory.nf4_keeps_input.value_or(r.nf4_keeps_input);
  r.no_sync_accumulation = st.no_sync_accumulation.value_or(r.no_sync_accumulation);
  r.regime = st.regime.value_or(p.regime);
  r.regime_assumed = !st.regime;
  // The version-1 flags, when given, say which attention kernel runs.
  if (st.attention) {
    r.attention = *st.attention;
  } else if (st.flash_attention) {
    // true: the framework's tiled kernel (flash3 where Megatron picks it), else FlashAttention.
    r.attention = *st.flash_attention
                      ? (p.attention == AttentionKernel::flash3 ? AttentionKernel::flash3 : AttentionKernel::flash)
                      : (st.fused_softmax.value_or(false) ? AttentionKernel::fused_softmax : AttentionKernel::eager);
  } else {
    r.attention = p.attention;
  }
  r.attention_assumed = !st.attention && !st.flash_attention;
  if (st.cross_entropy) {
    r.cross_entropy = *st.cross_entropy;
  } else if (st.fused_cross_entropy) {
    r.cross_entropy = *st.fused_cross_entropy ? CrossEntropy::fused : CrossEntropy::eager;
  } else {
    r.cross_entropy = p.loss;
  }
  r.adapter_precision = t.adapter_precision.value_or(p.adapters);
  r.lora_dropout = t.lora_dropout.value_or(p.dropout);
  r.quantization = t.quantization.value_or(p.nf4);
  return r;
}

bool keeps_no_scores(AttentionKernel kernel) {
  return kernel == AttentionKernel::flash || kernel == AttentionKernel::flash3 ||
         kernel == AttentionKernel::memory_efficient;
}

// Megatron's FusedScaleMaskSoftmax runs its CUDA kernel only for 16-bit scores ("input_in_float16"),
// where "16 < sk <= 4096", both lengths are multiples of 4 and the batches of scores, micro-batch x heads
// per GPU ("attn_batches = b * np"), are a multiple of 4 and of the batches one thread block takes
// (causal; with a padding mask the query length must be a multiple of those instead)
// (megatron/core/fusions/fused_softmax.py @d98e8a6, is_kernel_available). A block of 128 threads takes
// 128 / warp batches, twice that up to 128 keys, a warp being 32 threads or the keys rounded up to a
// power of two if fewer (megatron/fused_kernels/scaled_masked_softmax.h, get_batch_per_block, as last
// in the tree at NVIDIA/Megatron-LM cd12636~1): 4 above 128 keys, 8 at 17-128. Otherwise
// forward_torch_softmax runs: PyTorch's ops one by one.
namespace {
bool multiple_of(double x, double m) { return x >= m && std::fmod(x, m) == 0; }
double batches_per_block(double seq) {
  const double next_power_of_two = std::exp2(std::ceil(std::log2(seq)));
  const double warp = std::min(next_power_of_two, 32.0);
  return 128 / warp * (next_power_of_two <= 128 ? 2 : 1);
}
}  // namespace

double megatron_softmax_batch_multiple(double seq) { return std::max(4.0, batches_per_block(seq)); }

SoftmaxRefusal megatron_softmax_refusal(const SoftmaxShape& x) {
  if (!x.sixteen_bit) return SoftmaxRefusal::precision;
  if (!(x.seq > 16 && x.seq <= 4096) || !multiple_of(x.seq, 4)) return SoftmaxRefusal::length;
  const double batches = x.micro_batch * x.heads_per_gpu;
  const double per_block = batches_per_block(x.seq);
  const bool blocks_fit = x.causal ? multiple_of(batches, per_block) : multiple_of(x.seq, per_block);
  return multiple_of(batches, 4) && blocks_fit ? SoftmaxRefusal::none : SoftmaxRefusal::batches;
}

SoftmaxShape softmax_shape(const Architecture& a, const ParallelismReport& layout, double seq, bool sixteen_bit) {
  return {layout.micro_batch, a.heads / std::max(1.0, layout.tp), seq / std::max(1.0, layout.cp),
          !a.encoder_only && a.decoder_layers == 0, sixteen_bit};
}

bool softmax_falls_back(AttentionKernel kernel, const SoftmaxShape& shape) {
  return kernel == AttentionKernel::fused_softmax && megatron_softmax_refusal(shape) != SoftmaxRefusal::none;
}

namespace {

// Optimizer states per parameter, in fp32 (Adam: two moments, Kingma & Ba 2015; Lion: one momentum,
// Chen et al. 2023; Adafactor: a factored second moment, rows + columns, negligible, Shazeer & Stern
// 2018; 8-bit: two 8-bit moments with fp32 block constants every 2,048 values, Dettmers et al. 2022).
// Paged optimizers hold the same bytes, paged to CPU memory only under pressure (bitsandbytes docs).
double fp32_state_bytes(Optimizer o) {
  switch (o) {
    case Optimizer::adam:
    case Optimizer::adamw:
    case Optimizer::paged_adamw:
      return 8.0;
    case Optimizer::adamw_8bit:
    case Optimizer::paged_adamw_8bit:
      return 2.0 + 2 * 4.0 / 2048;
    case Optimizer::sgd:
    case Optimizer::adafactor:
      return 0.0;
    case Optimizer::sgd_momentum:
    case Optimizer::lion:
      return 4.0;
  }
  return 8.0;
}

bool eight_bit(Optimizer o) { return o == Optimizer::adamw_8bit || o == Optimizer::paged_adamw_8bit; }

}  // namespace

ParamBytes trainable_param_bytes(const MemoryRegime& r, Precision precision, Optimizer optimizer, bool adapter) {
  const double states = fp32_state_bytes(optimizer);
  if (!sixteen_bit(precision) || (adapter && r.adapter_precision == AdapterPrecision::fp32)) return {4.0, 4.0, states};
  switch (r.regime) {
    case Regime::pure:  // states in the weights' 16 bits (8-bit states stay 8-bit)
      return {2.0, 2.0, eight_bit(optimizer) ? states : states / 2};
    case Regime::mixed:  // + fp32 master weights
      return {2.0, 2.0, 4.0 + states};
    case Regime::megatron_mixed:  // + fp32 master weights, fp32 gradient buffer
      return {2.0, 4.0, 4.0 + states};
    case Regime::fsdp_mixed:
    case Regime::amp:
      return {4.0, 4.0, states};
  }
  return {2.0, 2.0, 4.0 + states};
}

double frozen_weight_bytes(const MemoryRegime& r, Precision precision) {
  return sixteen_bit(precision) && r.regime != Regime::amp && r.regime != Regime::fsdp_mixed ? 2.0 : 4.0;
}

double nf4_bits_per_param(Quantization q) {
  // 4-bit values with an fp32 absmax per block of 64: 4 + 32/64 bits; double quantisation stores the
  // constants in 8 bits with an fp32 constant per 256 of them: 4 + 8/64 + 32/(64 x 256) = 4.127 bits
  // (Dettmers et al. 2023, "QLoRA", sec. 3).
  return q == Quantization::nf4 ? 4.0 + 32.0 / 64 : 4.0 + 8.0 / 64 + 32.0 / (64 * 256);
}

}  // namespace traincalc::detail
