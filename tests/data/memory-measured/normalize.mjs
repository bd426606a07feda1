// Turns the measured peak-memory rows (finetune.json, pretrain.json) into normalized.json: one row per raw
// row, in raw order (finetune first), each a scenario the engine's memory model can be run on, or marked
// include: false with a reason decided from the row's settings.
//
//   node tests/data/memory-measured/normalize.mjs
//
// Deterministic, no packages. Per-source rules are functions (rule*); per-row judgement calls are the
// OVERRIDES entries keyed "file#index", each with a short reason that is copied into the row's notes.
// Settings taken from a config or code at the cited commit (not from the source's own text) are marked
// "inferred" in the notes. Nothing here uses an engine prediction.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const read = (name) => JSON.parse(readFileSync(join(HERE, name), "utf8"));
const RAW = { "finetune.json": read("finetune.json").rows, "pretrain.json": read("pretrain.json").rows };

const GIB = 2 ** 30;
const round4 = (x) => (x == null ? null : Math.round(x * 1e4) / 1e4);
const fromGB = (x) => (x * 1e9) / GIB; // decimal GB -> GiB
const fromMiB = (x) => x / 1024; // MiB (often labelled "MB") -> GiB

// ---------------------------------------------------------------------------------------------------
// Architectures for models that are not in engine/data/models.json, or that a framework changes.
// Fields as engine/include/traincalc/model.hpp; numbers from the HF config.json named in `source`.

function arch(fields) {
  const a = {
    layers: null, hidden: null, heads: null, kv_heads: null, head_dim: null, ffn_hidden: null, vocab: null,
    gated_mlp: false, tied_embeddings: false, bias: false, norm: "rmsnorm", norms_per_layer: 2,
    position_embeddings: 0, encoder_only: false, dropout: false, qkv_bias: false, lm_head_bias: false,
    ...fields,
  };
  if (a.kv_heads == null) a.kv_heads = a.heads; // multi-head attention
  if (a.head_dim == null) delete a.head_dim; // hidden / heads
  return a;
}

const LITGPT_CFG = "litgpt/config.py @00af8b0d (transcribes the HF config.json it links)";
const LITGPT_UNTIED =
  "LitGPT keeps lm_head as its own nn.Linear and copies wte into it when the HF checkpoint ties them " +
  "(litgpt/model.py, scripts/convert_hf_checkpoint.py @00af8b0d), so the output head is untied here";

const ARCH = {
  falcon_7b_litgpt: {
    base_model: "falcon-7b",
    a: arch({ layers: 32, hidden: 4544, heads: 71, kv_heads: 1, ffn_hidden: 18176, vocab: 65024, norm: "layernorm",
      norms_per_layer: 1 }),
    source: `tiiuae/falcon-7b config.json via ${LITGPT_CFG}: 32 layers, n_embd 4544, 71 heads, MQA (1 kv group), GELU MLP 4x, ` +
      `LayerNorm, no linear bias, one shared input norm (shared_attention_norm), vocab 65024; ${LITGPT_UNTIED}`,
  },
  falcon_40b_litgpt: {
    base_model: "falcon-40b",
    a: arch({ layers: 60, hidden: 8192, heads: 128, kv_heads: 8, ffn_hidden: 32768, vocab: 65024, norm: "layernorm" }),
    source: `tiiuae/falcon-40b config.json via lit_gpt/config.py @8641822: 60 layers, 8192, 128 heads, 8 kv groups, ` +
      `GELU MLP 4x, LayerNorm, no linear bias, vocab 65024; lit-gpt keeps lm_head untied`,
  },
  gemma_2b: {
    base_model: "gemma-2b",
    a: arch({ layers: 18, hidden: 2048, heads: 8, kv_heads: 1, head_dim: 256, ffn_hidden: 16384, vocab: 256000,
      gated_mlp: true }),
    source: `google/gemma-2b config.json via ${LITGPT_CFG}: 18 layers, hidden 2048, 8 heads, MQA, head 256, GeGLU ` +
      `intermediate 16384, vocab 256000, RMSNorm, no bias; ${LITGPT_UNTIED}`,
  },
  gemma_7b: {
    base_model: "gemma-7b",
    a: arch({ layers: 28, hidden: 3072, heads: 16, kv_heads: 16, head_dim: 256, ffn_hidden: 24576, vocab: 256000,
      gated_mlp: true }),
    source: `google/gemma-7b config.json via ${LITGPT_CFG}: 28 layers, hidden 3072, 16 heads (MHA), head 256, GeGLU ` +
      `intermediate 24576, vocab 256000; ${LITGPT_UNTIED}`,
  },
  gemma2_2b_litgpt: {
    base_model: "gemma-2-2b",
    a: arch({ layers: 26, hidden: 2304, heads: 8, kv_heads: 4, head_dim: 256, ffn_hidden: 9216, vocab: 256000,
      gated_mlp: true, norms_per_layer: 4 }),
    source: `google/gemma-2-2b config.json via ${LITGPT_CFG} (as the catalog's gemma-2-2b); ${LITGPT_UNTIED}`,
  },
  gemma2_9b_litgpt: {
    base_model: "gemma-2-9b",
    a: arch({ layers: 42, hidden: 3584, heads: 16, kv_heads: 8, head_dim: 256, ffn_hidden: 14336, vocab: 256000,
      gated_mlp: true, norms_per_layer: 4 }),
    source: `google/gemma-2-9b config.json via ${LITGPT_CFG} (as the catalog's gemma-2-9b); ${LITGPT_UNTIED}`,
  },
  llama32_1b_litgpt: {
    base_model: "llama-3.2-1b",
    a: arch({ layers: 16, hidden: 2048, heads: 32, kv_heads: 8, ffn_hidden: 8192, vocab: 128256, gated_mlp: true }),
    source: `meta-llama/Llama-3.2-1B config.json via ${LITGPT_CFG} (as the catalog's llama-3.2-1b); ${LITGPT_UNTIED}`,
  },
  llama32_3b_litgpt: {
    base_model: "llama-3.2-3b",
    a: arch({ layers: 28, hidden: 3072, heads: 24, kv_heads: 8, ffn_hidden: 8192, vocab: 128256, gated_mlp: true }),
    source: `meta-llama/Llama-3.2-3B config.json via ${LITGPT_CFG} (as the catalog's llama-3.2-3b); ${LITGPT_UNTIED}`,
  },
  stablelm_3b: {
    base_model: "stablelm-base-alpha-3b",
    a: arch({ layers: 16, hidden: 4096, heads: 32, ffn_hidden: 16384, vocab: 50688, bias: true, norm: "layernorm" }),
    source: "stabilityai/stablelm-base-alpha-3b config.json (GPT-NeoX: 16 layers, hidden 4096, 32 heads, intermediate " +
      "16384, vocab 50688, rotary 25%, parallel residual with two LayerNorms, untied embed_out) as lit-gpt/litgpt " +
      "Config defaults reproduce it (vocab 50254 padded to a multiple of 512 = 50688)",
  },
  tinyllama: {
    base_model: "tinyllama-1.1b",
    a: arch({ layers: 22, hidden: 2048, heads: 32, kv_heads: 4, ffn_hidden: 5632, vocab: 32000, gated_mlp: true }),
    source: `TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json via ${LITGPT_CFG}: 22 layers, hidden 2048, ` +
      "32 heads, 4 kv heads, SwiGLU 5632, vocab 32000, RMSNorm, untied",
  },
  phi15: {
    base_model: "phi-1.5",
    a: arch({ layers: 24, hidden: 2048, heads: 32, ffn_hidden: 8192, vocab: 51200, bias: true, norm: "layernorm",
      norms_per_layer: 1, lm_head_bias: true }),
    source: "microsoft/phi-1_5 config.json via lit_gpt/config.py @8641822: 24 layers, n_embd 2048, 32 heads (head 64), " +
      "GELU MLP 4x, vocab 51200 (padded), biases, one shared LayerNorm per block (parallel attention+MLP), lm_head bias, untied",
  },
};

// Megatron-LM functional-test models (model_config.yaml at NVIDIA/Megatron-LM@d98e8a64; Megatron defaults from
// megatron/core/transformer/transformer_config.py at the same commit: add_bias_linear True, LayerNorm, GeLU,
// hidden/attention dropout 0.1, ffn 4h, learned absolute positions, vocab padded to a multiple of 128 x TP).
const padVocab = (v, tp) => Math.ceil(v / (128 * tp)) * 128 * tp;
function megatronGpt7b(tp) {
  return arch({ layers: 32, hidden: 4096, heads: 32, kv_heads: 8, ffn_hidden: 16384, vocab: padVocab(131073, tp),
    bias: true, norm: "layernorm", position_embeddings: 8192, dropout: true });
}
function megatronGptSmall(tp, { dropout = true, norm = "layernorm" } = {}) {
  return arch({ layers: 12, hidden: 512, heads: 8, ffn_hidden: 2048, vocab: padVocab(50257, tp), tied_embeddings: true,
    bias: true, norm, position_embeddings: 1024, dropout });
}

// ---------------------------------------------------------------------------------------------------
// GPUs: raw text -> catalog id (engine/data/gpus.json).

function gpuId(text) {
  const t = (text || "").toLowerCase();
  if (t.includes("a10g")) return "a10g";
  if (t.includes("a100-sxm4-40gb") || t.includes("a100 40gb")) return "a100-40gb-sxm";
  if (t.includes("a100")) return "a100-80gb-sxm";
  if (t.includes("rtx 4090") || t.includes("4090")) return "rtx-4090";
  if (t.includes("a6000")) return "a40";
  if (t.includes("l40s")) return "l40s";
  if (t.includes("h200")) return "h200-sxm";
  if (t.includes("gb200")) return "gb200";
  if (t.includes("b200")) return "b200";
  if (t.includes("h100")) return "h100-sxm";
  if (t.includes("t4")) return "t4";
  if (t.includes("v100") && t.includes("32")) return "v100-sxm2-32gb";
  if (t.includes("v100")) return "v100-sxm2-16gb";
  if (t.includes("mi300x")) return "mi300x";
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Row skeleton. Extra fields beyond the brief: base_model, capacity_gib (only when set), sequence_parallel,
// shard_degree, seq_len_exact, lora_modules, lora_head, lora_dropout, fp8_params, objective, duplicate_of.

function skeleton(file, i, raw) {
  return {
    ref: `${file}#${i}`,
    source_group: null,
    framework: null,
    include: true,
    exclude_reason: null,
    model: null,
    architecture: null,
    base_model: null,
    gpu: null,
    gpus: 1, tp: 1, pp: 1, cp: 1, ep: 1, dp: 1, virtual_stages: 1,
    sequence_parallel: false,
    zero: 0,
    shard_degree: 1,
    seq_len: null,
    seq_len_exact: null,
    micro_batch: null,
    gradient_accumulation: null,
    training: file === "finetune.json" ? "finetune" : "pretrain",
    method: file === "pretrain.json" ? "full" : null,
    lora_rank: null, lora_targets: null, lora_modules: null, lora_head: false, lora_dropout: null,
    adapter_precision: null,
    quantization: null,
    regime: null,
    precision: null,
    fp8_params: false,
    optimizer: null,
    optimizer_in_backward: false,
    recompute: "none",
    attention: null,
    cross_entropy: null,
    activation_offload: false,
    offload: "none",
    compiled: false,
    objective: "language_model",
    measured_gib: null,
    counter: "unknown",
    which_rank: "unknown",
    oom: Boolean(raw.oom),
    bound: raw.bound ?? null,
    confidence: raw.confidence ?? null,
    duplicate_of: null,
    notes: [],
  };
}

function setModel(row, key) {
  const e = ARCH[key];
  row.model = null;
  row.architecture = { ...e.a };
  row.base_model = e.base_model;
  row.notes.push(`architecture: ${e.source}`);
}

// Exclusion categories (the part of exclude_reason before the first ": "; the summary counts them).
const X = {
  method: "PEFT method other than lora/qlora/full",
  lowconf: "confidence low with key settings unstated",
  unstated: "key settings unstated",
  contradictory: "key setting contradictory or ambiguous",
  seq: "sequence length at the peak unknowable",
  bound: "capacity bound rather than a measured peak",
  notNvidia: "GPU not NVIDIA",
  lowbit: "mxfp8/nvfp4 training",
  notPeak: "measured number not a training peak of one GPU",
  model: "model not describable",
  recompute: "activation checkpointing not describable",
};

function exclude(row, category, detail) {
  row.include = false;
  row.exclude_reason = detail ? `${category}: ${detail}` : category;
}

// ---------------------------------------------------------------------------------------------------
// LitGPT config hub (config_hub/finetune/README.md @00af8b0d, plus the first table @4a9b7e62).
// Config values transcribed from config_hub/finetune/<dir>/<method>.yaml at 00af8b0d.

const HUB = {
  // dir/method: [devices, lora_r, lora_dropout, targets ("qv" | "all" incl. head), micro_batch, global_batch]
  "falcon-7b/lora": [1, 32, 0.05, "qv", 1, 8], "falcon-7b/qlora": [1, 32, 0.05, "qv", 1, 8],
  "gemma-2b/full": [4, null, null, null, 1, 16], "gemma-2b/lora": [1, 8, 0.1, "all", 2, 6],
  "gemma-2b/qlora": [1, 16, 0.1, "all", 2, 6], "gemma-7b/lora": [1, 16, 0.1, "all", 1, 6],
  "gemma-7b/qlora": [1, 16, 0.1, "all", 1, 6], "gemma2-2b/lora": [1, 8, 0.1, "all", 2, 6],
  "gemma2-2b/qlora": [1, 16, 0.1, "all", 2, 6], "gemma2-9b/lora": [1, 16, 0.1, "all", 1, 6],
  "gemma2-9b/qlora": [1, 16, 0.1, "all", 1, 6], "llama-2-7b/full": [4, null, null, null, 4, 64],
  "llama-2-7b/lora": [1, 32, 0.05, "qv", 2, 8], "llama-2-7b/qlora": [1, 32, 0.05, "qv", 2, 8],
  "llama-3-8b/full": [4, null, null, null, 4, 64], "llama-3-8b/lora": [1, 32, 0.05, "qv", 1, 8],
  "llama-3-8b/qlora": [1, 32, 0.05, "qv", 2, 8], "llama-3.1-8b/full": [4, null, null, null, 4, 64],
  "llama-3.1-8b/lora": [1, 32, 0.05, "qv", 1, 8], "llama-3.1-8b/qlora": [1, 32, 0.05, "qv", 2, 8],
  "llama-3.2-1B/full": [1, null, null, null, 4, 64], "llama-3.2-1B/lora": [1, 32, 0.05, "qv", 1, 8],
  "llama-3.2-1B/qlora": [1, 32, 0.05, "qv", 2, 8], "llama-3.2-3B/full": [1, null, null, null, 4, 64],
  "llama-3.2-3B/lora": [1, 32, 0.05, "qv", 1, 8], "llama-3.2-3B/qlora": [1, 32, 0.05, "qv", 2, 8],
  "mistral-7b-v0.2/lora": [1, 32, 0.05, "qv", 2, 8], "mistral-7b-v0.2/qlora": [1, 32, 0.05, "qv", 2, 8],
  "mistral-7b/lora": [1, 32, 0.05, "qv", 2, 8], "mistral-7b/qlora": [1, 32, 0.05, "qv", 2, 8],
  "phi-2/full": [2, null, null, null, 4, 8], "phi-2/lora": [1, 8, 0.05, "all", 4, 8],
  "phi-2/qlora": [1, 8, 0.05, "all", 4, 8], "phi-3/full": [1, null, null, null, 4, 8],
  "phi-3/lora": [1, 8, 0.05, "all", 4, 8], "phi-3/qlora": [1, 8, 0.05, "all", 4, 8],
  "stablelm-base-alpha-3b/full": [2, null, null, null, 1, 8], "stablelm-base-alpha-3b/lora": [1, 32, 0.05, "qv", 1, 8],
  "stablelm-base-alpha-3b/qlora": [1, 32, 0.05, "qv", 1, 8], "tiny-llama/full": [1, null, null, null, 4, 32],
  "tiny-llama/lora": [1, 32, 0.05, "all", 8, 8], "tiny-llama/qlora": [1, 32, 0.05, "all", 8, 8],
  // first version of the table, config_hub/finetune/tiny-llama/*.yaml @4a9b7e62
  "tiny-llama/lora@4a9b7e62": [1, 32, 0.05, "qv", 8, 8], "tiny-llama/qlora@4a9b7e62": [1, 32, 0.05, "qv", 8, 8],
};

// model dir -> [catalog id or ARCH key, attention kernel on an A10G, note]
// Published parameter counts (tied embeddings counted once), for the one-GPU floor below.
const HUB_PUBLISHED_PARAMS = {
  "llama-3.2-1B": [1.236e9, "meta-llama/Llama-3.2-1B model card: 1.23B"],
  "llama-3.2-3B": [3.213e9, "meta-llama/Llama-3.2-3B model card: 3.21B"],
  "phi-3": [3.821e9, "microsoft/Phi-3-mini-4k-instruct model card: 3.8B"],
};

const HUB_MODEL = {
  "falcon-7b": ["@falcon_7b_litgpt", "flash", null],
  "gemma-2b": ["@gemma_2b", "memory_efficient",
    "attention: head_dim 256 with gradients on an sm86 GPU is outside PyTorch SDPA's flash limits (head_dim <= 192 for backward on sm86/89), so SDPA takes the memory-efficient kernel"],
  "gemma-7b": ["@gemma_7b", "memory_efficient",
    "attention: head_dim 256 with gradients on an sm86 GPU is outside PyTorch SDPA's flash limits (head_dim <= 192 for backward on sm86/89), so SDPA takes the memory-efficient kernel"],
  "gemma2-2b": ["@gemma2_2b_litgpt", "eager",
    "attention: LitGPT computes scores explicitly when attention_logit_softcapping is set (Gemma 2), litgpt/model.py @00af8b0d: scores materialised in bf16, softmax in fp32"],
  "gemma2-9b": ["@gemma2_9b_litgpt", "eager",
    "attention: LitGPT computes scores explicitly when attention_logit_softcapping is set (Gemma 2), litgpt/model.py @00af8b0d: scores materialised in bf16, softmax in fp32"],
  "llama-2-7b": ["llama-2-7b", "flash", null],
  "llama-3-8b": ["llama-3-8b", "flash", null],
  "llama-3.1-8b": ["llama-3.1-8b", "flash", null],
  "llama-3.2-1B": ["@llama32_1b_litgpt", "flash", null],
  "llama-3.2-3B": ["@llama32_3b_litgpt", "flash", null],
  "mistral-7b-v0.2": ["mistral-7b", "flash",
    "model: unsloth/Mistral-7B-v0.2 has the shapes of the catalog's mistral-7b (32 layers, 4096, GQA 8, 14336, vocab 32000); LitGPT config has no sliding window for v0.2"],
  "mistral-7b": ["mistral-7b", "memory_efficient",
    "attention: LitGPT's Mistral-7B-v0.1 config sets sliding_window_size 4096, so a T x T additive mask is built and passed to SDPA, which rules out the flash kernel (memory-efficient kernel)"],
  "phi-2": ["phi-2", "flash", null],
  "phi-3": ["phi-3-mini", "memory_efficient",
    "attention: LitGPT's Phi-3-mini-4k config sets sliding_window_size 2048, so an explicit mask goes to SDPA (memory-efficient kernel)"],
  "stablelm-base-alpha-3b": ["@stablelm_3b", "flash", null],
  "tiny-llama": ["@tinyllama", "flash", null],
};

function applyModel(row, spec) {
  if (spec.startsWith("@")) setModel(row, spec.slice(1));
  else row.model = spec;
}

function litgptLora(row, r, dropout, targets) {
  row.lora_rank = r;
  row.lora_dropout = dropout;
  if (targets === "qv") {
    row.lora_targets = "query_value";
    row.lora_modules = ["q", "v"];
  } else {
    row.lora_targets = "all_linear";
    row.lora_modules = ["q", "k", "v", "o", "mlp", "lm_head"];
    row.lora_head = true;
    row.notes.push("lora: LitGPT lora_query/key/value/projection/mlp/head all true, so lm_head is adapted too (lora_head: true)");
  }
  if (dropout) row.notes.push(`lora: lora_dropout ${dropout} (LitGPT applies dropout to the adapter input, a second copy of each adapted layer's input is kept)`);
}

function ruleLitgptHub(row, raw, i) {
  row.source_group = "litgpt-config-hub";
  row.framework = "litgpt";
  let key;
  const m = /config ([\w.\-]+)\/(\w+)\.yaml at same commit/.exec(raw.source);
  if (m) key = `${m[1]}/${m[2]}`;
  else if (/@ 4a9b7e62/.test(raw.source)) key = `tiny-llama/${raw.method}@4a9b7e62`;
  const cfg = HUB[key];
  if (!cfg) throw new Error(`no hub config for finetune.json#${i} (${key})`);
  const [devices, r, dropout, targets, mbs, gbs] = cfg;
  const dir = key.split("/")[0];
  const [modelSpec, attention, attnNote] = HUB_MODEL[dir];
  applyModel(row, modelSpec);
  if (attnNote) row.notes.push(attnNote);
  row.attention = attention;
  row.gpu = "a10g";
  row.gpus = devices;
  row.dp = devices;
  if (raw.micro_batch != null && raw.micro_batch !== mbs) throw new Error(`micro batch mismatch finetune.json#${i}`);
  row.micro_batch = mbs;
  row.gradient_accumulation = gbs / devices / mbs;
  row.seq_len = 512;
  row.seq_len_exact = false;
  row.notes.push(
    "seq_len: Alpaca2k, padded to the longest sample of each micro-batch and truncated at max_seq_length 512; over 1-4 epochs " +
    "every sample is seen, and Alpaca2k reaches the 512 cap with the phi-2 tokenizer (litgpt README finetune log: " +
    "'The longest sequence length in the train data is 512'); not verified for other tokenizers (Llama 3 / Gemma " +
    "tokenizers need fewer tokens for the same text)");
  row.regime = "pure";
  row.precision = "bf16";
  row.cross_entropy = "chunked";
  row.counter = "allocated";
  row.which_rank = devices > 1 ? "unknown" : "only";
  const method = key.split("/")[1].split("@")[0];
  row.method = method;
  if (method === "full") {
    row.optimizer = "adamw";
    // A one-GPU full fine-tune in bf16-true holds at least 8 bytes per parameter (bf16 weights and
    // gradients, two bf16 AdamW states) before any activation; a smaller published peak cannot be a
    // one-GPU run, whatever the table's GPU column says.
    const published = HUB_PUBLISHED_PARAMS[dir];
    if (devices === 1 && published && !raw.oom && raw.peak_memory * 1e9 < 8 * published[0])
      exclude(row, X.contradictory, `reported ${raw.peak_memory} GB is below the ${(8 * published[0] / 1e9).toFixed(1)} GB ` +
        `that bf16 weights, gradients and AdamW states of ${(published[0] / 1e9).toFixed(2)}B parameters (${published[1]}) take on one GPU`);
    row.notes.push("full: torch AdamW on bf16-true parameters (states bf16); chunked_cross_entropy on the full logits (full.py calls model(input_ids) without lm_head_chunk_size)");
    if (devices > 1) {
      row.zero = 3;
      row.shard_degree = devices;
      row.recompute = "full";
      row.notes.push("multi-GPU: Fabric FSDPStrategy (default FULL_SHARD) with activation_checkpointing_policy={Block} (litgpt/finetune/full.py @00af8b0d); peak printed by rank 0 (fabric.print)");
    }
  } else {
    litgptLora(row, r, dropout, targets);
    row.adapter_precision = "compute";
    row.notes.push("lora: model(input_ids, lm_head_chunk_size=128) + chunked_cross_entropy (litgpt/finetune/lora.py @00af8b0d)");
    if (method === "qlora") {
      row.quantization = "nf4";
      row.optimizer = "paged_adamw";
      row.notes.push("qlora: quantize bnb.nf4 (no double quant); litgpt instantiate_bnb_optimizer swaps AdamW for bitsandbytes PagedAdamW (32-bit states in CUDA unified memory, outside PyTorch's allocator); Fabric BitsandbytesPrecision is built without ignore_modules, so every nn.Linear incl. lm_head is quantized");
    } else row.optimizer = "adamw";
  }
  if (row.architecture && (row.architecture.kv_heads ?? row.architecture.heads) < row.architecture.heads)
    row.notes.push("attention: LitGPT expands K and V to all query heads before SDPA (k.expand(...).reshape), so GQA/MQA K,V are materialised at full head count");
  row.measured_gib = raw.oom ? null : round4(fromGB(raw.peak_memory));
  row.notes.push("unit: GB = torch.cuda.max_memory_allocated()/1e9 (litgpt 'Memory used'), converted to GiB");
}

// LitGPT resource tables (tutorials/resource-tables.md, Oct 2023, lit-gpt @8641822, A100-SXM4-40GB) and
// the two bf16-mixed rows of tutorials/finetune_lora.md from the same runs.
const LIT23_MODEL = [
  [/phi-1\.5/i, "@phi15"], [/StableLM/i, "@stablelm_3b"], [/Llama-2-7b/i, "llama-2-7b"],
  [/Llama-2-13b/i, "llama-2-13b"], [/Falcon-40B/i, "@falcon_40b_litgpt"],
];

function ruleLitgptTables(row, raw, i) {
  row.source_group = "litgpt-resource-tables";
  row.framework = "litgpt";
  const spec = LIT23_MODEL.find(([re]) => re.test(raw.model));
  applyModel(row, spec[1]);
  row.gpu = "a100-40gb-sxm";
  row.gpus = typeof raw.gpus === "number" ? raw.gpus : 1;
  row.dp = row.gpus;
  row.micro_batch = raw.micro_batch;
  row.gradient_accumulation = 128 / raw.micro_batch;
  const longest = /longest (?:tokenized )?sample (\d+) tokens/.exec(raw.seq_len);
  row.seq_len = Number(longest[1]);
  row.seq_len_exact = true;
  row.notes.push(
    `seq_len: full Alpaca prepared without truncation (scripts/prepare_alpaca.py @8641822: max_seq_length defaults to the ` +
    `block size); finetune/lora.py forces the longest sample (${row.seq_len} tokens per the row) into the first micro-batch, so the peak is at that length`);
  row.counter = "allocated";
  row.which_rank = row.gpus > 1 ? "unknown" : "only";
  row.attention = "flash";
  row.cross_entropy = "chunked";
  row.notes.push("inferred: gradient_accumulation = 128 // micro_batch (finetune/lora.py @8641822 sets it independent of devices); lm_head_chunk_size=128 + chunked_cross_entropy");
  const method = String(raw.method);
  if (/^adapter/.test(method)) {
    row.method = null;
    exclude(row, X.method, `${method.startsWith("adapter_v2") ? "adapter_v2" : "adapter"} (LLaMA-Adapter)`);
  } else {
    row.method = method.startsWith("qlora") ? "qlora" : "lora";
    litgptLora(row, 8, 0.05, "qv");
  }
  if (/bf16-mixed/.test(raw.precision)) {
    row.regime = "amp";
    row.precision = "bf16";
    row.adapter_precision = "fp32";
    row.optimizer = "adamw";
    row.notes.push("regime: Fabric bf16-mixed keeps every weight (frozen base and adapters) in fp32 and autocasts compute to bf16");
  } else {
    row.regime = "pure";
    row.precision = "bf16";
    if (row.method) row.adapter_precision = "compute";
    if (/nf4-dq/.test(raw.precision)) row.quantization = "nf4_double";
    else if (/nf4/.test(raw.precision)) row.quantization = "nf4";
    if (row.method === "lora" && row.quantization) row.method = "qlora";
    row.optimizer = row.quantization && row.method ? "paged_adamw" : "adamw";
    if (row.quantization) row.notes.push("qlora: lit-gpt @8641822 uses bitsandbytes PagedAdamW when quantizing (32-bit states in CUDA unified memory)");
  }
  if (row.gpus > 1) {
    row.zero = 3;
    row.shard_degree = row.gpus;
    row.recompute = "full";
    row.notes.push("multi-GPU: FSDPStrategy(auto_wrap_policy={Block}, activation_checkpointing_policy={Block}) in finetune/lora.py @8641822 (default FULL_SHARD); peak printed by rank 0");
  }
  if (row.architecture && row.architecture.kv_heads && row.architecture.kv_heads < row.architecture.heads)
    row.notes.push("attention: lit-gpt expands K and V to all query heads before attention, so GQA K,V are materialised at full head count");
  row.measured_gib = raw.oom ? null : round4(fromGB(raw.peak_memory));
  row.notes.push("unit: GB = max_memory_allocated()/1e9, converted to GiB");
}

// ---------------------------------------------------------------------------------------------------
// torchtune README tables. Settings per row from the recipes/configs/* named, at the commit that added
// the table; these are listed explicitly (31 rows) rather than parsed from the README's free text.

function torchtuneBase(row, raw) {
  row.framework = "torchtune";
  row.regime = "pure";
  row.precision = "bf16";
  row.adapter_precision = null;
  row.recompute = "full";
}

const TT = {
  // --- README @ c69fba18 (2024-04): "minimum memory requirements ... using the associated configs"
  104: { g: "torchtune-readme-2024-04", model: "llama-2-7b", gpu: "rtx-4090", gpus: 1, method: "qlora", r: 8,
    targets: "all_linear", modules: ["q", "k", "v", "o", "mlp"], dropout: 0.05, mb: 2, ga: 16, seq: 512, opt: "adamw",
    ce: "eager", attn: "flash", unit: "GB",
    note: "config llama2/7B_qlora_single_device.yaml @c69fba18: q,k,v,output_proj + MLP, r 8, batch 2, AC on, torch AdamW, alpaca_cleaned; lora_dropout 0.05 = lora_llama2_7b builder default (inferred)" },
  105: { g: "torchtune-readme-2024-04", model: "llama-2-7b", gpu: "rtx-4090", gpus: 2, method: "lora", r: 8,
    targets: "query_value", modules: ["q", "v"], dropout: 0.05, mb: 2, ga: 32, seq: 512, opt: "adamw", ce: "eager",
    attn: "flash", ac: "none", zero: 3, unit: "GB",
    note: "config llama2/7B_lora.yaml @c69fba18 (lora_finetune_distributed, FSDP FULL_SHARD of bf16 weights): q,v r 8, batch 2, enable_activation_checkpointing False; peak logged by rank 0" },
  106: { g: "torchtune-readme-2024-04", model: "llama-2-7b", gpu: "rtx-4090", gpus: 1, method: "lora", r: 8,
    targets: "query_value", modules: ["q", "v"], dropout: 0.05, mb: 2, ga: 64, seq: 512, opt: "adamw", ce: "eager",
    attn: "flash", unit: "GB",
    note: "config llama2/7B_lora_single_device.yaml @c69fba18: q,v r 8, batch 2, AC on; README text says '~17.1GB'" },
  107: { g: "torchtune-readme-2024-04", model: "llama-2-7b", gpu: "rtx-4090", gpus: 1, method: "full", mb: 2, ga: 1,
    seq: 512, opt: "paged_adamw", inbwd: true, ce: "eager", attn: "flash", unit: "GB",
    note: "config llama2/7B_full_low_memory.yaml @c69fba18: bitsandbytes PagedAdamW (32-bit states in CUDA unified memory, not counted by PyTorch's allocator), optimizer_in_bwd True, AC on, batch 2, alpaca" },
  108: { g: "torchtune-readme-2024-04", model: "llama-2-7b", gpu: "rtx-4090", gpus: 4, method: "full", mb: 2, ga: 1,
    seq: 512, opt: "adamw", ce: "eager", attn: "flash", zero: 3, unit: "GB",
    note: "config llama2/7B_full.yaml @c69fba18 (full_finetune_distributed, FSDP FULL_SHARD of bf16 weights): torch AdamW (bf16 states), AC on, batch 2, alpaca; peak logged by rank 0" },
  // --- README table added in 0217d44c (PR #955, 2024-05-09), quoted at 58255001: "Batch Size = 4, Seq Length = 2048"
  109: { g: "torchtune-readme-2024-05", model: "llama-2-7b", gpu: "rtx-4090", gpus: 1, method: "qlora", r: 8,
    targets: "all_linear", modules: ["q", "k", "v", "o", "mlp"], dropout: 0.05, mb: 4, ga: 16, gaNote: "inferred: gradient accumulation 16 from the config named in the note", seq: 2048, exact: true,
    opt: "adamw", ce: "eager", attn: "flash", compiled: true, unit: "GB",
    note: "table: batch 4, seq 2048, '** = uses torch compile'; other settings from llama2/7B_qlora_single_device.yaml @0217d44c (inferred): q,k,v,output_proj + MLP, r 8, AC on, torch AdamW" },
  110: { g: "torchtune-readme-2024-05", model: "llama-2-7b", gpu: "rtx-4090", gpus: 1, method: "lora", r: 8,
    targets: "query_value", modules: ["q", "v"], dropout: 0.05, mb: 4, ga: 64, gaNote: "inferred: gradient accumulation 64 from the config named in the note", seq: 2048, exact: true, opt: "adamw",
    ce: "eager", attn: "flash", unit: "GB",
    note: "table: batch 4, seq 2048; other settings from llama2/7B_lora_single_device.yaml @0217d44c (inferred): q,v r 8, AC on" },
  111: { g: "torchtune-readme-2024-05", model: "llama-2-7b", gpu: "rtx-4090", gpus: 2, method: "lora", r: 8,
    targets: "query_value", modules: ["q", "v"], dropout: 0.05, mb: 4, ga: 32, gaNote: "inferred: gradient accumulation 32 from the config named in the note", seq: 2048, exact: true, opt: "adamw",
    ce: "eager", attn: "flash", ac: "none", zero: 3, unit: "GB",
    note: "table: batch 4, seq 2048; other settings from llama2/7B_lora.yaml @0217d44c (inferred): q,v r 8, FSDP, enable_activation_checkpointing False; the table does not say whether AC was overridden for this run" },
  112: { g: "torchtune-readme-2024-05", model: "llama-2-7b", gpu: "rtx-4090", gpus: 1, method: "full", mb: 4, ga: 1, gaNote: "inferred: gradient accumulation 1 from the config named in the note",
    seq: 2048, exact: true, opt: "paged_adamw", inbwd: true, ce: "eager", attn: "flash", unit: "GB",
    note: "table: batch 4, seq 2048, '* = uses PagedAdamW'; llama2/7B_full_low_memory.yaml @0217d44c (inferred): optimizer_in_bwd, AC on. Doubtful figure: torchtune PR #961 could not reproduce 24.1 GB (20.2 GB peak allocated by the PR author, 22.3 GB on an A100 by a maintainer, row finetune.json#116); the PR was closed without changing the table" },
  113: { g: "torchtune-readme-2024-05", model: "llama-2-7b", gpu: "rtx-4090", gpus: 4, method: "full", mb: 4, ga: 1, gaNote: "inferred: gradient accumulation 1 from the config named in the note",
    seq: 2048, exact: true, opt: "adamw", ce: "eager", attn: "flash", zero: 3, unit: "GB",
    note: "table: batch 4, seq 2048; llama2/7B_full.yaml @0217d44c (inferred): FSDP, torch AdamW, AC on" },
  114: { g: "torchtune-readme-2024-05", model: "llama-2-70b", gpu: "a100-80gb-sxm", gpus: 8, method: "lora", r: 16,
    targets: "attention", modules: ["q", "k", "v"], dropout: 0.05, mb: 4, ga: 1, gaNote: "inferred: gradient accumulation 1 from the config named in the note", seq: 4096, exact: true, opt: "adamw",
    ce: "eager", attn: "flash", zero: 3, unit: "GB",
    note: "table: batch 4, seq 4096; llama2/70B_lora.yaml @0217d44c (inferred): q,k,v (no output_proj, nearest lora_targets 'attention'), r 16, FSDP, AC on. A100 memory size not stated (80 GB assumed; a non-OOM peak does not depend on it)" },
  115: { g: "torchtune-readme-2024-05", model: "llama-2-70b", gpu: "a100-80gb-sxm", gpus: 8, method: "full", mb: 4, ga: 1, gaNote: "inferred: gradient accumulation 1 from the config named in the note",
    seq: 4096, exact: true, opt: "paged_adamw", ce: "eager", attn: "flash", zero: 3, unit: "GB",
    exclude: [X.lowconf, "no Llama-2-70B full-finetune config exists at the table's commit, so activation checkpointing, optimizer-in-backward and sharding setup are unknown"],
    note: "table: batch 4, seq 4096, PagedAdamW" },
  // --- PR #961 review comment (maintainer re-measurement of row 112's run)
  116: { g: "torchtune-pr961", model: "llama-2-7b", gpu: "a100-80gb-sxm", gpus: 1, method: "full", mb: 4, ga: 1, gaNote: "inferred: gradient accumulation 1 from the config named in the note", seq: 2048,
    exact: true, opt: "paged_adamw", inbwd: true, ce: "eager", attn: "flash", unit: "GB",
    note: "repro of the README row (PR #961): tune run full_finetune_single_device --config llama2/7B_full_low_memory batch_size=4, inputs forced to seq_len 2048; PagedAdamW + optimizer_in_bwd + AC per the config (inferred). A100 memory size not stated (80 GB assumed); metric not stated" },
  // --- README @ 30b8519e (2024-09-24): "batch size 2 (without gradient accumulation), a dataset packed to sequence length 2048, and torch compile enabled"
  117: { g: "torchtune-readme-2024-09", model: "llama-3.1-8b", gpu: "rtx-4090", gpus: 1, method: "full", mb: 2, ga: 1,
    seq: 2048, exact: true, opt: "paged_adamw_8bit", inbwd: true, ce: "chunked", attn: "memory_efficient",
    compiled: true, unit: "GiB",
    note: "llama3_1/8B_full_single_device.yaml @30b8519e (inferred): bitsandbytes PagedAdamW8bit (states in CUDA unified memory), optimizer_in_bwd, AC on, CEWithChunkedOutputLoss" },
  118: { g: "torchtune-readme-2024-09", model: "llama-3.1-8b", gpu: "a40", gpus: 1, method: "full", mb: 2, ga: 1,
    seq: 2048, exact: true, compiled: true, ce: "chunked", attn: "memory_efficient", unit: "GiB",
    exclude: [X.lowconf, "the A6000 run differs from the documented config (about twice the 4090 row's memory at higher throughput); its optimizer and activation checkpointing are not given"],
    note: "RTX A6000 48 GB mapped to a40 (same GA102 48 GB)" },
  119: { g: "torchtune-readme-2024-09", model: "llama-3.1-8b", gpu: "rtx-4090", gpus: 1, method: "lora", r: 8,
    targets: "query_value", modules: ["q", "v"], dropout: 0.0, mb: 2, ga: 1, seq: 2048, exact: true, opt: "adamw",
    ce: "chunked", attn: "memory_efficient", compiled: true, unit: "GiB",
    note: "llama3_1/8B_lora_single_device.yaml @30b8519e (inferred): q,v r 8, lora_dropout 0, torch AdamW fused, AC on, CEWithChunkedOutputLoss" },
  120: { g: "torchtune-readme-2024-09", model: "llama-3.1-8b", gpu: "a40", gpus: 1, method: "lora", r: 8,
    targets: "query_value", modules: ["q", "v"], mb: 2, ga: 1, seq: 2048, exact: true, compiled: true, ce: "chunked",
    attn: "memory_efficient", unit: "GiB",
    exclude: [X.lowconf, "the A6000 run differs from the documented config (about twice the 4090 row's memory at higher throughput); its activation checkpointing is not given"],
    note: "RTX A6000 48 GB mapped to a40 (same GA102 48 GB)" },
  121: { g: "torchtune-readme-2024-09", model: "llama-3.1-8b", gpu: "rtx-4090", gpus: 1, method: "qlora", r: 8,
    targets: "all_linear", modules: ["q", "k", "v", "o", "mlp"], dropout: 0.0, mb: 2, ga: 1, seq: 2048, exact: true,
    opt: "adamw", ce: "chunked", attn: "memory_efficient", compiled: true, unit: "GiB",
    note: "llama3_1/8B_qlora_single_device.yaml @30b8519e (inferred): q,k,v,output_proj + MLP, r 8, torch AdamW fused, AC on" },
  122: { g: "torchtune-readme-2024-09", model: "llama-3.1-70b", gpu: "a100-80gb-sxm", gpus: 8, method: "full", mb: 2,
    ga: 1, seq: 2048, exact: true, opt: "adamw", ce: "chunked", attn: "memory_efficient", compiled: true, zero: 3,
    offload: "optimizer_and_params", unit: "GiB",
    note: "'** = uses CPU offload with fused optimizer': llama3_1/70B_full.yaml @30b8519e (inferred) fsdp_cpu_offload True (FSDP2 CPUOffloadPolicy: sharded params, grads and AdamW states live in CPU memory), AC on. A100 memory size not stated (80 GB assumed)" },
  123: { g: "torchtune-readme-2024-09", model: "llama-3.1-70b", gpu: "a100-80gb-sxm", gpus: 8, method: "lora", r: 16,
    targets: "attention", modules: ["q", "k", "v"], dropout: 0.0, mb: 2, ga: 1, seq: 2048, exact: true, opt: "adamw",
    ce: "chunked", attn: "memory_efficient", compiled: true, zero: 3, unit: "GiB",
    note: "llama3_1/70B_lora.yaml @30b8519e (inferred): q,k,v r 16 (no output_proj; nearest lora_targets 'attention'), FSDP, AC on. A100 memory size not stated (80 GB assumed)" },
  124: { g: "torchtune-readme-2024-09", model: "llama-3.1-405b", gpu: "a100-80gb-sxm", gpus: 8, method: "qlora", r: 16,
    targets: "all_linear", modules: ["q", "k", "v", "o", "mlp"], mb: 1, seq: 2048, exact: true, opt: "adamw", ce: "eager",
    attn: "memory_efficient", zero: 3, unit: "GB",
    exclude: [X.contradictory, "the README says batch size 2 for every row, llama3_1/405B_qlora.yaml @30b8519e sets batch_size 1 with gradient accumulation 16; confidence low; unit printed as GB unlike the table's other GiB figures"],
    note: "" },
  // --- "Optimization flags" table, README @ 1814feb1 (PR #2003): Llama 3.2 3B, batch 2, max seq 4096, bf16, A100, full_finetune_single_device; techniques cumulative
  125: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "full",
    mb: 2, ga: 1, opt: "adamw", ce: "eager", attn: "flash", ac: "none", unit: "GiB",
    exclude: [X.seq, "unpacked alpaca padded to the longest sample of each batch, max_seq_len 4096 far above the sample lengths, and the longest batch reached is not stated"],
    note: "baseline" },
  126: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "full",
    mb: 2, ga: 1, seq: 4096, exact: true, opt: "adamw", ce: "eager", attn: "memory_efficient", ac: "none", unit: "GiB",
    note: "+ packed dataset: every pack is padded to max_seq_len 4096; baseline optimizer torch AdamW (the 8-bit optimizer is a later step), no AC, standard CE on fp32-upcast logits" },
  127: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "full",
    mb: 2, ga: 1, seq: 4096, exact: true, opt: "adamw", ce: "eager", attn: "memory_efficient", ac: "none",
    compiled: true, unit: "GiB", note: "+ compile (model and loss compiled by the recipe)" },
  128: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "full",
    mb: 2, ga: 1, seq: 4096, exact: true, opt: "adamw", ce: "chunked", attn: "memory_efficient", ac: "none",
    compiled: true, unit: "GiB", note: "+ CEWithChunkedOutputLoss" },
  129: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "full",
    mb: 2, ga: 1, seq: 4096, exact: true, opt: "adamw", ce: "chunked", attn: "memory_efficient", compiled: true,
    unit: "GiB", note: "+ activation checkpointing (every layer)" },
  130: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "full",
    mb: 2, ga: 1, seq: 4096, exact: true, opt: "adamw", inbwd: true, ce: "chunked", attn: "memory_efficient",
    compiled: true, unit: "GiB", note: "+ optimizer step fused into backward" },
  131: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "full",
    mb: 2, ga: 1, seq: 4096, exact: true, opt: "adamw", inbwd: true, ce: "chunked", attn: "memory_efficient",
    compiled: true, offloadAct: true, unit: "GiB", note: "+ activation offloading" },
  132: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "full",
    mb: 2, ga: 1, seq: 4096, exact: true, inbwd: true, ce: "chunked", attn: "memory_efficient", compiled: true,
    offloadAct: true, unit: "GiB",
    exclude: [X.contradictory, "the optimizer '8-bit AdamW' may be bitsandbytes PagedAdamW8bit (the config default, states in CUDA unified memory outside PyTorch's counters) or torchao/bitsandbytes AdamW8bit (states counted); the table links only the docs section naming both"],
    note: "+ 8-bit AdamW" },
  133: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "lora",
    r: 64, targets: "all_linear", modules: ["q", "v", "o", "mlp"], dropout: 0.0, mb: 2, ga: 1, seq: 4096, exact: true,
    opt: "adamw", ce: "chunked", attn: "memory_efficient", compiled: true, offloadAct: true, unit: "GiB",
    note: "LoRA: the README's QLoRA command (packed, compile, CEWithChunkedOutputLoss, AC, activation offloading, optimizer_in_bwd False, torch AdamW, max_seq_len 4096, batch 2) assumed for LoRA too; llama3_2/3B_lora_single_device.yaml @1814feb1: q,v,output_proj + MLP (no k; nearest lora_targets 'all_linear'), r 64, dropout 0" },
  134: { g: "torchtune-optimization-flags-2024-11", model: "llama-3.2-3b", gpu: "a100-80gb-sxm", gpus: 1, method: "qlora",
    r: 64, targets: "all_linear", modules: ["q", "v", "o", "mlp"], dropout: 0.0, mb: 2, ga: 1, seq: 4096, exact: true,
    opt: "adamw", ce: "chunked", attn: "memory_efficient", compiled: true, offloadAct: true, unit: "GiB",
    note: "QLoRA command given in the README: llama3_2/3B_qlora_single_device dataset.packed=True compile=True loss=CEWithChunkedOutputLoss enable_activation_checkpointing=True optimizer_in_bwd=False enable_activation_offloading=True optimizer=torch.optim.AdamW tokenizer.max_seq_len=4096 batch_size=2; config @1814feb1: q,v,output_proj + MLP, r 64 (no k; nearest 'all_linear')" },
};

function ruleTorchtune(row, raw, i) {
  const s = TT[i];
  if (!s) throw new Error(`no torchtune spec for finetune.json#${i}`);
  torchtuneBase(row, raw);
  row.source_group = s.g;
  row.model = s.model;
  row.gpu = s.gpu;
  row.gpus = s.gpus;
  row.dp = s.gpus;
  if (s.zero) { row.zero = s.zero; row.shard_degree = s.gpus; }
  row.method = s.method;
  if (s.method !== "full") {
    row.lora_rank = s.r;
    row.lora_targets = s.targets ?? null;
    row.lora_modules = s.modules ?? null;
    row.lora_dropout = s.dropout ?? null;
    row.adapter_precision = "compute";
  }
  if (s.method === "qlora") {
    row.quantization = "nf4_double";
    row.notes.push("qlora: torchao NF4Tensor (block 64) also quantizes its block scales (scaler block 256), i.e. double quantization (inferred from torchao's NF4 format)");
  }
  row.micro_batch = s.mb;
  row.gradient_accumulation = s.ga ?? 1;
  if (s.gaNote) row.notes.push(s.gaNote);
  row.seq_len = s.seq ?? null;
  row.seq_len_exact = s.seq == null ? null : Boolean(s.exact);
  if (s.seq === 512)
    row.notes.push("seq_len: alpaca(_cleaned) unpacked, padded to the longest sample of each batch, truncated at the dataset default max_seq_len 512 (torchtune/datasets/_alpaca.py @c69fba18); Alpaca has samples longer than 512 tokens, but torchtune resets the peak counters at each memory log, so which batch the README figure covers is not stated");
  if (s.seq === 2048 && s.g === "torchtune-readme-2024-09") row.notes.push("seq_len: packed to 2048 (every pack padded to max_seq_len)");
  row.optimizer = s.opt ?? null;
  row.optimizer_in_backward = Boolean(s.inbwd);
  row.recompute = s.ac ?? "full";
  row.attention = s.attn;
  if (s.attn === "memory_efficient" && s.seq && (s.g.includes("2024-09") || s.g.includes("2024-11")))
    row.notes.push("attention: packed batches use a block-causal mask (flex attention when available, else SDPA with an explicit mask): no scores kept, flash kernel not used");
  row.cross_entropy = s.ce;
  row.compiled = Boolean(s.compiled);
  row.activation_offload = Boolean(s.offloadAct);
  row.offload = s.offload ?? "none";
  row.counter = s.g === "torchtune-optimization-flags-2024-11" ? "active" : "unknown";
  row.which_rank = s.gpus > 1 ? "unknown" : "only";
  if (s.g === "torchtune-optimization-flags-2024-11")
    row.notes.push("counter: 'Peak Memory Active' = active_bytes.all.peak; A100 memory size not stated (80 GB implied by the 60 GiB row)");
  else row.notes.push("counter: the table does not say which of torchtune's peak active / allocated / reserved it reports");
  if (s.gpus > 1) row.notes.push("distributed recipe: FSDP full sharding of bf16 weights; memory logged by rank 0");
  if (s.ce === "eager" && s.g !== "torchtune-optimization-flags-2024-11")
    row.notes.push("loss: TransformerDecoder returns self.output(h).float() and torch CrossEntropyLoss runs on the fp32 logits");
  if (s.note) row.notes.push(s.note);
  if (s.exclude) exclude(row, ...s.exclude);
  if (raw.oom) row.measured_gib = null;
  else if (s.unit === "GiB") row.measured_gib = round4(raw.peak_memory);
  else {
    row.measured_gib = round4(fromGB(raw.peak_memory));
    row.notes.push(s.g === "torchtune-readme-2024-09"
      ? "unit: printed 'GB' although the table's other figures are GiB; converted as decimal GB"
      : "unit: torchtune divided by 1e9 before mid-August 2024; converted from decimal GB");
  }
}

// ---------------------------------------------------------------------------------------------------
// PEFT

function rulePeftReadme(row, raw) {
  row.source_group = "peft-readme-2022";
  row.framework = "hf";
  row.gpu = "a100-80gb-sxm";
  row.method = /^full/.test(raw.method) ? "full" : "lora";
  if (/DeepSpeed/.test(raw.method)) { row.zero = 3; row.offload = "optimizer_and_params"; }
  exclude(row, X.lowconf, "the README table gives neither batch size, sequence length nor precision (only example scripts suggest them) nor the counter, and the models (T0_3B, mt0-xxl, bloomz-7b1) are not in the catalog");
  row.measured_gib = raw.oom ? null : round4(raw.peak_memory);
  row.notes.push("unit: labelled GB; the example scripts' TorchTracemalloc divides by 2**20 then reports 'GB' via /1024, so taken as GiB");
}

const PEFT_OTHER_METHOD = {
  147: "dora", 148: "lora-fa", 150: "osf", 151: "ia3", 152: "ia3", 153: "loha", 154: "lokr", 155: "vera",
  156: "oft", 157: "boft", 158: "prefix tuning", 159: "prompt tuning", 160: "adaptionprompt",
  161: "ln_tuning", 162: "tinylora",
};

function rulePeftMetaMath(row, raw, i) {
  row.source_group = "peft-metamathqa";
  row.framework = "hf";
  row.model = "llama-3.2-3b";
  row.gpu = "l40s";
  row.micro_batch = 4;
  row.gradient_accumulation = 1;
  row.regime = "pure";
  row.precision = "bf16";
  row.optimizer = "adamw";
  row.attention = "memory_efficient";
  row.cross_entropy = "eager";
  row.counter = "reserved";
  row.which_rank = "only";
  row.seq_len = null;
  row.measured_gib = round4(raw.peak_memory_bytes / GIB);
  row.notes.push("counter: accelerator_memory_max = max_memory_reserved at the end minus the reserved memory after init_accelerator(), measured before the model is loaded (method_comparison/MetaMathQA/utils.py @5d602fdb), so it includes the weights; raw bytes / 2^30");
  if (PEFT_OTHER_METHOD[i]) {
    row.method = null;
    exclude(row, X.method, PEFT_OTHER_METHOD[i]);
    return;
  }
  row.method = i === 149 ? "full" : "lora";
  if (row.method === "lora") {
    row.lora_rank = raw.lora_rank;
    row.adapter_precision = "fp32";
    row.lora_dropout = i === 144 ? 0.0 : null;
    if (i === 146) { row.lora_targets = null; row.lora_modules = ["gate", "up", "down"]; }
    else { row.lora_targets = "query_value"; row.lora_modules = ["q", "v"]; }
  }
  exclude(row, X.seq,
    "MetaMathQA samples are filtered to <= 1300 characters so that they stay under the 768-token limit (data.py CHAR_LIMIT @5d602fdb), the longest tokenized sample is not reported, and the whole-run reserved maximum also covers evaluation and generation passes (768-token wiki perplexity batches, generation up to 800 tokens)");
}

function rulePeftDocs(row, raw, i) {
  row.source_group = "peft-docs";
  row.framework = "hf";
  row.model = "llama-2-70b";
  row.gpus = raw.gpus;
  row.dp = raw.gpus;
  row.micro_batch = raw.micro_batch;
  row.gradient_accumulation = raw.gradient_accumulation;
  row.seq_len = 2048;
  row.seq_len_exact = true;
  row.lora_rank = 8;
  row.lora_targets = "all_linear";
  row.lora_modules = ["q", "k", "v", "o", "gate", "up", "down"];
  row.lora_dropout = 0.1;
  row.precision = "bf16";
  row.optimizer = "adamw";
  row.recompute = "full";
  row.attention = "flash";
  row.cross_entropy = "eager";
  row.counter = "nvml";
  row.which_rank = "unknown";
  row.zero = 3;
  row.shard_degree = raw.gpus;
  row.notes.push("examples/sft/train.py via TRL SFTTrainer: --max_seq_len 2048 --packing True (packed to 2048), --gradient_checkpointing True, --use_flash_attn True (FlashAttention-2), LoRA r 8 alpha 16 dropout 0.1 on all-linear (PEFT 'all-linear' excludes lm_head)");
  row.notes.push("counter: 'memory consumed per GPU' read off an nvidia-smi screenshot during training: includes the CUDA context and PyTorch's cache; which rank is not said");
  if (i === 163) {
    row.method = "lora";
    row.gpu = "h100-sxm";
    row.zero = 3;
    exclude(row, X.notPeak, "a range (72-80 GB, 90-98%) read off an nvidia-smi screenshot, the upper end reached while saving a FULL_STATE_DICT checkpoint");
    row.measured_gib = null;
    return;
  }
  if (i === 164) {
    row.method = "lora";
    row.gpu = "h100-sxm";
    row.regime = "mixed";
    row.adapter_precision = "compute";
    row.measured_gib = 64;
    row.notes.push("DeepSpeed ZeRO-3 (deepspeed_config_z3 via accelerate, no offload), mixed_precision bf16: the model is loaded in fp32 and DeepSpeed casts parameters to bf16, trainable LoRA parameters keep fp32 masters in the optimizer; 8 GPUs, micro-batch 8, gradient accumulation 4");
    row.notes.push("unit: '64 GB (80%)' of an 80 GB card matches 64 GiB (80% of 79.6 GiB), not 64e9 bytes (75%); taken as GiB");
    return;
  }
  // 165: QLoRA + ZeRO-3 on two 40 GB GPUs
  row.method = "qlora";
  row.gpu = "a100-40gb-sxm";
  row.regime = "mixed";
  row.adapter_precision = "compute";
  row.quantization = "nf4_double";
  row.measured_gib = 36.6;
  row.notes.push("QLoRA + DeepSpeed ZeRO-3 (deepspeed_config_z3_qlora.yaml, no offload), 2 processes, micro-batch 2, gradient accumulation 2; --use_nested_quant True (double quant), bnb_4bit_quant_storage bfloat16 so the packed 4-bit weights are sharded by ZeRO-3; model dtype bf16");
  row.notes.push("gpu: the doc says only '2X40GB GPUs'; A100 40GB assumed (the NVIDIA 40 GB data-centre GPU of the time)");
  row.notes.push("unit: same document and convention as finetune.json#164 (nvidia-smi MiB / 1024), taken as GiB");
}

// Unsloth README (Dec 2023 per-dataset tables, and the 2025 max-context table)
function ruleUnsloth(row, raw, i) {
  row.framework = /^unsloth/.test(raw.framework) ? "unsloth" : "hf";
  row.method = "qlora";
  row.gpu = gpuId(raw.gpu);
  if (i >= 196) {
    row.source_group = "unsloth-readme-2025";
    row.model = null;
    row.seq_len = raw.seq_len;
    row.micro_batch = 1;
    row.lora_rank = 32;
    row.lora_targets = "all_linear";
    row.lora_modules = ["q", "k", "v", "o", "gate", "up", "down"];
    row.bound = "upper";
    row.measured_gib = round4(fromGB(80));
    exclude(row, X.bound, "the longest context that fits an 80 GB A100 (Llama 3.3 70B QLoRA, Unsloth vs HF+FA2), not a measured peak");
    return;
  }
  row.source_group = "unsloth-readme-2023";
  row.measured_gib = raw.oom ? null : round4(fromMiB(raw.peak_memory));
  exclude(row, X.lowconf, "the per-dataset 'memory MB' tables give neither the model for certain, the LoRA rank/targets, the maximum sequence length nor the counter");
  row.notes.push("unit: labelled MB, taken as MiB");
}

// ---------------------------------------------------------------------------------------------------
// torchtitan

function ruleTorchtitan(row, raw, i) {
  row.framework = "torchtitan";
  row.regime = "fsdp_mixed";
  row.precision = "bf16";
  row.optimizer = "adamw";
  row.attention = "flash";
  row.cross_entropy = "eager";
  row.counter = "reserved";
  row.zero = 3;
  row.notes.push("regime: FSDP2 MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32): fp32 sharded parameters, gradients and AdamW states, bf16 gathered compute copies; the last block is not resharded after forward (parallelize_llama)");
  const lossNote = "loss: cross_entropy(pred.flatten(0,1).float(), ...), an fp32 upcast of the logits";
  const T = (t) => raw.source.includes(`Table ${t}`);
  if (i <= 17) {
    row.source_group = "torchtitan-llama3-h100-2024-12";
    row.gpu = "h100-sxm";
    row.capacity_gib = 95;
    row.which_rank = "max_over_ranks";
    row.notes.push("gpu: Grand Teton H100 SXM with 96 GB HBM2e at 500 W (benchmark file); capacity_gib 95 = what torch reports for these cards (44.84 GiB = 47.19% in torchtitan PR #1884 logs)");
    row.notes.push("counter: torchtitan 'memory' = reserved_bytes.all.peak in GiB (torchtitan/metrics.py @9dec370), max over all GPUs (benchmark footnote 1); runs at torchtitan 9dec370, torch 1963fc8");
    row.notes.push(lossNote + " (train.py @9dec370; the loss is not compiled at this commit)");
    row.measured_gib = round4(raw.peak_memory);
    const quote = raw.quote;
    row.compiled = /torch\.compile/.test(quote);
    row.precision = /Float8/.test(quote) ? "fp8" : "bf16";
    if (row.precision === "fp8")
      row.notes.push("fp8: torchao Float8Linear (tensorwise dynamic scaling) on the block linears, output layer excluded; weights, grads and optimizer states stay as in bf16 training");
    if (T(1) || T(3)) {
      row.model = "llama-3.1-8b";
      row.gpus = T(1) ? 8 : 128;
      row.dp = row.gpus;
      row.shard_degree = row.gpus;
      row.seq_len = 8192;
      row.seq_len_exact = true;
      row.micro_batch = 2;
      row.gradient_accumulation = 1;
      row.recompute = "selective";
      row.notes.push("recompute: torchtitan per-op selective AC (selective_ac_option 'op' in train_configs/llama3_8b.toml @9dec370: saves the outputs of every other matmul and of SDPA, not Megatron's attention-only recompute)");
      row.notes.push("inferred: seq_len 8192 from train_configs/llama3_8b.toml @9dec370 (not in the benchmark file)");
    } else if (T(2)) {
      row.model = "llama-3.1-8b";
      row.gpus = 8;
      row.cp = raw.cp;
      row.dp = raw.dp;
      row.shard_degree = 8;
      row.seq_len = raw.seq_len;
      row.seq_len_exact = true;
      row.micro_batch = 1;
      row.gradient_accumulation = 1;
      row.recompute = "full";
      row.compiled = true;
      row.precision = "fp8";
      row.notes.push("sharding: FSDP shards over the dp_shard x cp mesh (parallelize_llama @9dec370), i.e. 8 ranks in every row of Table 2");
      row.notes.push("attention: context-parallel ring attention over SDPA (flash) shards the sequence over cp ranks");
      row.notes.push("the sequence length grows with CP so that each run fills the GPU (README 'Known disagreements'): the reserved peak sits near capacity");
    } else if (T(4)) {
      row.model = "llama-3.1-70b";
      row.gpus = 256;
      row.tp = 8;
      row.dp = 32;
      row.shard_degree = 32;
      row.sequence_parallel = true;
      row.seq_len = 8192;
      row.seq_len_exact = true;
      row.micro_batch = 16;
      row.gradient_accumulation = 1;
      row.recompute = "full";
      row.notes.push("inferred: seq_len 8192 from train_configs/llama3_70b.toml @9dec370; torchtitan's TP plan uses SequenceParallel for the norms and loss parallel (vocab-sharded logits); whether float8 all-gather was on is not stated");
      if (/AsyncTP/.test(raw.quote.split("|")[1] || "")) row.notes.push("AsyncTP (symmetric-memory buffers for the overlapped collectives)");
    } else if (T(5) || T(6)) {
      row.model = "llama-3.1-405b";
      row.gpus = 512;
      row.tp = 8;
      row.pp = 8;
      row.cp = raw.cp;
      row.dp = raw.dp;
      row.shard_degree = raw.dp * raw.cp;
      row.sequence_parallel = true;
      row.seq_len = T(5) ? 8192 : raw.seq_len;
      row.seq_len_exact = true;
      const local = T(5) ? 32 : 8;
      row.micro_batch = local / 8;
      row.gradient_accumulation = 8;
      row.recompute = "full";
      row.notes.push(`inferred: pipeline_parallel_microbatches unset, so torchtitan @9dec370 splits the local batch ${local} into pipeline_parallel_degree = 8 microbatches (micro_batch ${local / 8}, gradient_accumulation 8)`);
      row.notes.push("FSDP with PP: torchtitan sets reshard_after_forward=False when PP is on, so each stage keeps its gathered bf16 parameters between forward and backward; AsyncTP on; layers split unevenly by generate_split_points (126 layers over the stages)");
      if (T(5)) row.notes.push("inferred: seq_len 8192 from train_configs/llama3_405b.toml @9dec370");
      row.notes.push("inferred: train_configs/llama3_405b.toml @9dec370 enables enable_fsdp_float8_all_gather and precompute_float8_dynamic_scale_for_fsdp (float8 all-gathered weights)");
      if (/Interleaved/.test(raw.quote.split("|")[1] || "")) {
        row.virtual_stages = 2;
        row.notes.push("inferred: interleaved 1F1B with no split points given uses 2 stages per rank (pipelining_utils.generate_split_points @9dec370)");
      } else row.virtual_stages = 1;
      if (T(6)) row.notes.push("the sequence length grows with CP so that each run fills the GPU (README 'Known disagreements')");
    }
    return;
  }
  if (i <= 20) {
    row.source_group = "torchtitan-performance-docs";
    row.which_rank = "unknown";
    if (i <= 19) {
      row.model = "llama-2-70b";
      row.gpu = "a100-80gb-sxm";
      row.gpus = 64;
      row.dp = 64;
      row.shard_degree = 64;
      row.seq_len = 4096;
      row.seq_len_exact = true;
      row.micro_batch = 2;
      row.gradient_accumulation = 1;
      row.notes.push("docs/performance.md @395a52627 (2024-04): Llama 2 70B ('llama' flavor 70B), FSDP2 on 64 A100 80GB, local batch 2; inferred: seq_len 4096 from train_configs/llama_70b.toml at the same commit; no compile, no float8");
      row.notes.push("loss: F.cross_entropy on the bf16 logits at this commit (no .float())");
      if (i === 18) {
        row.recompute = null;
        exclude(row, X.recompute, "checkpointing every second layer ('selective layer', selective_ac_option default 2 at this commit) has no equivalent in recompute none/selective/full");
      } else {
        row.recompute = "selective";
        row.notes.push("recompute: per-op selective AC ('selective op')");
      }
      return;
    }
    row.model = "llama-3.1-405b";
    row.gpu = "h100-sxm";
    row.capacity_gib = 95;
    row.gpus = 128;
    row.dp = 128;
    row.shard_degree = 128;
    row.seq_len = 8192;
    exclude(row, X.lowconf, "the 1D FSDP run that went out of memory has no stated batch size or activation checkpointing");
    return;
  }
  if (i <= 22) {
    row.source_group = "torchtitan-h200";
    row.model = "llama-3.1-8b";
    row.gpu = "h200-sxm";
    row.gpus = i === 21 ? 32 : 64;
    row.dp = row.gpus;
    row.shard_degree = row.gpus;
    row.seq_len = 8192;
    row.seq_len_exact = true;
    row.micro_batch = 2;
    row.gradient_accumulation = 1;
    row.recompute = "selective";
    row.compiled = true;
    row.precision = "fp8";
    row.cross_entropy = "compiled";
    row.which_rank = "unknown";
    row.measured_gib = round4(raw.peak_memory);
    row.notes.push(lossNote + ", compiled with the model (components/loss.py @e7c0cae, build_cross_entropy_loss): the upcast and softmax fuse, keeping the bf16 logits and writing a bf16 gradient");
    row.notes.push("benchmarks/llama3-8b_h200_202506_trainy-whitefiber.md: --training.local_batch_size=2 --training.compile --model.converters=quantize.linear.float8 with fsdp float8 all-gather, precomputed scales and force_recompute_fp8_weight_in_bwd; inferred from torchtitan/models/llama3/train_configs/llama3_8b.toml @e7c0cae: seq_len 8192, per-op selective AC; the loss is compiled too (components/loss.py)");
    row.notes.push("counter: torchtitan 'Memory(GiB)' = reserved peak since the last log, 'arbitrarily sampled at the 100th iteration'; logged by rank 0 (LOG_RANK default)");
    return;
  }
  if (i <= 32) {
    row.source_group = "torchtitan-quantization-docs";
    row.which_rank = "unknown";
    row.measured_gib = raw.unit === "GiB" ? round4(raw.peak_memory) : round4(fromGB(raw.peak_memory));
    const q = raw.quote.split("|")[1] || raw.quote;
    if (/nvfp4/i.test(q)) exclude(row, X.lowbit, "NVFP4 GEMMs");
    else if (/mxfp8/i.test(q)) exclude(row, X.lowbit, "MXFP8 linears");
    else if (i <= 26) exclude(row, X.lowconf, "the model size is not named in the mxfp8 doc's 'Dense Models' table and the unit (GB vs GiB) is ambiguous");
    else exclude(row, X.unstated, "GPU not named (a Blackwell part whose capacity is implied only by percentages), and the recipe's loss / activation-checkpointing setup is not given");
    return;
  }
  // 33: PR #1884 log line
  row.source_group = "torchtitan-pr1884";
  row.model = "llama-3.1-8b";
  row.measured_gib = round4(raw.peak_memory);
  exclude(row, X.lowconf, "GPU, sequence length and local batch assumed from defaults (a log line in a PR description); FlexAttention flavour");
}

// ---------------------------------------------------------------------------------------------------
// Hugging Face transformers guide (perf_train_gpu_one.mdx @0016acf7), bert-large-uncased sequence
// classification on a V100-SXM2 16GB, 512 random sequences of length 512.

function ruleHfGuide(row, raw, i) {
  row.source_group = "hf-guide-v100";
  row.framework = "hf";
  row.model = "bert-large";
  row.objective = "classification";
  row.training = "finetune";
  row.method = "full";
  row.gpu = "v100-sxm2-16gb";
  row.counter = "nvml";
  row.which_rank = "only";
  row.measured_gib = round4(fromMiB(raw.peak_memory));
  row.notes.push("model: AutoModelForSequenceClassification('bert-large-uncased'): BERT-large with pooler and a 2-way classifier, no MLM head; eager attention (BERT in transformers of the time), dropout active");
  row.notes.push("counter: NVML 'used' read after trainer.train() (info.used // 1024**2, printed as MB = MiB): includes the CUDA context (1343 MiB measured in the guide) and PyTorch's cached blocks, not a peak counter");
  if (i === 43) {
    exclude(row, X.notPeak, "weights loaded only, no training step (useful as an offset: 2631 MiB = 1343 MiB CUDA context + fp32 weights)");
    return;
  }
  row.seq_len = 512;
  row.seq_len_exact = true;
  row.micro_batch = raw.micro_batch;
  row.gradient_accumulation = raw.micro_batch === 1 ? 4 : 1;
  row.attention = "eager";
  row.cross_entropy = "eager";
  const fp16 = /fp16/.test(raw.precision);
  row.regime = fp16 ? "amp" : "fp32";
  row.precision = fp16 ? "fp16" : "fp32";
  if (fp16) row.notes.push("regime: Trainer fp16=True = torch AMP on an fp32 model (fp32 weights, gradients and optimizer states)");
  row.recompute = raw.activation_checkpointing === "full" ? "full" : "none";
  if (/Adafactor/.test(raw.optimizer)) row.optimizer = "adafactor";
  else if (/8bit/.test(raw.optimizer)) {
    row.optimizer = "adam8bit";
    row.notes.push("optimizer: bnb.optim.Adam8bit built by hand and passed to the Trainer");
  } else row.optimizer = "adamw";
}

// DeepSpeed
function ruleDeepspeed(row, raw, i) {
  if (i === 44) {
    row.source_group = "deepspeed-sdma";
    row.framework = "deepspeed";
    row.gpu = "mi300x";
    row.gpus = 8;
    row.dp = 8;
    row.zero = 3;
    row.shard_degree = 8;
    row.measured_gib = round4(fromGB(raw.peak_memory));
    exclude(row, X.notNvidia, "AMD MI300X");
    return;
  }
  row.source_group = "deepspeed-bert";
  row.framework = "hf";
  row.model = "bert-large";
  row.training = "finetune";
  row.method = "full";
  row.gpu = gpuId(raw.gpu);
  row.seq_len = 384;
  row.micro_batch = raw.micro_batch;
  row.notes.push("PyTorch baseline (HF BERT-large whole-word-masking, SQuAD) of the DeepSpeed BingBertSquad tutorial, Tables 2/3");
  exclude(row, X.unstated, "the PyTorch baseline's fp16 setup (optimizer wrapper, master weights) and GPU count are not given in the OOM tables");
}

// Megatron-LM functional-test golden values (NVIDIA/Megatron-LM@d98e8a64, model_config.yaml per test)
const MEG = {
  // test: {m: "7b"|"small"|"bert"|"moe", tp, pp, cp, vp, mb, gbs, attn, distopt, fsdp, recompute, ce, sp, dropout, norm, fp16, fp8}
  gpt3_7b_tp1_pp4_memory_speed: { m: "7b", tp: 1, pp: 4, vp: 8, mb: 1, gbs: 8, attn: "auto", distopt: true },
  gpt3_7b_tp4_pp1_memory_speed: { m: "7b", tp: 4, pp: 1, mb: 2, gbs: 8, attn: "auto", distopt: true },
  gpt3_mcore_te_tp2_pp2_ep4_etp1_memory_speed: { m: "moe" },
  bert_mcore_tp1_pp2: { m: "bert", tp: 1, pp: 2, mb: 4, gbs: 128, attn: "unfused" },
  bert_mcore_tp1_pp4_vp2: { m: "bert", tp: 1, pp: 4, vp: 3, mb: 4, gbs: 128, attn: "unfused" },
  bert_mcore_tp2_pp2: { m: "bert", tp: 2, pp: 2, mb: 4, gbs: 128, attn: "unfused" },
  bert_mcore_tp4_pp1: { m: "bert", tp: 4, pp: 1, mb: 4, gbs: 128, attn: "unfused" },
  gpt3_mcore_tp1_pp2: { m: "small", tp: 1, pp: 2, mb: 4, gbs: 32, attn: "local" },
  gpt3_mcore_tp1_pp4: { m: "small", tp: 1, pp: 4, mb: 4, gbs: 32, attn: "local" },
  gpt3_mcore_te_tp1_pp4_vp1: { m: "small", tp: 1, pp: 4, vp: 3, mb: 4, gbs: 32, attn: "unfused" },
  gpt3_mcore_te_tp1_pp4_vp1_resume_torch_dist: { m: "small", tp: 1, pp: 4, vp: 3, mb: 4, gbs: 32, attn: "auto" },
  gpt3_mcore_te_tp1_pp4_vp1_dist_optimizer_overlap_grad_reduce_param_gather:
    { m: "small", tp: 1, pp: 4, vp: 3, mb: 4, gbs: 32, attn: "unfused", distopt: true },
  gpt3_mcore_te_tp1_pp1_dist_optimizer_fim_dataset: { m: "small", tp: 1, pp: 1, mb: 4, gbs: 32, attn: "unfused", distopt: true },
  gpt3_mcore_te_tp1_pp1_resume_torch_dist_uniform_full_recompute:
    { m: "small", tp: 1, pp: 1, mb: 4, gbs: 32, attn: "auto", recompute: "full" },
  gpt3_mcore_te_tp2_pp2_cp2: { m: "small", tp: 2, pp: 2, cp: 2, mb: 4, gbs: 32, attn: "flash", sp: true, dropout: false },
  gpt3_mcore_te_tp2_pp2_cross_entropy_loss_fusion: { m: "small", tp: 2, pp: 2, mb: 4, gbs: 32, attn: "auto", ce: "megatron_native" },
  gpt3_mcore_te_tp2_pp2_resume_torch_dist: { m: "small", tp: 2, pp: 2, mb: 4, gbs: 32, attn: "auto" },
  gpt3_mcore_te_tp4_pp1_dist_optimizer_overlap_grad_reduce_param_gather:
    { m: "small", tp: 4, pp: 1, mb: 4, gbs: 32, attn: "unfused", distopt: true },
  gpt3_mcore_tp4_pp1_resume_torch_dist: { m: "small", tp: 4, pp: 1, mb: 4, gbs: 32, attn: "local", fp16: true },
  gpt3_weekly_mcore_tp2_pp2_current_scaling_native_fp8_tp_pp_sp_tp_overlap:
    { m: "small", tp: 2, pp: 2, mb: 2, gbs: 128, attn: "auto", distopt: true, sp: true, norm: "rmsnorm", fp8: true, tpOverlap: true },
  gpt3_weekly_mcore_tp4_cp2_current_scaling_native_fp8_tp_sp_cp_tp_overlap:
    { m: "small", tp: 4, pp: 1, cp: 2, mb: 2, gbs: 128, attn: "auto", distopt: true, sp: true, norm: "rmsnorm", fp8: true },
  gpt3_mcore_te_tp2_zp_z3_resume_fsdp_dtensor: { m: "small", tp: 2, pp: 1, mb: 4, gbs: 32, attn: "auto", fsdp: true },
};

function ruleMegatron(row, raw, i) {
  row.source_group = "megatron-golden-values";
  row.framework = "megatron";
  const m = /test_cases\/(\w+)\/([\w.]+)\/golden_values_dev_dgx_(\w+)\.json/.exec(raw.source);
  const test = m[2];
  const platform = m[3];
  const c = MEG[test];
  if (!c) throw new Error(`no Megatron config for pretrain.json#${i} (${test})`);
  row.notes.push(`test ${test} (${platform}); settings from its model_config.yaml @d98e8a64, Megatron defaults from transformer_config.py at the same commit`);
  row.gpu = platform === "h100" ? "h100-sxm" : platform === "a100" ? "a100-80gb-sxm" : "gb200";
  row.gpus = 8;
  row.counter = "allocated";
  row.which_rank = "last_rank";
  row.measured_gib = round4(raw.peak_bytes / GIB);
  row.notes.push("counter: mem-max-allocated-bytes = allocated_bytes.all.peak, never reset (whole-run high-water mark incl. init), logged by rank world_size-1 (last PP stage, last TP rank); raw bytes / 2^30");
  if (platform === "a100") row.notes.push("gpu: DGX A100, 80 GB implied; the A100 golden files are older than the H100 ones (recipe no longer at HEAD), 8 GPUs assumed");
  if (platform === "gb200") row.notes.push("gpu: GB200 recipe tests/test_utils/recipes/gb200/gpt.yaml: 2 nodes x 4 GPUs");
  if (c.m === "moe") {
    row.architecture = null;
    exclude(row, X.model, "DeepSeek-V3-style MoE with a multi-token-prediction layer (--mtp-num-layers 1), group-limited routing and expert-tensor parallel layout that the architecture fields do not cover");
    return;
  }
  row.tp = c.tp;
  row.pp = c.pp;
  row.cp = c.cp ?? 1;
  row.dp = 8 / (row.tp * row.pp * row.cp);
  if (raw.dp !== row.dp) throw new Error(`dp mismatch pretrain.json#${i}`);
  row.virtual_stages = c.vp ?? 1;
  row.sequence_parallel = Boolean(c.sp);
  row.micro_batch = c.mb;
  row.gradient_accumulation = c.gbs / (c.mb * row.dp);
  if (raw.micro_batch !== c.mb) throw new Error(`micro batch mismatch pretrain.json#${i}`);
  row.regime = "megatron_mixed";
  row.precision = c.fp16 ? "fp16" : c.fp8 ? "fp8" : "bf16";
  row.optimizer = "adamw";
  row.recompute = c.recompute ?? "none";
  row.cross_entropy = c.ce ?? "eager";
  row.attention = c.attn === "auto" || c.attn === "flash" ? "flash" : "fused_softmax";
  row.seq_len_exact = true;
  if (c.distopt && !c.fsdp) { row.zero = 1; row.shard_degree = row.dp * row.cp; }
  if (c.fsdp) { row.zero = 3; row.shard_degree = row.dp * row.cp; }
  if (c.m === "7b") {
    row.seq_len = 8192;
    row.model = null;
    row.architecture = megatronGpt7b(c.tp);
    row.notes.push(`architecture: --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --num-query-groups 8 --untie-embeddings-and-output-weights --seq-length/--max-position-embeddings 8192, NullTokenizer --vocab-size 131073 padded to a multiple of 128 x TP = ${row.architecture.vocab}; defaults: ffn 4h = 16384 GeLU, biases, LayerNorm, learned positions, dropout 0.1`);
    row.notes.push("--use-distributed-optimizer with --overlap-grad-reduce/--overlap-param-gather (fp32 main params and Adam states sharded over DP), --deterministic-mode, --no-gradient-accumulation-fusion, mock data; TE attention under NVTE_ALLOW_NONDETERMINISTIC_ALGO=0 (fused/flash kernels, no scores kept)");
    if (c.vp > 1) row.notes.push("interleaved 1F1B: --num-layers-per-virtual-pipeline-stage 1, 8 layers per PP rank = 8 model chunks per rank; 4 microbatches per step");
    if (c.tp > 1) row.notes.push("TP 4 without --sequence-parallel; 2 microbatches per step");
  } else if (c.m === "small") {
    row.seq_len = 1024;
    row.model = null;
    row.architecture = megatronGptSmall(c.tp, { dropout: c.dropout ?? true, norm: c.norm ?? "layernorm" });
    const vocabSrc = test.includes("cp2") && !test.includes("weekly")
      ? "NullTokenizer --vocab-size 50257"
      : "GPT-2 BPE vocab.json/merges.txt of the test data (50257 entries assumed: the GPT-2 BPE)";
    row.notes.push(`architecture: 12 layers, hidden 512, 8 heads, seq 1024; ${vocabSrc}, padded to a multiple of 128 x TP = ${row.architecture.vocab}; embeddings tied (no --untie flag; with PP the last stage holds its own copy of the word embeddings for the output layer); defaults ffn 4h, GeLU, biases, learned positions${c.dropout === false ? "; --hidden-dropout 0 --attention-dropout 0" : ", dropout 0.1"}${c.norm === "rmsnorm" ? "; --normalization RMSNorm" : ", LayerNorm"}`);
  } else {
    row.seq_len = 512;
    row.model = "bert-large";
    row.notes.push("model: Megatron BERT-large pretraining (MLM + NSP binary head): 24 layers, hidden 1024, 16 heads, seq 512, defaults ffn 4096, dropout 0.1; WordPiece vocab.txt of the test data, size not stated (the catalog's 30522 assumed; Megatron pads it to a multiple of 128 x TP); the MLM head adds a dense h x h + LayerNorm before the tied output projection");
  }
  if (c.attn === "unfused" || c.attn === "local")
    row.notes.push(`attention: ${c.attn === "local" ? "--transformer-impl local" : "--attention-backend unfused"} materialises the s x s scores with Megatron's fused scale-mask-softmax kernel (16-bit scores; sk <= 4096)`);
  if (c.ce === "megatron_native") row.notes.push("--cross-entropy-loss-fusion with the default --cross-entropy-fusion-impl native (transformer_config.py @d98e8a64: 'native'; arguments.py rejects 'te' at this commit): the unfused loss's in-place helpers under jit_fuser = torch.compile (megatron/core/jit.py, torch >= 2.2)");
  else row.notes.push("loss: vocab_parallel_cross_entropy upcasts the logits to fp32 (tensor_parallel/cross_entropy.py)");
  if (c.recompute) row.notes.push("--recompute-granularity full --recompute-method uniform --recompute-num-layers 1; TEST_TYPE ckpt-resume (peak covers the resumed process, incl. checkpoint load)");
  if (c.fp16) row.notes.push("--fp16 with --transformer-impl local: fp16 params, fp32 main params and grads, dynamic loss scaling; TEST_TYPE ckpt-resume");
  if (c.fp8) {
    row.fp8_params = true;
    row.notes.push("fp8: Transformer Engine --fp8-format hybrid --fp8-recipe tensorwise with --fp8-param-gather (model weights kept in fp8, fp32 main params in the distributed optimizer); 2000-iteration weekly run");
    if (c.tpOverlap) row.notes.push("--tp-comm-overlap (userbuffers for the overlapped TP collectives)");
  }
  if (c.fsdp) row.notes.push("Megatron-FSDP --data-parallel-sharding-strategy optim_grads_params (params, grads and optimizer sharded, ZeRO-3-like) with fp32 main params/grads, TP 2 x DP 4, --calculate-per-token-loss");
  if (/resume/.test(test) && !c.recompute && !c.fp16) row.notes.push("resume test: the quoted value is at the last logged step (step 100); for TEST_TYPE ckpt-resume the counter covers the resumed process, including the checkpoint load");
  if (c.sp) row.notes.push("--sequence-parallel");
  if (c.cp > 1) row.notes.push(`context parallel ${c.cp}${c.distopt ? " (distributed optimizer shards over DP x CP)" : ""}`);
}

// ---------------------------------------------------------------------------------------------------
// Per-row overrides: judgement calls, each with a reason (copied into notes).

const OVERRIDES = {
  // LitGPT hub: 4xA10G rows whose config says devices=1 repeat the 1xA10G run
  ...Object.fromEntries([1, 5, 8, 13, 17, 21, 33, 36, 40, 47, 50].map((i) => [`finetune.json#${i}`, {
    set: { duplicate_of: `finetune.json#${i - 1}` },
    reason: "same config (devices=1) run on a 4xA10G host: same settings and peak as the 1xA10G row before it (duplicate_of)",
  }])),
  "finetune.json#38": {
    reason: "gpus 2 inferred from the config (devices: 2) although the table's machine is 4xA10G; for the LoRA rows the machine column names the host, not the devices used",
  },
  "finetune.json#45": {
    reason: "gpus 2 inferred from the config (devices: 2) although the table's machine is 4xA10G; for the LoRA rows the machine column names the host, not the devices used",
  },
  "finetune.json#23": {
    exclude: [X.contradictory, "GPU count: table machine 1xA10G but config devices=4 (a 4-device run cannot start on one GPU); confidence low"],
  },
  "finetune.json#102": {
    reason: "first version of the hub table (@4a9b7e62, PR #1113) with the config of that commit: LoRA on q,v only, 4 epochs",
  },
  "finetune.json#103": {
    reason: "first version of the hub table (@4a9b7e62, PR #1113) with the config of that commit: LoRA on q,v only, 4 epochs",
  },
  "finetune.json#100": {
    reason: "tutorials/finetune_lora.md table from the same PR as resource-tables.md (StableLM 3B, micro-batch 1, bf16-mixed); GPU inferred as the A100-SXM4-40GB of resource-tables.md",
  },
  "finetune.json#101": {
    reason: "tutorials/finetune_lora.md: Llama 2 7B LoRA in bf16-mixed out of memory; GPU inferred as the A100-SXM4-40GB of resource-tables.md; micro-batch 1",
  },
};

// ---------------------------------------------------------------------------------------------------

function ruleFor(file, i, raw) {
  if (file === "finetune.json") {
    if (i <= 52 || i === 102 || i === 103) return ruleLitgptHub;
    if (i <= 101) return ruleLitgptTables;
    if (i <= 134) return ruleTorchtune;
    if (i <= 143) return rulePeftReadme;
    if (i <= 162) return rulePeftMetaMath;
    if (i <= 165) return rulePeftDocs;
    return ruleUnsloth;
  }
  if (i <= 33) return ruleTorchtitan;
  if (i <= 43) return ruleHfGuide;
  if (i <= 48) return ruleDeepspeed;
  return ruleMegatron;
}

const ORDER = [
  "ref", "source_group", "framework", "include", "exclude_reason", "model", "architecture", "base_model", "gpu",
  "capacity_gib", "gpus", "tp", "pp", "cp", "ep", "dp", "virtual_stages", "sequence_parallel", "zero", "shard_degree",
  "seq_len", "seq_len_exact", "micro_batch", "gradient_accumulation", "training", "method", "lora_rank",
  "lora_targets", "lora_modules", "lora_head", "lora_dropout", "adapter_precision", "quantization", "regime",
  "precision", "fp8_params", "optimizer", "optimizer_in_backward", "recompute", "attention", "cross_entropy",
  "activation_offload", "offload", "compiled", "objective", "measured_gib", "counter", "which_rank", "oom", "bound",
  "confidence", "duplicate_of", "notes",
];

function normalize(file, i, raw) {
  const row = skeleton(file, i, raw);
  ruleFor(file, i, raw)(row, raw, i);
  const o = OVERRIDES[`${file}#${i}`];
  if (o) {
    if (o.set) Object.assign(row, o.set);
    if (o.reason) row.notes.push(`override: ${o.reason}`);
    if (o.exclude) exclude(row, ...o.exclude);
  }
  if (row.oom) row.measured_gib = null;
  if (!row.method && raw.method) row.notes.push(`raw method: ${raw.method}`);
  const out = {};
  for (const k of ORDER) if (k in row && !(k === "capacity_gib" && row[k] == null)) out[k] = row[k];
  for (const k of Object.keys(row)) if (!(k in out) && k !== "capacity_gib") throw new Error(`unordered field ${k}`);
  out.notes = row.notes.filter(Boolean).join("; ");
  return out;
}

const rows = [];
for (const file of ["finetune.json", "pretrain.json"]) RAW[file].forEach((raw, i) => rows.push(normalize(file, i, raw)));

const description =
  "Measured peak GPU memory rows of finetune.json and pretrain.json, normalized by normalize.mjs into engine " +
  "scenarios (one row per raw row, raw order, finetune first). measured_gib is GiB (2^30 bytes); counter says what " +
  "was measured (allocated / reserved / active = torch peaks, nvml = driver 'used' incl. CUDA context, unknown); " +
  "which_rank: only (one GPU), max_over_ranks, last_rank, unknown (rank 0 or unstated). include=false rows keep " +
  "their measurement and a reason decided from the row's settings. seq_len is the longest (padded) sequence of any " +
  "micro-batch; seq_len_exact=false marks padded-to-longest data where reaching the truncation length is assumed. " +
  "Extra fields: base_model (catalog model an architecture object modifies), capacity_gib (when the card differs " +
  "from the catalog), sequence_parallel, shard_degree (ranks ZeRO/FSDP state is sharded over), lora_modules, " +
  "lora_head (LoRA on the output head), lora_dropout, fp8_params, objective, duplicate_of (same run as another row). " +
  "Optimizer 'paged_*' states live in CUDA unified memory outside PyTorch's allocator counters. cross_entropy " +
  "describes the loss code; compiled=true may fuse it further. attention 'fused_softmax' = Megatron's fused " +
  "scale-mask-softmax on materialised 16-bit scores (the engine's name for it).";

writeFileSync(join(HERE, "normalized.json"), JSON.stringify({ description, rows }, null, 1) + "\n");

// ---------------------------------------------------------------------------------------------------
// Summary

const tally = (key) => {
  const t = new Map();
  for (const r of rows) {
    const k = key(r);
    const e = t.get(k) ?? { included: 0, excluded: 0 };
    e[r.include ? "included" : "excluded"]++;
    t.set(k, e);
  }
  return [...t.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
};
const inc = rows.filter((r) => r.include).length;
console.log(`rows: ${rows.length} (finetune ${RAW["finetune.json"].length}, pretrain ${RAW["pretrain.json"].length}); included ${inc}, excluded ${rows.length - inc}`);
console.log(`included with a measured peak: ${rows.filter((r) => r.include && !r.oom).length}; included out-of-memory: ${rows.filter((r) => r.include && r.oom).length}; duplicates among included: ${rows.filter((r) => r.include && r.duplicate_of).length}`);
console.log("\nby source_group (included / excluded):");
for (const [k, v] of tally((r) => r.source_group)) console.log(`  ${k.padEnd(40)} ${String(v.included).padStart(3)} / ${v.excluded}`);
console.log("\nby framework (included / excluded):");
for (const [k, v] of tally((r) => r.framework)) console.log(`  ${k.padEnd(40)} ${String(v.included).padStart(3)} / ${v.excluded}`);
console.log("\nexclude reasons:");
const reasons = new Map();
for (const r of rows) {
  if (r.include) continue;
  const category = r.exclude_reason.split(": ")[0];
  reasons.set(category, (reasons.get(category) ?? 0) + 1);
}
for (const [k, v] of [...reasons.entries()].sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(3)}  ${k}`);
