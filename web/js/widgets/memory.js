// Will it fit? The memory per GPU as a stacked bar against the GPU's capacity, the verdict, what
// would make it fit (each change computed by the engine, applied with a click), and the math.
import { el, svg } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';

const PARTS = ['weights', 'gradients', 'optimizer', 'activations', 'logits', 'previous', 'recomputed', 'overhead'];

function bar(memory, lang) {
  // What is in memory at the peak (the parts sum to the total), against the larger of the peak and
  // the capacity.
  const parts = memory.at_peak_bytes;
  const scale = Math.max(memory.per_gpu_bytes.total, memory.capacity_bytes) * 1.02;
  const width = 600;
  const chart = svg('svg', { viewBox: `0 0 ${width} 34`, class: 'memory-bar', role: 'img', 'aria-label': t(lang, 'memory_chart') });
  let x = 0;
  for (const part of PARTS.filter((p) => p in parts)) {
    const w = (parts[part] / scale) * width;
    if (w <= 0) continue;
    const rect = svg('rect', { x, y: 4, width: w, height: 24, class: `seg seg-${part}` });
    rect.append(svg('title', {}, `${t(lang, `memory_${part}`)}: ${format.bytes(parts[part], lang)}`));
    chart.append(rect);
    x += w;
  }
  const cap = (memory.capacity_bytes / scale) * width;
  chart.append(svg('line', { x1: cap, y1: 0, x2: cap, y2: 32, class: 'capacity' }));
  // The capacity's label is text on the page, not in the drawing, so that it keeps its size on a phone.
  const label = el('span', { class: 'capacity-label', text: `${t(lang, 'memory_capacity')} ${format.bytes(memory.capacity_bytes, lang)}` });
  const at = cap / width;
  if (at > 0.75) label.style.right = `${((1 - at) * 100).toFixed(1)}%`;
  else label.style.left = `${(at * 100).toFixed(1)}%`;
  if (at > 0.25 && at <= 0.75) label.style.transform = 'translateX(-50%)';
  return el('div', { class: 'memory-bar-wrap' }, [chart, label]);
}

function describeChange(field, value, lang, catalog) {
  switch (field) {
    case 'strategy.zero': return t(lang, 'sug_zero', { v: value });
    case 'strategy.recompute': return t(lang, `sug_recompute_${value}`);
    case 'strategy.micro_batch': return t(lang, 'sug_micro_batch', { v: value });
    case 'strategy.offload': return t(lang, 'sug_offload');
    case 'training.seq_len': return t(lang, 'sug_seq_len', { v: format.plain(value, lang, 0) });
    case 'strategy.optimizer': return t(lang, 'sug_optimizer_8bit');
    case 'strategy.cross_entropy': return t(lang, 'sug_cross_entropy');
    case 'training.method': return t(lang, `sug_method_${value}`);
    case 'hardware.count': return t(lang, 'sug_gpus', { v: format.plain(value, lang, 0) });
    case 'hardware.gpu': return t(lang, 'sug_gpu', { v: catalog?.gpus.find((g) => g.id === value)?.name ?? value });
    default: return `${field} = ${value}`;
  }
}

export function memorySection(report, lang, { catalog, onApply }) {
  const m = report.memory;
  const parts = m.per_gpu_bytes;
  // With a parameter count only the verdict is about the weights, gradients and optimizer states:
  // activations need the architecture, and the verdict says they are not counted.
  const states = m.activations_known ? '' : '_states';
  const verdict = m.fits
    ? t(lang, `memory_fits${states}`, { total: format.bytes(parts.total, lang), capacity: format.bytes(m.capacity_bytes, lang), free: format.bytes(m.headroom_bytes, lang) })
    : t(lang, `memory_does_not_fit${states}`, { total: format.bytes(parts.total, lang), capacity: format.bytes(m.capacity_bytes, lang), short: format.bytes(m.shortfall_bytes, lang) });
  // The legend names what the bar stacks: the parts in memory at the peak, which sum to the total.
  const atPeak = m.at_peak_bytes;
  const legend = el('ul', { class: 'memory-legend' }, PARTS.filter((p) => atPeak[p] > 0).map((p) => el('li', {}, [
    el('span', { class: `swatch seg-${p}`, 'aria-hidden': 'true' }),
    `${t(lang, `memory_${p}`)} `,
    el('span', { 'data-report': `memory.at_peak_bytes.${p}`, 'data-value': atPeak[p], text: format.bytes(atPeak[p], lang) }),
  ])));
  const facts = [];
  // Nothing fits: said once, in words, not as "largest micro-batch 0 · longest sequence 0 tokens".
  const nothingFits = m.max_micro_batch === 0 && m.max_seq_len === 0;
  if (nothingFits) facts.push(t(lang, 'memory_nothing_fits'));
  else if (m.max_micro_batch === 0) facts.push(t(lang, 'memory_no_micro_batch'));
  else if (m.max_micro_batch !== undefined) facts.push(t(lang, 'memory_max_micro_batch', { v: m.max_micro_batch }));
  if (m.min_gpus !== undefined) facts.push(t(lang, 'memory_min_gpus', { v: format.plain(m.min_gpus, lang, 0) }));
  if (m.max_seq_len !== undefined && !nothingFits) facts.push(t(lang, 'memory_max_seq_len', { v: format.plain(m.max_seq_len, lang, 0), mb: format.plain(m.max_seq_len_micro_batch ?? 1, lang, 0) }));
  // What the framework preset assumed, the rank with the peak, and the counters PyTorch would print.
  const a = m.assumptions;
  const assumes = t(lang, 'memory_assumes', {
    framework: t(lang, `framework_${a.framework}`), regime: t(lang, `regime_${a.regime}`),
    attention: t(lang, `attention_${a.attention}`), loss: t(lang, `loss_${a.cross_entropy}`),
  });
  const worst = m.worst_stage !== 'only'
    ? el('p', { class: 'hint', 'data-report': 'memory.worst_pipeline_rank', 'data-value': m.worst_pipeline_rank,
      text: t(lang, 'memory_worst_stage', { rank: format.plain(m.worst_pipeline_rank, lang, 0), stage: t(lang, `stage_${m.worst_stage}`) }) })
    : null;
  const counters = t(lang, 'memory_counters', { allocated: format.bytes(m.allocated_bytes, lang), reserved: format.bytes(m.reserved_bytes, lang) });
  const suggestions = m.suggestions.length
    ? el('div', { class: 'suggestions' }, [
      el('h4', { text: t(lang, 'memory_suggestions') }),
      el('ul', {}, m.suggestions.map((s) => {
        const label = Object.entries(s.changes).map(([f, v]) => describeChange(f, v, lang, catalog)).join(' + ');
        const button = el('button', { type: 'button', class: 'link', text: label });
        button.addEventListener('click', () => onApply(s.changes));
        return el('li', {}, [
          button, ` → ${format.bytes(s.total_bytes, lang)} `, el('span', { class: s.fits ? 'ok' : 'bad', text: t(lang, s.fits ? 'fits' : 'does_not_fit') }),
        ]);
      })),
    ])
    : null;
  return el('section', { class: 'memory', 'data-fits': String(m.fits), 'aria-labelledby': 'memory-title' }, [
    el('h3', { id: 'memory-title', text: t(lang, 'memory_title') }),
    el('p', { class: m.fits ? 'verdict ok' : 'verdict bad', 'data-report': 'memory.fits', 'data-value': m.fits, text: verdict }),
    bar(m, lang),
    legend,
    facts.length ? el('p', { class: 'hint', text: facts.join(' · ') }) : null,
    // Said once: what "GB" means here, and what of the card counts as usable.
    el('p', { class: 'hint', 'data-report': 'hardware.usable_memory_gib', 'data-value': report.hardware.usable_memory_gib, text: t(lang, 'memory_units', {
      card: report.hardware.gpu_name, stated: format.plain(report.hardware.memory_gb, lang, 1),
      usable: format.bytes(report.hardware.usable_memory_gib * 2 ** 30, lang),
    }) }),
    worst,
    el('p', { class: 'hint', 'data-report': 'memory.assumptions.framework', 'data-value': a.framework, text: `${assumes} ${counters}` }),
    suggestions,
    memoryMath(report, lang),
  ]);
}

function memoryMath(report, lang) {
  const m = report.memory;
  const x = m.explain;
  const p = m.per_gpu_bytes;
  const o = m.overhead_bytes;
  const gb = (v) => format.bytes(v, lang);
  const shard = (divisor) => (divisor > 1 ? ` ÷ ${format.plain(divisor, lang, 2)} (ZeRO)` : '');
  // Under FSDP1 with adapters every parameter of a wrapped block has a gradient, not only the trainable ones.
  const withGradients = x.gradient_params_per_gpu ?? x.trainable_params_per_gpu;
  const blocks = withGradients > x.trainable_params_per_gpu;
  const lines = [
    t(lang, 'mm_weights', { p: format.scientific(x.params_per_gpu), b: format.plain(x.weight_bytes_per_param, lang, 3), z: shard(x.weight_shard), v: gb(p.weights) }),
    t(lang, blocks ? 'mm_gradients_blocks' : 'mm_gradients', { p: format.scientific(withGradients), b: x.gradient_bytes_per_param, z: shard(x.gradient_shard), v: gb(p.gradients) }),
    t(lang, 'mm_optimizer', { p: format.scientific(x.trainable_params_per_gpu), b: x.optimizer_bytes_per_param, z: shard(x.optimizer_shard), v: gb(p.optimizer) }),
  ];
  if (x.fp8_weight_copies_bytes > 0) lines.splice(1, 0, t(lang, 'mm_fp8_weights', { v: gb(x.fp8_weight_copies_bytes) }));
  if (report.parallelism && m.peak_parts && !m.peak_parts.includes('gradients')) lines.push(t(lang, 'mm_gradients_freed'));
  if (x.stage_weights_gathered) lines.push(t(lang, 'mm_stage_gathered', { g: gb(o.gather) }));
  else if (x.gradients_unsharded_while_accumulating) lines.push(t(lang, 'mm_gradients_no_sync'));
  if (m.activations_known) {
    lines.push(t(lang, 'mm_activations', { b: format.count(x.activation_bytes_per_token, lang), n: format.plain(x.tokens_per_micro_batch, lang, 0), k: format.plain(m.micro_batches_in_flight, lang, 1), v: gb(p.activations) }));
    if (m.worst_stage === 'first' && m.stage_bytes?.last !== undefined) lines.push(t(lang, 'mm_logits_elsewhere', { v: gb(m.stage_bytes.last) }));
    else lines.push(t(lang, 'mm_logits', { b: format.count(x.logits_bytes_per_token, lang), n: format.plain(x.tokens_per_micro_batch, lang, 0), v: gb(p.logits) }));
    if (x.previous_micro_batch_bytes > 0) {
      lines.push(t(lang, 'mm_previous', { v: gb(x.previous_micro_batch_bytes), a: gb(m.at_peak_bytes.previous ?? 0) }));
    }
  }
  lines.push(t(lang, 'mm_overhead', {
    c: gb(o.cuda_context), n: gb(o.communication), g: gb(o.gather), k: gb(o.matmul_workspace ?? 0), w: gb((o.workspace ?? 0) + (o.cast_copies ?? 0)),
    f: format.percent(x.fragmentation_fraction, lang), fr: gb(o.fragmentation), v: gb(p.overhead),
  }));
  lines.push(t(lang, 'mm_peak', {
    f: gb(m.phases_bytes.forward), b: gb(m.phases_bytes.backward), o: gb(m.phases_bytes.optimizer), phase: t(lang, `phase_${m.peak_phase}`), v: gb(p.total),
  }));
  return el('details', { class: 'math' }, [el('summary', { text: t(lang, 'memory_math') }), el('ol', {}, lines.map((l) => el('li', { text: l })))]);
}
