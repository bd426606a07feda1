// The measured peak-memory rows (tests/data/memory-measured/) are data to validate against: every row
// cites its source and the line it was read from, names the model and GPU, and gives a number with its
// unit and counter, or says the run ran out of memory.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from './paths.mjs';

const rows = (name) => JSON.parse(readFileSync(join(ROOT, 'tests', 'data', 'memory-measured', `${name}.json`), 'utf8')).rows;

describe('measured peak memory', () => {
  for (const [name, atLeast] of [['finetune', 190], ['pretrain', 70]]) {
    test(`${name}.json: every row cited, with its settings and a number or an out-of-memory`, () => {
      const all = rows(name);
      assert.ok(all.length >= atLeast, `${all.length} rows`);
      for (const [i, row] of all.entries()) {
        for (const key of ['source', 'quote', 'framework', 'model', 'gpu', 'confidence']) {
          assert.ok(typeof row[key] === 'string' && row[key].length > 0, `${name}[${i}].${key}`);
        }
        assert.ok(['high', 'medium', 'low'].includes(row.confidence), `${name}[${i}].confidence`);
        if (row.oom === true) continue;
        assert.ok(Number.isFinite(row.peak_memory) && row.peak_memory > 0, `${name}[${i}].peak_memory`);
        assert.ok(typeof row.unit === 'string' && row.unit.length > 0, `${name}[${i}].unit`);
      }
    });
  }

  test('the rows come from at least four frameworks', () => {
    const frameworks = new Set([...rows('finetune'), ...rows('pretrain')].map((r) => r.framework.split(/[ (]/)[0].toLowerCase()));
    assert.ok(frameworks.size >= 4, [...frameworks].join(', '));
  });
});

describe('memory validation data (engine/data/memory-validation.json)', () => {
  test('is what scripts/make-memory-validation.mjs makes of the measured rows', () => {
    const file = join(ROOT, 'engine', 'data', 'memory-validation.json');
    const before = readFileSync(file, 'utf8');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'make-memory-validation.mjs')], { stdio: 'pipe' });
    const after = readFileSync(file, 'utf8');
    assert.equal(after, before, 'run node scripts/make-memory-validation.mjs and commit the result');
  });

  test('at least 100 measured rows from at least four frameworks, each with its source and a scenario', () => {
    const data = JSON.parse(readFileSync(join(ROOT, 'engine', 'data', 'memory-validation.json'), 'utf8'));
    const measured = data.rows.filter((r) => r.measured_gib > 0 && !r.upper_bound && !r.out_of_memory);
    assert.ok(measured.length >= 100, `${measured.length} measured rows`);
    assert.ok(new Set(measured.map((r) => r.framework)).size >= 4);
    for (const row of data.rows) {
      assert.ok(row.source.length > 10 && row.source_group && row.scenario, row.id);
      assert.ok(['allocated', 'reserved', 'device'].includes(row.counter), row.id);
    }
  });
});

describe('speed validation data (engine/data/speed-validation.json)', () => {
  test('is what scripts/make-speed-validation.mjs makes of the measured rows', () => {
    const file = join(ROOT, 'engine', 'data', 'speed-validation.json');
    const before = readFileSync(file, 'utf8');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'make-speed-validation.mjs')], { stdio: 'pipe' });
    const after = readFileSync(file, 'utf8');
    assert.equal(after, before, 'run node scripts/make-speed-validation.mjs and commit the result');
  });

  test('every source is cited; vTrain rows keep the CSV columns and the measured time last', () => {
    const data = JSON.parse(readFileSync(join(ROOT, 'engine', 'data', 'speed-validation.json'), 'utf8'));
    const groups = data.sources.map((s) => s.group);
    assert.deepEqual(new Set(groups).size, groups.length);
    for (const source of data.sources) {
      assert.ok(source.source.length > 20 && source.framework && source.confidence, source.group);
      if (source.columns) {
        for (const row of source.rows) assert.equal(row.length, source.columns.length + 1, source.group);
        // The first multi-node row of vTrain's CSV: 3.6B (h 3072, 30 layers) on 64 GPUs, 3,566.5 ms.
        if (source.group === 'vtrain-multi-node') {
          assert.equal(source.rows.length, 109);
          assert.deepEqual(source.rows[0].slice(0, 10), [64, 512, 8, 3072, 32, 30, 2048, 1, 64, 1]);
          assert.equal(source.rows[0].at(-1), 3566.5);
        }
      }
    }
  });
});
