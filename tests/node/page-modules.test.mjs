// The page's pure modules (number parsing, formatting, URL state), tested without a browser.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { CLI, ROOT } from './paths.mjs';

const js = (name) => import(join(ROOT, 'web', 'js', name));
// Every issue code and reason the engine declares (traincalc schema issues).
const declaredIssues = () => JSON.parse(execFileSync(CLI, ['schema', 'issues'], { encoding: 'utf8' }));
const { parseNumber } = await js('numbers.js');
const format = await js('format.js');
const { hashFromState, scenarioFromState, scenarioWithExtras, stateFromHash, storedValue, displayValue } = await js('state.js');
const { FIELD_BY_PATH } = await js('fields.js');
const { defaultLang, LANGS, loadLang, t } = await js('i18n.js');
await Promise.all(LANGS.map(loadLang));  // the page fetches only the language it shows; these tests read both

describe('numbers as people type them', () => {
  const cases = [
    ['7e9', 7e9], ['7B', 7e9], ['7 b', 7e9], ['1.4T', 1.4e12], ['70亿', 7e9], ['1.4万亿', 1.4e12], ['10,000', 1e4],
    ['10，000', 1e4], ['2.5', 2.5], ['.5', 0.5], ['-8', -8], ['1e22', 1e22], ['120M', 1.2e8], ['3k', 3000],
    // A Chinese input method's full-width digits, and 千 / 百万.
    ['７０亿', 7e9], ['０．４', 0.4], ['１２８', 128], ['3千', 3000], ['2百万', 2e6], ['１０，０００', 1e4], ['８　', 8],
  ];
  for (const [text, value] of cases) test(`${text} reads as ${value}`, () => assert.equal(parseNumber(text), value));
  for (const text of ['', 'abc', '7 billion', '1e999', '1..2', 'NaN', 'Infinity', '7BB', '1,000,00']) {
    test(`${JSON.stringify(text)} is not a number`, () => assert.equal(parseNumber(text), null));
  }
});

describe('formatting never shows NaN or Infinity', () => {
  for (const x of [NaN, Infinity, -Infinity, undefined, null, 'x']) {
    test(`${String(x)}`, () => {
      for (const text of [format.scientific(x), format.flops(x), format.count(x, 'en'), format.days(x, 'zh'), format.money(x, 'USD', 'en'), format.percent(x, 'en'), format.factor(x, 'zh')]) {
        assert.doesNotMatch(String(text), /NaN|Infinity|undefined/);
      }
    });
  }
  test('scientific notation with superscripts', () => assert.equal(format.scientific(5.88e21), '5.88×10²¹'));
  test('FLOPs with SI prefixes', () => assert.equal(format.flops(5.88e21), '5.88 ZFLOP'));
  test('an unknown currency code still formats', () => assert.match(format.money(1234, 'XYZ!', 'en'), /XYZ!/));
  test('Chinese counts use 万 and 亿', () => assert.equal(format.count(6.74e9, 'zh'), '67.4亿'));
  test('the ends of a likely range keep two decimals: "0.90-1.44", never "0.9-1.44"', () => {
    assert.equal(format.factor(0.898, 'en'), '0.90');
    assert.equal(format.factor(1.4396, 'zh'), '1.44');
    assert.equal(format.factor(2, 'en'), '2.00');
  });
  test('a value that rounds to zero reads "0", never "-0"', () => {
    assert.equal(format.plain(-0, 'en'), '0');
    assert.equal(format.plain(-0.001, 'zh'), '0');
    assert.equal(format.plain(-1.5, 'en'), '-1.5');
    assert.equal(format.count(-0, 'en'), '0');
    assert.equal(format.factor(-0.001, 'en'), '0.00');
  });
  test('a browser without signDisplay "negative" still formats, and still never shows "-0"', async () => {
    const Native = Intl.NumberFormat;
    Intl.NumberFormat = function (locale, options = {}) {
      if (options.signDisplay === 'negative') throw new RangeError('signDisplay');
      return new Native(locale, options);
    };
    try {
      const old = await import(`file://${join(ROOT, 'web', 'js', 'format.js')}?without-negative-sign-display`);
      assert.equal(old.plain(-0.001, 'en'), '0');
      assert.equal(old.plain(-1.5, 'en'), '-1.5');
      assert.equal(old.factor(-0.001, 'zh'), '0.00');
      assert.equal(old.count(1234, 'en'), '1,234');
    } finally {
      Intl.NumberFormat = Native;
    }
  });
});

describe('URL state', () => {
  const example = 'model.preset=llama-2-7b&training.tokens=2e12&hardware.gpu=h100-sxm&hardware.count=64&strategy.mfu=0.4&lang=zh';

  test('the issue\'s example hash becomes the scenario it spells out', () => {
    const state = stateFromHash(`#${example}`);
    assert.equal(state.lang, 'zh');
    assert.deepEqual(scenarioFromState(state), {
      model: { preset: 'llama-2-7b' },
      training: { type: 'pretrain', tokens: 2e12 },
      hardware: { gpu: 'h100-sxm', count: 64 },
      strategy: { mfu: 0.4, optimizer: 'adamw' },  // the form's explicit defaults
    });
  });

  test('a link\'s field the form hides in its modes still reaches the engine, never dropped', () => {
    // Steps are given with a batch in tokens; a batch in sequences has no input beside them.
    const state = stateFromHash('#training.steps=1e6&training.global_batch_sequences=256&training.seq_len=512');
    const { scenario } = scenarioWithExtras(state);
    assert.equal(scenario.training.global_batch_sequences, 256);
    assert.match(hashFromState(state), /training\.global_batch_sequences=256/);
  });

  test('a dataset in GB sends its kind of text, unless bytes per token are typed in', () => {
    const state = stateFromHash('#training.dataset_gb=100&training.text=chinese');
    assert.equal(scenarioFromState(state).training.text, 'chinese');
    assert.match(hashFromState(state), /training\.text=chinese/);
    state.values.set('training.bytes_per_token', '2.5');
    assert.equal(scenarioFromState(state).training.text, undefined);
    assert.equal(scenarioFromState(state).training.bytes_per_token, 2.5);
    assert.doesNotMatch(hashFromState(state), /training\.text/);
  });

  test('the example link round-trips exactly: its fields define the estimate, so they stay', () => {
    assert.equal(hashFromState(stateFromHash(`#${example}`)), example);
  });

  test('other fields are written only when they differ from the defaults', () => {
    const state = stateFromHash(`#${example}`);
    state.values.set('training.seq_len', '8192');
    assert.equal(hashFromState(state), example.replace('&hardware.gpu', '&training.seq_len=8192&hardware.gpu'));
  });

  test('a mode survives the round trip even while its input is empty', () => {
    const state = stateFromHash('#budget.per_month=');
    assert.equal(state.modes.gpus, 'per_month');
    assert.equal(state.modes.price, 'per_gpu_month');  // a monthly budget needs a monthly price
    const again = stateFromHash(`#${hashFromState(state)}`);
    assert.deepEqual(again.modes, state.modes);
  });

  test('modes survive the round trip: params, chinchilla, custom GPU, monthly budget', () => {
    const hash = 'model.params=7e9&training.tokens=chinchilla&hardware.gpu.name=Cloud-A100%20X&hardware.gpu.memory_gb=83'
      + '&hardware.gpu.fp16_tflops=539.8&budget.per_month=10000&pricing.per_gpu_month=1999.99&pricing.currency=CNY&strategy.mfu=1&strategy.precision=fp16';
    const state = stateFromHash(`#${hash}`);
    assert.deepEqual(state.modes, { model: 'params', data: 'chinchilla', gpus: 'per_month', price: 'per_gpu_month' });
    const scenario = scenarioFromState(state);
    assert.deepEqual(scenario.hardware, { gpu: { name: 'Cloud-A100 X', memory_gb: 83, fp16_tflops: 539.8 } });
    assert.deepEqual(scenario.budget, { per_month: 10000 });
    assert.equal(scenario.training.tokens, 'chinchilla');
    assert.deepEqual(scenarioFromState(stateFromHash(`#${hashFromState(state)}`)), scenario);
  });

  test('text that is not a number reaches the engine unchanged, so it can name the field', () => {
    const state = stateFromHash('#hardware.count=sixty');
    assert.equal(scenarioFromState(state).hardware.count, 'sixty');
  });

  test('layout inputs reach the engine as numbers (the ZeRO stage select included)', () => {
    const { strategy } = scenarioFromState(stateFromHash('#strategy.zero=3&strategy.tp=8&strategy.recompute=full'));
    assert.equal(strategy.zero, 3);
    assert.equal(strategy.tp, 8);
    assert.equal(strategy.recompute, 'full');
  });

  test('MFU is typed in percent and stored as a fraction', () => {
    const field = FIELD_BY_PATH.get('strategy.mfu');
    assert.equal(storedValue(field, '45'), '0.45');
    assert.equal(storedValue(field, '45%'), '0.45');
    assert.equal(displayValue(field, '0.45'), '45');
    assert.equal(storedValue(field, 'lots'), 'lots');
  });

  test('link parameters the form lacks go to the engine, which uses them or names them', () => {
    const state = stateFromHash('#strategy.tp=8&pricing.offer=aws-p5.48xlarge-on-demand-h100-sxm&hardware.cout=64');
    const { scenario, unplaced } = scenarioWithExtras(state);
    assert.equal(scenario.strategy.tp, 8);  // a form field, read from the link as any other
    assert.equal(scenario.pricing.offer, 'aws-p5.48xlarge-on-demand-h100-sxm');
    assert.equal(scenario.hardware.cout, 64);  // the engine answers: unknown key, did you mean "count"?
    assert.deepEqual(unplaced, []);
    assert.match(hashFromState(state), /strategy\.tp=8/);
  });

  test('hostile link parameters stay text and cannot reach the prototype', () => {
    const state = stateFromHash('#__proto__.polluted=1&constructor.prototype.x=1&model.preset=<script>&hardware.gpu.=1&model=2');
    const { scenario, unplaced } = scenarioWithExtras(state);
    assert.equal(scenario.model.preset, '<script>');
    assert.equal({}.polluted, undefined);
    assert.deepEqual(unplaced.sort(), ['__proto__.polluted', 'constructor.prototype.x', 'hardware.gpu.', 'model'].sort());
  });
});

describe('language', () => {
  test('every error and warning code the engine declares has a message in Chinese, and every message a declared code', async () => {
    // The codes as the engine declares them (traincalc/issue.hpp; an undeclared one does not compile).
    const { ERRORS, WARNINGS } = await js('i18n.js');
    const codes = declaredIssues().codes.map((c) => c.code);
    assert.ok(codes.length >= 60, codes.join(' '));
    const pageOnly = new Set(['link_parameter_unused']);  // the page's own: a link parameter with no place
    assert.deepEqual(codes.filter((code) => !ERRORS.zh[code] && !WARNINGS.zh[code] && !code.startsWith('internal_')), []);
    // An error's message may be a variant of its code (out_of_range_max, wrong_type_text, ...).
    const declared = (key) => codes.includes(key) || pageOnly.has(key) || codes.some((code) => key.startsWith(`${code}_`));
    for (const lang of ['en', 'zh']) {
      assert.deepEqual(Object.keys(ERRORS[lang]).filter((key) => !declared(key)), [], `${lang} errors`);
      assert.deepEqual(Object.keys(WARNINGS[lang]).filter((key) => !codes.includes(key)), [], `${lang} warnings`);
    }
    // Every error with a Chinese message has an English one too (warnings fall back to the engine's).
    assert.deepEqual(Object.keys(ERRORS.zh).filter((code) => !ERRORS.en[code]), []);
  });

  test('every error that names its check has a Chinese message of its own, with the values the engine passes', async () => {
    // Each {"reason", "..."} in the engine's sources, with the names of the params beside it in the
    // same braces: the Chinese message exists and asks for nothing the engine does not pass.
    const { readdirSync, readFileSync } = await import('node:fs');
    const { REASONS } = await js('i18n.js');
    const found = new Map();
    for (const file of readdirSync(join(ROOT, 'engine/src'), { recursive: true }).filter((f) => f.endsWith('.cpp'))) {
      const text = readFileSync(join(ROOT, 'engine/src', file), 'utf8');
      for (const m of text.matchAll(/\{\{"reason", reason\("(\w+)"\)\}((?:,\s*\{"\w+",[^{}]*?(?:\([^()]*(?:\([^()]*\))?[^()]*\))?[^{}]*?\})*)\}/g)) {
        const names = [...m[2].matchAll(/\{"(\w+)",/g)].map((n) => n[1]);
        found.set(`${m[1]} (${file})`, { reason: m[1], names: [...names, 'field'] });
      }
      for (const m of text.matchAll(/note_unused\(f, "\w+", "[^"]*",\s*reason\("(\w+)"\)/g)) found.set(`${m[1]} (${file})`, { reason: m[1], names: ['field'] });
    }
    assert.ok(found.size >= 60, `${found.size} reasons found`);  // the pattern still finds them
    for (const [where, { reason, names }] of found) {
      const text = REASONS.zh[reason];
      assert.ok(text, `no Chinese message for ${where}`);
      for (const [, name] of text.matchAll(/\{(\w+)\}/g)) assert.ok(names.includes(name), `${where}: {${name}} is not passed (${names})`);
    }
    // No Chinese warning quotes the engine's English message either.
    const { WARNINGS } = await js('i18n.js');
    assert.deepEqual(Object.entries(WARNINGS.zh).filter(([, text]) => text.includes('{message}')).map(([code]) => code), []);
    // Every reason in the engine is written reason("..."), which the compiler checks against the
    // declared ones: no bare literal escapes the check.
    const bare = [];
    for (const file of readdirSync(join(ROOT, 'engine/src'), { recursive: true }).filter((f) => f.endsWith('.cpp'))) {
      const text = readFileSync(join(ROOT, 'engine/src', file), 'utf8');
      for (const m of text.matchAll(/"reason",\s*"(\w+)"/g)) bare.push(`${m[1]} (${file})`);
    }
    assert.deepEqual(bare, []);
    // Every declared reason has its Chinese message, and every Chinese message a declared reason.
    const { reasons } = declaredIssues();
    assert.deepEqual(reasons.filter((reason) => !REASONS.zh[reason]), []);
    assert.deepEqual(Object.keys(REASONS.zh).filter((reason) => !reasons.includes(reason)), []);
  });

  test('errors are fully Chinese with the engine\'s values: no English sentence beside them', async () => {
    const { errorText } = await js('i18n.js');
    const engine = (scenario) => {
      try {
        return JSON.parse(execFileSync(CLI, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] }));
      } catch (error) {
        return JSON.parse(error.stdout);  // exit status 2: the report has errors
      }
    };
    const base = { model: { preset: 'llama-2-7b' }, training: { type: 'pretrain', tokens: 1e12 }, hardware: { gpu: 'a100-80gb-sxm', count: 8 } };
    const cases = [
      { ...base, strategy: { tp: 3 } },
      { ...base, hardware: { gpu: 'a100-80gb-sxm', count: 12 }, strategy: { tp: 8, pp: 1, cp: 1 } },
      { ...base, strategy: { tp: 2, pp: 2, cp: 1, dp: 4 } },
      { ...base, strategy: { pp: 4, pp_first_stage_layers: 10, pp_last_stage_layers: 9 } },
      { ...base, strategy: { cp: 3 }, training: { type: 'pretrain', tokens: 1e12, seq_len: 4096 } },
      { ...base, training: { type: 'pretrain', tokens: 1e12, method: 'lora' } },
      { ...base, training: { type: 'pretrain', tokens: 1e12, samples: 1000 } },
      { ...base, pricing: { offer: 'aws-p4de.24xlarge-on-demand-a100-80gb-sxm', currency: 'CNY' } },
      { ...base, hardware: { gpu: 'a100-80gb-sxm' }, pricing: { per_gpu_hour: 2, currency: 'USD' }, budget: { per_month: 1, currency: 'USD' } },
      { model: { params: 7e9, active_params: 8e9 }, training: { type: 'pretrain', tokens: 1e12 }, hardware: { gpu: 'a100-80gb-sxm', count: 8 } },
      { model: { layers: 32, hidden: 4096, heads: 30, ffn_hidden: 11008, vocab: 32000 }, training: { type: 'pretrain', tokens: 1e12 }, hardware: { gpu: 'a100-80gb-sxm', count: 8 } },
    ];
    const { REASONS } = await js('i18n.js');
    const seen = new Set();
    for (const scenario of cases) {
      const { errors } = engine(scenario);
      assert.ok(errors.length, JSON.stringify(scenario));
      for (const e of errors) {
        const zh = errorText('zh', e);
        seen.add(e.params?.reason ?? e.code);
        assert.doesNotMatch(zh, /\{\w+\}/, `${e.field}: ${zh}`);  // every value filled in
        // No English sentence: at most field names and codes (a word joined by dots or underscores).
        const words = zh.replace(/[\w.]+[._][\w.]+|"[^"]*"|“[^”]*”/g, '').match(/[A-Za-z]{3,}(?: [A-Za-z]{2,})+/g);
        assert.equal(words, null, `${e.field}: ${zh}`);
        assert.notEqual(zh, e.message);
        // A check that names itself is said by its own message, with the engine's values.
        if (e.params?.reason) {
          const values = { field: e.field, ...e.params };
          assert.equal(zh, REASONS.zh[e.params.reason].replace(/\{(\w+)\}/g, (w, name) => values[name]), e.params.reason);
        }
      }
    }
    for (const reason of ['tp_heads', 'model_parallel_divides', 'dp_product', 'stage_layers', 'cp_sequence', 'lora_pretrain', 'two_amounts', 'monthly_budget', 'active_params', 'hidden_heads', 'offer_currency'])
      assert.ok(seen.has(reason), `${reason} not reached: ${[...seen]}`);
    const tp = engine(cases[0]).errors.filter((e) => e.field === 'strategy.tp');
    assert.deepEqual(tp.map((e) => errorText('zh', e)).sort(), [
      'tp × pp × cp = 3，不能整除 GPU 数量（8 张）：请修改并行方案或 GPU 数量。',
      '张量并行切分注意力头：张量并行度（3）必须整除注意力头数（32）。',
    ]);
    assert.equal(errorText('en', tp[0]), tp[0].message);  // English is the engine's own message
    // Warnings too: a setting that does nothing here, a config imported with defaults.
    const { warningText } = await js('i18n.js');
    const unused = engine({ ...base, training: { type: 'pretrain', tokens: 1e12, lora_rank: 16 } }).warnings.find((w) => w.field === 'training.lora_rank');
    // The field in the page's words, not its path.
    assert.equal(warningText('zh', unused), '“LoRA 秩”只适用于 LoRA 和 QLoRA，已忽略。');
    const imported = JSON.parse(execFileSync(CLI, ['import-hf', '-'], { input: JSON.stringify({ model_type: 'mystery', hidden_size: 1024, num_hidden_layers: 4, num_attention_heads: 8, vocab_size: 1000, hidden_act: 'silu' }), encoding: 'utf8' }));
    const texts = imported.warnings.map((w) => warningText('zh', w));
    assert.ok(texts.includes('导入器不认识 model_type“mystery”，其默认值是推测的。'), texts.join(' | '));
    assert.ok(texts.includes('配置中没有 FFN 宽度，按 GPT-2 的惯例取 4 × hidden（4096）。'), texts.join(' | '));
    for (const text of texts) assert.equal(text.replace(/[\w.]+[._][\w.]+|"[^"]*"|“[^”]*”/g, '').match(/[A-Za-z]{3,}(?: [A-Za-z]{2,})+/g), null, text);
    // The engine's name for a GPU without one, in Chinese.
    const custom = engine({ ...base, hardware: { gpu: { memory_gb: 80, bf16_tflops: 500, source: 'a test' }, count: 8 }, strategy: { precision: 'fp8' } }).errors.find((e) => e.field === 'strategy.precision');
    assert.equal(errorText('zh', custom), '自定义 GPU 没有 fp8 的稠密峰值；请选择它有的精度：bf16。');
    const budget = engine(cases[8]).errors.find((e) => e.field === 'budget.per_month');
    assert.match(errorText('zh', budget), /^每月 1 USD 的预算，按每 GPU 每月 \d+(\.\d+)? USD 租不起 1 张 GPU：请提高到至少 \d+(\.\d+)? USD/);
  });

  test('no message repeats an engine constant: the assumed utilisation, sequence length and fitted law come from the report', async () => {
    const { STRINGS, ERRORS, WARNINGS, warningText } = await js('i18n.js');
    for (const table of [STRINGS, ERRORS, WARNINGS]) {
      for (const lang of ['en', 'zh']) {
        for (const [key, text] of Object.entries(table[lang] ?? {})) {
          assert.doesNotMatch(text, /\b40 ?%|\b2048\b|406\.4|410\.7|[^{]\b4\.4 |400 万|\b1\.3\b|±10|25 GB\/s|10 亿/, `${lang}.${key}`);
        }
      }
    }
    const warning = { field: 'strategy.mfu', code: 'mfu_assumed', message: '...', params: { mfu: '0.35' } };
    assert.match(warningText('zh', warning), /稠密峰值的 35% 估算/);
    assert.match(warningText('zh', { field: 'training.seq_len', code: 'seq_len_assumed', message: '', params: { seq_len: '4096' } }), /按 4096 计/);
  });

  test('every speed-validation source has a name in both languages (a new source cannot show its bare id)', async () => {
    const { STRINGS } = await js('i18n.js');
    const { readFileSync } = await import('node:fs');
    const sources = JSON.parse(readFileSync(join(ROOT, 'engine', 'data', 'speed-validation.json'), 'utf8')).sources;
    assert.ok(sources.length >= 12);
    for (const s of sources)
      for (const lang of ['en', 'zh']) assert.ok(STRINGS[lang][`val_src_${s.group}`], `${lang}: val_src_${s.group}`);
  });

  test('what the speed model was not validated on is named in the reader\'s words, and a mixture of experts says how its likely range leans', async () => {
    const { warningText } = await js('i18n.js');
    const engine = (scenario) => JSON.parse(execFileSync(CLI, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] }).toString());
    let out;
    try {
      out = engine({ model: { preset: 'deepseek-v3' }, training: { type: 'pretrain', tokens: 1e12 }, hardware: { gpu: 'h100-sxm', count: 2048 }, strategy: { offload: 'optimizer' } });
    } catch (error) {
      out = JSON.parse(error.stdout);
    }
    const warning = (code) => out.warnings.find((w) => w.code === code);
    assert.equal(warning('speed_uncalibrated').params.feature_ids, 'cpu_offload');
    assert.equal(warningText('zh', warning('speed_uncalibrated')), '速度模型验证所用的实测步长中没有以下情形：CPU 卸载。这部分按原理建模，未经验证。');
    assert.equal(warningText('zh', { code: 'speed_uncalibrated', params: { features: 'QLoRA, CPU offload', feature_ids: 'qlora,cpu_offload' } }),
      '速度模型验证所用的实测步长中没有以下情形：QLoRA、CPU 卸载。这部分按原理建模，未经验证。');
    // The MoE range from likely_ranges (engine/src/estimate/step_time.cpp): 0.8076-1.6883, 81 rows, 2 sources.
    assert.equal(warningText('zh', warning('speed_moe_range')),
      '混合专家（MoE）的步长按原理建模，没有专属的拟合常数。与 2 个来源的 81 条公开实测相比（每条都用不含其软件谱系拟合出的常数预测），实测大多比预测慢，因此可能范围偏慢：从比预测快 19% 到慢 69%。');
    // Megatron's fused softmax refused for vTrain's 18.4B at TP 16 (48 heads, 3 a GPU, micro-batch 2).
    const gpt = { layers: 40, hidden: 6144, heads: 48, ffn_hidden: 24576, vocab: 51200, bias: true, norm: 'layernorm', position_embeddings: 2048, tied_embeddings: true, dropout: true };
    const refused = engine({ model: gpt, training: { type: 'pretrain', tokens: 1e11, seq_len: 2048, global_batch_sequences: 1024 }, hardware: { gpu: 'a100-80gb-sxm', count: 256 },
      strategy: { precision: 'fp16', mfu: 'auto', tp: 16, pp: 1, dp: 16, micro_batch: 2, attention: 'fused_softmax' } });
    const fallback = refused.warnings.find((w) => w.code === 'softmax_fallback');
    assert.equal(fallback.field, 'strategy.micro_batch');
    assert.equal(warningText('zh', fallback),
      'Megatron 的融合 softmax 只在“微批次 × 每张 GPU 的注意力头数”为 4 的倍数时运行（序列 2048 个 token）；此处为 2 × 3，因此改由 PyTorch 以 fp32 计算 softmax：前向每个注意力分数的显存读写约为融合内核的 9 倍，并为反向传播保留 fp32 分数。请选用使乘积为 4 的倍数的微批次，或在支持的 GPU 上使用 FlashAttention。');
  });

  test('an error says what to change in Chinese too, from the engine\'s params', async () => {
    const { errorText } = await js('i18n.js');
    const engine = (scenario) => JSON.parse(execFileSync(CLI, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] }).toString());
    let out;
    try {
      out = engine({ model: { params: 1e17 }, training: { type: 'pretrain', tokens: 1e9, epoch: 2 }, hardware: { gpu: 'h100-sxm', count: 8 }, strategy: { precision: 'bf17' } });
    } catch (error) {
      out = JSON.parse(error.stdout);  // exit status 2: the report has errors
    }
    const by = (field) => out.errors.find((e) => e.field === field);
    assert.equal(errorText('zh', by('model.params')), '不能超过 1e+16（填的是 1e+17）。');
    assert.equal(errorText('zh', by('training.epoch')), '计算器不认识这一项；是不是“epochs”？');
    assert.equal(errorText('zh', by('strategy.precision')), '不是可选的值；可选：bf16, fp16, fp8, tf32, fp32。');
    assert.equal(errorText('en', by('model.params')), 'At most 1e+16 (got 1e+17).');
    // A missing key that must hold one of several things says which, in either language (params.expected).
    let missing;
    try {
      missing = engine({ model: { preset: 'llama-2-7b' }, training: { tokens: 1e9 }, hardware: { count: 8 } });
    } catch (error) {
      missing = JSON.parse(error.stdout);
    }
    const need = (field) => missing.errors.find((e) => e.field === field);
    assert.equal(need('training.type').params.expected, 'training_type');
    assert.equal(errorText('zh', need('training.type')), '必填：“pretrain”（预训练）或“finetune”（微调）。');
    assert.equal(errorText('zh', need('hardware.gpu')), '必填：目录中的 GPU ID（例如“h100-sxm”），或直接写出 GPU 规格。');
    assert.equal(errorText('en', need('hardware.gpu')), 'Required: a GPU ID from the catalog (e.g. "h100-sxm") or an inline GPU spec.');
    // A preset ID that happens to be a feature's name stays as typed.
    let unknown;
    try {
      unknown = engine({ model: { preset: 'qlora' }, training: { type: 'pretrain', tokens: 1e9 }, hardware: { gpu: 'h100-sxm', count: 8 } });
    } catch (error) {
      unknown = JSON.parse(error.stdout);
    }
    assert.match(errorText('zh', unknown.errors.find((e) => e.field === 'model.preset')), /“qlora”/);
    // Without params, the code's general message; an unknown code, the engine's own.
    assert.equal(errorText('zh', { code: 'required', message: 'x' }), '必填。');
    assert.equal(errorText('zh', { code: 'no_such_code', message: 'the engine says' }), 'the engine says');
  });

  test('Chinese browsers get Chinese, everyone else English', () => {
    assert.equal(defaultLang(['zh-CN', 'en']), 'zh');
    assert.equal(defaultLang(['zh-TW']), 'zh');
    assert.equal(defaultLang(['de-DE', 'en-US']), 'en');
    assert.equal(defaultLang([]), 'en');
  });
  test('every label exists in both languages', () => {
    for (const path of FIELD_BY_PATH.keys()) {
      assert.notEqual(t('en', path), path, `en: ${path}`);
      assert.notEqual(t('zh', path), path, `zh: ${path}`);
    }
  });
});

describe('scaling chart logic', async () => {
  const { scalingCounts, stopsPaying } = await js('widgets/scaling.js');
  test('counts are powers of two from 1/64 to 64 times the current count, and the count itself', async () => {
    assert.deepEqual(scalingCounts(64), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
    assert.deepEqual(scalingCounts(100).slice(0, 3), [1, 2, 4]);
    // An offer's pricing type in the reader's words.
    const { pricingWord, networkText } = await js('widgets/offer-picker.js');
    assert.equal(pricingWord('zh', 'on-demand'), '按需');
    assert.equal(pricingWord('zh', 'on-demand (lowest seen)'), '按需 (所见最低价)');
    assert.equal(pricingWord('zh', 'reserved-block (Capacity Blocks for ML)'), '预留时段 (Capacity Blocks for ML)');
    assert.equal(pricingWord('en', 'monthly'), 'monthly');
    assert.equal(pricingWord('zh', 'pay-as-you-go'), 'pay-as-you-go');
    // What an offer's instances can form, with or without a bandwidth, and a cap alone.
    assert.equal(networkText({ cluster: 'ethernet', instance_gpus: 4 }, 'en'),
      'Instances of up to 4 GPUs, joined only over ordinary Ethernet: training across instances is slow.');
    assert.equal(networkText({ max_gpus: 64 }, 'zh'), '一个集群最多 64 张 GPU。');
    assert.equal(networkText({}, 'en'), '');
    // A cloud offer that joins at most 8 GPUs (a RunPod community pod): the chart stops there.
    assert.deepEqual(scalingCounts(8, 1, 8), [1, 2, 4, 8]);
    assert.deepEqual(scalingCounts(4, 2, 12), [2, 4, 8, 12]);
    assert.ok(scalingCounts(100).includes(100));
    assert.equal(Math.max(...scalingCounts(1e6)), 2 ** 20);
  });
  test('adding GPUs stops paying where GPU-hours exceed the cheapest point by more than 25%', () => {
    const point = (gpus, gpuHours) => ({ gpus, gpu_hours: gpuHours, fits: true });
    const points = [point(8, 100), point(16, 101), point(32, 110), point(64, 124), point(128, 126), point(256, 200)];
    assert.equal(stopsPaying(points).gpus, 64);  // 100 / 124 >= 0.8 > 100 / 126
    assert.equal(stopsPaying(points.slice(0, 3)), null);  // efficient all the way
    // A count that does not fit in memory is not a candidate.
    assert.equal(stopsPaying([{ gpus: 1, gpu_hours: 50, fits: false }, ...points.slice(0, 3)]), null);
  });
});

describe('the expected run in words', async () => {
  const { hours, expectedCount } = await js('widgets/goodput.js');
  test('spans of time in the unit people say, one form for one', () => {
    assert.equal(hours(1 / 60, 'en'), '1 minute');
    assert.equal(hours(0.1 / 60, 'en'), '0.1 minutes');
    assert.equal(hours(8.43, 'en'), '8.4 hours');
    assert.equal(hours(24.7, 'zh'), '24.7 小时');
    assert.equal(hours(24 * 150.4, 'en'), '150 days');
    // A single GPU's interruption every 2,111.5 days is "5.8 years", not "2,111.5 days".
    assert.equal(hours(24 * 2111.5, 'en'), '5.8 years');
    assert.equal(hours(24 * 2111.5, 'zh'), '5.8 年');
  });
  test('an expected count below one keeps two significant figures', () => {
    assert.equal(expectedCount(0.004113, 'en'), '0.0041');
    assert.equal(expectedCount(0.37, 'en'), '0.37');
    assert.equal(expectedCount(8.2, 'en'), '8');
    assert.equal(expectedCount(0, 'en'), '0');
    assert.equal(expectedCount(3.1e-8, 'en'), '0.000000031');  // never "about 0" while one is expected at all
  });
});

describe('step times as said', async () => {
  const { seconds, secondsRange } = await js('widgets/speed.js');
  test('three or four significant figures, the range in the step\'s unit and digits', () => {
    assert.equal(seconds(0.00512, 'en'), '5.12 ms');
    assert.equal(seconds(0.2345, 'en'), '234.5 ms');
    assert.equal(seconds(2.3456, 'en'), '2.35 s');
    assert.equal(seconds(23.456, 'en'), '23.5 s');
    // A one-GPU fine-tune of a 70B model takes hours a step: no hundredths of a second.
    assert.equal(seconds(7896.09, 'en'), '7,896 s');
    assert.equal(secondsRange({ low: 7175.96, high: 8746.49 }, 7896.09, 'en'), '7,176–8,746 s');
    assert.equal(secondsRange({ low: 2.12, high: 3.36 }, 2.29, 'en'), '2.12–3.36 s');
  });
});

describe('speed in words', async () => {
  const { layoutInWords } = await js('widgets/speed.js');
  const report = {
    plan: { gpus: 64 },
    time: { micro_batches_per_step: 8 },
    memory: { fits: true },
    parallelism: { tp: 8, pp: 2, cp: 1, ep: 1, dp: 4, micro_batch: 1, zero: 1, recompute: 'selective', chosen_by: 'planner', layouts_fitting: 120, layouts_evaluated: 300 },
  };
  test('English', () => assert.equal(layoutInWords(report, 'en'),
    'Layout: 64 GPUs = 8-way tensor × 2-way pipeline × 4-way data parallel; micro-batch 1 (8 per step), ZeRO-1 (optimizer states sharded), selective recomputation. '
    + 'Chosen by the planner: the fastest of 120 layouts that fit in memory (300 weighed).'));
  test('Chinese', () => assert.equal(layoutInWords(report, 'zh'),
    '并行方案：64 张 GPU = 张量并行 8 路 × 流水并行 2 路 × 数据并行 4 路；微批次 1（每步 8 个），ZeRO-1（切分优化器状态），选择性重计算。由规划器选出：在 120 个放得下的方案中最快（共评估 300 个）。'));
  // Llama 3's 126 layers on 16 stages: the ends one layer lighter, said in words; even stages are not.
  const uneven = { ...report, plan: { gpus: 128 }, parallelism: { ...report.parallelism, pp: 16, dp: 1, first_stage_layers: 7, middle_stage_layers: 8, last_stage_layers: 7 } };
  test('uneven stages, English', () => assert.match(layoutInWords(uneven, 'en'),
    /ZeRO-1 \(optimizer states sharded\), uneven stages \(7 layers on the first, up to 8 between, 7 on the last\), selective/));
  test('uneven stages, Chinese', () => assert.match(layoutInWords(uneven, 'zh'), /流水各段层数不等（首段 7 层，中间段最多 8 层，末段 7 层）/));
  test('even stages say nothing more', () => {
    const even = { ...report, parallelism: { ...report.parallelism, first_stage_layers: 16, last_stage_layers: 16 } };
    assert.doesNotMatch(layoutInWords(even, 'en'), /uneven/);
  });
});

describe('export', async () => {
  const { comparisonCsv, csvCell, reportDocument } = await js('export.js');
  test('CSV cells are quoted when needed and never start a formula', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell(-3), '-3');  // a number stays a number
    assert.equal(csvCell(undefined), '');
  });
  test('the comparison as CSV: one line per row, raw numbers, errors named', () => {
    const ok = { errors: [], cost: { per_gpu_hour: 2, currency: 'USD', total: 1000 }, plan: { gpus: 8 }, time: { wall_clock_days: 12.5, gpu_hours: 500 }, memory: { per_gpu_bytes: { total: 6e10 }, fits: true } };
    // A predicted utilisation: the expected run is the headline, the steady state beside it.
    const expected = { ...ok, cost: { ...ok.cost, expected_total: 1400 }, time: { ...ok.time, expected: { headline: true, wall_clock_days: 17.5, gpu_hours: 700 } } };
    const bad = { errors: [{ field: 'budget.per_month', message: 'too small' }] };
    // An offer priced in yuan, costed in the user's dollars: its own price and the rate beside.
    const converted = { ...ok, cost: { ...ok.cost, per_gpu_hour: 1.5, exchange: { from: 'CNY', to: 'USD', rate: 0.125, per_gpu_hour: 12 } } };
    const csv = comparisonCsv([
      { offer: { provider: 'Cloud, Inc.', name: 'A100 x8', date: '2025-06' }, gpuName: 'A100', report: ok },
      { offer: { provider: 'Cloud', name: 'H100 x8' }, gpuName: 'H100', report: expected },
      { offer: { provider: '=evil', name: 'T4' }, gpuName: 'T4', report: bad },
      { offer: { provider: 'Yun', name: 'A800' }, gpuName: 'A800', report: converted },
    ]);
    assert.equal(csv, 'provider,offer,date,gpu,price_per_gpu_hour,currency,gpus,days,gpu_hours,cost,memory_per_gpu_gb,fits,error,days_at_engine_utilisation,engine_mfu,basis,steady_days,steady_gpu_hours,steady_cost,offer_price_per_gpu_hour,offer_currency,exchange_rate\r\n'
      + '"Cloud, Inc.",A100 x8,2025-06,A100,2,USD,8,12.5,500,1000,60,true,,,,steady_state,12.5,500,1000,2,USD,1\r\n'
      + 'Cloud,H100 x8,,H100,2,USD,8,17.5,700,1400,60,true,,,,expected_run,12.5,500,1000,2,USD,1\r\n'
      + "'=evil,T4,,T4,,,,,,,,,budget.per_month: too small,,,,,,,,,\r\n"
      + 'Yun,A800,,A800,1.5,USD,8,12.5,500,1000,60,true,,,,steady_state,12.5,500,1000,12,CNY,0.125\r\n');
  });
  test('the report document carries the scenario to re-run it', () => {
    const doc = JSON.parse(reportDocument({ model: { params: 1 } }, { time: {} }, 'http://x/#a=1'));
    assert.deepEqual(doc, { traincalc: 'report-v1', url: 'http://x/#a=1', scenario: { model: { params: 1 } }, report: { time: {} } });
  });
});

describe('four ways in, one state', async () => {
  const { enterWay, wayOf } = await js('modes.js');
  test('each way sets its inputs, and what was typed survives a round of switching', () => {
    const state = stateFromHash('training.tokens=1e12&hardware.count=128');
    assert.equal(wayOf(state), 'pretrain');
    enterWay(state, 'finetune');
    assert.equal(wayOf(state), 'finetune');
    assert.equal(state.values.get('training.type'), 'finetune');
    enterWay(state, 'budget');
    assert.equal(wayOf(state), 'budget');
    assert.equal(state.modes.gpus, 'per_month');
    assert.equal(state.modes.price, 'per_gpu_month');
    enterWay(state, 'compare');
    assert.equal(wayOf(state), 'compare');
    assert.match(hashFromState(state), /view=compare/);
    enterWay(state, 'pretrain');
    assert.equal(wayOf(state), 'pretrain');
    assert.equal(state.modes.gpus, 'count');
    assert.equal(state.values.get('training.tokens'), '1e12');
    assert.equal(state.values.get('hardware.count'), '128');
  });
  test('fine-tuning starts from fine-tuning data, shown in the inputs, and pre-training gets its own back', () => {
    const state = stateFromHash('model.preset=llama-3-8b&hardware.gpu=rtx-4090&hardware.count=1');
    enterWay(state, 'finetune');
    // Not 2 trillion tokens at the model's 8,192: Alpaca's 52,002 samples, 3 epochs, 2,048 tokens each.
    assert.equal(state.modes.data, 'samples');
    assert.equal(state.values.get('training.samples'), '52002');
    assert.equal(state.values.get('training.epochs'), '3');
    assert.equal(state.values.get('training.seq_len'), '2048');
    assert.match(hashFromState(state), /training\.samples=52002.*training\.seq_len=2048/);
    enterWay(state, 'pretrain');
    assert.equal(state.modes.data, 'tokens');
    assert.equal(state.values.get('training.tokens'), '2e12');
    assert.equal(state.values.get('training.seq_len'), '');
    // What the user typed is theirs: tokens of their own stay tokens, a sequence of their own stays.
    const typed = stateFromHash('training.tokens=5e8&training.seq_len=512');
    enterWay(typed, 'finetune');
    assert.equal(typed.modes.data, 'tokens');
    assert.equal(typed.values.get('training.seq_len'), '512');
  });
  test('the way survives the link', () => {
    assert.equal(wayOf(stateFromHash('view=compare')), 'compare');
    assert.equal(wayOf(stateFromHash('budget.deadline_days=30')), 'budget');
    assert.equal(wayOf(stateFromHash('training.type=finetune')), 'finetune');
    assert.equal(stateFromHash('view=<script>').view, null);
  });
});

describe('durations in the unit people would say', () => {
  test('days, hours, minutes', () => {
    assert.deepEqual(format.duration(35.83, 'en'), ['35.8', 'unit_days']);
    assert.deepEqual(format.duration(0.5, 'en'), ['12', 'unit_hours']);
    assert.deepEqual(format.duration(0.01, 'zh'), ['14.4', 'unit_minutes']);
    assert.deepEqual(format.duration(Number.NaN, 'en'), ['—', 'unit_days']);
  });
});

describe('embedding parameters', async () => {
  const { originOf } = await js('state.js');
  const { iframeSnippet } = await js('widgets/embed-snippet.js');
  test('an origin is a scheme and host, normalised; anything else is refused', () => {
    assert.equal(originOf('https://vendor.example'), 'https://vendor.example');
    assert.equal(originOf('https://vendor.example/'), 'https://vendor.example');
    assert.equal(originOf('https://vendor.example:443'), 'https://vendor.example');
    assert.equal(originOf('https://vendor.example/path'), null);
    assert.equal(originOf('https://user:pw@vendor.example'), null);
    assert.equal(originOf('javascript:alert(1)'), null);
    assert.equal(originOf('*'), null);
  });
  test('embed, theme, origin and the sections asked for survive the link; bad ones are dropped and listed for the console', () => {
    const state = stateFromHash('embed=1&theme=AA3300&origin=https%3A%2F%2Fvendor.example&show=energy,articles,energy&hardware.count=8');
    assert.deepEqual(state.embed, { on: true, theme: 'aa3300', origin: 'https://vendor.example', show: ['energy', 'articles'], problems: [] });
    assert.match(hashFromState(state), /embed=1&theme=aa3300&origin=https%3A%2F%2Fvendor\.example&show=energy,articles/);
    const bad = stateFromHash('embed=yes&theme=red;&origin=https://x.example/a&show=prices').embed;
    assert.deepEqual({ ...bad, problems: undefined }, { on: false, theme: null, origin: null, show: [], problems: undefined });
    assert.deepEqual(bad.problems.map((p) => `${p.key}=${p.value}`), ['theme=red;', 'origin=https://x.example/a', 'show=prices']);
    assert.doesNotMatch(hashFromState(stateFromHash('embed=1&theme=red')), /theme/);
  });
  test('the iframe code escapes what it quotes and keeps the height sensible', () => {
    const code = iframeSnippet('https://calc.example/', '#model.preset=a"b&hardware.count=8&embed=0', {
      theme: '#AA3300', catalogUrl: 'https://v.example/c.json?x="><script>', origin: 'https://v.example/', height: '99999',
    });
    // The frame, then (an origin being named) the listener that sizes it to the calculator's height,
    // which trusts the calculator's own origin only.
    const [frame, ...listener] = code.split('\n');
    assert.ok(!frame.includes('<script>'));
    assert.equal(frame.split('"').length - 1, 12, frame);  // six attributes, none broken out of
    assert.match(listener.join('\n'), /^<script>[\s\S]*e\.origin !== "https:\/\/calc\.example"[\s\S]*traincalc-height[\s\S]*<\/script>$/);
    assert.doesNotMatch(listener.join('\n'), /v\.example/);
    assert.equal(iframeSnippet('https://calc.example/', '#hardware.count=8', {}).includes('<script>'), false);
    assert.match(frame, /embed=1&amp;theme=aa3300&amp;catalog=https%3A%2F%2Fv\.example%2Fc\.json%3Fx%3D%22%3E%3Cscript%3E&amp;origin=https%3A%2F%2Fv\.example/);
    assert.match(frame, /height="4000"/);
    assert.doesNotMatch(frame, /embed=0/);
    // Energy and the articles only where the vendor ticks them; nothing else passes as a section.
    const shown = iframeSnippet('https://calc.example/', '#hardware.count=8&show=prices', { show: ['articles', 'prices'] });
    assert.match(shown, /embed=1&amp;show=articles"/);
    assert.doesNotMatch(iframeSnippet('https://calc.example/', '#show=energy', {}), /show=/);
  });
});

describe('chart axes', () => {
  test('every axis has at least four labelled ticks at round values', async () => {
    const { linearTicks, logTicks } = await js('chart.js');
    assert.deepEqual(logTicks(1, 10000), [1, 10, 100, 1000, 10000]);            // decades where there are four
    assert.deepEqual(logTicks(10, 1000), [10, 30, 100, 300, 1000]);             // else 1-3 in each decade
    assert.deepEqual(logTicks(10, 100), [10, 20, 50, 100]);                     // else 1-2-5
    assert.deepEqual(linearTicks(0, 22000), [0, 5000, 10000, 15000, 20000]);
    assert.deepEqual(linearTicks(0, 3.3), [0, 1, 2, 3]);
    for (const [lo, hi] of [[0.1, 1], [3, 7], [1e-3, 2e-3], [100, 101]]) {
      assert.ok(logTicks(lo, hi).length >= 4, `${lo}-${hi}: ${logTicks(lo, hi)}`);
      assert.ok(logTicks(lo, hi).every((v) => v >= lo * 0.999 && v <= hi * 1.001));
    }
  });
  test('a label too long for the drawing is cut with an ellipsis, a CJK character counted wider', async () => {
    const { fitText, textWidth } = await js('chart.js');
    assert.equal(textWidth('ab'), 13.2);
    assert.equal(textWidth('最省'), 22);
    assert.equal(fitText('cheapest: Vultr', 200), 'cheapest: Vultr');
    const cut = fitText('cheapest: Chinese GPU-rental platforms (lowest advertised)', 150);
    assert.match(cut, /^cheapest: Chinese.*…$/);
    assert.ok(textWidth(cut) <= 150);
  });
  test('a tick reads as its value: never 0 for 0.01', async () => {
    const { tickText } = await js('chart.js');
    assert.deepEqual([0.001, 0.01, 0.05, 0.3, 1.5, 7, 30, 1000].map((v) => tickText(v, 'en')), ['0.001', '0.01', '0.05', '0.3', '1.5', '7', '30', '1,000']);
  });
  test('a job under two days is charted in hours', async () => {
    const { timeUnit } = await js('chart.js');
    assert.deepEqual(timeUnit(1.9), { unit: 'hours', perDay: 24 });
    assert.deepEqual(timeUnit(2), { unit: 'days', perDay: 1 });
  });
});

describe('a vendor\'s theme colour', () => {
  test('is darkened (light mode) or lightened (dark mode) until text in it reads at 4.5:1 (WCAG AA)', async () => {
    const { contrast, themeColours } = await js('theme.js');
    for (const [theme, dark, surfaces] of [['ffdd00', false, ['ffffff', 'f7f7f4']], ['1a237e', true, ['1e2227', '15181c']]]) {
      const { accent, onAccent } = themeColours(theme, dark);
      assert.notEqual(accent, `#${theme}`, 'the colour as given does not read');
      for (const surface of surfaces) assert.ok(contrast(accent.slice(1), surface) >= 4.5, `${accent} on ${surface}`);
      assert.ok(['#000', '#fff'].includes(onAccent));
    }
    assert.equal(themeColours('aa3300', false).accent, '#aa3300');  // already readable: unchanged
  });
});

// The params each warning carries (the engine's sources: the issue's last argument, checked in
// tests/engine/test_contract.cpp for the ones with numbers).
const WARNING_PARAMS = {
  mfu_assumed: ['mfu%'],
  seq_len_assumed: ['seq_len'],
  global_batch_assumed: ['batch', 'tokens_m'],
  batch_cannot_fill: ['batch', 'gpus', 'dp', 'per_rank', 'percent'],
  gpu_fields_filled: ['gpu', 'from', 'field_ids'],
  framework_assumed: ['framework', 'step_list', 'memory_list'],
  calibration_speed_unused: ['reason'],
  framework_assumed_memory: ['framework', 'memory_list'],
  framework_assumed_step: ['framework', 'step_list'],
  framework_fit_depends: ['framework', 'framework_list'],
  checkpoint_before_persisted: ['interval_s', 'persist_s'],
  planner_truncated: ['evaluated'],
  no_layout: ['gpus', 'batch'],
  deadline_missed: ['days', 'gpus', 'deadline_days'],
  offer_single_instance_capped: ['offer', 'max', 'gpus', 'wanted'],
  offer_cluster_max_capped: ['offer', 'max', 'gpus', 'wanted'],
  offer_ethernet_cluster: ['offer', 'instances', 'gbps'],
  offer_partial_instance: ['offer', 'gpus', 'instance', 'instances', 'rented'],
  bitsandbytes_gpu: ['gpu'],
  over_budget: ['cost', 'currency', 'budget'],
  deadline_at_risk: ['days', 'high_days', 'deadline_days'],
  interruptions_dominate: ['minutes', 'gpus', 'percent'],
  batch_padded: ['batch', 'dp', 'micro_batch', 'multiple', 'share', 'slots'],
  deadline_missed_expected: ['days', 'deadline_days'],
  over_budget_expected: ['cost', 'expected_cost', 'currency', 'budget'],
  budget_at_risk: ['cost', 'high_cost', 'currency', 'budget'],
  bytes_per_token_assumed: ['english', 'chinese', 'chinese_english_tokenizer', 'code'],
  mfu_extrapolated: ['points', 'gpu_list'],
  outside_envelope: ['dimension_ids', 'value', 'edge', 'pct'],
  speed_uncalibrated: ['features', 'feature_ids'],
  speed_moe_range: ['rows', 'sources', 'faster_pct', 'slower_pct'],
  offload_time_assumed: ['pcie_gbs', 'cpu_adam_params_per_second'],
  softmax_fallback: ['micro_batch', 'heads_per_gpu', 'seq_len', 'multiple'],
  softmax_fallback_length: ['seq_len'],
  softmax_fallback_precision: [],
};

describe('the locales', () => {
  test('English and Chinese have the same keys and the same placeholders', async () => {
    const en = await js('i18n/en.js');
    const zh = await js('i18n/zh.js');
    const names = (text) => [...text.matchAll(/\{(\w+%?)(?:#[^}]*)?\}/g)].map((m) => m[1]).filter((n, i, all) => all.indexOf(n) === i).sort();
    for (const table of ['STRINGS', 'ERRORS']) {
      assert.deepEqual(Object.keys(zh[table]).sort(), Object.keys(en[table]).sort(), table);
      for (const key of Object.keys(en[table])) assert.deepEqual(names(zh[table][key]), names(en[table][key]), `${table}.${key}`);
    }
    // Warnings: English is the engine's own message; each Chinese one uses only the engine's params.
    assert.deepEqual(Object.keys(en.WARNINGS), []);
    for (const [code, text] of Object.entries(zh.WARNINGS)) {
      for (const name of names(text)) assert.ok(['field', 'message', ...(WARNING_PARAMS[code] ?? [])].includes(name), `${code}: {${name}}`);
    }
  });

  test('counts take the plural the language needs (Intl.PluralRules)', async () => {
    const { t } = await js('i18n.js');
    assert.equal(t('en', 'sug_gpus', { v: 1 }), '1 GPU');
    assert.equal(t('en', 'sug_gpus', { v: '1,024' }), '1,024 GPUs');
    assert.match(t('en', 'catalog_loaded', { url: 'x', gpus: 1, offers: 2, models: 0 }), /1 GPU, 2 offers, 0 models/);
    assert.doesNotMatch(t('zh', 'sug_gpus', { v: 1 }), /#/);
  });
});

describe('a typed budget keeps its currency', () => {
  test('a budget that follows the price is pinned to it before the price changes currency, once', async () => {
    const { pinBudgetCurrency, stateFromHash } = await js('state.js');
    // An old link: the budget follows the price's yuan.
    const state = stateFromHash('#budget.per_month=100000&pricing.per_gpu_month=5000&pricing.currency=CNY');
    assert.equal(state.values.get('budget.currency'), '');
    pinBudgetCurrency(state);
    assert.equal(state.values.get('budget.currency'), 'CNY');
    // Once pinned, a later price currency does not move it.
    state.values.set('pricing.currency', 'USD');
    pinBudgetCurrency(state);
    assert.equal(state.values.get('budget.currency'), 'CNY');
    // Without a budget (GPUs given), nothing is pinned.
    const counted = stateFromHash('#hardware.count=8&pricing.per_gpu_hour=2&pricing.currency=EUR');
    pinBudgetCurrency(counted);
    assert.equal(counted.values.get('budget.currency') ?? '', '');
  });
});
