#!/usr/bin/env node
// How far do the step model's held-out figures move with the fit's own search? The fit is a
// coordinate descent over a rugged objective (engine/src/validation/speed_validation.cpp, fit): where it ends
// depends on how finely its grid sweeps step across each constant's range (--search-grid). A change
// to a formula or a constant that moves a held-out figure by less than this spread is not evidence
// either way: compare the medians over the same sweep, before and after (docs/validation.md, "The
// fit's own noise").
//
//   node scripts/fit-noise.mjs [--grids 8,9,...,16] [--json]
// Runs `build/native/bin/traincalc validate --speed --search-grid N --json` for each N (about 3 s each
// on a 2-core machine; build the CLI first) and prints, per search grid and over all of them (median,
// lowest, highest): the median of the lineages' held-out medians and their range coverage, the
// median of the sources' held-out medians, the median over all rows, vTrain
// multi-node's mean absolute error, the Spearman correlation in each vTrain multi-node group, the
// one-node planner's groups within 5%, the nested range coverage, and each source's held-out median.
import { execFileSync } from 'node:child_process';

const args = process.argv.slice(2);
const at = args.indexOf('--grids');
const isValue = (i) => at >= 0 && i === at + 1;  // the word after --grids is its value
const unknown = args.filter((a, i) => a !== '--json' && a !== '--grids' && !isValue(i));
if (unknown.length) {
  console.error(`fit-noise: unknown argument ${unknown[0]}; usage: node scripts/fit-noise.mjs [--grids 8,9,...,16] [--json]`);
  process.exit(2);
}
const grids = (at >= 0 ? args[at + 1] ?? '' : '8,9,10,11,12,13,14,15,16').split(',').map((g) => (/^\d+$/.test(g) ? Number(g) : NaN));
if (!grids.length || grids.some((g) => !Number.isInteger(g) || g < 4 || g > 48)) {
  console.error('fit-noise: --grids takes whole numbers from 4 to 48, separated by commas');
  process.exit(2);
}

// A figure the engine could not compute (JSON null) is left out of the summary and printed as "-".
const median = (v) => {
  const s = v.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function figures(table) {
  const groups = table.rank_groups.filter((g) => g.key.startsWith('vtrain-multi-node'));
  const single = table.rank_groups.filter((g) => g.key.startsWith('vtrain-single-node'));
  const out = {
    'held-out median of lineages (%)': table.median_of_lineages_abs_error_pct,
    'lineage range coverage (%)': table.range_coverage_lineages_pct,
    'held-out median of sources (%)': table.median_of_sources_abs_error_pct,
    'held-out median, all rows (%)': table.median_abs_error_pct,
    // The source's own mean |error| over its 109 rows, as the engine's table gives it.
    'vTrain multi-node MAPE (%)': table.sources.find((s) => s.group === 'vtrain-multi-node')?.mean_abs_error_pct ?? null,
  };
  for (const g of groups) out[`Spearman ${g.key.replace('vtrain-multi-node ', '')}`] = g.spearman;
  out['one-node groups within 5%'] = single.filter((g) => g.pick_slower_pct <= 5).length;
  out['nested range coverage (%)'] = table.range_coverage_nested_pct;
  for (const s of table.sources) out[`${s.group} (%)`] = s.median_abs_error_pct;
  return out;
}

const runs = grids.map((grid) => {
  const text = execFileSync('build/native/bin/traincalc',
    ['validate', '--speed', '--search-grid', String(grid), '--json'], { maxBuffer: 1 << 28 }).toString();
  return { grid, figures: figures(JSON.parse(text)) };
});

const names = Object.keys(runs[0].figures);
const summary = Object.fromEntries(names.map((name) => {
  const values = runs.map((r) => r.figures[name]).filter((x) => typeof x === 'number');
  return [name, values.length ? { median: median(values), low: Math.min(...values), high: Math.max(...values) }
    : { median: null, low: null, high: null }];
}));

if (args.includes('--json')) {
  console.log(JSON.stringify({ grids, runs, summary }, null, 2));
} else {
  const digits = (name, x) => (typeof x !== 'number' ? '-' : name.startsWith('one-node') ? String(x) : x.toFixed(2));
  const width = Math.max(...names.map((n) => n.length));
  console.log(`${'search grid'.padEnd(width)} ${grids.map((g) => String(g).padStart(7)).join('')}    median  lowest-highest`);
  for (const name of names) {
    const s = summary[name];
    console.log(`${name.padEnd(width)} ${runs.map((r) => digits(name, r.figures[name]).padStart(7)).join('')}` +
      `   ${digits(name, s.median).padStart(7)}  ${digits(name, s.low)}-${digits(name, s.high)}`);
  }
}
