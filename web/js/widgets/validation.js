// How accurate the speed prediction is: the engine's prediction for every published run it was
// calibrated on, beside the published figure, and the planner's own layout for the same GPUs.
// Computed (in the engine's worker, by the validation module, which is fetched then) the first time
// it is opened; where that fails, it says so.
import { el } from '../dom.js';
import * as format from '../format.js';
import { confidenceWord, t } from '../i18n.js';

export class Validation {
  constructor(container, { onOpen }) {
    this.container = container;
    this.summaryLabel = el('summary');
    this.status = el('p', { class: 'status', role: 'status' });
    this.body = el('div');
    this.details = el('details', { class: 'validation' }, [this.summaryLabel, this.status, this.body]);
    this.details.addEventListener('toggle', () => { if (this.details.open) onOpen(); });
    container.append(this.details);
    this.data = null;
  }

  get open() {
    return this.details.open;
  }

  label(lang) {
    this.summaryLabel.textContent = t(lang, 'validation');
    if (this.data) this.render(this.data, lang, this.memory, this.measured, this.runs);
    else if (this.statusKey) this.status.textContent = t(lang, this.statusKey);
  }

  loading(lang) {
    this.statusKey = 'loading';
    this.status.textContent = t(lang, 'loading');
    delete this.container.dataset.state;
  }

  // The validation module could not be fetched or run (offline, blocked): said, with what to do.
  failed(lang) {
    this.statusKey = 'validation_failed';
    this.status.textContent = t(lang, 'validation_failed');
    this.container.dataset.state = 'failed';
  }

  render(data, lang, memory = null, measured = null, runs = null) {
    this.data = data;
    this.memory = memory;
    this.measured = measured;
    this.runs = runs;
    this.statusKey = null;
    this.filters ??= { source: '', gpu: '', framework: '', outside: false };
    this.status.textContent = '';
    this.container.dataset.state = 'ok';
    const pp = (x) => signedPercent(x, lang).slice(0, -1);
    const head = ['val_run', 'val_metric', 'val_published', 'val_predicted', 'val_error', 'val_planner']
      .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
    const rows = data.rows.map((row) => el('tr', { 'data-row': row.id }, [
      el('th', { scope: 'row' }, [
        el('span', { class: 'val-run', text: calibrationWords(row, lang) }),
        el('span', { class: 'val-source', text: `${row.label} · ${row.source}` }),
      ]),
      el('td', { text: row.metric.toUpperCase() }),
      el('td', { text: format.percent(row.published, lang) }),
      el('td', { 'data-value': row.predicted, text: format.percent(row.predicted, lang) }),
      el('td', { class: Math.abs(row.error_pp) > 5 ? 'val-far' : '', text: pp(row.error_pp) }),
      el('td', { text: row.planner ? `${format.plain(row.step_seconds / row.planner.step_seconds, lang, 2)}×` : '—' }),
    ]));
    this.body.replaceChildren(
      el('p', { 'data-median': data.median_abs_error_pp, text: t(lang, 'val_summary', {
        n: data.rows.length, median: format.plain(data.median_abs_error_pp, lang, 1), max: format.plain(data.max_abs_error_pp, lang, 1),
      }) }),
      el('p', { class: 'muted', text: t(lang, 'val_notes') }),
      tableOf(head, el('tbody', {}, rows)),
      measured ? this.speedTable(measured, lang) : null,
      runs ? runsTable(runs, lang) : null,
      memory ? memoryTable(memory, lang) : null,
    );
  }
}

const SHOWN_ROWS = 300;

// Each cell carries its column's heading (data-label): on a phone the rows stack, every figure under
// its name, instead of a table wider than the screen. The roles keep it a table to assistive
// technology when CSS lays its rows out as blocks.
function labelled(body, head) {
  body.setAttribute('role', 'rowgroup');
  for (const tr of body.children) {
    tr.setAttribute('role', 'row');
    [...tr.children].forEach((cell, i) => {
      if (cell.tagName === 'TD') {
        cell.dataset.label = head[i]?.textContent ?? '';
        cell.setAttribute('role', 'cell');
      } else cell.setAttribute('role', 'rowheader');
    });
  }
  return body;
}

function tableOf(head, body) {
  for (const th of head) th.setAttribute('role', 'columnheader');
  return el('div', { class: 'table-scroll' }, el('table', { class: 'validation-table', role: 'table' }, [
    el('thead', { role: 'rowgroup' }, el('tr', { role: 'row' }, head)), labelled(body, head),
  ]));
}

// A signed percentage to one decimal: +2.2%, -7%, and 0% (not "-0%") for what rounds to nothing.
function signedPercent(x, lang) {
  const rounded = Math.round(x * 10) / 10 || 0;
  return `${rounded > 0 ? '+' : ''}${format.plain(rounded, lang, 1)}%`;
}

// A speed-validation source's name in the page's language; a source without one shows its group id.
function sourceName(lang, group) {
  const key = `val_src_${group}`;
  const name = t(lang, key);
  return name === key ? group : name;
}

// What a validation row says of the run, in the page's language: the model (its source's name, or
// "unnamed model" for one named only by its depth), layers, parameters, how it trained, the micro-batch,
// the precision and the recomputation; each table adds its own (the GPU has a column in the speed table).
function runFacts(r, lang) {
  const unnamed = !r.model || r.model === 'measured model' || /^\d+-layer model$/.test(r.model);
  return {
    model: unnamed ? t(lang, 'val_model_unnamed') : r.model, layers: format.plain(r.layers, lang, 0),
    params: format.count(r.params, lang), method: t(lang, `val_method_${r.method}`), gpus: format.plain(r.gpus, lang, 0),
    mb: format.plain(r.layout.micro_batch, lang, 0), seq: format.plain(r.seq_len, lang, 0),
    precision: r.precision.toUpperCase(), rc: t(lang, `rc_${r.layout.recompute}`),
  };
}

// Its layout: the parallel factors, and the ZeRO stage where the states are sharded.
function layoutWords(l) {
  return [...format.layoutFactors(l), l.zero > 0 ? `ZeRO ${l.zero}` : null].filter(Boolean).join(' ');
}

// A measured step: the batch a step and the layout (the source's own name for the run is shown beneath).
function runWords(r, lang) {
  return t(lang, 'val_run_words', {
    ...runFacts(r, lang), layout: layoutWords(r.layout), batch: format.plain(r.global_batch_sequences, lang, 0),
  });
}

// A calibration run: its model without the source's parenthesis (the label beneath names it), the GPUs
// and layout, the batch a step.
function calibrationWords(r, lang) {
  const facts = runFacts(r, lang);
  return t(lang, 'val_calib_words', {
    ...facts, model: facts.model.replace(/\s*\([^)]*\)$/, ''), gpu: r.gpu_name, layout: layoutWords(r.layout),
    batch: format.plain(r.global_batch_sequences, lang, 0),
  });
}

// Measured step times, held out by software lineage: what a new publisher meets (each lineage held
// out of the fit and of the ranges), a summary by source, then every row, filterable by source, GPU
// and framework (and to those outside their likely range), at most SHOWN_ROWS at a time.
Validation.prototype.speedTable = function speedTable(measured, lang) {
  const pct = (x) => signedPercent(x, lang);
  const lineageHead = ['val_lineage', 'val_sources', 'val_rows', 'val_held_out', 'val_bias_median', 'val_in_range_lineage', 'val_width']
    .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
  const lineageRows = (measured.lineages ?? []).map((l) => el('tr', { 'data-lineage': l.name }, [
    el('th', { scope: 'row', text: l.name }),
    el('td', { text: format.plain(l.sources, lang, 0) }),
    el('td', { text: format.plain(l.rows, lang, 0) }),
    el('td', { 'data-value': l.median_abs_error_pct, text: `${format.plain(l.median_abs_error_pct, lang, 1)}%` }),
    el('td', { text: pct(l.median_error_pct) }),
    el('td', { 'data-value': l.range_coverage_pct, text: `${format.plain(l.range_coverage_pct, lang, 0)}%` }),
    el('td', { text: format.factor(l.range_median_width, lang) }),
  ]));
  const sourceHead = ['val_source', 'val_framework', 'val_rows', 'val_held_out', 'val_bias', 'val_in_sample', 'val_in_range']
    .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
  const sourceRows = measured.sources.map((s) => el('tr', { 'data-source': s.group }, [
    el('th', { scope: 'row' }, s.fitted === false
      ? [sourceName(lang, s.group), el('span', { class: 'val-source', 'data-validation-only': '', text: ` · ${t(lang, 'val_validation_only')}` })]
      : [sourceName(lang, s.group)]),
    el('td', { text: s.framework }),
    el('td', { text: format.plain(s.rows, lang, 0) }),
    el('td', { 'data-value': s.median_abs_error_pct, text: `${format.plain(s.median_abs_error_pct, lang, 1)}%` }),
    el('td', { text: pct(s.mean_error_pct) }),
    // A source never fitted on has no in-sample error (its own is the held-out one).
    el('td', { text: s.fitted === false ? '—' : `${format.plain(s.median_abs_error_in_sample_pct, lang, 1)}%` }),
    el('td', { 'data-value': s.range_coverage_pct, text: `${format.plain(s.range_coverage_pct, lang, 0)}% (${format.plain(s.range_coverage_nested_pct, lang, 0)}%)` }),
  ]));
  const options = (key) => [...new Set(measured.rows.map((r) => r[key]))].sort();
  const rowsHead = ['val_measured_run', 'val_gpu', 'val_measured', 'val_predicted_held_out', 'val_step_error', 'val_range']
    .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
  const rowsBody = el('tbody');
  const shown = el('p', { class: 'muted val-shown', role: 'status' });
  const filters = this.filters;
  const draw = () => {
    const match = measured.rows.filter((r) => (!filters.source || r.source_group === filters.source)
      && (!filters.gpu || r.gpu === filters.gpu) && (!filters.framework || r.framework === filters.framework)
      && (!filters.outside || !r.in_range));
    const measuredText = (r) => (r.metric === 'step_seconds' ? `${format.plain(r.measured, lang, 3)} s` : `${r.metric.toUpperCase()} ${format.percent(r.measured, lang)}`);
    const predictedText = (r) => (r.metric === 'step_seconds' ? `${format.plain(r.predicted, lang, 3)} s` : format.percent(r.predicted, lang));
    rowsBody.replaceChildren(...match.slice(0, SHOWN_ROWS).map((r) => el('tr', { 'data-row': r.id }, [
      el('th', { scope: 'row' }, [el('span', { class: 'val-run', text: runWords(r, lang) }),
        el('span', { class: 'val-source', text: ` ${sourceName(lang, r.source_group)} · ${r.label}` })]),
      el('td', { text: r.gpu_name }),
      el('td', { text: measuredText(r) }),
      el('td', { 'data-value': r.predicted, text: predictedText(r) }),
      el('td', { class: Math.abs(r.error_pct) > 15 ? 'val-far' : '', 'data-value': r.error_pct, text: pct(r.error_pct) }),
      el('td', { 'data-in-range': r.in_range, text: `${t(lang, r.in_range ? 'val_inside' : 'val_outside')} · ${t(lang, `val_basis_${r.range_basis}`)}` }),
    ])));
    labelled(rowsBody, rowsHead);
    shown.textContent = t(lang, 'val_shown', { shown: format.plain(Math.min(match.length, SHOWN_ROWS), lang, 0), n: format.plain(match.length, lang, 0) });
    shown.dataset.matching = match.length;
  };
  const select = (key, field) => {
    const gpuNames = new Map(measured.rows.map((r) => [r.gpu, r.gpu_name]));
    const name = (v) => (key === 'source' ? sourceName(lang, v) : key === 'gpu' ? gpuNames.get(v) : v);
    const node = el('select', { 'data-filter': key, 'aria-label': t(lang, `val_filter_${key}`) }, [
      el('option', { value: '', text: t(lang, `val_all_${key}`) }),
      ...options(field).map((v) => el('option', { value: v, text: name(v) })),
    ]);
    node.value = filters[key];
    node.addEventListener('change', () => { filters[key] = node.value; draw(); });
    return el('label', {}, [`${t(lang, `val_filter_${key}`)} `, node]);
  };
  const outside = el('input', { type: 'checkbox', 'data-filter': 'outside' });
  outside.checked = filters.outside;
  outside.addEventListener('change', () => { filters.outside = outside.checked; draw(); });
  draw();
  return el('div', { class: 'speed-validation' }, [
    el('h4', { text: t(lang, 'val_speed_title') }),
    el('p', { 'data-lineage-coverage': measured.range_coverage_lineages_pct, text: t(lang, 'val_lineage_summary', {
      n: (measured.lineages ?? []).length, median: format.plain(measured.median_of_lineages_abs_error_pct, lang, 1),
      cov: format.plain(measured.range_coverage_lineages_pct, lang, 0), width: format.factor(measured.range_median_width, lang),
    }) }),
    tableOf(lineageHead, el('tbody', {}, lineageRows)),
    el('p', { 'data-median': measured.median_abs_error_pct, 'data-median-by-source': measured.median_of_sources_abs_error_pct, text: t(lang, 'val_speed_summary', {
      n: format.plain(measured.rows.length, lang, 0), sources: measured.sources.length,
      median: format.plain(measured.median_abs_error_pct, lang, 1), insample: format.plain(measured.median_abs_error_in_sample_pct, lang, 1),
      bysource: format.plain(measured.median_of_sources_abs_error_pct, lang, 1),
      bysource_in: format.plain(measured.median_of_sources_abs_error_in_sample_pct, lang, 1),
      cov: format.plain(measured.range_coverage_sources_pct, lang, 0), rows: format.plain(measured.range_coverage_rows_pct, lang, 0),
      nested: format.plain(measured.range_coverage_nested_pct, lang, 0),
    }) }),
    tableOf(sourceHead, el('tbody', {}, sourceRows)),
    el('p', { class: 'muted val-ranges', text: t(lang, 'val_ranges', {
      list: measured.ranges.map((r) => t(lang, 'val_range_item', {
        basis: t(lang, `val_basis_${r.basis}`), lo: format.factor(r.low, lang), hi: format.factor(r.high, lang),
        rows: format.plain(r.rows, lang, 0),
        sources: t(lang, r.sources === 1 ? 'sources_one' : 'sources_many', { n: format.plain(r.sources, lang, 0) }),
      })).join(t(lang, 'list_separator')),
    }) }),
    ...calibrationTable(measured, lang, 'val_cal_summary'),
    el('div', { class: 'val-filters' }, [select('source', 'source_group'), select('gpu', 'gpu'), select('framework', 'framework'),
      el('label', {}, [outside, ` ${t(lang, 'val_only_outside')}`])]),
    shown,
    tableOf(rowsHead, rowsBody),
  ]);
};

// Calibrated on one measured row of a source, its other rows predicted, by how far they are from it:
// the share carried, the median error beside carrying it in full and beside no calibration, the range.
function calibrationTable(measured, lang, summaryKey) {
  if (!measured.calibration?.length) return [];
  const pct = (x) => `${format.plain(x, lang, 1)}%`;
  const head = ['val_cal_distance', 'val_cal_pairs', 'val_sources', 'val_cal_median', 'val_cal_full', 'val_cal_plain', 'val_cal_range']
    .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
  const rows = measured.calibration.map((d) => el('tr', { 'data-distance': d.distance }, [
    el('th', { scope: 'row', text: t(lang, `val_cal_${d.distance}`) }),
    el('td', { text: format.plain(d.pairs, lang, 0) }),
    el('td', { text: format.plain(d.sources, lang, 0) }),
    el('td', { 'data-value': d.median_abs_error_pct, text: pct(d.median_abs_error_pct) }),
    el('td', { text: pct(d.median_abs_error_full_pct) }),
    el('td', { text: pct(d.median_abs_error_uncalibrated_pct) }),
    el('td', { text: t(lang, 'val_cal_range_value', { lo: format.factor(d.low, lang), hi: format.factor(d.high, lang) }) }),
  ]));
  return [
    el('p', { 'data-calibration-weight': measured.calibration_weight, text: t(lang, summaryKey, {
      tau: format.plain(100 * measured.calibration_between_sd, lang, 1), sigma: format.plain(100 * measured.calibration_within_sd, lang, 1),
      share: format.plain(100 * measured.calibration_weight, lang, 0),
    }) }),
    tableOf(head, el('tbody', {}, rows)),
  ];
}

// A measured peak: the GPU (the memory table has no GPU column) and, on more than one, the layout; the
// source's own label and citation beneath.
function memoryRunWords(r, lang) {
  return t(lang, 'val_memory_words', {
    ...runFacts(r, lang), gpu: r.gpu_name,
    layout: r.gpus > 1 ? t(lang, 'val_layout_paren', { layout: layoutWords(r.layout) }) : '',
  });
}

// Measured peak memory: each run's prediction with the allocator allowance fitted on the other sources.
function memoryTable(memory, lang) {
  const gb = (bytes) => format.bytes(bytes, lang);
  const pct = (x) => signedPercent(x, lang);
  const head = ['val_run', 'val_counter', 'val_measured', 'val_predicted', 'val_error_pct']
    .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
  const rows = memory.rows.map((row) => {
    const measured = row.out_of_memory ? t(lang, 'val_oom') : row.upper_bound ? `≤ ${gb(row.measured_bytes)}` : gb(row.measured_bytes);
    const error = row.error_pct !== undefined ? pct(row.error_pct)
      : t(lang, row.predicted_fits ? 'fits' : 'does_not_fit');
    const far = row.error_pct !== undefined ? Math.abs(row.error_pct) > 15
      : Boolean(row.out_of_memory) === row.predicted_fits;
    return el('tr', { 'data-row': row.id }, [
      el('th', { scope: 'row' }, [el('span', { class: 'val-run', text: memoryRunWords(row, lang) }),
        el('span', { class: 'val-source', text: `${row.label} · ${row.source}` })]),
      el('td', { text: t(lang, `val_counter_${row.counter}`) }),
      el('td', { text: measured }),
      el('td', { 'data-value': row.predicted_bytes, text: gb(row.predicted_bytes) }),
      el('td', { class: far ? 'val-far' : '', text: error }),
    ]);
  });
  return el('div', { class: 'memory-validation' }, [
    el('h4', { text: t(lang, 'val_memory_title') }),
    el('p', { 'data-median': memory.median_abs_error_pct, text: t(lang, 'val_memory_summary', {
      n: memory.rows.filter((r) => r.error_pct !== undefined).length, sources: memory.sources.length,
      median: format.plain(memory.median_abs_error_pct, lang, 1), insample: format.plain(memory.median_abs_error_in_sample_pct, lang, 1),
      oom: memory.out_of_memory_predicted, ooms: memory.out_of_memory_rows,
      lo: format.factor(memory.range.low, lang), hi: format.factor(memory.range.high, lang),
      lineages: memory.range.lineages, cov: format.plain(memory.range_coverage_lineages_pct, lang, 0),
    }) }),
    tableOf(head, el('tbody', {}, rows)),
    ...calibrationTable(memory, lang, 'val_cal_memory_summary'),
  ]);
}

// Published whole runs' GPU-hours against the expected run (each run held out: its run efficiency
// fitted on the others), beside the steady state and the rule of thumb (6·N·T at 40%).
function runsTable(runs, lang) {
  const pct = (x) => signedPercent(x, lang);
  const head = ['val_run', 'val_confidence', 'val_gpus', 'val_mfu', 'val_published_gpu_hours', 'val_expected_gpu_hours',
    'val_run_error', 'val_steady', 'val_rule']
    .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
  const rows = runs.rows.map((row) => el('tr', { 'data-run': row.name }, [
    el('th', { scope: 'row' }, [row.name, el('span', { class: 'val-source', text: row.gpu_name })]),
    el('td', { text: confidenceWord(lang, row.confidence) }),
    el('td', { text: `${format.plain(row.gpus, lang, 0)}${row.count_assumed ? '*' : ''}` }),
    el('td', { text: `${format.percent(row.mfu, lang)}${row.mfu_source === 'predicted' ? '' : ` ${t(lang, 'val_assumed_mark')}`}` }),
    el('td', { text: format.count(row.published_gpu_hours, lang) }),
    el('td', { 'data-value': row.expected_gpu_hours, text: format.count(row.expected_gpu_hours, lang) }),
    el('td', { class: Math.abs(row.error_pct) > 25 ? 'val-far' : '', 'data-error': row.error_pct, text: pct(row.error_pct) }),
    el('td', { text: pct(row.steady_error_pct) }),
    el('td', { text: pct(row.rule_of_thumb_error_pct) }),
  ]));
  head[head.length - 1].textContent = t(lang, 'val_rule', { mfu: format.percent(runs.rule_of_thumb_mfu, lang) });
  return el('div', { class: 'runs-validation' }, [
    el('h4', { text: t(lang, 'val_runs_title') }),
    el('p', { 'data-median': runs.median_abs_error_pct, text: t(lang, 'val_runs_summary', {
      n: format.plain(runs.rows.length, lang, 0),
      held: format.plain(runs.median_abs_error_pct, lang, 1),
      bias: signedPercent(runs.median_error_pct, lang),
      insample: format.plain(runs.median_abs_error_in_sample_pct, lang, 1),
      steady: format.plain(runs.median_abs_steady_error_pct, lang, 1),
      rule: format.plain(runs.median_abs_rule_of_thumb_error_pct, lang, 1),
      rule_mfu: format.percent(runs.rule_of_thumb_mfu, lang),
      eff: format.percent(runs.run_efficiency_in_sample, lang),
      lo: format.factor(runs.range_low, lang), hi: format.factor(runs.range_high, lang),
      pubs: runs.publishers, cov: format.plain(runs.range_coverage_publishers_pct, lang, 0),
    }) }),
    // The same errors by how sure each published figure is: how much of the error is the figures' own.
    runs.by_confidence?.length ? el('p', { class: 'val-by-confidence' }, [
      t(lang, 'val_runs_by_confidence'),
      ...runs.by_confidence.flatMap((c, i) => [i ? t(lang, 'list_separator') : '', el('span', {
        'data-confidence': c.confidence, 'data-tier-median': c.median_abs_error_pct,
        text: t(lang, 'val_runs_tier', {
          word: confidenceWord(lang, c.confidence), median: format.plain(c.median_abs_error_pct, lang, 1),
          n: format.plain(c.runs, lang, 0), within: format.plain(c.within_12_pct, lang, 0),
        }),
      })]),
      t(lang, 'val_runs_by_confidence_end'),
    ]) : null,
    el('p', { class: 'muted', text: t(lang, 'val_runs_notes') }),
    tableOf(head, el('tbody', {}, rows)),
  ]);
}
