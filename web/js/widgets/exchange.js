// A price or budget in another currency than the report's (report cost.exchange, cost.budget_exchange):
// what was typed, the rate and its date and source, and an input for each rate the user may replace
// (units of a currency for one US dollar: exchange_rates.CODE in the link).
import { el } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';

// The short line under the cost card: "2.49 US$/h at 6.83 CNY per USD (2026-04-13)".
export function exchangeLine(report, lang) {
  const x = report.cost?.exchange;
  if (!x) return null;
  const typed = x.per_gpu_hour !== undefined
    ? `${format.money(x.per_gpu_hour, x.from, lang)}/${t(lang, 'hour')}`
    : `${format.money(x.per_gpu_month, x.from, lang)}/${t(lang, 'month')}`;
  return el('span', { class: 'exchange-line', 'data-report': 'cost.exchange.rate', 'data-value': x.rate }, t(lang, 'exchange_line', {
    typed, rate: rateText(x.rate, lang), to: x.to, from: x.from, date: dateText(x, lang),
  }));
}

function rateText(rate, lang) {
  return format.plain(rate, lang, rate >= 100 ? 2 : rate >= 1 ? 4 : 6);
}

function dateText(x, lang) {
  return x.given ? t(lang, 'exchange_given') : x.date;
}

// The section: each conversion as a sum, where its rates come from, and the rates to replace.
export function exchangeSection(report, lang, onRate) {
  const cost = report.cost;
  if (!cost?.exchange && !cost?.budget_exchange) return null;
  const lines = [];
  const codes = new Map();  // currency -> its units per US dollar, as used
  for (const [x, key] of [[cost.exchange, 'exchange_math_price'], [cost.budget_exchange, 'exchange_math_budget']]) {
    if (!x) continue;
    const typed = x.per_gpu_hour ?? x.per_gpu_month ?? x.per_month ?? x.total;
    lines.push(t(lang, key, {
      typed: format.money(typed, x.from, lang), rate: rateText(x.rate, lang), to: x.to, from: x.from,
      converted: format.money(typed * x.rate, x.to, lang),
    }));
    const source = x.given ? t(lang, 'exchange_given') : x.source;
    // One side in dollars: the rate is that currency's own; else the ratio of the two.
    lines.push(x.from === 'USD' || x.to === 'USD'
      ? t(lang, 'exchange_math_rate_usd', {
        code: x.from === 'USD' ? x.to : x.from, r: rateText(x.from === 'USD' ? x.to_per_usd : x.from_per_usd, lang), source,
      })
      : t(lang, 'exchange_math_rate', {
        rate: rateText(x.rate, lang), to: x.to, from: x.from, a: rateText(x.to_per_usd, lang), b: rateText(x.from_per_usd, lang), source,
      }));
    if (x.from !== 'USD') codes.set(x.from, x.from_per_usd);
    if (x.to !== 'USD') codes.set(x.to, x.to_per_usd);
  }
  const inputs = [...codes].map(([code, perUsd]) => {
    const id = `exchange-rate-${code}`;
    const input = el('input', {
      id, type: 'text', inputmode: 'decimal', value: String(Number(perUsd.toPrecision(6))), 'data-currency': code,
    });
    input.addEventListener('change', () => onRate?.(code, input.value));
    return el('p', { class: 'exchange-rate' }, [
      el('label', { for: id, text: t(lang, 'exchange_rate_label', { code }) }), ' ', input, ` ${code}`,
    ]);
  });
  return el('details', { class: 'math exchange', 'data-section': 'exchange', open: true }, [
    el('summary', { text: t(lang, 'exchange_title') }),
    el('ol', {}, lines.map((line) => el('li', { text: line }))),
    ...inputs,
    el('p', { class: 'hint', text: t(lang, 'exchange_note') }),
  ]);
}
