// How fast: utilisation (MFU/HFU), step time and tokens per second, where a step's time goes (a
// stacked bar), the layout in words, the next best layouts the planner weighed, and the math.
import { el, svg } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';

export const STEP_PARTS = ['matmul', 'attention', 'elementwise', 'recompute', 'tensor_parallel', 'context_parallel',
  'expert_parallel', 'pipeline_p2p', 'data_parallel', 'bubble', 'optimizer', 'kernel_launch',
  'micro_batch_host'];

// Three or four significant figures, never more: a step of hours is "7,896 s", not "7,896.09 s".
const secondDigits = (step) => (step >= 100 ? 0 : step >= 10 ? 1 : 2);

export function seconds(x, lang) {
  if (x >= 1) return `${format.plain(x, lang, secondDigits(x))} s`;
  return `${format.plain(x * 1000, lang, x < 0.01 ? 2 : 1)} ms`;
}

// A likely range as the page shows it: `text` in a span carrying the report path and the raw ends
// (data-low, data-high), so tests read exactly what the engine said.
export function likelySpan(path, range, text) {
  return el('span', { class: 'likely', 'data-report': path, 'data-low': range.low, 'data-high': range.high, text });
}

// A likely range beside its figure, its ends in one unit: " (42–55%)", " (1.35–1.81 s)".
function rangeText(range, path, text) {
  return range ? likelySpan(path, range, ` (${text(range)})`) : null;
}

function percentRange(range, lang) {
  const digits = range.high < 0.1 ? 1 : 0;
  return `${format.plain(range.low * 100, lang, digits)}–${format.plain(range.high * 100, lang, digits)}%`;
}

// Seconds or milliseconds as the step itself is said (seconds()), the unit once.
export function secondsRange(range, step, lang) {
  const ms = step < 1;
  const f = (x) => format.plain(ms ? x * 1000 : x, lang, ms ? (step < 0.01 ? 2 : 1) : secondDigits(step));
  return `${f(range.low)}–${f(range.high)} ${ms ? 'ms' : 's'}`;
}

function breakdownBar(parts, total, lang) {
  const width = 600;
  const chart = svg('svg', { viewBox: `0 0 ${width} 28`, class: 'step-bar', role: 'img', 'aria-label': t(lang, 'speed_chart') });
  let x = 0;
  for (const part of STEP_PARTS) {
    const w = (parts[part] / total) * width;
    if (!(w > 0)) continue;
    const rect = svg('rect', { x, y: 2, width: w, height: 24, class: `seg part-${part}` });
    rect.append(svg('title', {}, `${t(lang, `part_${part}`)}: ${seconds(parts[part], lang)} (${format.percent(parts[part] / total, lang)})`));
    chart.append(rect);
    x += w;
  }
  return chart;
}

function zeroWords(zero, lang) {
  return t(lang, `zero_words_${zero}`);
}

// Pipeline stages that hold different numbers of layers (the report's first/middle/last_stage_layers).
function unevenStages(p, lang) {
  const first = p.first_stage_layers, last = p.last_stage_layers, middle = p.middle_stage_layers;
  if (!(p.pp > 1) || first === undefined || last === undefined) return '';
  const n = (v) => format.plain(v, lang, 0);
  if (p.pp === 2) return first === last ? '' : t(lang, 'layout_uneven_two', { first: n(first), last: n(last) });
  if (first === middle && middle === last) return '';
  return t(lang, 'layout_uneven', { first: n(first), middle: n(middle), last: n(last) });
}

// "64 GPUs = tensor 8 × pipeline 2 × data 4; micro-batch 1 (32 per step), ZeRO-1, selective recomputation."
export function layoutInWords(report, lang) {
  const p = report.parallelism;
  const step = report.time;
  const factors = [[p.tp, 'layout_tensor'], [p.pp, 'layout_pipeline'], [p.cp, 'layout_context'], [p.ep, 'layout_expert'], [p.dp, 'layout_data']]
    .filter(([n, key]) => n > 1 || key === 'layout_data')
    .map(([n, key]) => t(lang, 'layout_factor', { n: format.plain(n, lang, 0), what: t(lang, key) }));
  const text = t(lang, 'layout_words', {
    g: format.plain(report.plan.gpus, lang, 0),
    factors: factors.join(' × '),
    mb: format.plain(p.micro_batch, lang, 0),
    perstep: step.micro_batches_per_step ? t(lang, 'layout_per_step', { m: format.plain(step.micro_batches_per_step, lang, 0) }) : '',
    zero: zeroWords(p.zero, lang) + (p.virtual_stages > 1 ? t(lang, 'layout_interleaved', { v: p.virtual_stages }) : '') +
      unevenStages(p, lang),
    rc: t(lang, `rc_${p.recompute}`),
  });
  let how;
  if (p.chosen_by === 'planner') {
    how = report.memory.fits
      ? t(lang, 'layout_planner', { fit: format.plain(p.layouts_fitting, lang, 0), n: format.plain(p.layouts_evaluated, lang, 0) })
      : t(lang, 'layout_planner_none_fit', { n: format.plain(p.layouts_evaluated, lang, 0) });
  } else if (report.warnings?.some((w) => w.code === 'no_layout')) {
    how = t(lang, 'layout_no_layout');
  } else {
    how = t(lang, p.chosen_by === 'given' ? 'layout_given' : 'layout_default');
  }
  return `${text}${lang === 'zh' ? '' : ' '}${how}`;
}

function alternatives(report, lang) {
  const options = report.parallelism.alternatives ?? [];
  if (!options.length || !report.time.step_seconds) return null;
  const best = report.time.step_seconds_predicted ?? report.time.step_seconds;
  const head = ['alt_layout', 'alt_step', 'alt_mfu', 'alt_memory'].map((key) => el('th', { scope: 'col', text: t(lang, key) }));
  const rows = options.map((o) => {
    const layout = [...format.layoutFactors(o), `MB ${o.micro_batch}`, `ZeRO ${o.zero}`, t(lang, `rc_short_${o.recompute}`)].join(' · ');
    const slower = o.step_seconds / best - 1;
    return el('tr', {}, [
      el('td', { text: layout }),
      el('td', { text: `${seconds(o.step_seconds, lang)} (+${format.percent(slower, lang)})` }),
      el('td', { text: format.percent(o.mfu, lang) }),
      el('td', { text: format.bytes(o.memory_bytes, lang) }),
    ]);
  });
  return el('details', { class: 'alternatives' }, [
    el('summary', { text: t(lang, 'alternatives') }),
    el('div', { class: 'table-scroll' }, el('table', {}, [el('thead', {}, el('tr', {}, head)), el('tbody', {}, rows)])),
  ]);
}

export function speedSection(report, lang) {
  const time = report.time;
  const parts = time.breakdown_seconds;
  const source = time.mfu_source === 'given'
    ? t(lang, 'speed_source_given', { p: format.percent(time.mfu_predicted, lang) })
    : t(lang, `speed_source_${time.mfu_source}`);
  const gpus = report.plan.gpus;
  const facts = el('dl', { class: 'figures speed-figures' }, [
    el('dt', { text: t(lang, 'speed_mfu') }),
    el('dd', {}, [el('span', { class: 'value', 'data-report': 'time.mfu', 'data-value': time.mfu, text: format.percent(time.mfu, lang) }),
      rangeText(time.mfu_range, 'time.mfu_range', (r) => percentRange(r, lang))]),
    ...(time.hfu !== undefined ? [el('dt', { text: t(lang, 'speed_hfu') }),
      el('dd', {}, el('span', { 'data-report': 'time.hfu', 'data-value': time.hfu, text: format.percent(time.hfu, lang) }))] : []),
    ...(time.step_seconds !== undefined ? [el('dt', { text: t(lang, 'speed_step') }),
      el('dd', {}, [el('span', { 'data-report': 'time.step_seconds', 'data-value': time.step_seconds, text: seconds(time.step_seconds, lang) }),
        rangeText(time.step_seconds_range, 'time.step_seconds_range', (r) => secondsRange(r, time.step_seconds, lang))])] : []),
    el('dt', { text: t(lang, 'speed_tokens_gpu') }),
    el('dd', { text: format.count(time.tokens_per_second / gpus, lang) }),
  ]);
  const children = [el('h3', { text: t(lang, 'speed') }), el('p', { class: 'muted speed-source', 'data-mfu-source': time.mfu_source, text: source }), facts];
  if (parts) {
    const total = STEP_PARTS.reduce((sum, key) => sum + parts[key], 0);
    const legend = el('ul', { class: 'step-legend' }, STEP_PARTS.filter((key) => parts[key] > 0).map((key) => el('li', {}, [
      el('span', { class: `swatch part-${key}`, 'aria-hidden': 'true' }),
      `${t(lang, `part_${key}`)} `,
      el('span', { 'data-report': `time.breakdown_seconds.${key}`, 'data-value': parts[key], text: `${seconds(parts[key], lang)} · ${format.percent(parts[key] / total, lang)}` }),
    ])));
    children.push(el('p', { class: 'step-title', text: t(lang, time.mfu_source === 'given' ? 'speed_breakdown_predicted' : 'speed_breakdown') }),
      breakdownBar(parts, total, lang), legend);
  }
  children.push(el('p', { class: 'layout-words', 'data-layout': report.parallelism.chosen_by, text: layoutInWords(report, lang) }));
  const alt = alternatives(report, lang);
  if (alt) children.push(alt);
  if (time.step_seconds !== undefined && time.global_batch_sequences) {
    const calibrated = time.range?.basis.startsWith('calibrated_') && report.calibration?.speed;
    const flopsPerStep = report.compute.flops_per_token * time.global_batch_sequences * report.compute.seq_len;
    children.push(el('details', { class: 'math' }, [
      el('summary', { text: t(lang, 'math_speed_title') }),
      el('ol', {}, [
        el('li', { text: t(lang, 'math_speed_step', { b: format.plain(time.global_batch_sequences, lang, 0), s: format.plain(report.compute.seq_len, lang, 0), fpt: format.scientific(report.compute.flops_per_token), f: format.scientific(flopsPerStep) }) }),
        el('li', { text: t(lang, 'math_speed_mfu', { f: format.scientific(flopsPerStep), g: format.plain(gpus, lang, 0), peak: report.hardware.peak_tflops, st: format.plain(time.step_seconds, lang, 3), mfu: format.percent(time.mfu, lang) }) }),
        el('li', { text: t(lang, 'math_speed_model') }),
        time.range && time.mfu_range && time.step_seconds_range ? el('li', { 'data-range-basis': time.range.basis, text: t(lang, calibrated ? 'math_speed_range_calibrated' : 'math_speed_range', {
          rows: format.plain(time.range.rows, lang, 0),
          sources: t(lang, time.range.sources === 1 ? 'sources_one' : 'sources_many', { n: format.plain(time.range.sources, lang, 0) }),
          ...(calibrated ? { distance: t(lang, `calibrated_distance_${report.calibration.speed.distance}`) }
            : { basis: t(lang, `range_basis_${time.range.basis}`) }),
          lo: format.factor(time.range.low, lang), hi: format.factor(time.range.high, lang),
          step: secondsRange(time.step_seconds_range, time.step_seconds, lang), mfu: percentRange(time.mfu_range, lang),
        }) }) : null,
        time.range?.outside_high ? el('li', { 'data-range-outside': '', text: t(lang, 'math_range_outside', {
          lo: format.factor(time.range.outside_low, lang), hi: format.factor(time.range.outside_high, lang),
        }) }) : null,
      ]),
    ]));
  }
  return el('section', { class: 'speed', 'aria-label': t(lang, 'speed') }, children);
}
