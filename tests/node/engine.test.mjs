// The WebAssembly engine, tested from JavaScript: it must say exactly what the native CLI says.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { before, describe, test } from 'node:test';
import { CLI, MODULES, ROOT, SCENARIOS, SITE } from './paths.mjs';
import { compileSchemas } from './schemas.mjs';

// Every report these tests get from the module is checked against the published report schema.
// `imports` is the module that reads other tools' text (a Hugging Face config, a training log).
let engine;
let imports;
before(async () => {
  const { default: create } = await import(join(SITE, 'js', 'traincalc_engine.mjs'));
  engine = await create({ wasmBinary: readFileSync(join(SITE, 'js', 'traincalc_engine.wasm')) });
  const { default: createImport } = await import(join(SITE, 'js', 'traincalc_import.mjs'));
  imports = await createImport({ wasmBinary: readFileSync(join(SITE, 'js', 'traincalc_import.wasm')) });
  const validate = compileSchemas((which) => readFileSync(join(SITE, 'schema', `${which}.schema.json`), 'utf8'));
  const conforming = (report) => {
    assert.ok(validate.report(report), `a report off its schema: ${JSON.stringify(validate.report.errors?.slice(0, 3))}`);
  };
  const estimate = engine.estimate.bind(engine);
  engine.estimate = (scenario, catalog) => {
    const text = estimate(scenario, catalog);
    const out = JSON.parse(text);
    for (const report of Array.isArray(out) ? out : [out]) conforming(report);
    return text;
  };
  const compare = engine.compare.bind(engine);
  engine.compare = (scenario, catalog, request) => {
    const text = compare(scenario, catalog, request);
    for (const row of JSON.parse(text).rows ?? []) {
      conforming(row.report);
      if (row.at_engine_utilisation) conforming(row.at_engine_utilisation);
    }
    return text;
  };
});

function cli(args, input) {
  try {
    return { status: 0, out: execFileSync(CLI, args, { input, encoding: 'utf8' }) };
  } catch (error) {
    return { status: error.status, out: error.stdout };
  }
}

describe('the wasm module agrees with the native engine', () => {
  for (const file of ['seed-001.json', 'seed-004.json', 'parity.json']) {
    test(`reports for tests/scenarios/${file} are identical`, () => {
      const text = readFileSync(join(SCENARIOS, file), 'utf8');
      const native = JSON.parse(cli(['estimate', '-'], text).out);
      const wasm = JSON.parse(engine.estimate(text, ''));
      assert.equal(wasm.length, JSON.parse(text).length);
      assert.deepStrictEqual(wasm, native);
    });
  }

  test('the catalog is identical, once the page fills in the texts the calculator\'s module leaves out', async () => {
    const { withTexts } = await import(join(MODULES, 'catalogs.js'));
    const native = JSON.parse(cli(['catalog']).out);
    const lean = JSON.parse(engine.catalog(''));
    // Every row's source is left out (served in js/catalog-texts.json); every number is there.
    for (const list of ['gpus', 'offers', 'models']) {
      assert.equal(lean[list].length, native[list].length, list);
      for (const row of lean[list]) assert.equal(row.source, undefined, `${list} ${row.id}`);
    }
    const texts = JSON.parse(readFileSync(join(SITE, 'js', 'catalog-texts.json'), 'utf8'));
    assert.deepStrictEqual(withTexts(lean, texts), native);
  });
});

describe('vendor catalogs in the wasm module', () => {
  test('a catalog is merged once and reused, and a different one replaces it', () => {
    const scenario = JSON.stringify({ model: { preset: 'llama-2-7b' }, training: { type: 'pretrain', tokens: 1e9 }, hardware: { gpu: 'vendor-x', count: 8 } });
    const catalog = (tflops) => JSON.stringify({ gpus: [{ id: 'vendor-x', name: 'Vendor X', memory_gb: 80, bf16_tflops: tflops, source: 'test' }] });
    const peak = (text) => JSON.parse(engine.estimate(scenario, text)).hardware.peak_tflops;
    assert.equal(peak(catalog(500)), 500);
    assert.equal(peak(catalog(500)), 500);  // the same text: the merged catalog reused
    assert.equal(peak(catalog(900)), 900);  // another text: merged anew
    assert.equal(JSON.parse(engine.estimate(scenario, '')).errors[0].code, 'unknown_id');  // none: the built-in one
    assert.equal(peak(catalog(500)), 500);
  });
});

describe('seed tables through the wasm module', () => {
  test('seed 004: GPUs a 10,000 CNY monthly budget rents, and days for 1e22 FLOPs at 100%', () => {
    const reports = JSON.parse(engine.estimate(readFileSync(join(SCENARIOS, 'seed-004.json'), 'utf8'), ''));
    // Seed article 004 (docs/seeds.md): 5, 4, 2, 5, 3, 1, 3, 1 GPUs; 43, 47, 54, 289, 309, 372 (really 371), 482, 827 days.
    assert.deepEqual(reports.slice(0, 8).map((r) => r.plan.gpus), [5, 4, 2, 5, 3, 1, 3, 1]);
    assert.deepEqual(reports.slice(0, 8).map((r) => Math.round(r.time.wall_clock_days)), [43, 47, 54, 289, 309, 371, 482, 827]);
    assert.equal(reports[8].errors[0].code, 'budget_too_small');
  });

  test('seed 001: 7B on 8x A100 at 40% takes 68 days', () => {
    const [report] = JSON.parse(engine.estimate(readFileSync(join(SCENARIOS, 'seed-001.json'), 'utf8'), ''));
    // 6 x 7e9 x 1.4e11 / (8 x 312e12 x 0.4) s = 68.16 days
    assert.ok(Math.abs(report.time.wall_clock_days - 5.88e21 / 998.4e12 / 86400) < 1e-9);
  });
});

describe('bad input through the wasm boundary', () => {
  const inputs = ['', 'null', '[]', '{', '{"model": NaN}', '"text"', '42', '{"model":{"params":1e999}}', '\u0000', '{"a":"\udc00"}'];
  for (const input of inputs) {
    test(`${JSON.stringify(input)} gives an error report, never a throw or NaN`, () => {
      const text = engine.estimate(input, '');
      assert.doesNotMatch(text, /NaN|Infinity/);
      const report = JSON.parse(text);
      const reports = Array.isArray(report) ? report : [report];
      for (const r of reports) assert.ok(r.errors.length > 0, text);
    });
  }

  test('every entry point answers bad input with an error report: config, comparison, catalog', () => {
    const deep = `{"model":${'['.repeat(100000)}${']'.repeat(100000)}}`;
    for (const input of ['', '{', '[]', '42', deep]) {
      for (const text of [
        imports.import_hf_config(input),
        engine.compare(input, '', ''),
        engine.compare('{}', '', input || '{'),
        engine.catalog(input || '{'),
      ]) {
        assert.doesNotMatch(text, /NaN|Infinity/);
        const out = JSON.parse(text);
        assert.ok(out.errors.length > 0, `${input.slice(0, 20)}: ${text.slice(0, 200)}`);
      }
    }
    assert.equal(JSON.parse(imports.import_hf_config(deep)).errors[0].code, 'too_deep');
  });

  test('a malformed vendor catalog is refused with field errors under "catalog"', () => {
    const report = JSON.parse(engine.estimate('{}', '{"gpus":[{"id":"x","memory_gb":"lots"}]}'));
    const fields = report.errors.map((e) => `${e.field} ${e.code}`);
    assert.ok(fields.includes('catalog.gpus[0].memory_gb wrong_type'), fields.join('\n'));
    assert.ok(fields.includes('catalog.gpus[0].source required'), fields.join('\n'));
  });

  test('a vendor catalog adds a GPU that a scenario can use', () => {
    const vendor = JSON.stringify({ gpus: [{ id: 'v-gpu', name: 'Vendor GPU', memory_gb: 96, fp16_tflops: 400, source: 'vendor datasheet' }] });
    const scenario = { model: { params: 1e9 }, training: { type: 'pretrain', tokens: 1e9 }, hardware: { gpu: 'v-gpu', count: 2 }, strategy: { mfu: 0.5 } };
    const report = JSON.parse(engine.estimate(JSON.stringify(scenario), vendor));
    assert.deepEqual(report.errors, []);
    assert.equal(report.hardware.peak_tflops, 400);
    assert.equal(report.hardware.precision, 'fp16');
  });

  test('version is the project version', () => {
    assert.equal(engine.version(), JSON.parse(readFileSync(join(SCENARIOS, '..', '..', 'package.json'), 'utf8')).version);
  });
});

describe('the three modules: the calculator, the imports, and the validation view\'s', () => {
  test('the calculator leaves the imports and the validation out; the validation module holds all', async () => {
    for (const name of ['import_hf_config', 'parse_log', 'validation', 'memory_validation', 'speed_validation', 'run_validation']) {
      assert.equal(engine[name], undefined, name);
    }
    for (const name of ['estimate', 'compare', 'catalog', 'validation']) assert.equal(imports[name], undefined, name);
    const { default: create } = await import(join(SITE, 'js', 'traincalc_validation.mjs'));
    const whole = await create({ wasmBinary: readFileSync(join(SITE, 'js', 'traincalc_validation.wasm')) });
    const scenario = readFileSync(join(SCENARIOS, 'seed-001.json'), 'utf8');
    assert.equal(whole.estimate(scenario, ''), engine.estimate(scenario, ''));
    const config = readFileSync(join(ROOT, 'tests', 'fixtures', 'hf', 'llama-2-7b.json'), 'utf8');
    assert.equal(whole.import_hf_config(config), imports.import_hf_config(config));
    assert.equal(JSON.parse(imports.import_hf_config(config)).model.layers, 32);
    const log = ' iteration      100/    1000 | consumed samples:        51200 | elapsed time per iteration (ms): 1234.5 |';
    assert.equal(whole.parse_log(log), imports.parse_log(log));
    assert.equal(JSON.parse(imports.parse_log(log)).measured['time.step_seconds'], 1.2345);
    assert.equal(JSON.parse(whole.run_validation()).rows.length, 81);
  });

  test('the calculator\'s download is at most 200 KB gzip: no validation data, descriptions or catalog texts', () => {
    // About 196 KB gzip with the engine's code and the built-in catalog's numbers; about 375 with the
    // validation data (some 95 KiB of gzipped JSON and the code that fits and checks them). The bound
    // is the page's budget for its first number.
    const bytes = readFileSync(join(SITE, 'js', 'traincalc_engine.wasm'));
    const whole = readFileSync(join(SITE, 'js', 'traincalc_validation.wasm'));
    const gzip = gzipSync(bytes, { level: 9 }).length;
    assert.ok(gzip <= 200 * 1000, `${(gzip / 1000).toFixed(1)} KB gzip`);
    // No catalog source text (the H100 SXM's cites its datasheet's page): the page fetches them apart.
    const h100 = JSON.parse(readFileSync(join(SITE, 'js', 'catalog-texts.json'), 'utf8')).gpus.find((g) => g.id === 'h100-sxm');
    const cited = 'nvidia.com/en-us/data-center/h100';
    assert.ok(h100.source.includes(cited), h100.source);
    assert.equal(bytes.includes(cited), false);
    assert.equal(whole.includes(cited), true);
    // No validation source's name is in it: the data live in the validation module only.
    assert.equal(bytes.includes('vtrain-single-node'), false);
    assert.equal(whole.includes('vtrain-single-node'), true);
    // Nor a field's description (report.compute.tokens'), which only the schemas need.
    const description = 'Tokens trained on (images, for image networks), all epochs.';
    assert.equal(bytes.includes(description), false);
    assert.equal(whole.includes(description), true);
  });
});

describe('speed through the wasm module', () => {
  test('the validation table is the native one: 45 published runs, median <= 3 points, max <= 12.5', async () => {
    const { default: create } = await import(join(SITE, 'js', 'traincalc_validation.mjs'));
    const whole = await create({ wasmBinary: readFileSync(join(SITE, 'js', 'traincalc_validation.wasm')) });
    const wasm = JSON.parse(whole.validation(true));
    assert.deepStrictEqual(wasm, JSON.parse(cli(['validate', '--planner', '--json']).out));
    assert.equal(wasm.rows.length, 45);
    assert.ok(wasm.median_abs_error_pp <= 3, `median ${wasm.median_abs_error_pp}`);
    assert.ok(wasm.max_abs_error_pp <= 12.5, `max ${wasm.max_abs_error_pp}`);  // as tests/engine/test_speed.cpp
  });

  test('a predicted report carries the step, its parts and the planner\'s layout', () => {
    const r = JSON.parse(engine.estimate(JSON.stringify({
      model: { preset: 'llama-2-70b' }, training: { type: 'pretrain', tokens: 2e12, seq_len: 4096 },
      hardware: { gpu: 'h100-sxm', count: 512 },
    }), ''));
    assert.deepEqual(r.errors, []);
    assert.equal(r.time.mfu_source, 'predicted');
    const parts = Object.values(r.time.breakdown_seconds).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(parts / r.time.step_seconds - 1) < 1e-12);
    assert.equal(r.parallelism.chosen_by, 'planner');
    assert.equal(r.parallelism.tp * r.parallelism.pp * r.parallelism.cp * r.parallelism.dp, 512);
    assert.ok(r.parallelism.alternatives.length > 0);
  });
});

describe('the engine facade (page thread, as in node and the single file)', () => {
  let facade;
  before(async () => {
    facade = await import(join(MODULES, 'engine.js'));
    await facade.loadEngine({ wasmBinary: readFileSync(join(SITE, 'js', 'traincalc_engine.wasm')) });
  });

  const scenario = {
    model: { preset: 'llama-2-7b' }, training: { type: 'pretrain', tokens: 2e12 },
    hardware: { gpu: 'h100-sxm', count: 64 }, pricing: { per_gpu_hour: 2, currency: 'USD' },
  };

  test('scaling plans each GPU count and says how far it got', async () => {
    const seen = [];
    const points = await facade.scaling(scenario, '', [8, 64, 512], (done, total) => seen.push([done, total]));
    assert.deepEqual(seen, [[1, 3], [2, 3], [3, 3]]);
    assert.deepEqual(points.map((p) => p.gpus), [8, 64, 512]);
    for (const p of points) {
      assert.equal(p.layout.chosen_by, 'planner');
      assert.ok(p.days > 0 && p.cost > 0 && p.mfu > 0 && p.mfu < 1);
    }
    // More GPUs finish sooner.
    assert.ok(points[0].days > points[1].days && points[1].days > points[2].days);
  });

  test('scaling under a monthly budget for some months: each count replaces the budget, in its currency', async () => {
    const monthly = {
      model: { preset: 'llama-2-7b' }, training: { type: 'pretrain', tokens: 1e11 }, hardware: { gpu: 'h100-sxm' },
      pricing: { per_gpu_month: 14000, currency: 'CNY' }, budget: { per_month: 448000, currency: 'CNY', months: 3 },
    };
    const points = await facade.scaling(monthly, '', [8, 64], () => {});
    for (const p of points) {
      assert.equal(p.errors, undefined, JSON.stringify(p.errors));
      assert.equal(p.currency, 'CNY');
    }
    assert.ok(points[0].days > points[1].days);
  });

  test('a newer scaling request stops an older one, which resolves to null', async () => {
    const older = facade.scaling(scenario, '', [1, 2, 4, 8, 16, 32, 64, 128], () => {});
    const newer = facade.scaling(scenario, '', [64], () => {});
    assert.equal(await older, null);
    assert.equal((await newer).length, 1);
  });
});

describe('the comparison through the facade', () => {
  test('many scenarios, one report each; a newer batch stops an older one', async () => {
    const facade = await import(join(MODULES, 'engine.js'));
    const s = (count) => ({ model: { preset: 'llama-2-7b' }, training: { type: 'pretrain', tokens: 1e12 }, hardware: { gpu: 'a100-80gb-sxm', count } });
    const older = facade.estimateMany([8, 16, 32, 64, 128, 256, 512, 1024].map(s), '');
    const newer = facade.estimateMany([s(8), s(16)], '');
    assert.equal(await older, null);
    const reports = await newer;
    assert.deepEqual(reports.map((r) => r.plan.gpus), [8, 16]);
  });
});

describe('the articles\' claims, as the page checks them (web/js/examples.js)', async () => {
  const { EXAMPLES } = await import(join(ROOT, 'web', 'js', 'examples.js'));
  const { scenarioWithExtras, stateFromHash } = await import(join(ROOT, 'web', 'js', 'state.js'));
  const reports = new Map();
  before(() => {
    for (const example of EXAMPLES) {
      const { scenario, unplaced } = scenarioWithExtras(stateFromHash(example.hash));
      assert.deepEqual(unplaced, [], example.id);
      reports.set(example.id, JSON.parse(engine.estimate(JSON.stringify(scenario), '')));
    }
  });

  test('every example is a valid scenario in both languages', () => {
    assert.ok(EXAMPLES.length >= 10);
    for (const example of EXAMPLES) {
      assert.deepEqual(reports.get(example.id).errors, [], example.id);
      for (const lang of ['en', 'zh']) assert.ok(example.claim[lang] && example.note[lang], `${example.id} ${lang}`);
    }
  });

  test('what the notes say follows from the engine', () => {
    const r = (id) => reports.get(id);
    // Seed 001's 7B row: 68 days on 8 A100s at 40%.
    assert.equal(Math.round(r('seed001-7b').time.wall_clock_days), 68);
    // BERT-base on MNLI: 100 batches of 32 x 128 a second exceed the V100's 125 TFLOPS; the
    // predicted rate is well under the article's 50, and the whole run well under a day.
    const bert = r('seed003-bert');
    assert.ok(100 * bert.compute.flops_per_token * 32 * 128 > 125e12);
    assert.ok(1 / bert.time.step_seconds < 50);
    assert.ok(bert.time.wall_clock_days < 1);
    // GPT-2 small: 124M parameters; 100 GB of English is 25B tokens; 3-4 days on a V100 would need
    // about half its peak, more than predicted; on an A100 about 2.4 days, so a day covers about 40% of
    // the data (the page's note says so).
    const gpt2 = r('seed003-gpt2-v100');
    assert.ok(Math.abs(gpt2.model.params / 124.44e6 - 1) < 0.001);
    assert.equal(gpt2.compute.tokens, 25e9);
    const needed = gpt2.compute.total_flops / (125e12 * 86400 * 3.5);
    assert.ok(needed > 0.45 && needed < 0.65 && gpt2.time.mfu < needed, `${needed} vs ${gpt2.time.mfu}`);
    const a100 = r('seed003-gpt2-a100').time.wall_clock_days;
    assert.ok(a100 > 2 && a100 < 2.9, String(a100));  // 1 / 2.4 days: 35-50% of the data in a day
    // GPT-3 175B: full fine-tuning does not fit on 8 A100-80GB; QLoRA does, with ~100 GB of 4-bit weights
    // (NF4 with an fp32 constant per 64 weights, 4.5 bits, bitsandbytes' default).
    assert.equal(r('seed003-gpt3-full').memory.fits, false);
    const qlora = r('seed003-gpt3-qlora');
    assert.equal(qlora.memory.fits, true);
    const { tp, pp, dp, zero } = qlora.parallelism;
    const shards = tp * pp * (zero === 3 ? dp : 1);
    assert.ok(Math.abs(qlora.memory.per_gpu_bytes.weights * shards / 100e9 - 1) < 0.05, `${qlora.memory.per_gpu_bytes.weights} x ${shards}`);
    // Seed 004: 5 GPUs, 43 days at 100%; and 1e11 parameters do not fit on 5 x 83 GB.
    const seed4 = r('seed004-cloud-a100-x');
    assert.equal(seed4.plan.gpus, 5);
    assert.equal(Math.round(seed4.time.wall_clock_days), 43);
    assert.equal(seed4.memory.fits, false);
    // Seed 000: GPT-3's pre-training is hundreds of thousands of GPU-hours or more; BERT-Base's
    // hundreds (not thousands); ResNet-50 x ImageNet x 90 epochs at 3 x 2 x 4.1 GMACs per image.
    assert.ok(r('seed000-gpt3').time.gpu_hours > 2e5);
    const bertPretrain = r('seed000-bert').time.gpu_hours;
    assert.ok(bertPretrain > 100 && bertPretrain < 1000, String(bertPretrain));
    const large = scenarioWithExtras(stateFromHash(EXAMPLES.find((e) => e.id === 'seed000-bert').hash.replace('bert-base', 'bert-large'))).scenario;
    assert.ok(JSON.parse(engine.estimate(JSON.stringify(large), '')).time.gpu_hours > 1000);
    // LoRA's bf16 weights, sharded over 8 A100-80GB, just fit as well.
    const lora = scenarioWithExtras(stateFromHash(EXAMPLES.find((e) => e.id === 'seed003-gpt3-qlora').hash.replace('qlora', 'lora'))).scenario;
    assert.equal(JSON.parse(engine.estimate(JSON.stringify(lora), '')).memory.fits, true);
    assert.ok(Math.abs(r('seed000-resnet').compute.total_flops / (1281167 * 90 * 6 * 4.1e9) - 1) < 1e-9);
  });
});
