// Builds engine/data/memory-validation.json, the measured peak-memory runs the memory model is
// validated on (`traincalc validate --memory`, the page's validation view), from the collected rows:
//   tests/data/memory-measured/normalized.json   (finetune.json and pretrain.json, settings normalised
//                                                 by tests/data/memory-measured/normalize.mjs)
//   tests/data/memory-measured/simumax-settings.json and simumax-b200.json (Megatron-LM on B200)
// Each included row becomes a scenario in the contract's terms plus what was measured and how. Rows
// are included or left out on their settings alone (the reasons are in those files), never on an
// error. Run it when those files change:  node scripts/make-memory-validation.mjs
// A test (tests/node/memory-validation.test.mjs) keeps the output current.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const measured = join(root, 'tests', 'data', 'memory-measured');
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));

const raw = { 'finetune.json': read(join(measured, 'finetune.json')).rows, 'pretrain.json': read(join(measured, 'pretrain.json')).rows };
const normalized = read(join(measured, 'normalized.json')).rows;
const simumax = read(join(measured, 'simumax-settings.json'));
const simumaxMeasured = read(join(measured, 'simumax-b200.json'));  // from ../shared/reference/measured
const gpus = new Map(read(join(root, 'engine', 'data', 'gpus.json')).gpus.map((g) => [g.id, g]));

// The architecture fields a scenario's model takes (docs/reference.md, "architecture").
const ARCHITECTURE = ['layers', 'hidden', 'heads', 'kv_heads', 'head_dim', 'ffn_hidden', 'vocab', 'gated_mlp',
  'tied_embeddings', 'experts', 'experts_per_token', 'encoder_only', 'bias', 'norm', 'position_embeddings', 'qkv_bias',
  'qk_norm', 'norms_per_layer', 'embedding_norm', 'lm_head_bias', 'moe_ffn_hidden', 'shared_experts', 'dense_layers',
  'q_lora_rank', 'kv_lora_rank', 'qk_nope_head_dim', 'qk_rope_head_dim', 'v_head_dim', 'decoder_layers', 'dropout'];
const OPTIMIZERS = { adamw: 'adamw', adam: 'adam', adamw_8bit: 'adamw-8bit', adam8bit: 'adamw-8bit',
  paged_adamw: 'paged-adamw', paged_adamw_8bit: 'paged-adamw-8bit', sgd: 'sgd', adafactor: 'adafactor' };
const FRAMEWORK_NAMES = { megatron: 'Megatron-LM', deepspeed: 'DeepSpeed', torchtitan: 'torchtitan', fsdp2: 'FSDP2',
  hf: 'Hugging Face', litgpt: 'LitGPT', torchtune: 'torchtune', unsloth: 'Unsloth' };
// The counters as the engine reports them: allocated (max_memory_allocated; the active-bytes peak is
// the same allocations), reserved (max_memory_reserved), device (nvidia-smi: the CUDA context too).
const COUNTERS = { allocated: 'allocated', active: 'allocated', reserved: 'reserved', nvml: 'device' };

function scenario(r) {
  const model = r.model ? { preset: r.model } : { name: r.model_name ?? 'measured model' };
  if (r.architecture)
    for (const key of ARCHITECTURE) if (r.architecture[key] !== undefined && r.architecture[key] !== null) model[key] = r.architecture[key];
  const dp = r.dp ?? 1;
  const training = {
    type: r.training === 'pretrain' ? 'pretrain' : 'finetune',
    steps: 1,
    seq_len: r.seq_len,
    global_batch_sequences: r.micro_batch * (r.gradient_accumulation ?? 1) * dp,
  };
  if (r.objective) training.objective = r.objective;
  if (r.method && r.method !== 'full') {
    training.method = r.method;
    if (r.lora_rank) training.lora_rank = r.lora_rank;
    if (r.lora_targets) training.lora_targets = r.lora_targets;
    if (r.adapter_precision) training.adapter_precision = r.adapter_precision;
    if (r.lora_dropout !== null && r.lora_dropout !== undefined) training.lora_dropout = r.lora_dropout;
    if (r.method === 'qlora' && r.quantization) training.quantization = r.quantization;
  }
  const framework = r.framework === 'torchtitan' ? 'fsdp2' : r.framework;
  const strategy = {
    framework,
    precision: r.regime === 'fp32' ? 'fp32' : r.precision,
    optimizer: OPTIMIZERS[r.optimizer] ?? r.optimizer,
    tp: r.tp ?? 1, pp: r.pp ?? 1, cp: r.cp ?? 1, ep: r.ep ?? 1, dp,
    zero: r.zero ?? 0,
    micro_batch: r.micro_batch,
    recompute: r.recompute ?? 'none',
    attention: r.attention,
    cross_entropy: r.cross_entropy,
    mfu: 0.4,  // the speed does not enter the memory; a given utilisation skips its prediction
  };
  if (r.regime && r.regime !== 'fp32') strategy.regime = r.regime;
  if ((r.virtual_stages ?? 1) > 1) strategy.pp_virtual_stages = r.virtual_stages;
  if (r.sequence_parallel !== undefined && r.sequence_parallel !== null) strategy.sequence_parallel = r.sequence_parallel;
  if (r.optimizer_in_backward) strategy.optimizer_in_backward = true;
  if (r.activation_offload) strategy.activation_offload = true;
  if (r.compiled) strategy.compile = true;
  if (r.offload && r.offload !== 'none') strategy.offload = r.offload === 'optimizer_and_params' ? 'optimizer+params' : r.offload;
  let gpu = r.gpu;
  if (r.capacity_gib) {
    // A card the catalog lists with another capacity (H100 96 GB, say): the catalog's row, resized.
    const { id, source, notes, confidence, ...spec } = gpus.get(r.gpu);
    gpu = { ...spec, name: `${spec.name} (${r.capacity_gib} GiB)`, memory_gb: r.capacity_gib, usable_memory_gib: r.capacity_gib };
  }
  const s = { model, training, hardware: { gpu, count: r.gpus ?? 1 }, strategy };
  if (r.cuda_context_gb) s.memory = { cuda_context_gb: r.cuda_context_gb };
  return s;
}

function label(r) {
  const model = r.model ?? r.base_model ?? r.model_name ?? `${r.architecture?.layers}-layer model`;
  const method = r.method === 'full' || !r.method ? 'full' : `${r.method} r${r.lora_rank}`;
  const layout = [r.tp > 1 && `tp${r.tp}`, r.pp > 1 && `pp${r.pp}`, r.cp > 1 && `cp${r.cp}`, r.ep > 1 && `ep${r.ep}`,
    (r.dp ?? 1) > 1 && `dp${r.dp}`, r.zero && `z${r.zero}`].filter(Boolean).join(' ');
  return `${FRAMEWORK_NAMES[r.framework] ?? r.framework} ${model} ${method} ${r.gpus ?? 1}x${r.gpu} ` +
    `mb${r.micro_batch} s${r.seq_len}${r.recompute && r.recompute !== 'none' ? ` rc-${r.recompute}` : ''}${layout ? ` ${layout}` : ''}`;
}

const rows = [];
const left_out = {};
function add(r, id, source, counterOverride, measuredGib) {
  // A run a table lists twice (the same configuration, the same machine) counts once.
  if (r.include && r.duplicate_of !== undefined && r.duplicate_of !== null) {
    left_out['the same run listed twice'] = (left_out['the same run listed twice'] ?? 0) + 1;
    return;
  }
  if (!r.include) {
    left_out[r.exclude_reason] = (left_out[r.exclude_reason] ?? 0) + 1;
    return;
  }
  const counter = COUNTERS[counterOverride ?? r.counter];
  if (!counter && !r.oom && r.bound !== 'upper') {
    left_out[`counter ${r.counter} not stated`] = (left_out[`counter ${r.counter} not stated`] ?? 0) + 1;
    return;
  }
  const row = {
    id,
    label: label(r),
    source_group: r.source_group,
    framework: r.framework,
    source,
    confidence: r.confidence,
    counter: counter ?? 'reserved',
    scenario: scenario(r),
  };
  // A peak one pipeline rank logged (Megatron-LM's golden values: the last rank) is that stage's, not the worst's.
  if (r.which_rank === 'last_rank' && (r.pp ?? 1) > 1) row.rank = 'last';
  // Runs tuned to fill the GPU (torchtitan's long-context tables; tests/data/memory-measured/README.md,
  // "Known disagreements") show what fits, not what is needed: they bound the prediction from above.
  const filled = [].concat(r.notes ?? []).join(' ').includes('fills the GPU');
  if (r.oom) row.out_of_memory = true;
  else if (r.bound === 'upper' || filled) {
    row.upper_bound = true;
    row.measured_gib = measuredGib ?? r.measured_gib;
  } else row.measured_gib = measuredGib ?? r.measured_gib;
  rows.push(row);
}

for (const r of normalized) {
  // The Hugging Face guide reads nvidia-smi, which counts the CUDA context; the same guide measured that
  // context as 1,343 MB on its V100 stack ("Model training anatomy"), eager module loading.
  if (r.source_group === 'hf-guide-v100') r.cuda_context_gb = (1343 * 2 ** 20) / 1e9;
  const [file, index] = r.ref.split('#');
  const original = raw[file][Number(index)];
  add(r, r.ref, original.source, undefined);
}
// SimuMax: one run per layout measured both peaks; the rows with more micro-batches per step reuse
// that run's memory (SimuMax's guide), so each measurement enters once, as allocated and as reserved.
const seen = new Set();
simumax.rows.forEach((r, i) => {
  const measuredRow = simumaxMeasured.rows[i];
  const key = `${measuredRow.real_alloc_gib}/${measuredRow.real_reserved_gib}/${r.architecture.layers}/${r.tp}/${r.pp}/${r.cp}/${r.ep}`;
  if (seen.has(key)) {
    left_out['the same measurement as another row'] = (left_out['the same measurement as another row'] ?? 0) + 1;
    return;
  }
  seen.add(key);
  const source = `${simumaxMeasured.source.split('. ')[0]}: case ${r.case}`;
  r.model_name = r.case.split('_')[0];
  add(r, `simumax-b200.json#${i}/allocated`, source, 'allocated', measuredRow.real_alloc_gib);
  add(r, `simumax-b200.json#${i}/reserved`, source, 'reserved', measuredRow.real_reserved_gib);
});

const out = {
  description:
    'Measured peak GPU memory of real training and fine-tuning runs, each as a scenario, for the memory model\'s ' +
    'validation held out by source. Generated by scripts/make-memory-validation.mjs from tests/data/memory-measured/ ' +
    '(each row cites its source there, with the line the number was read from).',
  left_out,
  rows,
};
writeFileSync(join(root, 'engine', 'data', 'memory-validation.json'), `${JSON.stringify(out, null, 1)}\n`);
console.log(`make-memory-validation: ${rows.length} rows from ${new Set(rows.map((r) => r.source_group)).size} sources`);
