// The contract, declared once in the engine's field tables, checked from outside with a real JSON
// Schema validator (ajv, draft 2020-12): the published schemas accept every scenario, catalog and
// report the project has, refuse what the engine refuses, and the page's inputs are the engine's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { CLI, ROOT, SCENARIOS, SITE } from './paths.mjs';
import { compileSchemas } from './schemas.mjs';

const cli = (args, input) => execFileSync(CLI, args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] });
const readJson = (...parts) => JSON.parse(readFileSync(join(ROOT, ...parts), 'utf8'));

let engine;
let validate;  // { scenario, catalog, report }: compiled ajv validators
before(async () => {
  // The whole engine's module: the calculator's writes no schema.
  const { default: create } = await import(join(SITE, 'js', 'traincalc_validation.mjs'));
  engine = await create({ wasmBinary: readFileSync(join(SITE, 'js', 'traincalc_validation.wasm')) });
  validate = compileSchemas((which) => engine.schema(which));
});

function assertValid(which, value, label) {
  const ok = validate[which](value);
  assert.ok(ok, `${label} does not match the ${which} schema: ${JSON.stringify(validate[which].errors?.slice(0, 3))}`);
}

// Every scenario the project keeps as a file: the test scenarios and the calibration rows.
function projectScenarios() {
  const out = [];
  for (const file of readdirSync(SCENARIOS).filter((f) => f.endsWith('.json'))) {
    const value = readJson('tests', 'scenarios', file);
    (Array.isArray(value) ? value : [value]).forEach((s, i) => out.push([`tests/scenarios/${file}[${i}]`, s]));
  }
  for (const row of readJson('engine', 'data', 'calibration.json').rows) out.push([`calibration ${row.id}`, row.scenario]);
  return out;
}

describe('the published schemas', () => {
  test('the site, the CLI and the module publish the same schemas', () => {
    for (const which of ['scenario', 'catalog', 'report']) {
      const site = readFileSync(join(SITE, 'schema', `${which}.schema.json`), 'utf8');
      assert.equal(site, cli(['schema', which]));
      assert.equal(site, engine.schema(which));
    }
    assert.equal(engine.schema('nonsense'), '');
  });

  test('web/js/contract.js (the form\'s choices) is what the field tables generate', () => {
    assert.equal(readFileSync(join(ROOT, 'web', 'js', 'contract.js'), 'utf8'), cli(['schema', 'choices']),
      'regenerate it: build/native/bin/traincalc schema choices > web/js/contract.js');
  });

  test('docs/reference.md is the reference the field tables generate', () => {
    assert.equal(readFileSync(join(ROOT, 'docs', 'reference.md'), 'utf8'), cli(['schema', 'reference']),
      'regenerate it: build/native/bin/traincalc schema reference > docs/reference.md');
  });
});

describe('everything the project ships matches the contract', () => {
  test('every scenario under tests/ and in the calibration data the engine accepts is a valid scenario, and every one the schema refuses the engine refuses too', () => {
    const scenarios = projectScenarios();
    assert.ok(scenarios.length >= 50, `${scenarios.length} scenarios`);
    let refused = 0;
    for (const [label, scenario] of scenarios) {
      const report = JSON.parse(engine.estimate(JSON.stringify(scenario), ''));
      if (report.errors.length === 0) assertValid('scenario', scenario, label);
      if (!validate.scenario(scenario)) {
        assert.ok(report.errors.length > 0, `${label}: the schema refuses it, the engine estimates it`);
        refused += 1;
      }
    }
    assert.ok(refused >= 1, 'parity.json keeps scenarios the engine must refuse');
  });

  test('the shipped catalogs, and the merged catalog the engine prints, are valid catalogs', () => {
    const files = [
      ['engine', 'data', 'gpus.json'], ['engine', 'data', 'offers.json'], ['engine', 'data', 'models.json'],
      ...readdirSync(join(ROOT, 'public', 'catalogs')).map((f) => ['public', 'catalogs', f]),
    ];
    for (const parts of files) assertValid('catalog', readJson(...parts), parts.join('/'));
    assertValid('catalog', JSON.parse(engine.catalog('')), 'traincalc catalog');
  });

  test('every report of those scenarios, valid or not, is a valid report', () => {
    let estimated = 0;
    for (const [label, scenario] of projectScenarios()) {
      const report = JSON.parse(engine.estimate(JSON.stringify(scenario), ''));
      assertValid('report', report, `the report of ${label}`);
      estimated += report.errors.length === 0;
    }
    assert.ok(estimated >= 50, `${estimated} estimated`);
    // Error reports have their own form: only warnings and errors.
    const refused = JSON.parse(engine.estimate('{"model": {}}', ''));
    assert.ok(refused.errors.length > 0);
    assertValid('report', refused, 'an error report');
    assert.ok(!validate.report({ ...refused, errors: [] }), 'without errors, a report needs its sections');
  });

  test('every report in a comparison is a valid report', () => {
    const scenario = readFileSync(join(SCENARIOS, 'seed-004.json'), 'utf8');
    const first = JSON.stringify(JSON.parse(scenario)[0]);
    for (const kind of ['offers', 'gpus']) {
      const rows = JSON.parse(engine.compare(first, '', JSON.stringify({ kind }))).rows;
      assert.ok(rows.length > 10);
      for (const row of rows) assertValid('report', row.report, `compare ${kind} ${row.id}`);
    }
  });
});

describe('the schema refuses what the engine refuses', () => {
  const base = { model: { preset: 'llama-2-7b' }, training: { type: 'pretrain', tokens: 1e9 }, hardware: { gpu: 'h100-sxm', count: 8 } };

  test('every number field of every scenario section: beyond its declared maximum, both refuse it', () => {
    const schema = JSON.parse(engine.schema('scenario'));
    let checked = 0;
    for (const section of ['training', 'hardware', 'strategy', 'pricing', 'budget', 'energy', 'memory']) {
      for (const [key, field] of Object.entries(schema.$defs[section].properties)) {
        const number = field.anyOf ? field.anyOf[0] : field;
        if (number.maximum === undefined) continue;
        const scenario = structuredClone(base);
        scenario[section] = { ...(scenario[section] ?? {}), [key]: number.maximum * 10 + 1 };
        assert.ok(!validate.scenario(scenario), `${section}.${key} above ${number.maximum}: the schema accepts it`);
        const report = JSON.parse(engine.estimate(JSON.stringify(scenario), ''));
        const error = report.errors.find((e) => e.field === `${section}.${key}` && e.code === 'out_of_range');
        assert.ok(error, `${section}.${key} above ${number.maximum}: ${JSON.stringify(report.errors)}`);
        assert.equal(Number(error.params.max), number.maximum);
        checked += 1;
      }
    }
    assert.ok(checked >= 25, `${checked} fields checked`);
  });

  test('an unknown key, a wrong choice and a wrong type: both refuse them', () => {
    const cases = [
      [{ ...base, training: { ...base.training, epoch: 2 } }, 'training.epoch', 'unknown_key'],
      [{ ...base, strategy: { precision: 'bf17' } }, 'strategy.precision', 'unknown_choice'],
      [{ ...base, strategy: { tp: 'two' } }, 'strategy.tp', 'wrong_type'],
      [{ ...base, hardware: { ...base.hardware, gpu: { name: 'x' } } }, 'hardware.gpu.memory_gb', 'required'],
    ];
    for (const [scenario, field, code] of cases) {
      assert.ok(!validate.scenario(scenario), `the schema accepts ${field}`);
      const report = JSON.parse(engine.estimate(JSON.stringify(scenario), ''));
      assert.ok(report.errors.some((e) => e.field === field && e.code === code), JSON.stringify(report.errors));
    }
    assertValid('scenario', base, 'the base scenario');
  });
});

describe('the page asks for the engine\'s fields', () => {
  test('every input of the form is a scenario field, and every choice it offers is one the contract declares', async () => {
    const { FIELDS } = await import(join(ROOT, 'web', 'js', 'fields.js'));
    const schema = JSON.parse(engine.schema('scenario'));
    const record = (name) => schema.$defs[name];
    for (const input of FIELDS) {
      // The measured run's inputs: calibration.<a measured key>, or the run's own GPU count.
      if (input.path.startsWith('calibration.')) {
        const key = input.path.slice('calibration.'.length);
        assert.ok(key === 'hardware.count' || record('measured').properties[key], `${input.path}: not a measured key`);
        continue;
      }
      const parts = input.path.split('.');
      let properties = schema.properties;
      let field;
      for (const [i, part] of parts.entries()) {
        field = properties[part];
        assert.ok(field, `${input.path}: no such scenario field`);
        if (i < parts.length - 1) {
          const ref = field.$ref ?? field.anyOf?.find((s) => s.$ref)?.$ref;
          properties = record(ref.split('/').pop()).properties;
        }
      }
      const words = field.enum ?? field.anyOf?.find((s) => s.enum)?.enum ?? field.examples ?? [];
      const numeric = ['number', 'integer'].includes(field.type ?? field.anyOf?.[0]?.type);
      if (input.kind === 'number') assert.ok(numeric, `${input.path} is a number input but not a number`);
      if (input.kind === 'check') assert.equal(field.type, 'boolean', input.path);
      if (input.kind === 'select' && Array.isArray(input.options)) {
        for (const option of input.options.filter((o) => o !== '')) {
          const accepted = input.boolean
            ? field.type === 'boolean' && ['true', 'false'].includes(option)
            : input.numeric
              ? numeric && Number(option) >= (field.minimum ?? -Infinity) && Number(option) <= (field.maximum ?? field.anyOf?.[0]?.maximum ?? Infinity)
              : words.includes(option);
          assert.ok(accepted, `${input.path} offers "${option}", which the contract does not accept`);
        }
      }
    }
  });

  test('the form offers every precision, optimizer, method and text kind the engine knows', async () => {
    const { FIELD_BY_PATH } = await import(join(ROOT, 'web', 'js', 'fields.js'));
    const schema = JSON.parse(engine.schema('scenario'));
    for (const path of ['strategy.precision', 'strategy.optimizer', 'strategy.recompute', 'training.type', 'training.method', 'training.text']) {
      const [section, key] = path.split('.');
      const declared = schema.$defs[section].properties[key].enum.filter((w) => w !== 'auto');
      const offered = FIELD_BY_PATH.get(path).options.filter((o) => o !== '');
      assert.deepEqual([...offered].sort(), [...declared].sort(), path);
    }
  });
});
