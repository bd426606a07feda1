#!/usr/bin/env node
// How well could any model rank the layouts of each vTrain multi-node group (a Spearman correlation
// of at least 0.9 within each is the aim)? Prints, per group: the Spearman of the held-out
// predictions; the best Spearman reachable by multiplying those predictions by one free factor per
// tensor-parallel degree (a per-layout knob no physical model is allowed, so an upper bound on what a
// missing mechanism that depends on TP alone could buy); and the measured micro-batch sequences that
// are not monotonic (same TP, PP and DP; a smooth model cannot order those).
//
//   node scripts/rank-ceiling.mjs [validate.json]
// With no file it runs `build/native/bin/traincalc validate --speed --json` (build it first).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const file = process.argv[2];
const table = JSON.parse(
  file ? readFileSync(file, 'utf8')
    : execFileSync('build/native/bin/traincalc', ['validate', '--speed', '--json'], { maxBuffer: 1 << 28 }).toString());

function ranks(values) {
  const order = values.map((v, i) => [v, i]).sort((a, b) => a[0] - b[0]);
  const out = new Array(values.length);
  for (let k = 0; k < order.length;) {  // ties share their mean rank
    let j = k;
    while (j + 1 < order.length && order[j + 1][0] === order[k][0]) ++j;
    for (let m = k; m <= j; ++m) out[order[m][1]] = (k + j) / 2;
    k = j + 1;
  }
  return out;
}
function spearman(a, b) {
  const ra = ranks(a), rb = ranks(b);
  const n = a.length, ma = (n - 1) / 2;
  let num = 0, da = 0, db = 0;
  for (let i = 0; i < n; ++i) {
    num += (ra[i] - ma) * (rb[i] - ma);
    da += (ra[i] - ma) ** 2;
    db += (rb[i] - ma) ** 2;
  }
  return num / Math.sqrt(da * db);
}

const groups = new Map();
for (const row of table.rows) {
  if (row.source_group !== 'vtrain-multi-node') continue;
  const key = `${row.label.split(',')[0].replace('vTrain multi-node: ', '')}, ${row.gpus} GPUs`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(row);
}

const factors = [];
for (let f = 0.5; f <= 2.5001; f += 0.05) factors.push(f);
console.log('group                        rows  Spearman  at least, with one factor per TP (factors)   micro-batch runs no smooth model follows (TP/PP/DP: step times by micro-batch)');
for (const [key, rows] of groups) {
  const measured = rows.map((r) => r.measured);
  const predicted = rows.map((r) => r.predicted);
  const base = spearman(measured, predicted);
  const tps = [...new Set(rows.map((r) => r.layout.tp))].sort((a, b) => a - b);
  // A joint grid over one factor per TP degree (the most common degree fixed at 1: only ratios
  // matter); with more than three free degrees, the three with the most rows, the rest at 1. The
  // grid is coarse, so the best found is a lower bound on the best any per-TP factor reaches, and a
  // factor per TP degree bounds only mechanisms that scale a layout's time by its TP alone.
  const count = (t) => rows.filter((r) => r.layout.tp === t).length;
  const byRows = [...tps].sort((a, b) => count(b) - count(a));
  const fixed = byRows[0];
  const free = byRows.slice(1, 4);
  const factor = Object.fromEntries(tps.map((t) => [t, 1]));
  let best = base, bestFactor = { ...factor };
  const search = (i) => {
    if (i === free.length) {
      const s = spearman(measured, rows.map((r) => r.predicted * factor[r.layout.tp]));
      if (s > best + 1e-12) {
        best = s;
        bestFactor = { ...factor };
      }
      return;
    }
    for (const f of factors) {
      factor[free[i]] = f;
      search(i + 1);
    }
    factor[free[i]] = 1;
  };
  search(0);
  // Measured micro-batch runs (same TP, PP, DP) that no smooth model follows: a step time may fall with
  // the micro-batch (fewer launches) and then rise (a longer pipeline fill), one turn, but not rise
  // and then fall, nor turn twice.
  const runs = new Map();
  for (const r of rows) {
    const k = `${r.layout.tp}/${r.layout.pp}/${r.layout.dp}`;
    if (!runs.has(k)) runs.set(k, []);
    runs.get(k).push([r.layout.micro_batch, r.measured]);
  }
  const bumpy = [];
  for (const [k, run] of runs) {
    run.sort((a, b) => a[0] - b[0]);
    // Changes within 2% (the runs' repeatability, at best) are no direction at all.
    const steps = [];
    for (let i = 1; i < run.length; ++i) {
      const change = run[i][1] / run[i - 1][1] - 1;
      if (Math.abs(change) > 0.02) steps.push(Math.sign(change));
    }
    let turns = 0;
    for (let i = 1; i < steps.length; ++i) if (steps[i] !== steps[i - 1]) ++turns;
    if (turns > 1 || (turns === 1 && steps[0] > 0)) bumpy.push(`${k} (${run.map((x) => x[1].toFixed(1)).join(', ')} s)`);
  }
  const shown = free.map((t) => `TP${t} x${bestFactor[t].toFixed(2)}`).join(' ') + ` (TP${fixed} x1)`;
  console.log(`${key.padEnd(28)} ${String(rows.length).padStart(4)}  ${base.toFixed(2).padStart(8)}  ` +
    `${best.toFixed(2).padStart(5)} (${shown})`.padEnd(45) + `  ${bumpy.length}: ${bumpy.join(', ')}`);
}
