// The estimate: headline cards, secondary figures, the math behind them, and the engine's notes.
// Every report number sits in an element with data-report (its dotted path in the report) and
// data-value (the raw number), so tests and scripts read exactly what the engine said.
import { exchangeLine, exchangeSection } from './exchange.js';
import { el, replaceKeepingOpen } from '../dom.js';
import * as format from '../format.js';
import { t, warningText } from '../i18n.js';
import { memorySection } from './memory.js';
import { likelySpan, speedSection } from './speed.js';
import { goodputSection } from './goodput.js';
import { headline } from '../headline.js';

function get(report, path) {
  return path.split('.').reduce((node, key) => (node == null ? undefined : node[key]), report);
}

function number(report, path, text) {
  const value = get(report, path);
  return el('span', { class: 'value', 'data-report': path, 'data-value': value, text });
}

function card(lang, key, valueNode, detail) {
  if (Array.isArray(detail) && detail.every((d) => d == null)) detail = null;
  return el('div', { class: 'card' }, [
    el('div', { class: 'card-label', text: t(lang, key) }),
    valueNode,
    detail ? el('div', { class: 'card-detail' }, detail) : null,
  ]);
}

// Under the headline figure, the other answer: the steady state under an expected run (a predicted
// utilisation), or the expected run (interruptions, checkpoints, restarts) beside a given one when
// the scenario asks for it.
function otherLine(report, lang, h, steadyPath, steadyText, expectedPath, expectedText, withGoodput = true) {
  const e = report.time.expected;
  if (!e) return null;
  const goodput = withGoodput ? ` · ${t(lang, 'card_goodput', { gp: format.percent(report.time.goodput, lang) })}` : '';
  if (h.expected) {
    return el('span', { class: 'steady-line' }, [el('br'), t(lang, 'card_steady'),
      el('span', { 'data-report': steadyPath, 'data-value': get(report, steadyPath), text: steadyText }), goodput]);
  }
  return el('span', { class: 'expected-line' }, [el('br'), t(lang, 'card_expected'),
    el('span', { 'data-report': expectedPath, 'data-value': get(report, expectedPath), text: expectedText }), goodput]);
}

// Warnings that undo the headline's meaning (a cluster the batch cannot keep busy).
const HEADLINE_WARNINGS = ['batch_cannot_fill'];

export class Results {
  constructor(container, { onApply, onRate } = {}) {
    this.container = container;
    this.onApply = onApply;
    this.onRate = onRate;  // an exchange rate typed (currency code, text)
    this.status = el('p', { class: 'status', role: 'status' });
    this.body = el('div', { class: 'results-body' });
    container.append(this.status, this.body);
  }

  // data-state on the container says what the numbers are: loading, ok (the current input's
  // estimate), stale (the last valid one, while the input has errors), empty or failed.
  setState(name) {
    this.container.dataset.state = name;
    this.container.classList.toggle('stale', name === 'stale');
    this.status.classList.toggle('failed', name === 'failed');
  }

  loading(lang) {
    this.status.textContent = t(lang, 'loading');
    this.setState('loading');
  }

  // The engine did not load: why, in the user's language (the browser's own words for the cause).
  failed(lang, error) {
    this.status.textContent = typeof WebAssembly === 'undefined'
      ? t(lang, 'engine_no_wasm')
      : t(lang, 'engine_failed', { why: String(error?.message ?? error ?? '').slice(0, 200) || '?' });
    this.setState('failed');
  }

  // No estimate on screen (the input that had one was never complete).
  clear() {
    this.body.replaceChildren();
  }

  // Errors: keep the last valid estimate on screen, marked stale, or say what to do.
  // Each field to fix is one click away, however far down the form it sits.
  // Where only inputs are missing (a budget without a price), no earlier estimate stands in: it answers
  // another question; the status says what is needed instead.
  invalid(lang, paths = [], { missing = false } = {}) {
    if (missing) this.clear();
    const hasResult = this.body.childElementCount > 0;
    const goTo = [...new Set(paths)].map((path) => {
      const button = el('button', { type: 'button', class: 'link-button', 'data-go-to': path, text: t(lang, 'go_to_field', { label: t(lang, path) }) });
      button.addEventListener('click', () => {
        const input = document.querySelector(`#inputs [name="${CSS.escape(path)}"]`);
        input?.scrollIntoView({ block: 'center' });
        input?.focus({ preventScroll: true });
      });
      return button;
    });
    this.status.replaceChildren(t(lang, missing ? 'missing_inputs' : hasResult ? 'stale' : 'no_result'), ...goTo.flatMap((b) => [' ', b]));
    this.setState(hasResult ? 'stale' : 'empty');
  }

  render(report, lang, catalog) {
    this.status.textContent = '';
    this.setState('ok');
    const cost = report.cost;
    // The headline: the expected run where the utilisation is predicted, else the steady state.
    const h = headline(report);
    const days = h.days;
    const daysRange = h.daysRange;
    const hoursRange = h.gpuHoursRange;
    const costRange = h.costRange;
    const e = report.time.expected;
    const cards = el('div', { class: `cards${h.expected ? ' expected-headline' : ''}` }, [
      card(lang, 'time.wall_clock_days', number(report, h.daysPath, durationText(days, lang)), [
        h.expected ? el('span', { class: 'card-basis', text: t(lang, 'card_basis_expected') }) : null,
        h.expected && daysRange ? el('br', { class: 'card-basis' }) : null,
        daysRange ? likely(lang, h.daysRangePath, daysRange, (x) => durationIn(x, days, lang), ` ${t(lang, format.duration(days, lang)[1])}`) : null,
        otherLine(report, lang, h, 'time.wall_clock_days', durationText(report.time.wall_clock_days, lang),
          'time.expected.wall_clock_days', e ? durationText(e.wall_clock_days, lang) : ''),
        days >= 365 ? el('br') : null,
        days >= 365 ? `≈ ${format.plain(days / 365, lang, 1)} ${t(lang, 'unit_years')}` : null,
        sixNTLine(report, h, lang),
      ]),
      card(lang, 'time.gpu_hours', number(report, h.gpuHoursPath, format.count(h.gpuHours, lang)), [
        hoursRange ? likely(lang, h.gpuHoursRangePath, hoursRange, (x) => format.count(roundSig(x), lang)) : null,
        h.expected ? otherLine(report, lang, h, 'time.gpu_hours', format.count(report.time.gpu_hours, lang), '', '', false) : null,
      ]),
      card(lang, 'cost.total', cost
        ? number(report, h.costPath, format.money(h.cost, cost.currency, lang))
        : el('span', { class: 'value muted', text: t(lang, 'no_price') }),
      cost ? [
        costRange ? likely(lang, h.costRangePath, costRange, (x) => format.money(roundSig(x), cost.currency, lang)) : null,
        h.expected ? otherLine(report, lang, h, 'cost.total', format.money(cost.total, cost.currency, lang), '', '', false) : null,
        // A monthly figure where the run lasts a month or a monthly budget plans it, not on an 8-hour job.
        ...(cost.months >= 1 || report.plan.gpus_from === 'budget.per_month' ? [
          el('br'), t(lang, 'per_month_label'), ' ', number(report, 'cost.per_month', format.money(cost.per_month, cost.currency, lang)),
        ] : []),
        cost.exchange ? el('br') : null,
        exchangeLine(report, lang),
      ] : null),
      card(lang, 'plan.gpus', number(report, 'plan.gpus', format.plain(report.plan.gpus, lang, 0)),
        `${report.hardware.gpu_name}`),
      card(lang, 'card_fits', el('span', {
        class: `value ${report.memory.fits ? 'ok' : 'bad'}`, 'data-report': 'memory.fits', 'data-value': report.memory.fits,
        // With a parameter count only, activations are not counted: the verdict says so.
        'data-activations-known': String(report.memory.activations_known),
        text: t(lang, report.memory.fits ? (report.memory.activations_known ? 'card_fits_yes' : 'card_fits_yes_states') : 'card_fits_no'),
      }), t(lang, report.memory.activations_known ? 'card_fits_detail' : 'card_fits_detail_states', { total: format.bytes(report.memory.per_gpu_bytes.total, lang), capacity: format.bytes(report.memory.capacity_bytes, lang) })),
    ]);

    const memory = report.memory;
    const figures = el('dl', { class: 'figures' }, [
      ...row(lang, 'compute.total_flops', number(report, 'compute.total_flops', `${format.flops(report.compute.total_flops)} (${format.scientific(report.compute.total_flops)})`)),
      ...row(lang, 'model.params_report', number(report, 'model.params', format.count(report.model.params, lang))),
      ...row(lang, report.compute.images ? 'compute.images' : 'compute.tokens', number(report, 'compute.tokens', format.count(report.compute.tokens, lang))),
      ...row(lang, 'time.tokens_per_second', number(report, 'time.tokens_per_second', format.count(report.time.tokens_per_second, lang))),
      ...row(lang, 'memory.per_gpu_bytes.total', [
        number(report, 'memory.per_gpu_bytes.total', format.bytes(memory.per_gpu_bytes.total, lang)),
        // How far a measured peak is likely to lie from it (wider when the framework was assumed).
        memory.per_gpu_total_range ? ' · ' : null,
        memory.per_gpu_total_range
          ? likely(lang, 'memory.per_gpu_total_range', memory.per_gpu_total_range, (x) => format.bytes(x, lang)) : null,
      ]),
      ...(report.energy ? row(lang, 'energy_figure', [
        number(report, h.kwhPath, format.energy(h.kwh, lang)), ' · ',
        number(report, h.co2Path, `${format.mass(h.co2, lang)} CO₂`),
      ], 'energy-part') : []),
    ]);

    // What makes the headline itself wrong to act on is said under it, not only among the notes.
    const headlineNotes = report.warnings.filter((w) => HEADLINE_WARNINGS.includes(w.code));
    const headlineNote = headlineNotes.length
      ? el('div', { class: 'headline-note', role: 'note' }, headlineNotes.map((w) => el('p', { 'data-headline-warning': w.code, text: warningText(lang, w) })))
      : null;
    const warnings = report.warnings.length
      ? el('div', { class: 'warnings' }, [
        el('h3', { text: t(lang, 'warnings') }),
        el('ul', {}, report.warnings.map((w) => el('li', { 'data-warning': w.code, text: warningText(lang, w) }))),
      ])
      : null;

    // On a phone the results sit below the form; a bar keeps the headline in view while typing.
    const bar = el('div', { class: 'summary-bar', 'aria-hidden': 'true' }, [
      el('span', { text: durationText(days, lang) }),
      el('span', { text: `${format.count(h.gpuHours, lang)} ${t(lang, 'unit_gpu_hours')}` }),
      cost ? el('span', { text: format.money(h.cost, cost.currency, lang) }) : null,
      // The verdict people came for, in view on a phone too.
      el('span', {
        class: `bar-fits ${report.memory.fits ? 'ok' : 'bad'}`, 'data-fits': String(report.memory.fits),
        text: t(lang, report.memory.fits ? (report.memory.activations_known ? 'bar_fits_yes' : 'bar_fits_yes_states') : 'bar_fits_no'),
      }),
    ]);
    const memorySummary = memorySection(report, lang, { catalog, onApply: this.onApply });
    // Calibrated to the user's measured run: said under the headline, with what moved and by how much.
    const c = report.calibration;
    const calibratedParts = c ? [
      c.step_seconds_uncalibrated ? calibratedSpeed(report, lang) : null,
      c.memory ? t(lang, 'calibrated_memory', { factor: format.plain(c.memory.allocated_factor ** c.memory.carried, lang, 2) }) : null,
    ].filter(Boolean) : [];
    const calibratedNote = calibratedParts.length
      ? el('div', { class: 'headline-note', role: 'note', 'data-calibrated': '' }, [
        el('p', { text: t(lang, 'calibrated_note', { what: calibratedParts.join(t(lang, 'list_separator')) }) })])
      : null;
    replaceKeepingOpen(this.body, cards, headlineNote ?? '', calibratedNote ?? '', figures, exchangeSection(report, lang, this.onRate) ?? '', this.math(report, lang, catalog), this.energyMath(report, lang) ?? '', this.scalingLaw(report, lang) ?? '', speedSection(report, lang), goodputSection(report, lang) ?? '', memorySummary, warnings ?? '', bar);
  }

  math(report, lang, catalog) {
    const c = report.compute;
    const time = report.time;
    const sci = format.scientific;
    const lines = [];
    if (c.method === 'per_image') {
      lines.push(t(lang, 'math_flops_image', {
        k: c.flops_per_param_per_token === 4 ? 2 : 3, macs: format.scientific(report.model.forward_macs_per_image),
        res: c.image_resolution, res0: report.model.image_resolution, fpi: format.scientific(c.flops_per_token),
        imgs: format.count(c.tokens, lang), f: format.scientific(c.total_flops),
      }));
    } else if (c.method === 'given') {
      lines.push(t(lang, 'math_flops_given', { f: sci(c.total_flops), t: sci(c.tokens), fpt: sci(c.flops_per_token) }));
    } else if (c.method === 'detailed') {
      const diff = (c.total_flops_6n / c.total_flops - 1) * 100;
      lines.push(t(lang, 'math_flops_detailed', {
        s: format.plain(c.seq_len, lang, 0), fpt: sci(c.flops_per_token), t: sci(c.tokens), f: sci(c.total_flops),
        f6: sci(c.total_flops_6n), diff: `${diff >= 0 ? '+' : ''}${format.plain(diff, lang, 1)}%`,
      }));
    } else {
      lines.push(t(lang, 'math_flops_6n', {
        k: c.flops_per_param_per_token, n: sci(report.model.active_params), t: sci(c.tokens), f: sci(c.total_flops),
      }));
    }
    if (c.bytes_per_token) {
      lines.push(t(lang, c.bytes_per_token_from === 'given' ? 'math_text_given' : 'math_text', {
        gb: format.count(c.tokens / c.epochs * c.bytes_per_token / 1e9, lang), b: format.plain(c.bytes_per_token, lang, 2),
        t: sci(c.tokens / c.epochs), kind: c.bytes_per_token_from === 'given' ? '' : t(lang, `text_${c.bytes_per_token_from}`).replace(/\s*[(（][^(（]*[)）]$/, ''), src: c.bytes_per_token_source,
      }));
    }
    if (report.plan.gpus_from === 'budget.per_month' && report.cost) {
      lines.push(t(lang, 'math_budget', {
        b: format.plain(report.plan.budget_per_month, lang), p: format.plain(report.cost.per_gpu_month, lang), g: report.plan.gpus,
      }));
    } else if (report.plan.gpus_from === 'budget.deadline_days') {
      lines.push(t(lang, 'math_deadline', { g: report.plan.gpus }));
    }
    // Each sum shows its factors with the decimals it needs to add up as shown.
    const gpus = report.plan.gpus;
    const daysShown = format.days(time.wall_clock_days, lang);
    const hoursForDays = format.decimalsThatAddUp(time.wall_clock_hours, (h) => format.days(h / 24, lang) === daysShown,
      format.hourDigits(time.wall_clock_hours));
    lines.push(t(lang, 'math_time', {
      f: sci(c.total_flops), g: format.plain(gpus, lang, 0), peak: report.hardware.peak_tflops,
      prec: report.hardware.precision.toUpperCase(), mfu: format.percent(time.mfu, lang),
      h: format.plain(time.wall_clock_hours, lang, hoursForDays), d: daysShown,
    }));
    if (time.wall_clock_days_range) {
      lines.push(t(lang, 'math_time_range', {
        lo: format.days(time.wall_clock_days_range.low, lang), hi: format.days(time.wall_clock_days_range.high, lang),
      }));
    }
    const ghDigits = format.hourDigits(time.gpu_hours);
    const ghShown = format.plain(time.gpu_hours, lang, ghDigits);
    const hoursForGh = format.decimalsThatAddUp(time.wall_clock_hours, (h) => format.plain(gpus * h, lang, ghDigits) === ghShown,
      format.hourDigits(time.wall_clock_hours));
    lines.push(t(lang, 'math_gpu_hours', {
      g: format.plain(gpus, lang, 0), h: format.plain(time.wall_clock_hours, lang, hoursForGh), gh: ghShown,
    }));
    if (report.cost) {
      const { currency, per_gpu_hour: price, total } = report.cost;
      const costShown = format.money(total, currency, lang);
      const priceDigits = format.decimalsThatAddUp(price, (p) => format.money(time.gpu_hours * p, currency, lang) === costShown, 2, 6);
      const priceAsShown = Number(price.toFixed(priceDigits));
      const ghForCost = format.decimalsThatAddUp(time.gpu_hours, (gh) => format.money(gh * priceAsShown, currency, lang) === costShown, ghDigits);
      lines.push(t(lang, 'math_cost', {
        gh: format.plain(time.gpu_hours, lang, ghForCost), p: format.money(price, currency, lang, priceDigits), c: costShown,
      }));
    }
    // The headline of a predicted utilisation: the steady state over the goodput, with the whole runs'
    // range (the expected run's own section shows how).
    const e = time.expected;
    if (e?.headline) {
      lines.push(t(lang, 'math_expected_headline', {
        d: format.days(time.wall_clock_days, lang), gp: format.percent(time.goodput, lang),
        ed: format.days(e.wall_clock_days, lang), gh: format.plain(e.gpu_hours, lang, 0),
      }));
      if (e.wall_clock_days_range) {
        lines.push(t(lang, e.range.basis === 'whole_runs' ? 'math_expected_range_runs' : 'math_expected_range_step', {
          lo: format.days(e.wall_clock_days_range.low, lang), hi: format.days(e.wall_clock_days_range.high, lang),
          n: format.plain(e.range.rows, lang, 0),
        }));
      }
    }
    lines.push(t(lang, 'math_assumption'));
    // Where the catalog numbers come from (the model preset, the GPU, the price snapshot).
    const model = report.model.preset && catalog?.models?.find((m) => m.id === report.model.preset);
    const gpu = report.hardware.gpu && catalog?.gpus?.find((g) => g.id === report.hardware.gpu);
    const offer = report.cost?.offer && catalog?.offers?.find((o) => o.id === report.cost.offer);
    if (model?.source) lines.push(t(lang, 'math_source_model', { name: model.name, source: model.source }));
    if (gpu?.source) lines.push(t(lang, 'math_source_gpu', { name: gpu.name, source: gpu.source }));
    if (offer?.source) {
      const date = offer.date ? t(lang, 'math_source_offer_date', { date: offer.date }) : '';
      lines.push(t(lang, 'math_source_offer', { name: `${offer.provider} ${offer.name}`, date, source: offer.source }));
    }
    return el('details', { class: 'math', 'data-cites-catalog': '' }, [
      el('summary', { text: t(lang, 'math') }),
      el('ol', {}, lines.map((line) => el('li', { text: line }))),
    ]);
  }
}

// Compute-optimal? Chinchilla's rule and fitted loss for the run's compute (and for a money budget).
Results.prototype.scalingLaw = function scalingLaw(report, lang) {
  const l = report.scaling_law;
  if (!l) return null;
  const n = (x) => format.count(x, lang);
  const rule = l.rule_20_tokens_per_param;
  const fit = l.fitted_loss_optimum;
  const lines = [
    t(lang, 'law_run', { n: n(l.params), d: n(l.tokens), r: format.plain(l.tokens_per_param, lang, 0), c: format.scientific(l.compute_flops), loss: format.plain(l.loss, lang, 3), ...l.fit }),
    t(lang, 'law_rule', { n: n(rule.params), d: n(rule.tokens), loss: format.plain(rule.loss, lang, 3) }),
    t(lang, 'law_fitted', { n: n(fit.params), d: n(fit.tokens), loss: format.plain(fit.loss, lang, 3) }),
    // Judged against the fitted law's optimum (the lower of the two losses), not by a fixed ratio.
    l.loss - fit.loss < 0.005
      ? t(lang, 'law_near_optimal', { gap: format.plain(l.loss - fit.loss, lang, 3) })
      : t(lang, l.tokens / l.params > fit.tokens / fit.params ? 'law_overtrained' : 'law_undertrained', {
        gap: format.plain(l.loss - fit.loss, lang, 3), k: format.plain(fit.params / l.params, lang, 1),
      }),
    t(lang, 'law_disagree', { ratio: format.plain(fit.params / rule.params, lang, 2) }),
  ];
  if (l.budget) {
    lines.push(t(lang, 'law_budget', { c: format.scientific(l.budget.compute_flops), n: n(l.budget.rule_20_tokens_per_param.params), d: n(l.budget.rule_20_tokens_per_param.tokens), nf: n(l.budget.fitted_loss_optimum.params), df: n(l.budget.fitted_loss_optimum.tokens) }));
  }
  return el('details', { class: 'math', 'data-section': 'scaling-law' }, [
    el('summary', { text: t(lang, 'law_title') }),
    el('ol', {}, lines.map((line) => el('li', { text: line }))),
  ]);
};

Results.prototype.energyMath = function energyMath(report, lang) {
  const e = report.energy;
  if (!e) return null;
  const f = format.percent(e.gpu_power_fraction, lang);
  const hfu = report.time.hfu ?? report.time.mfu;
  // kW x hours = kWh, with the decimals it takes to add up as shown.
  const kwhShown = format.energy(e.kwh, lang);
  const kwDigits = format.decimalsThatAddUp(e.facility_kw, (kw) => format.energy(kw * report.time.wall_clock_hours, lang) === kwhShown, 1);
  const kwAsShown = Number(e.facility_kw.toFixed(kwDigits));
  const hoursForKwh = format.decimalsThatAddUp(report.time.wall_clock_hours, (h) => format.energy(kwAsShown * h, lang) === kwhShown,
    format.hourDigits(report.time.wall_clock_hours));
  return el('details', { class: 'math energy-part' }, [
    el('summary', { text: t(lang, 'math_energy_title') }),
    el('ol', {}, [
      el('li', { text: t(lang, 'math_energy_power', { g: format.plain(report.plan.gpus, lang, 0), tdp: e.gpu_tdp_w, f, host: format.plain(e.host_power_fraction, lang), pue: format.plain(e.pue, lang), kw: format.plain(e.facility_kw, lang, kwDigits) }) }),
      el('li', { text: e.gpu_power_from === 'given' ? t(lang, 'math_energy_draw_given', { f }) : t(lang, 'math_energy_draw_utilisation', { f, u: format.percent(hfu, lang) }) }),
      el('li', { text: t(lang, 'math_energy_kwh', {
        kw: format.plain(e.facility_kw, lang, kwDigits), h: format.plain(report.time.wall_clock_hours, lang, hoursForKwh), kwh: kwhShown,
      }) }),
      el('li', { text: t(lang, 'math_energy_co2', { kwh: format.energy(e.kwh, lang), grid: e.grid_kg_co2_per_kwh, co2: format.mass(e.co2_kg, lang), source: e.grid === 'given' ? t(lang, 'grid_given') : e.grid_source }) }),
      ...(e.expected ? [el('li', {
        class: 'energy-expected',
        text: t(lang, 'math_energy_expected', {
          kw: format.plain(e.facility_kw / e.gpu_power_fraction, lang, 1),
          busy: format.plain(e.expected.busy_hours, lang, e.expected.busy_hours < 10 ? 2 : 0),
          fb: format.percent(e.expected.busy_power_fraction, lang),
          idle: format.plain(e.expected.idle_hours, lang, e.expected.idle_hours < 10 ? 2 : 0),
          fi: format.percent(e.expected.idle_power_fraction, lang),
          kwh: format.energy(e.expected.kwh, lang),
          co2: format.mass(e.expected.co2_kg, lang),
        }) + (e.expected.busy_power_fraction < e.gpu_power_fraction
          ? ` ${t(lang, 'math_energy_expected_slower', { fb: format.percent(e.expected.busy_power_fraction, lang), f })}` : ''),
      })] : []),
    ]),
  ]);
};

// A likely range (report.time.range) in the words of the figure it belongs to: "likely 3.7–5 days".
// Its ends are rounded to 3 significant digits: a range is not more precise than that.
function likely(lang, path, range, text, unit = '') {
  return likelySpan(path, range, `${t(lang, 'likely_range', { lo: text(range.low), hi: text(range.high) })}${unit}`);
}

function roundSig(x) {
  if (!(x > 0)) return x;
  const scale = 10 ** (Math.floor(Math.log10(x)) - 2);
  return Math.round(x / scale) * scale;
}

// A time given in days as a number in the unit the headline `days` is said in (the unit added once
// after the range: "3.7–5 days").
function durationIn(x, days, lang) {
  const [, unit] = format.duration(days, lang);
  const value = roundSig(unit === 'unit_days' ? x : unit === 'unit_hours' ? x * 24 : x * 24 * 60);
  return format.plain(value, lang, value < 10 ? 2 : 1);
}

// Articles count 6·N·T; where the detailed count differs, the days by 6·N·T at the same utilisation
// stand beside the headline ("72 days; 68 by 6·N·T"), so an article's reader finds its number. Only
// with a utilisation of the user's own: there the time is the FLOPs over a fixed rate, and so in
// proportion; a predicted one times a step, not a FLOP count.
function sixNTLine(report, h, lang) {
  const c = report.compute;
  if (h.expected || report.time.mfu_source !== 'given' || !(c.total_flops_6n > 0) || !(c.total_flops > 0)) return null;
  const days = report.time.wall_clock_days * (c.total_flops_6n / c.total_flops);
  const text = durationText(days, lang);
  if (text === durationText(report.time.wall_clock_days, lang)) return null;
  return el('span', { class: 'six-nt-line', 'data-six-nt-days': days, text: t(lang, 'card_six_nt', { time: text }) });
}

function durationText(days, lang) {
  const [value, unit] = format.duration(days, lang);
  return `${value} ${t(lang, unit)}`;
}

function row(lang, key, valueNodes, className = null) {
  return [el('dt', { class: className, text: t(lang, key) }), el('dd', { class: className }, valueNodes)];
}

// The calibrated step against the model's; for a run other than the one measured, the share of the
// measured run's departure it carries (report.calibration.speed.carried).
function calibratedSpeed(report, lang) {
  const c = report.calibration;
  const factor = format.plain(report.time.step_seconds / c.step_seconds_uncalibrated, lang, 2);
  if (!(c.speed.carried < 1)) return t(lang, 'calibrated_speed', { factor });
  const point = c.points.find((p) => p.key.startsWith('time.'));
  return t(lang, 'calibrated_speed_carried', {
    factor, share: format.percent(c.speed.carried, lang), fitted: format.plain(point.measured / point.predicted, lang, 2),
    distance: t(lang, `calibrated_distance_${c.speed.distance}`),
  });
}
