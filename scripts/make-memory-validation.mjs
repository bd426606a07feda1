// Builds engine/data/memory-validation.json, the measured peak-memory runs the memory model is
// validated on (`traincalc validate --memory`, the page's validation view), from the collected rows:
//   tests/data/memory-measured/normalized.json   (finetune.json and pretrain.json, settings normalised
//                                                 by tests/data/memory-measured/normalize.mjs)
//   tests/data/memory-measured/simumax-settings.json and simumax-b200.json (Megatron-LM on B200)
// Each included row becomes a scenario in the contract's terms plus what was measured and how. Rows
// are included or left out on their settings alone (the reasons are in those files), never on an
// error. Run it when those files change:  node scripts/make-memory-validation.mjs
// A test (tests/node/measured-data.test.mjs) keeps the output current.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenario as measuredScenario, simumaxModelName } from './measured-scenario.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const measured = join(root, 'tests', 'data', 'memory-measured');
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));

const raw = { 'finetune.json': read(join(measured, 'finetune.json')).rows, 'pretrain.json': read(join(measured, 'pretrain.json')).rows };
const normalized = read(join(measured, 'normalized.json')).rows;
const simumax = read(join(measured, 'simumax-settings.json'));
const simumaxMeasured = read(join(measured, 'simumax-b200.json'));  // from ../shared/reference/measured
const gpus = new Map(read(join(root, 'engine', 'data', 'gpus.json')).gpus.map((g) => [g.id, g]));

const FRAMEWORK_NAMES = { megatron: 'Megatron-LM', deepspeed: 'DeepSpeed', torchtitan: 'torchtitan', fsdp2: 'FSDP2',
  hf: 'Hugging Face', litgpt: 'LitGPT', torchtune: 'torchtune', unsloth: 'Unsloth' };
// The counters as the engine reports them: allocated (max_memory_allocated; the active-bytes peak is
// the same allocations), reserved (max_memory_reserved), device (nvidia-smi: the CUDA context too).
const COUNTERS = { allocated: 'allocated', active: 'allocated', reserved: 'reserved', nvml: 'device' };

// The memory does not depend on the speed; a given utilisation skips the step prediction.
function scenario(r) {
  const s = measuredScenario(r, gpus);
  s.strategy.mfu = 0.4;
  return s;
}

// The run's short name: its model as the scenario names it (a preset, else measured-scenario.mjs's name).
function label(r, s) {
  const model = s.model.preset ?? s.model.name;
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
  const s = scenario(r);
  const row = {
    id,
    label: label(r, s),
    source_group: r.source_group,
    lineage: LINEAGES[r.framework],
    framework: r.framework,
    source,
    confidence: r.confidence,
    counter: counter ?? 'reserved',
    scenario: s,
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

// Whose training code ran: the memory validation holds out every row of one lineage together, since a
// framework's allocator habits, kernels and defaults are shared by every source that runs it.
const LINEAGES = { litgpt: 'lightning', megatron: 'megatron', torchtitan: 'pytorch', torchtune: 'pytorch', hf: 'huggingface' };

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
  r.model_name = simumaxModelName(r.case);
  add(r, `simumax-b200.json#${i}/allocated`, source, 'allocated', measuredRow.real_alloc_gib);
  add(r, `simumax-b200.json#${i}/reserved`, source, 'reserved', measuredRow.real_reserved_gib);
});

const out = {
  description:
    'Measured peak GPU memory of real training and fine-tuning runs, each as a scenario, for the memory model\'s ' +
    'validation held out by software lineage (`lineage`: whose training code ran, whoever measured it). Generated by scripts/make-memory-validation.mjs from tests/data/memory-measured/ ' +
    '(each row cites its source there, with the line the number was read from).',
  left_out,
  rows,
};
writeFileSync(join(root, 'engine', 'data', 'memory-validation.json'), `${JSON.stringify(out, null, 1)}\n`);
console.log(`make-memory-validation: ${rows.length} rows from ${new Set(rows.map((r) => r.source_group)).size} sources`);
