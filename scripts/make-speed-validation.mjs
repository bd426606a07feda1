#!/usr/bin/env node
// Writes engine/data/speed-validation.json: measured step times (and published utilisation) by
// source, each row a scenario the engine can time, for `traincalc validate --speed` (held out by
// source) and the page's validation view. Inputs:
//   tests/data/speed-measured/vtrain-multi-node.csv, vtrain-single-node.csv (VIA-Research/vTrain)
//   tests/data/memory-measured/simumax-b200.json + simumax-settings.json (SimuMax B200: step times, on
//     the scenarios the memory validation predicts their peaks on)
//   tests/data/speed-measured/collected/fsdp-torchtitan.json (torchtitan's A100 rows of April 2024)
//   tests/data/speed-measured/collected/nemo-megatron-bridge.json (NVIDIA's DGX Cloud H100 rows and its published
//     mixture-of-experts rows, with collected/nemo-moe-settings.json for their settings)
//   tests/data/speed-measured/collected/megatron-at-scale.json (published iteration times at 256-12,288
//     GPUs: MegaScale's Megatron-LM baseline, Korthikanti et al.'s 530B, Nemotron-4 15B)
//   tests/data/speed-measured/collected/mlperf-v3.1-gpt3.json (MLPerf Training v3.1's GPT-3 175B step times)
//   tests/data/speed-measured/collected/llama3-405b.json (Meta's published MFU of Llama 3.1 405B at
//     8,192 and 16,384 H100s)
//   engine/data/calibration.json (named by ID prefix, not copied)
// Rows are included on their settings alone, never on an error. Run it when an input changes:
//   node scripts/make-speed-validation.mjs
// A test (tests/node/measured-data.test.mjs) keeps the output current.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { H200_SOURCE, h200Runs } from './device-rows.mjs';
import { scenario as measuredScenario, simumaxModelName } from './measured-scenario.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const measuredDir = join(root, 'tests', 'data', 'speed-measured');
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));

function csv(path) {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  const header = lines[0].split(',').map((h) => h.trim());
  return lines.slice(1).map((line) => {
    const values = line.split(',').map(Number);
    return Object.fromEntries(header.map((h, i) => [h, values[i]]));
  });
}

// Megatron pads the vocabulary to a multiple of 128 x TP (--make-vocab-size-divisible-by 128,
// megatron/tokenizer/tokenizer.py _vocab_size_with_padding); GPT-2's BPE has 50,257 tokens.
const paddedVocab = (tp) => Math.ceil(50257 / (128 * tp)) * 128 * tp;

const VTRAIN_SOURCE =
  'VIA-Research/vTrain data/ground_truth_multi.csv and data/ground_truth_single.csv at commit f8dda84 (MIT), ' +
  'measured with Megatron-DeepSpeed (data/README.md); per-row configs config/validation/{multi,single}/*.json ' +
  '(gpu_name A100, node_size 8, use_checkpoint true, pipeline_scheduling 1f1b, inter_node_bandwidth 800 Gb/s ' +
  'per node); model code src/model/*.py (fp16, learned positions, biases, GeLU MLP of 4h, dropout 0.1, ' +
  "Megatron's fused masked softmax, no FlashAttention). Paper: Bang et al., vTrain, MICRO 2024 (arXiv " +
  '2312.12391), which reports 14.73% (multi-node) and 8.37% (single-node) MAPE with kernel profiling.';
const VTRAIN_NOTES =
  'Assumed where the source is silent: A100 SXM 80 GB (the 3.6B rows keep every parameter and Adam state on ' +
  'each GPU, about 58 GB: more than 40 GB; medium confidence), 4 x 200 Gb/s NICs per node (800 Gb/s per node ' +
  'as configured: 100 Gb/s per GPU), tied input and output embeddings (Megatron GPT default), the vocabulary ' +
  'padded as Megatron pads it, no ZeRO, the data-parallel all-reduce after the backward pass (not ' +
  'overlapped), full recomputation of every layer.';

function vtrainTemplate(seq) {
  return {
    model: { name: 'GPT (vTrain)', bias: true, norm: 'layernorm', tied_embeddings: true, dropout: true, gated_mlp: false },
    training: { type: 'pretrain', tokens: 100e9, seq_len: seq },
    hardware: { gpu: 'a100-80gb-sxm', inter_node_gbps: 100 },
    strategy: {
      precision: 'fp16', mfu: 'auto', cp: 1, ep: 1, zero: 0, pp_virtual_stages: 1, recompute: 'full',
      attention: 'fused_softmax', sequence_parallel: false, overlap_grad_reduce: false,
    },
  };
}
const VTRAIN_COLUMNS = ['hardware.count', 'training.global_batch_sequences', 'strategy.micro_batch', 'model.hidden',
  'model.heads', 'model.layers', 'training.seq_len', 'strategy.tp', 'strategy.dp', 'strategy.pp', 'model.ffn_hidden',
  'model.vocab', 'model.position_embeddings'];
function vtrainRows(rows) {
  return rows.map((r) => {
    const tp = r['tensor parallelism'];
    const seq = r['sequence length'];
    return [r['# GPUs'], r['global batch'], r['micro batch'], r['hidden size'], r['attention heads'], r['# layers'], seq,
      tp, r['data parallelism'], r['pipeline parallelism'], 4 * r['hidden size'], paddedVocab(tp), seq,
      r['iteration time (ms)']];
  });
}
const multi = csv(join(measuredDir, 'vtrain-multi-node.csv'));
const single = csv(join(measuredDir, 'vtrain-single-node.csv'));
for (const r of [...multi, ...single])
  if (r['# GPUs'] !== r['tensor parallelism'] * r['data parallelism'] * r['pipeline parallelism'])
    throw new Error(`vTrain row with GPUs != TP x DP x PP: ${JSON.stringify(r)}`);

// SimuMax on B200: every measured case (the memory validation keeps one per measured peak; here each
// case's step time counts, as the micro-batches per step differ), on the scenario its memory is
// predicted on. Megatron-LM's gradient reduction is not overlapped unless --overlap-grad-reduce is
// given, and SimuMax's launcher (simu_tools/megatron_scripts/scripts/run_pretrain_llama3.sh) does not.
const simumax = read(join(root, 'tests', 'data', 'memory-measured', 'simumax-b200.json'));
const simumaxSettings = read(join(root, 'tests', 'data', 'memory-measured', 'simumax-settings.json'));
const gpus = new Map(read(join(root, 'engine', 'data', 'gpus.json')).gpus.map((g) => [g.id, g]));
const simumaxScenarios = simumaxSettings.rows.map((r, i) => {
  const measured = simumax.rows[i];
  if (measured.case !== r.case) throw new Error(`SimuMax settings out of order at ${i}: ${r.case}`);
  const s = measuredScenario({ ...r, model_name: simumaxModelName(r.case) }, gpus);
  s.strategy.overlap_grad_reduce = false;
  return { id: `simumax-b200#${r.case}`, label: `SimuMax B200 ${r.case}`, scenario: s, step_ms: measured.real_ms };
});

// A collected row's decoder-only model with rotary positions, untied embeddings and no biases (Llama's
// shape unless the row's MLP or norm differs).
function decoderModel(r, { gated = true, norm = 'rmsnorm' } = {}) {
  const a = r.architecture;
  return {
    name: r.model, layers: a.layers, hidden: a.hidden, heads: a.heads, kv_heads: a.kv_heads,
    ffn_hidden: a.ffn_hidden, vocab: a.vocab, gated_mlp: gated, tied_embeddings: false, bias: false,
    norm, position_embeddings: 0,
  };
}

// torchtitan on 64 A100s (its docs/performance.md, April 2024): FSDP2 over every GPU, eager (no
// torch.compile), one micro-batch per step. Rows whose recomputation the scenario can state: none,
// full, and per-op selective ("selective op"); "selective layer" recomputes every N-th layer with N
// not stated, so those two rows are left out. Step time = local batch x sequence / tokens per second.
const collected = read(join(measuredDir, 'collected', 'fsdp-torchtitan.json'));
const TORCHTITAN_RECOMPUTE = { none: 'none', 'selective-op': 'selective', full: 'full' };
const torchtitanRows = collected.rows.filter(
  (r) => r.label.startsWith('torchtitan 04/2024:') && r.activation_checkpointing in TORCHTITAN_RECOMPUTE);
const torchtitanScenarios = torchtitanRows.map((r) => {
  return {
    id: `torchtitan-a100-2024#${r.model}-bs${r.local_batch_size}-${r.activation_checkpointing}`,
    label: r.label.replace('torchtitan 04/2024: ', 'torchtitan A100 '),
    scenario: {
      model: decoderModel(r),
      training: { type: 'pretrain', steps: 1, seq_len: r.seq_len, global_batch_sequences: r.gpus * r.local_batch_size },
      hardware: { gpu: r.gpu, count: r.gpus },
      strategy: {
        framework: 'fsdp2', precision: r.precision, optimizer: 'adamw', tp: 1, pp: 1, cp: 1, ep: 1, dp: r.fsdp,
        zero: 3, micro_batch: r.local_batch_size, recompute: TORCHTITAN_RECOMPUTE[r.activation_checkpointing],
        attention: 'flash', compile: r.compile,
      },
    },
    step_ms: Math.round((r.local_batch_size * r.seq_len / r.measured.tokens_per_second_per_gpu) * 1e4) / 10,
  };
});
if (torchtitanScenarios.length !== 6) throw new Error(`torchtitan A100 rows: ${torchtitanScenarios.length}, expected 6`);

// NVIDIA's DGX Cloud benchmarks on H100 SXM (dgxc-benchmarking v24.11.1 at 35a9aec: NeMo 24.09, the
// launcher's YAML recipes and configure.sh overrides in the same commit), weak scaling from 8 to 2,048
// GPUs. Only the tables whose settings the repository states: Llama 3.1 8B and 70B (llama3.1/*.yaml and
// configure.sh: no recomputation, cuDNN fused attention by NVTE_FLASH_ATTN=0 NVTE_FUSED_ATTN=1, the
// 70B with sequence parallelism and userbuffers overlap), Nemotron-4 15B (nemotron/configure.sh:
// cuDNN fused attention, TP 4, micro-batch 4, userbuffers overlap) and 340B (NVTE_FUSED_ATTN=0, so
// Transformer Engine's FlashAttention-2 backend; Megatron's selective recomputation; userbuffers
// overlap; TP 8, PP 8, 12 interleaved chunks). The interleaved pipelines' sends: the 70B overlaps them
// (llama3.1/llama3.1_70b.yaml: overlap_p2p_comm: true, batch_p2p_comm: false; PP 4, 5 chunks), the
// 340B batches them and synchronises (nemotron/nemotron4-340b-synth.yaml: overlap_p2p_comm: False,
// batch_p2p_comm: True). fp8 is Transformer Engine's delayed-scaling hybrid recipe (fp8_hybrid). The
// step time is the last logged step's, as the README says.
const nemoCollected = read(join(measuredDir, 'collected', 'nemo-megatron-bridge.json'));
const DGXC_SETTINGS = {
  'llama3-8b': { attention: 'flash3', recompute: 'none', cross_entropy: 'fused', overlap_tp_comm: false, gated: true, norm: 'rmsnorm' },
  'llama3-70b': { attention: 'flash3', recompute: 'none', cross_entropy: 'fused', overlap_tp_comm: true, overlap_p2p_comm: true, gated: true, norm: 'rmsnorm' },
  'nemotron4-15b': { attention: 'flash3', recompute: 'none', cross_entropy: 'fused', overlap_tp_comm: true, gated: false, norm: 'layernorm' },
  'nemotron4-340b': { attention: 'flash', recompute: 'selective', overlap_tp_comm: true, gated: false, norm: 'layernorm' },
};
const dgxcRows = nemoCollected.rows.filter((r) => r.label.startsWith('DGXC 35a9aec ') && r.model in DGXC_SETTINGS);
const dgxcScenarios = dgxcRows.map((r) => {
  const set = DGXC_SETTINGS[r.model];
  const strategy = {
    framework: 'megatron', precision: r.precision, optimizer: 'adam', tp: r.tp, pp: r.pp, cp: r.cp ?? 1, ep: 1,
    dp: r.gpus / (r.tp * r.pp * (r.cp ?? 1)), zero: 1, micro_batch: r.micro_batch, pp_virtual_stages: r.vp ?? 1,
    recompute: set.recompute, attention: set.attention, sequence_parallel: r.tp > 1, overlap_tp_comm: set.overlap_tp_comm,
    grad_reduce_precision: 'bf16',
  };
  if (set.cross_entropy) strategy.cross_entropy = set.cross_entropy;
  if (set.overlap_p2p_comm) strategy.overlap_p2p_comm = true;
  return {
    id: `dgxc-h100-2024#${r.model}-${r.precision}-${r.gpus}`,
    label: r.label.replace('DGXC 35a9aec ', 'DGX Cloud H100 '),
    scenario: {
      model: decoderModel(r, set),
      training: { type: 'pretrain', steps: 1, seq_len: r.seq_len, global_batch_sequences: r.global_batch_sequences },
      hardware: { gpu: r.gpu, count: r.gpus },
      strategy,
    },
    step_ms: Math.round(r.measured.step_seconds * 1e4) / 10,
  };
});
if (dgxcScenarios.length !== 48) throw new Error(`DGX Cloud H100 rows: ${dgxcScenarios.length}, expected 48`);

// NVIDIA's published mixture-of-experts step times (NeMo 25.02-25.04, Megatron-Bridge 25.09-26.08; H100,
// B200, GB200), on the settings of each release's performance recipe as pinned in
// collected/nemo-moe-settings.json. Rows whose table layout matches no recipe (confidence "low") are
// left out: their settings are unknown. What the scenario states:
// - the layout as published (TP, PP, interleaved chunks, EP, CP, micro-batch, global batch);
// - the token dispatcher: DeepEP and HybridEP send a token once to each node holding its experts, then
//   forward it over NVLink (ep_dispatch per_node); Megatron-Core's alltoall dispatcher sends a copy per
//   routed expert;
// - --overlap-moe-expert-parallel-comm (overlap_ep_comm) and userbuffers TP overlap as the recipe sets;
// - DeepSeek-V3's hand-written pipeline layout (pipeline_model_parallel_layout), as first/last stage
//   layers;
// - recomputation: the recipes recompute only narrow modules (MLA up-projections, norms, the expert
//   activation, the dense MLP), a few percent of the forward pass: "none" here;
// - cuDNN fused attention (flash3), Transformer Engine's fused cross-entropy, the distributed optimizer.
// Every fp8 recipe (delayed, per-tensor current scaling, MXFP8 blocks) is the engine's one fp8.
const moeSettings = read(join(measuredDir, 'collected', 'nemo-moe-settings.json'));
// Published iteration times at 256-12,288 GPUs, each row's scenario as collected (its assumptions stated).
// A collected file's rows as a source's scenarios: each with its step time, or (no iteration time
// published) its published utilisation.
const collectedScenarios = (collected, group) => collected.rows.map((r) => ({
  id: `${group}#${r.id}`, label: r.label, confidence: r.confidence, scenario: r.scenario,
  ...(r.published ? { published: r.published } : { step_ms: r.step_ms }),
}));
const atScale = read(join(measuredDir, 'collected', 'megatron-at-scale.json'));
const atScaleScenarios = collectedScenarios(atScale, 'megatron-at-scale');
// Meta's published utilisation of Llama 3.1 405B at 8,192 and 16,384 H100s, compared as MFU (no
// iteration time is published), each row's scenario as collected (its assumptions stated).
const llama3 = read(join(measuredDir, 'collected', 'llama3-405b.json'));
const llama3Scenarios = collectedScenarios(llama3, 'llama3-405b');
// MLPerf Training v3.1's GPT-3 175B in fp8 on 512-10,752 H100s: the logged iteration times with the
// submissions' layouts, each row's scenario as collected (its assumptions stated).
const mlperf = read(join(measuredDir, 'collected', 'mlperf-v3.1-gpt3.json'));
const mlperfScenarios = collectedScenarios(mlperf, 'mlperf-v3.1-gpt3');
const settingValue = (row, key) => {
  const v = row.settings[key];
  return v && typeof v === 'object' && 'value' in v ? v.value : v;
};
// GPT-OSS-120B's shape: Hugging Face transformers GptOssConfig defaults, which are the 120B model's
// (src/transformers/models/gpt_oss/configuration_gpt_oss.py; the same values in openai/gpt-oss-120b
// config.json): 36 layers, width 2,880, 64 query and 8 key/value heads of 64, 128 experts of width
// 2,880 with 4 routed a token, 201,088 tokens, untied, biases on attention and experts. Every other
// layer attends over a 128-token window; the engine counts full causal attention there (about 6% too
// much work at 4,096 tokens).
const GPT_OSS_120B = {
  name: 'GPT-OSS 120B', layers: 36, hidden: 2880, heads: 64, kv_heads: 8, head_dim: 64, ffn_hidden: 2880,
  moe_ffn_hidden: 2880, experts: 128, experts_per_token: 4, vocab: 201088, gated_mlp: true, tied_embeddings: false,
  bias: true, norm: 'rmsnorm', position_embeddings: 0,
};
const MOE_PRESETS = {
  'mixtral-8x7b': 'mixtral-8x7b', 'mixtral-8x22b': 'mixtral-8x22b', 'qwen3-30b-a3b': 'qwen3-30b-a3b',
  'qwen3-235b-a22b': 'qwen3-235b-a22b', 'deepseek-v3': 'deepseek-v3',
};
// DeepSeek-V3's pipeline layouts, as layers per virtual chunk (the recipe's string; E embedding, t a
// layer, m the MTP block, L the loss): chunk c runs on stage c mod pp.
function deepseekChunks(layout) {
  if (typeof layout !== 'string') return null;
  if (layout.startsWith('Et*3|(t*4|)*14ttL')) return [3, ...Array(14).fill(4), 2];
  if (/map \(\d+,\d+\): \[E\+4 layers\], 14x\[4 layers\], \[1 layer/.test(layout)) return [4, ...Array(14).fill(4), 1];
  return null;
}
function stageEnds(chunks, pp) {
  const stage = (s) => chunks.filter((_, c) => c % pp === s).reduce((a, b) => a + b, 0);
  return { first: stage(0), last: stage(pp - 1) };
}
const moeMeasured = new Map(nemoCollected.rows.map((r) => [r.label, r]));
// Rows whose experts are laid out over the tensor-parallel ranks too are left out: expert tensor
// parallelism 1 under attention TP 2 (Megatron-Core's MoE parallel folding; every such row here), so the
// expert-parallel group spans the TP ranks (EP 32 under TP 2 and DP 16, EP 64 under TP 2 and DP 32;
// Mixtral 8x22B's EP 8 within one node beside TP 2 x CP 8). The engine carves EP from the data- and
// context-parallel ranks only and places its members gpus_per_node / (TP x CP) apart, so it cannot
// state their layout.
const foldsTensorParallel = (r, set) => r.tp > 1 && Number(settingValue(set, 'expert_tensor_parallel_size')) !== r.tp;
const moeScenarios = moeSettings.rows.map((set) => {
  const r = moeMeasured.get(set.label);
  if (!r || r.dedupe_key !== set.dedupe_key) throw new Error(`MoE settings without their measured row: ${set.label}`);
  return { set, r };
}).filter(({ set, r }) => set.row_confidence !== 'low' && !foldsTensorParallel(r, set)).map(({ set, r }) => {
  const dispatcher = String(settingValue(set, 'deepep_or_hybridep') ?? 'none');
  const strategy = {
    framework: 'megatron', precision: r.precision, optimizer: 'adam', tp: r.tp, pp: r.pp, cp: r.cp ?? 1, ep: r.ep,
    dp: r.gpus / (r.tp * r.pp * (r.cp ?? 1)), zero: 1, micro_batch: r.micro_batch, pp_virtual_stages: r.vp ?? 1,
    recompute: 'none', attention: 'flash3', cross_entropy: 'fused', sequence_parallel: r.tp > 1,
    overlap_tp_comm: settingValue(set, 'tp_comm_overlap') === true,
    ep_dispatch: /DeepEP|HybridEP/.test(dispatcher) ? 'per_node' : 'all_to_all',
    overlap_ep_comm: settingValue(set, 'overlap_moe_expert_parallel_comm') === true,
  };
  const model = r.model === 'gpt-oss-120b' ? { ...GPT_OSS_120B } : { preset: MOE_PRESETS[r.model] };
  if (!model.name && !model.preset) throw new Error(`MoE row with an unknown model: ${r.model}`);
  if (r.model === 'deepseek-v3' && r.pp > 1) {
    const chunks = deepseekChunks(settingValue(set, 'pipeline_model_parallel_layout'));
    if (chunks && chunks.length === r.pp * (r.vp ?? 1)) {
      const ends = stageEnds(chunks, r.pp);
      strategy.pp_first_stage_layers = ends.first;
      strategy.pp_last_stage_layers = ends.last;
    }
  }
  const stepSeconds = r.seq_len * r.global_batch_sequences / (r.measured.tokens_per_second_per_gpu * r.gpus);
  return {
    id: `nemo-moe#${set.label.replace(/[^A-Za-z0-9.]+/g, '-').replace(/-+$/, '')}`,
    label: set.label,
    confidence: set.row_confidence,
    scenario: {
      model,
      training: { type: 'pretrain', steps: 1, seq_len: r.seq_len, global_batch_sequences: r.global_batch_sequences },
      hardware: { gpu: r.gpu, count: r.gpus },
      strategy,
    },
    step_ms: Math.round(stepSeconds * 1e4) / 10,
  };
});
if (moeScenarios.length !== 69) throw new Error(`NVIDIA MoE rows: ${moeScenarios.length}, expected 69`);

// Our own H200 runs (scripts/device/measure_h200.py): Hugging Face transformers, eager PyTorch, one GPU;
// the step time is the median of five host-timed steps (forward, backward and the optimizer), the same
// scenarios as the memory validation's rows.
const h200Scenarios = h200Runs(root).map((r) => {
  const s = measuredScenario(r, gpus);
  return { id: `h200-hf-2026#${r.run}`, label: `H200 HF ${r.run}`, scenario: s, step_ms: r.step_ms };
});
if (h200Scenarios.length !== 40) throw new Error(`H200 rows: ${h200Scenarios.length}, expected 40`);

// torchtitan's Llama 3.1 benchmarks on 8-512 H100s (pytorch/torchtitan
// benchmarks/llama3_h100_202412_torchtitan.md: torch 1963fc8, torchao eab345c, torchtitan 9dec370, 2024-12),
// on the scenarios the memory validation predicts their peaks on (tests/data/memory-measured/normalized.json,
// the same eighteen rows in the same order as the collected file's). torchtitan logs tokens per second per
// GPU as each rank's tokens over the step time and the model-parallel size (train.py @9dec370: ntokens /
// (time_delta * non_data_parallel_size)), so step = local batch x sequence / (TPS x TP x PP x CP).
// The GPU: Grand Teton's H100, 96 GB of HBM2e at 2.4 TB/s, at its default 500 W power limit; the file says
// its peak lies "between SXM and NVL" and is not known: taken as the geometric mean of the two parts' dense
// bf16 peaks in the catalog (h100-sxm 989.4 and h100-nvl 835.5 TFLOP/s, each cited there: 909.2), either
// end 8% away.
const TORCHTITAN_H100_PEAK_TFLOPS =
  Math.round(Math.sqrt(gpus.get('h100-sxm').bf16_tflops * gpus.get('h100-nvl').bf16_tflops) * 10) / 10;
const torchtitanH100Collected = collected.rows.filter((r) => r.label.startsWith('torchtitan 12/2024'));
const torchtitanH100Runs = read(join(root, 'tests', 'data', 'memory-measured', 'normalized.json')).rows
  .filter((r) => r.source_group === 'torchtitan-llama3-h100-2024-12' && r.include);
if (torchtitanH100Runs.length !== 18 || torchtitanH100Collected.length !== 18)
  throw new Error(`torchtitan H100 rows: ${torchtitanH100Runs.length} and ${torchtitanH100Collected.length}, expected 18`);
const torchtitanH100Scenarios = torchtitanH100Runs.map((r, i) => {
  const c = torchtitanH100Collected[i];
  if (c.seq_len !== r.seq_len || c.tp !== r.tp || c.pp !== r.pp || c.cp !== r.cp || c.compile !== r.compiled ||
      (c.precision === 'fp8') !== (r.precision === 'fp8'))
    throw new Error(`torchtitan H100 row ${i}: the collected and the memory rows differ (${c.label})`);
  const s = measuredScenario(r, gpus);  // the catalog's H100 SXM resized to the card's 95 GiB
  s.hardware.gpu = {
    ...s.hardware.gpu, name: 'NVIDIA H100 SXM5 96GB HBM2e (Grand Teton, 500 W)', memory_type: 'HBM2e',
    memory_bandwidth_tbs: 2.4, tdp_w: 500,
    bf16_tflops: TORCHTITAN_H100_PEAK_TFLOPS, fp16_tflops: TORCHTITAN_H100_PEAK_TFLOPS,
    fp8_tflops: 2 * TORCHTITAN_H100_PEAK_TFLOPS, int8_tops: 2 * TORCHTITAN_H100_PEAK_TFLOPS,
    tf32_tflops: Math.round(TORCHTITAN_H100_PEAK_TFLOPS / 2 * 10) / 10,
  };
  if (c.async_tp) s.strategy.overlap_tp_comm = true;  // torch's async TP: matmuls overlap their all-gathers
  const localBatch = s.training.global_batch_sequences / r.dp;
  const stepSeconds = localBatch * r.seq_len / (c.measured.tokens_per_second_per_gpu * r.tp * r.pp * r.cp);
  const table = c.label.replace('torchtitan 12/2024 ', '').split(':')[0];
  return {
    id: `torchtitan-h100-2024#${i}-${table}`,
    label: c.label.replace('torchtitan 12/2024 ', 'torchtitan H100 '),
    scenario: s,
    step_ms: Math.round(stepSeconds * 1e4) / 10,
  };
});

const output = {
  description:
    'Measured training step times and published utilisation, by source, each row a traincalc scenario. ' +
    'Generated by scripts/make-speed-validation.mjs; `traincalc validate --speed` predicts each source ' +
    "with the step model's constants fitted without its software lineage. A source's lineage names the " +
    'organisation whose training code ran, whoever measured it: every Megatron-LM, Megatron-Core, NeMo and ' +
    "MLPerf-NVIDIA row is NVIDIA's \"megatron\"; Meta's torchtitan and Llama 3 stack are \"pytorch\"; " +
    "Microsoft's Megatron-DeepSpeed fork is its own. Sources with \"calibration_ids\" take those " +
    'rows of calibration.json (published MFU or HFU).',
  sources: [
    {
      group: 'vtrain-multi-node', lineage: 'megatron-deepspeed', framework: 'megatron-deepspeed', label: 'vTrain multi-node', confidence: 'high',
      source: VTRAIN_SOURCE, notes: VTRAIN_NOTES, measured: 'step_ms',
      rank_by: ['model.layers', 'model.hidden', 'hardware.count'],
      template: vtrainTemplate(2048), columns: VTRAIN_COLUMNS, rows: vtrainRows(multi),
    },
    {
      group: 'vtrain-single-node', lineage: 'megatron-deepspeed', framework: 'megatron-deepspeed', label: 'vTrain one node', confidence: 'high',
      source: VTRAIN_SOURCE, notes: VTRAIN_NOTES, measured: 'step_ms',
      // Layouts compare at one global batch: the one-node CSV runs each model at batches of 2-128.
      rank_by: ['model.layers', 'model.hidden', 'hardware.count', 'training.global_batch_sequences'],
      template: vtrainTemplate(1024), columns: VTRAIN_COLUMNS, rows: vtrainRows(single),
    },
    {
      group: 'simumax-b200', lineage: 'megatron', framework: 'megatron-lm', confidence: 'high',
      source: simumax.source ?? 'MooreThreads/SimuMax docs/b200/b200_release_v1.2_summary.json at commit 4dcaae5',
      notes: 'Megatron-LM with Transformer Engine 2.11 on 8 B200s; real_ms is the fastest of iterations 2-3 ' +
        '(tools/b200/run_megatron_perf_real_pipeline.py parse_run_logs); settings as in the memory validation.',
      scenarios: simumaxScenarios,
    },
    {
      group: 'torchtitan-a100-2024', lineage: 'pytorch', framework: 'torchtitan', confidence: 'high',
      source: torchtitanRows[0].source,
      notes: 'Tokens per second per GPU as published, on 64 A100 80 GB (form factor and interconnect not ' +
        "stated: the catalog's A100 SXM node, 8 x 200 Gb/s; medium confidence), torch.compile off, FSDP2 over " +
        'all 64 GPUs, flash attention (SDPA), fused RMSNorm not modelled apart. Left out: the two "selective ' +
        'layer" rows (checkpointing every N-th layer, N not stated). Collected in ' +
        'tests/data/speed-measured/collected/fsdp-torchtitan.json.',
      scenarios: torchtitanScenarios,
    },
    {
      group: 'dgxc-h100-2024', lineage: 'megatron', framework: 'nemo', confidence: 'high',
      source: 'NVIDIA/dgxc-benchmarking at 35a9aec (release v24.11.1): llama3.1/README_8b.md, README_70b.md, ' +
        'nemotron/README_15b.md, README_340b.md (step times), with the settings of llama3.1/llama3.1_{8b,70b}.yaml, ' +
        'nemotron/nemotron4-{15b,340b}-synth.yaml and the configure.sh overrides of the same commit; NeMo 24.09 container.',
      notes: 'Weak scaling on DGX Cloud H100 SXM nodes (8 GPUs, NVLink, 8 x 400 Gb/s InfiniBand: the catalog node). ' +
        'Each step time is the last logged step of a 50-100 step run (train_step_timing), as the README states. ' +
        'Settings from the recipes: no recomputation except Megatron\'s selective (core attention) in the 340B; ' +
        'cuDNN fused attention except the 340B (NVTE_FUSED_ATTN=0: FlashAttention-2); distributed optimizer with ' +
        'gradient and parameter overlap; userbuffers tensor-parallel overlap with sequence parallelism where TP > 1; ' +
        'fp8 rows: Transformer Engine\'s hybrid delayed-scaling recipe with fp8 weights; gradients reduced in bf16 ' +
        '(optim.grad_sync_dtype). ' +
        'Collected in tests/data/speed-measured/collected/nemo-megatron-bridge.json.',
      scenarios: dgxcScenarios,
    },
    {
      group: 'nemo-moe', lineage: 'megatron', framework: 'megatron-core', label: 'NVIDIA MoE', confidence: 'medium', fit: false,
      source: "NVIDIA's published pre-training throughput (tokens per second per GPU) for mixture-of-experts models: " +
        'NeMo 25.02/25.04 performance summaries (docs.nvidia.com/nemo-framework, Mixtral on B200/GB200) and the ' +
        'Megatron-Bridge performance summary and archive (NVIDIA-NeMo/Megatron-Bridge docs/performance-summary*.md at ' +
        '067f987df0; releases 25.09-26.08: DeepSeek-V3, Qwen3 30B-A3B and 235B-A22B, GPT-OSS 120B on H100, B200, ' +
        'GB200); settings from each release\'s performance recipe at its tag (collected/nemo-moe-settings.json).',
      notes: 'Step time = sequence x global batch / (tokens per second per GPU x GPUs). Routing: from 25.11 on the ' +
        'benchmarks force-balance tokens without dropping (the pages say so); the Mixtral rows and the 25.09 ' +
        '"tokendrop" rows route with capacity factor 1.0 and padding, about the same work. The engine assumes ' +
        'balanced experts. Not modelled: CUDA graphs ' +
        '(most GB200 and some B200 rows capture layers or the whole iteration), the narrow recomputation of the ' +
        'recipes (MLA up-projections, norms, expert activations: a few percent), DeepSeek-V3\'s multi-token-' +
        'prediction layer (one more MoE layer and output head, about 3%), GPT-OSS\'s sliding-window layers, ' +
        'MXFP8 and current scaling as distinct fp8 recipes, the padding of full-iteration CUDA graphs. Left out: ' +
        'the 5 rows whose table layout matches no recipe, and 11 rows whose experts run without tensor parallelism ' +
        'under attention TP 2 (Megatron-Core\'s MoE parallel folding, which the engine cannot state). Validation only ' +
        '(fit: false): rows never fitted on, as their steps carry host work the engine does not model (a mixture-' +
        'of-experts layer\'s many small kernels and the dispatchers\' host synchronisation; CUDA graphs that ' +
        'remove it) and which a fit would charge to the dense constants: fitted on, they move the median of the ' +
        'other sources\' held-out medians from 6.1% to 6.9%, DGX Cloud H100\'s from 5.8% to 9.6% and SimuMax ' +
        'B200\'s from 9.1% to 10.6%, and the nested range coverage from 71.6% to 66.0%. One recipe measured in two releases can differ ' +
        'by 1.6x (GPT-OSS 120B on 64 GB200s in MXFP8: 2.83 s in 26.06, 4.48 s in 26.06.01, as the settings file ' +
        'notes), which no setting here explains.',
      scenarios: moeScenarios,
    },
    {
      group: 'h200-hf-2026', lineage: 'huggingface', framework: 'hf', confidence: 'high',
      source: H200_SOURCE,
      notes: 'Measured by this project on one lent H200 (SXM, 700 W): Hugging Face transformers models built ' +
        'from their configs with random weights (Llama 3.2 1B/3B, Llama 3.1 8B, Mistral 7B, Qwen2.5 0.5B shape, ' +
        'GPT-2 small/medium), eager PyTorch (no torch.compile), SDPA attention (FlashAttention-2) or eager, ' +
        'fused AdamW (one run foreach), pure bf16 or AMP with fp32 weights, LoRA r16 on all linear layers via ' +
        'peft, HF gradient checkpointing; step time is the median of five steps timed on the host after a ' +
        'synchronize, after three warm-up steps.',
      scenarios: h200Scenarios,
    },
    {
      group: 'torchtitan-h100-2024', lineage: 'pytorch', framework: 'torchtitan', label: 'torchtitan H100 (2024-12)', confidence: 'medium',
      fit: false,
      source: torchtitanH100Collected[0].source + '; settings as in the memory validation ' +
        '(tests/data/memory-measured/normalized.json, source group torchtitan-llama3-h100-2024-12).',
      notes: 'Llama 3.1 8B, 70B and 405B on 8-512 of Meta\'s Grand Teton H100s (96 GB HBM2e at 2.4 TB/s, 400 Gb/s ' +
        'RDMA per GPU, the default 500 W power limit): FSDP2 alone, with torch.compile and with torchao\'s float8 ' +
        'linears; context parallelism to 262,144 tokens; FSDP + TP 8 (70B, with and without async TP); FSDP + TP 8 + ' +
        'PP 8 (405B, 1F1B and interleaved, eight micro-batches as torchtitan\'s default makes them). Step time = local ' +
        'batch x sequence / (tokens per second per GPU x TP x PP x CP), as torchtitan logs it (train.py @9dec370). ' +
        `The GPU's dense bf16 peak is taken as ${TORCHTITAN_H100_PEAK_TFLOPS} TFLOP/s, the geometric mean of the SXM ` +
        'and NVL parts\' (the file: "between SXM and NVL ... we don\'t know its exact value"): every row carries that ' +
        'uncertainty, about 8% either way, hence medium confidence. Not modelled apart: torchao\'s float8 ' +
        '(tensorwise dynamic scaling, its casts compiled) is timed as the engine\'s fp8; per-op selective ' +
        'checkpointing as the engine\'s torchtitan policy. Validation only (fit: false): a GPU whose peak is not ' +
        'known would move the Hopper constants. Collected in tests/data/speed-measured/collected/fsdp-torchtitan.json.',
      scenarios: torchtitanH100Scenarios,
    },
    {
      group: 'megatron-at-scale', lineage: 'megatron', framework: 'megatron-lm', label: 'Megatron at scale', confidence: 'high', fit: false,
      source: 'MegaScale (Jiang et al., NSDI 2024, arXiv:2402.15627) table 2, the Megatron-LM rows; Korthikanti et al. ' +
        '2022 (arXiv:2205.05198), the 530B at data-parallel 1 and 8; Nemotron-4 15B technical report (arXiv:2402.16819) ' +
        'table 2. Quotes per row in tests/data/speed-measured/collected/megatron-at-scale.json.',
      notes: atScale.about + ' Assumed where the sources are silent: each row\'s "assumed" in the collected file.',
      scenarios: atScaleScenarios,
    },
    {
      group: 'llama3-405b', lineage: 'pytorch', framework: 'meta-4d', label: 'Llama 3.1 405B (Meta)', confidence: 'high', fit: false,
      source: 'The Llama 3 Herd of Models (arXiv:2407.21783) table 4 and sec. 3.3.2. Quotes per row in ' +
        'tests/data/speed-measured/collected/llama3-405b.json.',
      notes: llama3.about + ' Assumed where the paper is silent: each row\'s "assumed" in the collected file.',
      scenarios: llama3Scenarios,
    },
    {
      group: 'mlperf-v3.1-gpt3', lineage: 'megatron', framework: 'nemo', label: 'MLPerf v3.1 GPT-3 175B', confidence: 'high', fit: false,
      source: 'MLPerf Training v3.1 closed division, GPT-3 175B: NVIDIA (Eos) and Azure submissions in ' +
        'github.com/mlcommons/training_results_v3.1 (logs and configs). Quotes per row in ' +
        'tests/data/speed-measured/collected/mlperf-v3.1-gpt3.json.',
      notes: mlperf.about + ' Assumed where the submissions are silent: each row\'s "assumed" in the collected file.',
      scenarios: mlperfScenarios,
    },
    {
      group: 'megatron-lm-2021', lineage: 'megatron', framework: 'megatron-lm', confidence: 'high',
      source: 'Narayanan et al. 2021 Table 1 and the Megatron-LM README GPT-3 example (calibration.json)',
      calibration_ids: ['narayanan2021-', 'megatron-gpt3-'],
    },
    {
      group: 'megatron-core-2024', lineage: 'megatron', framework: 'megatron-core', confidence: 'high',
      source: "NVIDIA/Megatron-LM README 'Training Speed and Scalability' weak scaling (calibration.json)",
      calibration_ids: ['megatron-core-'],
    },
    {
      group: 'llm-foundry', lineage: 'mosaicml', framework: 'llm-foundry', confidence: 'high',
      source: 'mosaicml/llm-foundry scripts/train/benchmarking/README.md (calibration.json)',
      calibration_ids: ['mpt-'],
    },
  ],
};
// One row per line keeps the file readable and its diffs small.
const text = JSON.stringify(output, null, 1).replace(/\[\n\s+([-\d.e+]+(?:,\n\s+[-\d.e+]+)*)\n\s+\]/g, (m, body) =>
  `[${body.split(/,\n\s+/).join(', ')}]`);
writeFileSync(join(root, 'engine', 'data', 'speed-validation.json'), text + '\n');
console.log(`speed-validation.json: ${multi.length} + ${single.length} vTrain rows, ${simumaxScenarios.length} SimuMax rows, ` +
  `${torchtitanScenarios.length} torchtitan rows, ${dgxcScenarios.length} DGX Cloud H100 rows, ${moeScenarios.length} NVIDIA MoE rows, ${h200Scenarios.length} H200 rows, ` +
  `${torchtitanH100Scenarios.length} torchtitan H100 rows, ` +
  `${atScaleScenarios.length} rows at scale, ${llama3Scenarios.length} Llama 3.1 405B rows, ${mlperfScenarios.length} MLPerf GPT-3 rows`);
