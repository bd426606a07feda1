// Days and cost against the number of GPUs, each point planned by the engine (in its worker), so the
// chart shows where adding GPUs stops paying: beyond that count the work done per GPU-hour (with a
// predicted utilisation, of the expected run: interruptions grow with the GPUs) has fallen below 80%
// of its best, and each doubling buys less than it costs.
import { el, svg } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';
import { axisTitle, drawingWidth, linearTicks, logTicks, redrawOnResize, tickText, timeUnit } from '../chart.js';

// The current count, and powers of two times the fixed model-parallel group (tp x pp x cp that the
// user set; 1 when the planner chooses) from 1/64 to 64 times the current count, at most 2^20, and
// at most what the cloud offer can join into one job (most: the report's plan.max_gpus).
export function scalingCounts(current, group = 1, most = Infinity) {
  const counts = new Set([current]);
  const low = Math.max(1, 2 ** Math.floor(Math.log2(current / group / 64)));
  const high = Math.min(2 ** 20 / group, 2 ** Math.ceil(Math.log2((current / group) * 64)));
  for (let n = low; n <= high && n * group <= most; n *= 2) counts.add(n * group);
  if (most < Infinity && most > current && most % group === 0) counts.add(most);
  return [...counts].sort((a, b) => a - b);
}

// The counts on the chart's fixed grid (powers of two times the model-parallel group): the typed count
// is drawn too, but judged only where it falls on the grid, so that the marker does not follow it.
export function onGrid(count, group = 1) {
  return Number.isInteger(Math.log2(count / group));
}

// The largest count whose utilisation is still at least 80% of the best (cost per unit of work
// within 25% of the cheapest); null when every point is.
export function stopsPaying(points, group = 1) {
  const ok = points.filter((p) => !p.errors && p.fits && onGrid(p.gpus, group));
  if (ok.length < 2) return null;
  const best = Math.min(...ok.map((p) => p.gpu_hours));
  const efficient = ok.filter((p) => best / p.gpu_hours >= 0.8);
  const limit = efficient[efficient.length - 1];
  return limit === ok[ok.length - 1] ? null : limit;
}

function chart(points, current, limit, lang, width) {
  const ok = points.filter((p) => !p.errors);
  const height = 300;
  const left = 64;
  const currency = ok.find((p) => p.currency)?.currency;
  const money = (c) => (currency ? format.moneyTick(c, currency, lang) : format.count(c, lang));
  const costs = ok.map((p) => p.cost ?? p.gpu_hours);
  // The cost axis spans the costs worth comparing: up to four times the cheapest count's (past the
  // point where adding GPUs stops paying, a run of a million GPUs may cost a thousand times more and
  // would flatten every other point onto zero); dearer points sit on the top edge, their value in
  // their title.
  const shown = costs.filter((c, i) => ok[i].fits);
  const pool = shown.length ? shown : costs;
  const c1 = Math.min(Math.max(...pool), 4 * Math.min(...pool)) * 1.1;
  const costTicks = linearTicks(0, c1);
  // Room on the right for the longest cost label (about 6.6 px a character at 11 px) and the title.
  const right = width - 28 - 6.6 * Math.max(...costTicks.map((c) => money(c).length));
  const top = 18;
  const bottom = height - 52;
  const node = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart-svg scaling-chart' });
  if (ok.length < 2 || !ok.every((p) => p.days > 0 && Number.isFinite(p.days))) return node;
  const x0 = Math.log2(ok[0].gpus);
  const x1 = Math.log2(ok[ok.length - 1].gpus);
  const sx = (n) => left + ((Math.log2(n) - x0) / Math.max(1e-9, x1 - x0)) * (right - left);
  // Time on a log axis, in hours for a job under two days.
  const unit = timeUnit(Math.max(...ok.map((p) => p.days)));
  const times = ok.map((p) => Math.log10(p.days * unit.perDay));
  const d0 = Math.floor(Math.min(...times));
  const d1 = Math.max(d0 + 1, Math.ceil(Math.max(...times)));
  const sy = (days) => bottom - ((Math.log10(days * unit.perDay) - d0) / (d1 - d0)) * (bottom - top);
  const sc = (c) => bottom - (Math.min(c, c1) / c1) * (bottom - top);

  for (const v of logTicks(10 ** d0, 10 ** d1)) {
    const y = sy(v / unit.perDay);
    node.append(svg('line', { x1: left, y1: y, x2: right, y2: y, class: 'grid' }),
      svg('text', { x: left - 5, y: y + 4, 'text-anchor': 'end', class: 'tick' }, tickText(v, lang)));
  }
  for (const c of costTicks) {
    node.append(svg('text', { x: right + 5, y: sc(c) + 4, class: 'tick cost-tick' }, money(c)));
  }
  // GPU counts: the powers of two, thinned to what the width can label (at least four).
  const powers = ok.filter((p) => Math.log2(p.gpus) % 1 === 0);
  const every = Math.max(1, Math.ceil(powers.length / Math.max(4, Math.floor((right - left) / 56))));
  powers.forEach((p, i) => {
    if (i % every) return;
    node.append(svg('text', { x: sx(p.gpus), y: bottom + 16, 'text-anchor': 'middle', class: 'tick' }, format.count(p.gpus, lang)));
  });
  node.append(svg('line', { x1: left, y1: bottom, x2: right, y2: bottom, class: 'axis' }),
    svg('line', { x1: left, y1: top, x2: left, y2: bottom, class: 'axis' }),
    svg('line', { x1: right, y1: top, x2: right, y2: bottom, class: 'axis' }));
  node.append(axisTitle(t(lang, 'scaling_x'), (left + right) / 2, height - 10),
    axisTitle(t(lang, unit.unit === 'hours' ? 'chart_time_hours' : 'chart_time_days'), 14, (top + bottom) / 2, -90),
    axisTitle(currency ? t(lang, 'chart_cost', { currency }) : t(lang, 'scaling_gpu_hours'), width - 10, (top + bottom) / 2, 90));
  if (limit) {
    const x = sx(limit.gpus);
    node.append(svg('line', { x1: x, y1: top, x2: x, y2: bottom, class: 'limit' }),
      svg('text', { x: x + 4, y: top + 10, class: 'limit-label' }, t(lang, 'scaling_limit_label')));
  }
  // Lines join the counts that fit in memory; the others are hollow points.
  const fitting = ok.map((p, i) => [p, i]).filter(([p]) => p.fits);
  const path = (ys) => fitting.map(([p, i], k) => `${k ? 'L' : 'M'}${sx(p.gpus).toFixed(1)},${ys(p, i).toFixed(1)}`).join(' ');
  if (fitting.length > 1) {
    node.append(svg('path', { d: path((p) => sy(p.days)), class: 'line days-line' }));
    node.append(svg('path', { d: path((p, i) => sc(costs[i])), class: 'line cost-line' }));
  }
  const timeText = (days) => `${tickText(days * unit.perDay, lang)} ${t(lang, unit.unit === 'hours' ? 'unit_hours' : 'unit_days')}`;
  ok.forEach((p, i) => {
    const title = `${format.plain(p.gpus, lang, 0)} GPU: ${timeText(p.days)}, ${currency ? format.money(costs[i], currency, lang) : format.count(costs[i], lang)}, MFU ${format.percent(p.mfu, lang)}${p.fits ? '' : ` (${t(lang, 'scaling_no_fit')})`}`;
    const dot = svg('circle', { cx: sx(p.gpus), cy: sy(p.days), r: p.gpus === current ? 5 : 3.5, class: `dot days-dot${p.fits ? ' fits' : ''}${p.gpus === current ? ' current' : ''}` });
    dot.append(svg('title', {}, title));
    node.append(dot);
    if (p.gpus === current) {
      // The count on screen, named at its point: "64 GPUs: 17 days".
      const x = sx(p.gpus);
      const end = x > (left + right) / 2;
      node.append(svg('text', {
        x: end ? x - 9 : x + 9, y: Math.max(top + 10, sy(p.days) - 9), 'text-anchor': end ? 'end' : 'start', class: 'point-label',
      }, t(lang, 'scaling_point', { gpus: format.plain(p.gpus, lang, 0), time: timeText(p.days) }).trim()));
    }
    if (!p.fits) return;
    const cost = svg('rect', { x: sx(p.gpus) - 3, y: sc(costs[i]) - 3, width: 6, height: 6, class: 'cost-dot' });
    cost.append(svg('title', {}, title));
    node.append(cost);
  });
  return node;
}

export class Scaling {
  constructor(container) {
    this.container = container;
    this.heading = el('h3');
    this.progress = el('p', { class: 'status scaling-progress', role: 'status' });
    this.figure = el('div', { class: 'chart', role: 'img' });
    this.legend = el('p', { class: 'scaling-legend' });
    this.note = el('p', { class: 'scaling-note' });
    this.offerLimit = el('p', { class: 'hint scaling-offer-limit', hidden: true });
    container.append(this.heading, this.progress, this.figure, this.legend, this.note, this.offerLimit);
    redrawOnResize(this.figure, () => { if (this.last && this.container.dataset.state === 'ok') this.render(...this.last); });
  }

  label(lang) {
    this.heading.textContent = t(lang, 'scaling');
  }

  started(lang) {
    this.container.dataset.state = 'computing';
    this.progress.textContent = t(lang, 'scaling_computing', { done: 0, total: '…' });
  }

  step(done, total, lang) {
    this.progress.textContent = t(lang, 'scaling_computing', { done, total });
  }

  // The input changed to something invalid: the chart belongs to an older input.
  stale() {
    this.container.dataset.state = 'stale';
    this.progress.textContent = '';
  }

  failed(lang) {
    this.container.dataset.state = 'failed';
    this.progress.textContent = t(lang, 'engine_failed');
  }

  // maxGpus: the most the cloud offer can join into one job (the chart stops there), if any.
  // group: the model-parallel group the grid's counts are powers of two of.
  render(points, current, lang, fixedMfu, maxGpus, group = 1) {
    this.last = [points, current, lang, fixedMfu, maxGpus, group];
    this.container.dataset.state = 'ok';
    this.container.dataset.points = String(points.filter((p) => !p.errors).length);
    this.progress.textContent = '';
    const limit = fixedMfu ? null : stopsPaying(points, group);
    // Drawn at the width it is shown at, so that labels stay legible on a phone.
    const width = drawingWidth(this.figure);
    this.figure.replaceChildren(chart(points, current, limit, lang, width));
    this.figure.setAttribute('aria-label', t(lang, 'scaling_aria'));
    this.legend.replaceChildren(
      el('span', { class: 'key days-key', 'aria-hidden': 'true' }), ` ${t(lang, 'scaling_days')}  `,
      el('span', { class: 'key cost-key', 'aria-hidden': 'true' }), ` ${t(lang, points.some((p) => p.cost !== undefined) ? 'scaling_cost' : 'scaling_gpu_hours')}`,
      points.some((p) => !p.errors && !p.fits) ? `  ○ ${t(lang, 'scaling_no_fit')}` : '',
    );
    delete this.note.dataset.limit;
    this.offerLimit.textContent = maxGpus ? t(lang, 'scaling_offer_max', { max: format.plain(maxGpus, lang, 0) }) : '';
    this.offerLimit.hidden = !maxGpus;
    if (fixedMfu) this.note.textContent = t(lang, 'scaling_fixed_mfu');
    else if (points.filter((p) => !p.errors && p.fits).length < 2) this.note.textContent = t(lang, 'scaling_too_few');
    else if (limit) {
      this.note.textContent = t(lang, 'scaling_stops', { g: format.plain(limit.gpus, lang, 0), mfu: format.percent(limit.mfu, lang) });
      this.note.dataset.limit = String(limit.gpus);
    } else {
      this.note.textContent = t(lang, 'scaling_all_efficient');
    }
    // With a predicted utilisation the points are expected runs: said, since interruptions grow with
    // the GPUs and bend the curve.
    const expected = points.some((p) => !p.errors && p.expected);
    this.note.dataset.expected = String(expected);
    if (expected && !fixedMfu) this.note.textContent = `${t(lang, 'scaling_expected')} ${this.note.textContent}`;
  }
}
