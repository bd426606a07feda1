// The training runs measured on a lent H200 (scripts/device/measure_h200.py; the numbers in
// tests/data/device/h200-2026-12-01.json) as measured rows in tests/data/memory-measured's normalised
// form, so that make-memory-validation.mjs (their peak memory) and make-speed-validation.mjs (their step
// times) predict them on the same scenario (scripts/measured-scenario.mjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const H200_FILE = join('tests', 'data', 'device', 'h200-2026-12-01.json');
export const H200_SOURCE =
  'traincalc scripts/device/measure_h200.py on one lent NVIDIA H200 (143,771 MiB, driver 580.159.04, 700 W), ' +
  '2026-12-01: PyTorch 2.11.0+cu130, transformers 5.17.0, peft 0.21.0; tests/data/device/h200-2026-12-01.json';

// The shapes the script builds (MODELS there): Llama 3.2 1B/3B, Llama 3.1 8B and Mistral 7B as their
// config.json on the Hugging Face Hub give them, Qwen2.5 0.5B's shape without its q/k/v biases (built as a
// Llama), GPT-2 small and medium with their dropout (0.1) on.
const LLAMA = { gated_mlp: true, norm: 'rmsnorm', bias: false, position_embeddings: 0, norms_per_layer: 2,
  qkv_bias: false, lm_head_bias: false, dropout: false, encoder_only: false };
const GPT2 = { gated_mlp: false, norm: 'layernorm', bias: true, position_embeddings: 1024, norms_per_layer: 2,
  qkv_bias: true, lm_head_bias: false, dropout: true, tied_embeddings: true, encoder_only: false };
export const H200_MODELS = {
  'llama-3.2-1b': { ...LLAMA, layers: 16, hidden: 2048, heads: 32, kv_heads: 8, ffn_hidden: 8192, vocab: 128256, tied_embeddings: true },
  'llama-3.2-3b': { ...LLAMA, layers: 28, hidden: 3072, heads: 24, kv_heads: 8, ffn_hidden: 8192, vocab: 128256, tied_embeddings: true },
  'llama-3.1-8b': { ...LLAMA, layers: 32, hidden: 4096, heads: 32, kv_heads: 8, ffn_hidden: 14336, vocab: 128256, tied_embeddings: false },
  'mistral-7b': { ...LLAMA, layers: 32, hidden: 4096, heads: 32, kv_heads: 8, ffn_hidden: 14336, vocab: 32000, tied_embeddings: false },
  'qwen2.5-0.5b': { ...LLAMA, layers: 24, hidden: 896, heads: 14, kv_heads: 2, ffn_hidden: 4864, vocab: 151936, tied_embeddings: true },
  'gpt2-124m': { ...GPT2, layers: 12, hidden: 768, heads: 12, kv_heads: 12, ffn_hidden: 3072, vocab: 50257 },
  'gpt2-355m': { ...GPT2, layers: 24, hidden: 1024, heads: 16, kv_heads: 16, ffn_hidden: 4096, vocab: 50257 },
};

// Each run in the normalised form measured-scenario.mjs reads. What the script did, in the contract's terms:
// Hugging Face eager training (framework hf): the loss upcasts the whole logits to fp32 (cross_entropy
// eager); SDPA's default kernel on Hopper for causal bf16 without a mask is FlashAttention-2 (flash); HF's
// gradient checkpointing recomputes each decoder layer (recompute full); peft 0.21 keeps LoRA weights in fp32
// (autocast_adapter_dtype, adapter_precision fp32); AMP keeps fp32 weights, gradients and AdamW states.
export function h200Runs(root) {
  const data = JSON.parse(readFileSync(join(root, H200_FILE), 'utf8'));
  const runs = [...data.sections.train, ...data.sections.train2].filter((r) => !r.error);
  return runs.map((r) => {
    const lora = r.method === 'lora' || r.method === 'lora0';
    if (lora && r.adapter_dtype !== 'torch.float32') throw new Error(`${r.run}: adapters in ${r.adapter_dtype}`);
    return {
      run: r.run,
      source_group: 'h200-hf-2026',
      framework: 'hf',
      confidence: 'high',
      model_name: r.model,
      architecture: H200_MODELS[r.model],
      gpu: 'h200-sxm',
      gpus: 1,
      seq_len: r.seq,
      micro_batch: r.micro_batch,
      gradient_accumulation: r.accumulation,
      training: 'finetune',
      method: lora ? 'lora' : 'full',
      ...(lora ? { lora_rank: 16, lora_targets: 'all_linear', adapter_precision: 'fp32', lora_dropout: r.method === 'lora' ? 0.05 : 0 } : {}),
      regime: r.regime,
      precision: 'bf16',
      optimizer: 'adamw',
      recompute: r.checkpointing ? 'full' : 'none',
      attention: r.attention === 'eager' ? 'eager' : 'flash',
      cross_entropy: 'eager',
      allocated_gib: r.peak_allocated_bytes_all / 2 ** 30,
      reserved_gib: r.peak_reserved_bytes_all / 2 ** 30,
      step_ms: Math.round(r.step_s * 1e4) / 10,
      notes: `${r.run}: AdamW (${r.optimizer}), ${r.accumulation} micro-batch(es) a step, median of 5 timed steps`,
    };
  });
}
