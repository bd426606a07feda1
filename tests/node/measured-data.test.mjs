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
