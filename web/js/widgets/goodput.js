// The run as it is likely to go (report time.expected): a real run's speed, interruptions, checkpoints,
// restarts and overheads beside the steady state, with the hours lost by cause and the math.
import { el } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';

export const LOST_PARTS = ['slower_steps', 'checkpoints', 'rework', 'restarts', 'overheads'];

// A span of hours in the reader's words: years from a year on, days from two days on, else hours,
// else minutes (中文: 年, 天, 小时, 分钟); three significant figures at most, and "1 minute", not
// "1 minutes".
export function hours(x, lang) {
  if (!Number.isFinite(x)) return '—';
  const say = (value, unit) => {
    const text = format.plain(value, lang, value >= 100 ? 0 : 1);
    return `${text} ${t(lang, text === '1' ? `${unit}_one` : unit)}`;
  };
  if (x >= 365 * 24) return say(x / (365 * 24), 'unit_years');
  if (x >= 48) return say(x / 24, 'unit_days');
  if (x >= 1) return say(x, 'unit_hours');
  return say(x * 60, 'unit_minutes');
}

// An expected count in two significant figures below one ("about 0.0041"), else whole.
export function expectedCount(n, lang) {
  if (!(n > 0) || n >= 1) return format.plain(n, lang, 0);
  return format.count(n, lang, 2);
}

function figure(lang, key, path, value, text) {
  return [el('dt', { text: t(lang, key) }),
    el('dd', {}, el('span', { class: 'value', 'data-report': path, 'data-value': value, text }))];
}

export function goodputSection(report, lang) {
  const e = report.time.expected;
  if (!e) return null;
  const steadyHours = report.time.wall_clock_hours;
  const cost = report.cost;
  const facts = el('dl', { class: 'figures goodput-figures' }, [
    ...figure(lang, 'goodput_days', 'time.expected.wall_clock_days', e.wall_clock_days,
      `${format.days(e.wall_clock_days, lang)} ${t(lang, 'unit_days')}`),
    ...figure(lang, 'goodput_gpu_hours', 'time.expected.gpu_hours', e.gpu_hours, format.count(e.gpu_hours, lang)),
    ...(cost?.expected_total !== undefined
      ? figure(lang, 'goodput_cost', 'cost.expected_total', cost.expected_total, format.money(cost.expected_total, cost.currency, lang))
      : []),
    ...figure(lang, 'goodput_fraction', 'time.goodput', report.time.goodput, format.percent(report.time.goodput, lang)),
    ...figure(lang, 'goodput_interruptions', 'time.expected.interruptions', e.interruptions,
      t(lang, 'goodput_interruptions_value', {
        n: expectedCount(e.interruptions, lang),
        every: hours(e.mean_hours_between_interruptions, lang),
      })),
    ...figure(lang, 'goodput_interval', 'time.expected.checkpoint_interval_hours', e.checkpoint_interval_hours,
      t(lang, e.checkpoint_interval_given ? 'goodput_interval_given' : 'goodput_interval_daly', {
        tau: hours(e.checkpoint_interval_hours, lang),
        pause: `${format.plain(e.checkpoint_seconds, lang, e.checkpoint_seconds < 10 ? 2 : 0)} ${t(lang, 'unit_seconds')}`,
      })),
  ]);
  const lost = el('ul', { class: 'goodput-lost' }, LOST_PARTS.filter((key) => e.lost_hours[key] > 0).map((key) => el('li', {}, [
    t(lang, 'goodput_lost_item', { cause: t(lang, `lost_${key}`) }),
    el('span', { 'data-report': `time.expected.lost_hours.${key}`, 'data-value': e.lost_hours[key], text: hours(e.lost_hours[key], lang) }),
  ])));
  const lostTotal = LOST_PARTS.reduce((sum, key) => sum + e.lost_hours[key], 0);
  const math = el('details', { class: 'math' }, [
    el('summary', { text: t(lang, 'math_goodput_title') }),
    el('ol', {}, [
      el('li', { text: t(lang, 'math_goodput_speed', {
        steady: hours(steadyHours, lang), eff: format.percent(e.run_efficiency, lang),
        work: hours(steadyHours / e.run_efficiency, lang),
      }) }),
      el('li', { text: t(lang, 'math_goodput_mtbf', {
        rate: format.plain(e.interruptions_per_1000_gpu_days, lang, 2), g: format.plain(report.plan.gpus, lang, 0),
        m: hours(e.mean_hours_between_interruptions, lang),
      }) }),
      // Asynchronous saves wait for the copy to host memory and persist behind; synchronous ones wait
      // for the cluster's storage; in-memory snapshots never touch it.
      el('li', { 'data-checkpoint': e.recovery === 'in_memory' ? 'in_memory' : e.checkpoint_async ? 'async' : 'sync', text: t(lang,
        e.recovery === 'in_memory' ? 'math_goodput_checkpoint' : e.checkpoint_async ? 'math_goodput_checkpoint_async' : 'math_goodput_checkpoint_sync', {
          bytes: format.storageBytes(e.checkpoint_bytes, lang), g: format.plain(report.plan.gpus, lang, 0),
          bw: format.plain(e.checkpoint_write_gb_per_s, lang, 3), pause: format.plain(e.checkpoint_seconds, lang, 2),
          tau: hours(e.checkpoint_interval_hours, lang), storage: format.plain(e.storage_write_gb_per_s, lang, 1),
          speed: format.plain(Math.min(report.plan.gpus * e.checkpoint_write_gb_per_s, e.storage_write_gb_per_s), lang, 1),
          persist: format.plain(e.checkpoint_persist_seconds, lang, 1),
        }) }),
      el('li', { text: t(lang, 'math_goodput_daly', {
        r: format.plain(e.restart_minutes, lang, 1), recovery: t(lang, `recovery_${e.recovery}`),
        n: expectedCount(e.interruptions, lang), ig: format.percent(e.interruption_goodput, lang),
      }) }),
      el('li', { text: t(lang, 'math_goodput_total', {
        steady: hours(steadyHours, lang), lost: hours(lostTotal, lang), total: hours(e.wall_clock_hours, lang),
        gp: format.percent(e.goodput, lang),
      }) }),
    ]),
  ]);
  return el('section', { class: 'goodput', 'aria-label': t(lang, 'goodput') }, [
    el('h3', { text: t(lang, 'goodput') }),
    el('p', { class: 'muted', text: t(lang, report.time.mfu_source === 'given' ? 'goodput_intro_given'
      : e.headline ? 'goodput_intro_headline' : 'goodput_intro') }),
    facts,
    el('p', { class: 'step-title', text: t(lang, 'goodput_lost_title') }),
    lost,
    math,
  ]);
}
