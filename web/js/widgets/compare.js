// The comparison seed 004 makes, for the current workload: every cloud offer (built in, or from a
// vendor's catalog), how many GPUs (given, or bought by the budget), days, GPU-hours, cost and
// memory per GPU. Sortable, with a cost-against-time chart. Computed only while open.
import { el, svg } from '../dom.js';
import * as format from '../format.js';
import { comparisonCsv, download } from '../export.js';
import { issueText, t, warningText } from '../i18n.js';
import { headline } from '../headline.js';
import { axisTitle, drawingWidth, fitText, logTicks, redrawOnResize, textWidth, tickText, timeUnit } from '../chart.js';

// The headline figures of a row's report (the expected run's with a predicted utilisation).
const hl = (report) => (report && !report.errors?.length ? headline(report) : null);

// The first column is the engine's rank (traincalc::compare_json: rows that run and fit first, then
// fewest days, then cost), the order the page shows until the user sorts by another column.
const COLUMNS = [
  { key: 'rank', sort: (r) => r.rank, numeric: true },
  { key: 'offer', sort: (r) => r.offer.provider + r.offer.name },
  { key: 'gpu', sort: (r) => r.gpuName },
  { key: 'price', sort: (r) => r.report?.cost?.per_gpu_hour ?? Infinity, numeric: true, money: true },
  { key: 'gpus', sort: (r) => r.report?.plan?.gpus ?? Infinity, numeric: true },
  { key: 'days', sort: (r) => hl(r.report)?.days ?? Infinity, numeric: true },
  { key: 'days_engine', sort: (r) => hl(r.predicted)?.days ?? Infinity, numeric: true, withEngine: true },
  { key: 'gpu_hours', sort: (r) => hl(r.report)?.gpuHours ?? Infinity, numeric: true },
  { key: 'cost', sort: (r) => hl(r.report)?.cost ?? Infinity, numeric: true, money: true },
  { key: 'memory', sort: (r) => r.report?.memory?.per_gpu_bytes.total ?? Infinity, numeric: true },
];

export class Compare {
  constructor(container, { onOpen }) {
    this.sortKey = 'rank';
    this.ascending = true;
    this.summary = el('summary');
    this.note = el('p', { class: 'hint' });
    // Rows: the cloud offers (with their prices), or every GPU (with the user's count, no price).
    this.kindSelect = el('select', { id: 'compare-kind' }, [el('option', { value: 'offers' }), el('option', { value: 'gpus' })]);
    this.kindLabel = el('label', { for: 'compare-kind' });
    this.onOpen = onOpen;
    this.kindSelect.addEventListener('change', () => onOpen());
    this.table = el('table', { class: 'compare-table' });
    this.csv = el('button', { type: 'button', class: 'tool', id: 'download-csv', hidden: true });
    // With a byte-order mark, so that spreadsheets read CJK names as UTF-8.
    this.csv.addEventListener('click', () => download('traincalc-comparison.csv', `\uFEFF${comparisonCsv(this.sorted ?? [])}`, 'text/csv;charset=utf-8'));
    this.chart = el('div', { class: 'chart', role: 'img' });
    redrawOnResize(this.chart, () => this.drawChart());
    this.root = el('details', { class: 'compare', id: 'compare' }, [
      this.summary, this.note, el('div', { class: 'compare-kind' }, [this.kindLabel, this.kindSelect, this.csv]),
      this.chart, el('div', { class: 'table-scroll' }, this.table),
    ]);
    this.root.addEventListener('toggle', () => { if (this.root.open) onOpen(); });
    container.append(this.root);
  }

  get open() {
    return this.root.open;
  }

  // Opened on purpose (the "compare GPUs" way in): the rows of that kind.
  reveal(kind) {
    this.kindSelect.value = kind;
    if (this.root.open) this.onOpen();
    else this.root.open = true;  // the toggle event computes it
  }

  get kind() {
    return this.kindSelect.value;
  }

  // rows: [{ offer, gpuName, report }] where report is the engine's (valid or with errors).
  // Labels in the current language, shown even while the comparison is closed.
  label(lang) {
    this.summary.textContent = t(lang, 'compare_title');
  }

  // The input has errors: the rows no longer describe it.
  stale() {
    this.root.dataset.state = 'stale';
    this.root.classList.add('stale');
  }

  render(rows, lang) {
    this.root.dataset.state = 'ok';
    this.root.classList.remove('stale');
    this.rows = rows.map((row, i) => ({ ...row, rank: i + 1 }));
    this.lang = lang;
    this.summary.textContent = t(lang, 'compare_title');
    // The engine's assumed utilisation, as its reports give it (never a constant of the page's).
    const assumed = rows.find((r) => r.predicted?.time?.mfu_source === 'assumed')?.predicted.time.mfu;
    this.note.textContent = [
      t(lang, this.kind === 'gpus' ? 'compare_note_gpus' : 'compare_note'),
      ...(rows.some((r) => r.predicted) ? [t(lang, 'compare_note_both')] : []),
      ...(assumed !== undefined ? [t(lang, 'compare_note_assumed', { mfu: format.percent(assumed, lang) })] : []),
    ].join(' ');
    this.kindLabel.textContent = t(lang, 'compare_rows');
    this.kindSelect.options[0].textContent = t(lang, 'compare_rows_offers');
    this.kindSelect.options[1].textContent = t(lang, 'compare_rows_gpus');
    this.csv.textContent = t(lang, 'compare_csv');
    this.csv.hidden = false;
    this.draw();
  }

  draw() {
    const { lang } = this;
    const column = COLUMNS.find((c) => c.key === this.sortKey && (!c.withEngine || this.rows.some((r) => r.predicted)))
      ?? COLUMNS[0];
    // Money sorts within each currency (no conversion): currencies first, then the amount.
    const currency = (r) => r.report?.cost?.currency ?? '~';
    const rows = [...this.rows].sort((a, b) => {
      if (column.money && currency(a) !== currency(b)) return currency(a).localeCompare(currency(b));
      const x = column.sort(a), y = column.sort(b);
      const order = column.numeric ? (x === y ? 0 : x < y ? -1 : 1) : String(x).localeCompare(String(y));
      return this.ascending ? order : -order;
    });
    this.columns = COLUMNS.filter((c) => !c.withEngine || this.rows.some((r) => r.predicted));
    const head = el('tr', {}, this.columns.map((c) => {
      const sorted = c.key === this.sortKey;
      const button = el('button', { type: 'button', class: 'sort', text: t(lang, `compare_${c.key}`) });
      button.addEventListener('click', () => {
        this.ascending = sorted ? !this.ascending : true;
        this.sortKey = c.key;
        this.draw();
      });
      return el('th', { scope: 'col', class: `col-${c.key}`, 'aria-sort': sorted ? (this.ascending ? 'ascending' : 'descending') : 'none' }, button);
    }));
    this.sorted = rows;
    const body = rows.map((row) => this.row(row, lang));
    this.table.replaceChildren(el('thead', {}, head), el('tbody', {}, body));
    this.drawChart();
  }

  drawChart() {
    if (!this.sorted) return;
    const chart = costTimeChart(this.sorted.filter((r) => !r.report.errors.length), this.lang, drawingWidth(this.chart));
    this.chart.replaceChildren(...(chart ? [chart] : []));
    this.chart.hidden = !chart;
    this.chart.setAttribute('aria-label', t(this.lang, 'compare_chart'));
  }

  row({ rank, offer, gpuName, report, predicted }, lang) {
    const cells = [
      el('td', { class: 'rank', text: format.plain(rank, lang, 0) }),
      el('th', { scope: 'row' }, [offer.provider, el('span', { class: 'sub', text: `${offer.name}${offer.date ? ` · ${offer.date}` : ''}` })]),
      el('td', { text: gpuName }),
    ];
    if (report.errors.length) {
      const e = report.errors[0];
      cells.push(el('td', { colspan: this.columns.length - 3, class: 'row-error', 'data-error-for': e.field, 'data-error-code': e.code },
        [issueText(lang, e)]));
    } else {
      const cost = report.cost;
      const h = headline(report);
      const value = (path, text) => el('td', { 'data-report': path, 'data-value': path.split('.').reduce((n, k) => n[k], report), text });
      cells.push(
        el('td', cost ? {} : { text: '—' }, cost ? [
          `${format.money(cost.per_gpu_hour, cost.currency, lang)}/h`,
          // The offer's own price, where it was converted into the user's currency.
          cost.exchange ? el('span', { class: 'sub', 'data-exchange-from': cost.exchange.from, text: `${format.money(cost.exchange.per_gpu_hour ?? cost.per_gpu_hour / cost.exchange.rate, cost.exchange.from, lang)}/h` }) : null,
        ] : []),
        // Held down by what the offer's instances can form: said in the cell, the engine's words in its title.
        capped(report)
          ? el('td', { 'data-report': 'plan.gpus', 'data-value': report.plan.gpus, 'data-capped': report.plan.max_gpus, title: warningText(lang, capped(report)) }, [
            format.plain(report.plan.gpus, lang, 0),
            el('span', { class: 'sub', text: t(lang, 'compare_capped', { max: format.plain(report.plan.max_gpus, lang, 0) }) }),
          ])
          : value('plan.gpus', format.plain(report.plan.gpus, lang, 0)),
        value(h.daysPath, format.days(h.days, lang)),
        ...(this.columns.some((c) => c.withEngine) ? [predicted && !predicted.errors.length
          ? el('td', { 'data-engine-days': headline(predicted).days }, [
            format.days(headline(predicted).days, lang),
            el('span', { class: 'sub', text: `${t(lang, `mfu_${predicted.time.mfu_source}`)} ${format.percent(predicted.time.mfu, lang)}` }),
          ])
          : el('td', { text: '—' })] : []),
        value(h.gpuHoursPath, format.count(h.gpuHours, lang)),
        cost ? value(h.costPath, format.money(h.cost, cost.currency, lang)) : el('td', { text: '—' }),
        el('td', { class: report.memory.fits ? 'ok' : 'bad', text: `${format.bytes(report.memory.per_gpu_bytes.total, lang)} ${report.memory.fits ? '✓' : '✗'}` }),
      );
    }
    // Each cell names its column, so that a phone can keep the ones that answer (style.css).
    cells.forEach((cell, i) => { if (!cell.classList.contains('row-error')) cell.classList.add(`col-${this.columns[i].key}`); });
    return el('tr', offer.id ? { 'data-offer': offer.id } : { 'data-gpu': offer.gpu }, cells);
  }
}

// The warning that the offer's instances held the GPU count down, if any.
const capped = (report) => report.warnings?.find((w) => w.code === 'offer_single_instance_capped' || w.code === 'offer_cluster_max_capped');

// Cost against time, both on log scales, one point per offer (of the most common currency), drawn at
// the width shown; the fastest and the cheapest offers are named beside their points.
function costTimeChart(rows, lang, width) {
  const priced = rows.filter((r) => r.report.cost);
  const currencies = new Map();
  for (const r of priced) currencies.set(r.report.cost.currency, (currencies.get(r.report.cost.currency) ?? 0) + 1);
  const currency = [...currencies].sort((a, b) => b[1] - a[1])[0]?.[0];
  const drawable = (h) => h.days > 0 && h.cost > 0 && Number.isFinite(h.days) && Number.isFinite(h.cost);
  const points = priced.filter((r) => r.report.cost.currency === currency && drawable(headline(r.report)));
  const height = 300;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart-svg compare-chart' });
  if (points.length < 2) return null;  // nothing to set against each other: no empty box
  const days = points.map((r) => headline(r.report).days);
  const costs = points.map((r) => headline(r.report).cost);
  const unit = timeUnit(Math.max(...days));
  const times = days.map((d) => d * unit.perDay);
  const decades = (v) => {
    const lo = 10 ** Math.floor(Math.log10(Math.min(...v)));
    const hi = 10 ** Math.ceil(Math.log10(Math.max(...v)));
    return [lo, hi > lo ? hi : lo * 10];
  };
  const [t0, t1] = decades(times);
  const [c0, c1] = decades(costs);
  const left = 36 + 6.6 * Math.max(...logTicks(c0, c1).map((v) => format.moneyTick(v, currency, lang).length)), right = width - 18, top = 14, bottom = height - 52;
  const sx = (v) => left + (Math.log10(v / t0) / Math.log10(t1 / t0)) * (right - left);
  const sy = (v) => bottom - (Math.log10(v / c0) / Math.log10(c1 / c0)) * (bottom - top);
  for (const v of logTicks(t0, t1, width < 420 ? 3 : 4)) {
    chart.append(svg('line', { x1: sx(v), y1: top, x2: sx(v), y2: bottom, class: 'grid' }),
      svg('text', { x: sx(v), y: bottom + 16, 'text-anchor': 'middle', class: 'tick' }, tickText(v, lang)));
  }
  for (const v of logTicks(c0, c1)) {
    chart.append(svg('line', { x1: left, y1: sy(v), x2: right, y2: sy(v), class: 'grid' }),
      svg('text', { x: left - 6, y: sy(v) + 4, 'text-anchor': 'end', class: 'tick' }, format.moneyTick(v, currency, lang)));
  }
  chart.append(svg('line', { x1: left, y1: bottom, x2: right, y2: bottom, class: 'axis' }), svg('line', { x1: left, y1: top, x2: left, y2: bottom, class: 'axis' }));
  chart.append(axisTitle(t(lang, unit.unit === 'hours' ? 'chart_time_hours' : 'chart_time_days'), (left + right) / 2, height - 10),
    axisTitle(t(lang, 'chart_cost', { currency }), 14, (top + bottom) / 2, -90));
  points.forEach((r, i) => {
    const dot = svg('circle', { cx: sx(times[i]), cy: sy(costs[i]), r: 4, class: r.report.memory.fits ? 'dot fits' : 'dot' });
    const h = headline(r.report);
    dot.append(svg('title', {}, `${r.offer.provider} ${r.offer.name}: ${format.days(h.days, lang)} ${t(lang, 'unit_days')}, ${format.money(h.cost, currency, lang)}`));
    chart.append(dot);
  });
  // The fastest and the cheapest of the offers that fit (of all, where none does), named once where
  // one offer is both; a label is kept inside the drawing.
  const candidates = points.map((r, i) => i).filter((i) => points[i].report.memory.fits);
  const among = candidates.length ? candidates : points.map((r, i) => i);
  const best = (values) => among.reduce((a, b) => (values[b] < values[a] ? b : a));
  const fastest = best(times);
  const cheapest = best(costs);
  const placed = [];
  for (const [i, key] of fastest === cheapest ? [[fastest, 'chart_fastest_cheapest']] : [[fastest, 'chart_fastest'], [cheapest, 'chart_cheapest']]) {
    // Beside its point, on the side with more room, cut to fit there (the provider first; the offer's
    // full name is in the point's title and the table), ringed and joined to it by a short line.
    const x = sx(times[i]);
    const cy = sy(costs[i]);
    const atLeft = x - left > right - x;
    const room = (atLeft ? x - 10 - 2 : width - 2 - (x + 10));
    const text = fitText(`${t(lang, key)}: ${points[i].offer.provider}`, Math.max(40, room));
    // A second label never sits on the first: a line apart at least.
    let y = Math.max(top + 10, cy - 10);
    if (placed.some((other) => Math.abs(other - y) < 15)) y = Math.min(bottom - 4, Math.max(...placed) + 15);
    placed.push(y);
    chart.append(
      svg('circle', { cx: x, cy, r: 7, class: 'point-ring' }),
      svg('line', { x1: x + (atLeft ? -5 : 5), y1: cy - 5, x2: x + (atLeft ? -9 : 9), y2: y - 4, class: 'point-leader' }),
      svg('text', { x: atLeft ? x - 10 : x + 10, y, 'text-anchor': atLeft ? 'end' : 'start', class: 'point-label' }, text),
    );
  }
  return chart;
}
