// Keeping and sharing a result: the report as a JSON file, the comparison as CSV, text as a download.
// Pure functions (tested in node) plus one that hands a file to the browser.
import { headline } from './headline.js';

// A CSV cell: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is escaped so
// that a spreadsheet never runs a catalog's text as a formula (OWASP, "CSV injection").
export function csvCell(value) {
  if (value === undefined || value === null) return '';
  let text = String(value);
  if (typeof value !== 'number' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CSV_COLUMNS = ['provider', 'offer', 'date', 'gpu', 'price_per_gpu_hour', 'currency', 'gpus', 'days',
  'gpu_hours', 'cost', 'memory_per_gpu_gb', 'fits', 'error', 'days_at_engine_utilisation', 'engine_mfu', 'basis',
  'steady_days', 'steady_gpu_hours', 'steady_cost', 'offer_price_per_gpu_hour', 'offer_currency', 'exchange_rate'];

// One line per compared row ({offer, gpuName, report}), raw numbers (not formatted), UTF-8. Days,
// GPU-hours and cost are the headline's (basis "expected_run" with a predicted utilisation, else
// "steady_state"), the steady state's beside them.
export function comparisonCsv(rows) {
  const lines = [CSV_COLUMNS.join(',')];
  for (const { offer, gpuName, report, predicted } of rows) {
    const ok = !report.errors.length;
    const h = ok ? headline(report) : null;
    const engine = predicted && !predicted.errors.length ? headline(predicted) : null;
    const cells = [
      offer.provider, offer.name, offer.date, gpuName,
      ok ? report.cost?.per_gpu_hour : undefined, ok ? report.cost?.currency : undefined,
      ok ? report.plan.gpus : undefined, h?.days,
      h?.gpuHours, h?.cost,
      ok ? report.memory.per_gpu_bytes.total / 1e9 : undefined, ok ? report.memory.fits : undefined,
      ok ? undefined : report.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      engine?.days,
      engine ? predicted.time.mfu : undefined,
      h ? (h.expected ? 'expected_run' : 'steady_state') : undefined,
      ok ? report.time.wall_clock_days : undefined, ok ? report.time.gpu_hours : undefined,
      ok ? report.cost?.total : undefined,
      // The offer's own price where it was converted into the user's currency.
      ...offerPrice(ok ? report.cost : undefined),
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function offerPrice(cost) {
  const x = cost?.exchange;
  if (!x) return [cost?.per_gpu_hour, cost?.currency, cost ? 1 : undefined];
  return [x.per_gpu_hour ?? cost.per_gpu_hour / x.rate, x.from, x.rate];
}

// The scenario and its report, as one JSON document someone can re-run with the CLI.
export function reportDocument(scenario, report, url) {
  return `${JSON.stringify({ traincalc: 'report-v1', url, scenario, report }, null, 2)}\n`;
}

export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
