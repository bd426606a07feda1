// How accurate the speed prediction is: the engine's prediction for every published run it was
// calibrated on, beside the published figure, and the planner's own layout for the same GPUs.
// Computed (in the engine's worker) the first time it is opened.
import { el } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';

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
    if (this.data) this.render(this.data, lang, this.memory);
  }

  loading(lang) {
    this.status.textContent = t(lang, 'loading');
  }

  render(data, lang, memory = null) {
    this.data = data;
    this.memory = memory;
    this.status.textContent = '';
    this.container.dataset.state = 'ok';
    const pp = (x) => `${x >= 0 ? '+' : ''}${format.plain(x, lang, 1)}`;
    const head = ['val_run', 'val_metric', 'val_published', 'val_predicted', 'val_error', 'val_planner']
      .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
    const rows = data.rows.map((row) => el('tr', { 'data-row': row.id }, [
      el('th', { scope: 'row' }, [row.label, el('span', { class: 'val-source', text: ` ${row.source}` })]),
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
      el('div', { class: 'table-scroll' }, el('table', { class: 'validation-table' }, [el('thead', {}, el('tr', {}, head)), el('tbody', {}, rows)])),
      memory ? memoryTable(memory, lang) : null,
    );
  }
}

// Measured peak memory: each run's prediction with the allocator allowance fitted on the other sources.
function memoryTable(memory, lang) {
  const gb = (bytes) => format.bytes(bytes, lang);
  const pct = (x) => `${x >= 0 ? '+' : ''}${format.plain(x, lang, 1)}%`;
  const head = ['val_run', 'val_counter', 'val_measured', 'val_predicted', 'val_error_pct']
    .map((key) => el('th', { scope: 'col', text: t(lang, key) }));
  const rows = memory.rows.map((row) => {
    const measured = row.out_of_memory ? t(lang, 'val_oom') : row.upper_bound ? `≤ ${gb(row.measured_bytes)}` : gb(row.measured_bytes);
    const error = row.error_pct !== undefined ? pct(row.error_pct)
      : t(lang, row.predicted_fits ? 'fits' : 'does_not_fit');
    const far = row.error_pct !== undefined ? Math.abs(row.error_pct) > 15
      : Boolean(row.out_of_memory) === row.predicted_fits;
    return el('tr', { 'data-row': row.id }, [
      el('th', { scope: 'row' }, [row.label, el('span', { class: 'val-source', text: ` ${row.source}` })]),
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
    }) }),
    el('div', { class: 'table-scroll' }, el('table', { class: 'validation-table' }, [el('thead', {}, el('tr', {}, head)), el('tbody', {}, rows)])),
  ]);
}
