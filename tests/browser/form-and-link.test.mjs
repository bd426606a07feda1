// The page in Debian's Chromium, served over HTTP: the form and the link (what a URL opens, typing,
// bad input, a link's typos, the ways in, a pasted Hugging Face config).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { serveStatic } from '../../scripts/serve.mjs';
import { CLI, ROOT, SINGLE_FILE, SITE } from '../node/paths.mjs';
import { HASH, pageTests, reportValue, SCENARIO } from './harness.mjs';

let base, browser, cliReport, cliFlops6n, openPage, track;
pageTests((site) => ({ base, browser, cliReport, cliFlops6n, openPage, track } = site));

describe('the form and the link', () => {
  test('a URL hash reproduces the CLI\'s numbers exactly', async () => {
    const { context, page, problems } = await openPage(`${base}#${HASH}&lang=en`);
    for (const path of ['time.gpu_hours', 'time.wall_clock_days', 'compute.total_flops', 'compute.tokens', 'plan.gpus']) {
      const expected = path.split('.').reduce((node, key) => node[key], cliReport);
      assert.equal(await reportValue(page, path), expected, path);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the page speaks Chinese with lang=zh and switches to English and back', async () => {
    const { context, page, requests } = await openPage(`${base}#${HASH}&lang=zh`);
    await page.locator('[data-report="time.gpu_hours"]').waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    // Only the language shown is downloaded; the other comes when the reader switches to it.
    const words = () => requests.filter((url) => /\/js\/i18n\//.test(url)).map((url) => url.replace(/^.*\/js\//, ''));
    assert.deepEqual(words(), ['i18n/zh.js']);
    assert.match(await page.locator('#results').innerText(), /训练时长/);
    // The math names its sources: the model preset's and the GPU's.
    // (Opening the math fetches the catalog's sources, js/catalog-texts.json, which arrive a moment later.)
    await page.locator('#results .math summary').first().click();
    await page.waitForFunction(() => /Llama 2 7B 的结构来源：[\s\S]*NVIDIA H100[^\n]*来源：/.test(document.querySelector('#results .math').innerText));
    assert.equal(await page.locator('#results .math').first().getAttribute('open'), '');
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    // The results re-render after the engine answers in the new language: wait for them (on a loaded
    // machine, read the moment the <html> lang changes, they are still in Chinese).
    await page.waitForFunction(() => /Wall-clock time/.test(document.querySelector('#results').innerText), null, { timeout: 10000 });
    assert.match(await page.locator('#results').innerText(), /Wall-clock time/);
    assert.deepEqual(words(), ['i18n/zh.js', 'i18n/en.js']);
    // A new estimate leaves the math as the reader left it: still open.
    assert.equal(await page.locator('#results .math').first().getAttribute('open'), '');
    assert.match(page.url(), /lang=en/);
    // A mixture of experts' facts under the model list, in each language (not an English word in Chinese).
    await page.selectOption('#f-model-preset', 'deepseek-v3');
    await page.waitForFunction(() => /8 of 256 experts per token/.test(document.querySelector('#f-model-preset-facts')?.textContent));
    await page.click('#lang-toggle');
    await page.waitForFunction(() => /每个 token 激活 256 个专家中的 8 个/.test(document.querySelector('#f-model-preset-facts')?.textContent));
    assert.doesNotMatch(await page.locator('#f-model-preset-facts').innerText(), /experts/);
    await context.close();
  });

  test('typing updates the estimate and the URL, and the URL reopens it', async () => {
    const { context, page } = await openPage(`${base}#lang=en`);
    await page.locator('[data-report="time.gpu_hours"]').waitFor();
    await page.fill('#f-hardware-count', '128');
    await page.waitForFunction(() => document.querySelector('[data-report="plan.gpus"]')?.dataset.value === '128');
    assert.match(page.url(), /hardware\.count=128/);
    const days = await reportValue(page, 'time.wall_clock_days');
    const again = await openPage(page.url());
    await again.page.waitForFunction(() => document.querySelector('[data-report="plan.gpus"]')?.dataset.value === '128');
    assert.equal(await reportValue(again.page, 'time.wall_clock_days'), days);
    await again.context.close();
    await context.close();
  });

  test('bad input shows a field error next to the input, keeps what was typed, and never shows NaN', async () => {
    const { context, page } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('[data-report="time.gpu_hours"]').waitFor();
    await page.fill('#f-hardware-count', '-8');
    const error = page.locator('[data-error-for="hardware.count"]');
    await error.filter({ hasText: /greater than 0/ }).waitFor();
    assert.equal(await page.inputValue('#f-hardware-count'), '-8');
    assert.equal(await page.getAttribute('#f-hardware-count', 'aria-invalid'), 'true');
    await page.fill('#f-training-tokens', 'lots');
    await page.locator('[data-error-for="training.tokens"]').filter({ hasText: /number/ }).waitFor();
    const text = await page.locator('body').innerText();
    assert.doesNotMatch(text, /NaN|Infinity|undefined/);
    assert.match(await page.locator('#results').innerText(), /last valid estimate/);
    assert.equal(await page.getAttribute('#results', 'data-state'), 'stale');
    // Fixing the field brings the estimate back.
    await page.fill('#f-hardware-count', '64');
    await page.fill('#f-training-tokens', '2T');
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await reportValue(page, 'time.gpu_hours'), cliReport.time.gpu_hours);
    await context.close();
  });

  test('a bad value in a shared link shows the error in Chinese, not a blank', async () => {
    const { context, page } = await openPage(`${base}#hardware.count=-8&lang=zh`);
    await page.locator('[data-error-for="hardware.count"]').filter({ hasText: /必须大于 0（填的是 -8）/ }).waitFor();
    assert.match(await page.locator('#results').innerText(), /请修正/);
    assert.equal(await page.inputValue('#f-hardware-count'), '-8');
    // Out of range: the bound, in Chinese; a link's typo, with the key meant, in Chinese.
    await page.fill('#f-hardware-count', '1e8');
    await page.locator('[data-error-for="hardware.count"]').filter({ hasText: /不能超过 .+（填的是 .+）/ }).waitFor();
    await page.goto(`${base}#${HASH}&hardware.cout=128&lang=zh`);
    await page.locator('[data-link-problem="hardware.cout"]').filter({ hasText: /是不是“hardware\.count=128”/ }).waitFor();
    // A layout that does not fit the model or the GPUs: said in Chinese with the values, no English
    // beside it (every check the engine makes has a Chinese message of its own).
    // Both of the field's problems are said, one after the other.
    await page.goto(`${base}#${HASH}&strategy.tp=3&strategy.pp=40&lang=zh`);
    await page.locator('[data-error-for="strategy.tp"]').filter({ hasText: /张量并行度（3）必须整除注意力头数（32）/ }).waitFor();
    assert.match(await page.locator('[data-error-for="strategy.tp"]').textContent(), /tp × pp × cp = 120，不能整除 GPU 数量（64 张）/);
    await page.locator('[data-error-for="strategy.pp"]').filter({ hasText: /流水段数（40）超过了模型的层数（32）/ }).waitFor();
    const shown = await page.$$eval('[data-error-for]', (nodes) => nodes.map((n) => n.textContent).filter((text) => text.trim()));
    assert.ok(shown.length >= 2, shown.join(' | '));
    for (const text of shown) {
      const english = text.replace(/[\w.]+[._][\w.]+|"[^"]*"|“[^”]*”/g, '').match(/[A-Za-z]{3,}(?: [A-Za-z]{2,})+/g);
      assert.equal(english, null, text);
    }
    assert.equal(await page.locator('.error .detail, [lang="en"].detail').count(), 0);
    // A vendor catalog the engine refuses: why, in Chinese.
    await context.route('**/vendor-catalog.json', (route) => route.fulfill({ json: { version: 1, offers: [{ id: 'acme-h100', provider: 'Acme', name: 'H100 pod', gpu: 'h100-sxm', per_gpu_hour: 2, currency: 'USD', source: 'acme.example/prices', instance_gpus: 8, max_gpus: 4 }] } }));
    await page.goto(`${base}#catalog=vendor-catalog.json&${HASH}&lang=zh`);
    await page.reload();
    await page.locator('[data-error-for="catalog"]').filter({ hasText: /max_gpus（4）少于一个实例的 8 张 GPU/ }).waitFor();
    assert.doesNotMatch(await page.locator('[data-error-for="catalog"]').textContent(), /is fewer than/);
    // Switched to English, the catalog's problem is said again in English, with the engine's message.
    await page.click('#lang-toggle');
    await page.locator('[data-error-for="catalog"]').filter({ hasText: /could not be used[\s\S]*max_gpus \(4\) is fewer than one instance's 8 GPUs/ }).waitFor();
    await context.close();
  });

  test('a typo in a shared link is named, never silently ignored', async () => {
    const { context, page } = await openPage(`${base}#${HASH}&hardware.cout=128&lang=en`);
    const error = page.locator('.link-problems [data-link-problem="hardware.cout"]');
    await error.waitFor();
    assert.match(await error.innerText(), /Did you mean “hardware\.count=128”\?/);
    assert.equal(await page.getAttribute('#results', 'data-state'), 'empty');
    await context.close();
  });

  test('pasting a Hugging Face config.json fills the architecture and gives its exact count', async () => {
    const { context, page, requests } = await openPage(`${base}#model.layers=2&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    // The reader is a module of its own, fetched on the first paste.
    assert.deepEqual(requests.filter((url) => url.includes('traincalc_import')), []);
    await page.click('.hf-import summary');
    await page.fill('#hf-config', readFileSync(join(ROOT, 'tests', 'fixtures', 'hf', 'qwen2.5-7b.json'), 'utf8'));
    await page.click('#hf-import');
    await page.waitForFunction(() => document.querySelector('[data-report="model.params"]')?.dataset.value === '7615616512');
    assert.ok(requests.some((url) => url.includes('traincalc_import')), 'the reader was fetched on the paste');
    assert.equal(await page.inputValue('#f-model-hidden'), '3584');
    assert.match(page.url(), /model\.qkv_bias=true/);  // kept in the link, though the form has no input for it
    await context.close();
  });

  test('a reader that cannot be loaded is said, in both languages, the pasted text kept; the next try loads it', async () => {
    for (const [lang, said] of [['en', /The text could not be read: the reader did not load/], ['zh', /无法读取：读取器未能加载/]]) {
      const { context, page } = await openPage(`${base}#model.layers=2&lang=${lang}`);
      await context.route('**/traincalc_import*', (route) => route.abort());
      await page.locator('#results[data-state="ok"]').waitFor();
      await page.click('.hf-import summary');
      const config = readFileSync(join(ROOT, 'tests', 'fixtures', 'hf', 'qwen2.5-7b.json'), 'utf8');
      await page.fill('#hf-config', config);
      await page.click('#hf-import');
      const failed = page.locator('[data-paste-failed]');
      await failed.waitFor();
      assert.match(await failed.innerText(), said);
      assert.equal(await page.inputValue('#hf-config'), config);
      await context.unroute('**/traincalc_import*');
      await page.click('#hf-import');
      await page.waitForFunction(() => document.querySelector('[data-report="model.params"]')?.dataset.value === '7615616512');
      await context.close();
    }
  });

  test('words that cannot be fetched: the switch says so and the page stays as it is; with no words at all the page says so in both languages', async () => {
    const { context, page } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    await context.route('**/js/i18n/zh.js', (route) => route.abort());
    await page.click('#lang-toggle');
    await page.waitForFunction(() => /The other language could not be loaded/.test(document.getElementById('inputs').innerText));
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.match(await page.locator('#results').innerText(), /Wall-clock time/);
    await context.unroute('**/js/i18n/zh.js');
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await context.close();

    const none = await openPage(`${base}#${HASH}&lang=zh`, {
      prepare: (c) => c.route('**/js/i18n/*.js', (route) => route.abort()),
    });
    const banner = none.page.locator('#engine-problem');
    await banner.waitFor();
    assert.match(await banner.innerText(), /could not load its words[\s\S]*页面文字未能加载/);
    await none.context.close();
  });

  test('utilisation is typed in percent: a fraction is asked about with a one-click fix, and limits are said in percent, in both languages', async () => {
    const { context, page } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    const advice = page.locator('[data-advice-for="strategy.mfu"]');
    assert.equal(await advice.isHidden(), true);
    // "0.4" in a percent field is 0.4%: asked about, not silently taken (6,816 days instead of 68).
    await page.fill('#f-strategy-mfu', '0.4');
    await advice.waitFor();
    assert.equal(await advice.innerText(), '0.4% — did you mean 40%? Use 40%');
    await page.click('[data-advice-for="strategy.mfu"] button');
    await page.waitForFunction(() => location.hash.includes('strategy.mfu=0.4&') || location.hash.endsWith('strategy.mfu=0.4'));
    assert.equal(await page.inputValue('#f-strategy-mfu'), '40');
    assert.equal(await advice.isHidden(), true);
    assert.equal(await reportValue(page, 'time.mfu'), 0.4);
    // Over 100%: the error in the units typed, not "at most 1 (got 1.5)".
    await page.fill('#f-strategy-mfu', '150');
    await page.locator('[data-error-for="strategy.mfu"]:not(:empty)').waitFor();
    assert.equal(await page.locator('[data-error-for="strategy.mfu"]').innerText(), 'At most 100% (got 150%).');
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.querySelector('[data-error-for="strategy.mfu"]')?.textContent === '不能超过 100%（填的是 150%）。');
    await page.fill('#f-strategy-mfu', '0.5');
    await page.waitForFunction(() => document.querySelector('[data-advice-for="strategy.mfu"]')?.textContent.startsWith('0.5%——是不是想填 50%？'));
    await context.close();
  });

  test('while a value is being typed, the kept estimate is that of the last complete input, never of a half-typed prefix', async () => {
    const { context, page } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    const days = async () => Number(await page.locator('#results [data-report$="wall_clock_days"]').first().getAttribute('data-value'));
    assert.equal(await days(), cliReport.time.wall_clock_days);
    // A given utilisation: the steady state is the headline, and so is its energy.
    assert.equal(await reportValue(page, 'energy.kwh'), cliReport.energy.kwh);
    assert.equal(await page.locator('[data-report="energy.expected.kwh"]').count(), 0);
    // Typing 1e30 tokens key by key: "1e3" is a valid (minutes-long) run on the way, 1e30 is over the limit.
    await page.locator('#f-training-tokens').selectText();
    await page.keyboard.type('1e3');
    await page.waitForFunction(() => location.hash.includes('training.tokens=1e3&'));
    // The results were already "ok" before the edit: wait for 1e3's own estimate, not for the state.
    await page.waitForFunction(() => {
      const value = document.querySelector('#results [data-report$="wall_clock_days"]')?.getAttribute('data-value');
      return value !== null && value !== undefined && Number(value) < 1e-3;
    });
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.ok(await days() < 1e-3);
    await page.keyboard.type('0');
    await page.locator('#results[data-state="stale"]').waitFor();
    // The estimate kept on screen is the one before typing began (2e12 tokens), not "1e3"'s.
    assert.equal(await days(), cliReport.time.wall_clock_days);
    // Left with a valid value, that value's estimate is the one kept from then on.
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.keyboard.type('0');
    await page.locator('#results[data-state="stale"]').waitFor();
    assert.ok(await days() < 1e-3);
    await context.close();
  });

  test('a typo in a link is shown at the top with its fix, and the form wins once edited, in both languages', async () => {
    // hardware.cuont=8: not a field. Said at the top, in view, with the engine's suggestion.
    const typo = HASH.replace('hardware.count=64', 'hardware.cuont=8');
    const { context, page } = await openPage(`${base}#${typo}&lang=en`);
    const box = page.locator('.link-problems');
    await box.locator('[data-link-problem="hardware.cuont"]').waitFor();
    assert.ok((await box.boundingBox()).y < 400, 'the problem is in view at the top');
    assert.match(await box.innerText(), /“hardware\.cuont=8” is not a field the calculator knows\. Did you mean “hardware\.count=8”\? Use hardware\.count=8 Remove it/);
    await page.click('[data-fix="hardware.cuont"]');
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await page.inputValue('#f-hardware-count'), '8');
    assert.equal(await box.isHidden(), true);
    assert.ok(!(await page.evaluate(() => location.hash)).includes('cuont'));
    // The form wins once edited: the refused parameter is dropped with the first edit.
    const { context: second, page: again } = await openPage(`${base}#${typo}&lang=zh`);
    await again.locator('[data-link-problem="hardware.cuont"]').waitFor();
    assert.match(await again.locator('.link-problems').innerText(), /链接有问题：[\s\S]*“hardware\.cuont=8”不是计算器认识的字段。是不是“hardware\.count=8”？/);
    await again.fill('#f-hardware-count', '16');
    await again.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await again.locator('.link-problems').isHidden(), true);
    assert.equal(await reportValue(again, 'plan.gpus'), 16);
    // A GPU ID is suggested by its name: h1000 -> the H100 (not the B100, nearer by ID alone).
    const { context: third, page: gpu } = await openPage(`${base}#${HASH.replace('hardware.gpu=h100-sxm', 'hardware.gpu=h1000')}&lang=en`);
    await gpu.locator('[data-link-problem="hardware.gpu"]').waitFor();
    assert.match(await gpu.locator('.link-problems').innerText(), /Did you mean “hardware\.gpu=h100-sxm”\?/);
    await gpu.click('[data-fix="hardware.gpu"]');
    await gpu.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await reportValue(gpu, 'time.gpu_hours'), cliReport.time.gpu_hours);
    await context.close();
    await second.close();
    await third.close();
  });

  test('four ways in keep one state: pre-train, fine-tune, budget planner, compare GPUs', async () => {
    const { context, page, problems } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await page.getAttribute('[data-way="pretrain"]', 'aria-pressed'), 'true');
    await page.fill('#f-training-tokens', '1e12');
    await page.click('[data-way="finetune"]');
    await page.locator('#f-training-method').waitFor();
    // Tokens of the user's own stay tokens.
    assert.equal(await page.inputValue('#f-training-tokens'), '1e12');
    assert.equal(await page.getAttribute('[data-way="finetune"]', 'aria-pressed'), 'true');
    await page.click('[data-way="budget"]');
    await page.locator('#f-budget-per_month').waitFor();
    assert.match(page.url(), /budget\.per_month=/);
    await page.click('[data-way="compare"]');
    await page.locator('#compare[data-state="ok"]').waitFor();
    assert.equal(await page.locator('#compare-kind').inputValue(), 'gpus');
    // Real rows (not a table of errors): each GPU with its days.
    assert.ok(await page.locator('#compare tbody [data-report="time.wall_clock_days"]').count() > 20);
    assert.match(page.url(), /view=compare/);
    await page.click('[data-way="pretrain"]');
    await page.locator('#results[data-state="ok"]').waitFor();
    // What was typed is still there, and the link reopens the same estimate.
    assert.equal(await page.inputValue('#f-training-tokens'), '1e12');
    assert.equal(await reportValue(page, 'compute.tokens'), 1e12);
    const link = page.url();
    const again = await openPage(link);
    assert.equal(await reportValue(again.page, 'compute.tokens'), 1e12);
    await again.context.close();
    // A link in the compare way opens the comparison.
    const comparing = await openPage(`${base}#${HASH}&view=compare&lang=zh`);
    await comparing.page.locator('#compare[data-state="ok"]').waitFor();
    assert.equal(await comparing.page.getAttribute('[data-way="compare"]', 'aria-pressed'), 'true');
    assert.equal(await comparing.page.locator('[data-way="compare"]').innerText(), '比较 GPU');
    await comparing.context.close();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('fine-tuning from the start: fine-tuning data shown in the inputs, LoRA of an 8B model fits a 24 GB card, and the fixes come in the order to try them, in both languages', async () => {
    const hash = 'model.preset=llama-3-8b&hardware.gpu=rtx-4090&hardware.count=1';
    const { context, page, problems } = await openPage(`${base}#${hash}&lang=zh`);
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.click('[data-way="finetune"]');
    await page.locator('#f-training-samples').waitFor();
    assert.equal(await page.inputValue('#f-training-samples'), '52002');
    assert.equal(await page.inputValue('#f-training-epochs'), '3');
    assert.equal(await page.inputValue('#f-training-seq_len'), '2048');
    await page.selectOption('#f-training-method', 'lora');
    await page.waitForFunction(() => location.hash.includes('training.method=lora'));
    await page.locator('#results[data-state="ok"]').waitFor();
    // 52,002 x 2,048 x 3 tokens; LoRA of Llama 3 8B at 2,048 tokens fits the 4090's 24 GB.
    assert.equal(await reportValue(page, 'compute.tokens'), 52002 * 2048 * 3);
    await page.locator('.memory .verdict.ok').waitFor();
    // At the model's whole context (8,192) it does not: the first fix offered is a shorter sequence.
    await page.fill('#f-training-seq_len', '8192');
    await page.locator('.memory .verdict.bad').waitFor();
    const first = page.locator('.memory .suggestions li').first();
    assert.match(await first.innerText(), /^序列长度 [\d,]+ token → .* 放得下$/);
    await page.click('#lang-toggle');
    await page.locator('.memory .suggestions li', { hasText: /^sequences of [\d,]+ tokens/ }).first().waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
});
