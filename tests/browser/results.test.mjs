// The page in Debian's Chromium, served over HTTP: what the estimate shows (memory, speed, the
// expected run, the validation view, the articles, charts, energy, a phone).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { serveStatic } from '../../scripts/serve.mjs';
import { CLI, ROOT, SINGLE_FILE, SITE } from '../node/paths.mjs';
import { HASH, pageTests, reportValue, SCENARIO, startPageWorker } from './harness.mjs';

let base, browser, cliReport, cliFlops6n, openPage, track;
pageTests((site) => ({ base, browser, cliReport, cliFlops6n, openPage, track } = site));

describe('what the estimate shows', () => {
  test('the articles\' claims beside the calculator\'s answers, in both languages, each opening in the form', async () => {
    const { context, page, problems } = await openPage(`${base}#${HASH}&lang=zh`);
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.click('#examples > summary');
    const item = (id) => page.locator(`#examples [data-example="${id}"]`);
    await item('seed003-bert').locator('.answer').waitFor();
    assert.match(await item('seed003-bert').innerText(), /每秒 [\d.]+ 个批次/);
    assert.match(await item('seed003-gpt3-full').locator('.answer').innerText(), /放不下/);
    assert.equal(await item('seed003-gpt3-qlora').locator('.answer').getAttribute('data-fits'), 'true');
    assert.equal(Math.round(Number(await item('seed004-cloud-a100-x').locator('.answer').getAttribute('data-days'))), 43);
    // Each claim names its article by title, not by the project's file number.
    assert.match(await item('seed003-gpt2-v100').innerText(), /《大模型微调需要多少GPU算力》：/);
    assert.doesNotMatch(await page.locator('#examples').innerText(), /文章 0\d\d/);
    // The other language relabels the same answers.
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.querySelector('#examples [data-example="seed003-bert"] .answer').textContent.includes('batches a second'));
    assert.match(await item('seed003-gpt2-v100').innerText(), /“How much GPU compute does fine-tuning a large model take”:/);
    // Opening one puts it in the form: 100 GB of English text on one V100.
    await item('seed003-gpt2-v100').locator('a').click();
    await page.waitForFunction(() => document.querySelector('#f-training-dataset_gb')?.value === '100');
    assert.equal(await page.inputValue('#f-training-text'), 'english');
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await reportValue(page, 'compute.tokens'), 25e9);
    assert.match(await page.locator('#results details.math').first().evaluate((d) => d.textContent), /4 bytes per token/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('Chinese text gives its own bytes per token, and the math says where the figure is from', async () => {
    const { context, page } = await openPage(`${base}#${HASH.replace('training.tokens=2e12', 'training.dataset_gb=100&training.text=chinese-english-tokenizer')}&lang=zh`);
    await page.locator('#results[data-state="ok"]').waitFor();
    // 100 GB at 2 bytes per token (Llama 2's tokenizer on Chinese: 1.98, tokenizer-arena).
    assert.equal(await reportValue(page, 'compute.tokens'), 50e9);
    await page.selectOption('#f-training-text', 'chinese');
    await page.waitForFunction(() => document.querySelector('[data-report="compute.tokens"]')?.dataset.value === String(100e9 / 4.4));
    assert.match(await page.locator('#results details.math').first().evaluate((d) => d.textContent), /tokenizer-arena/);
    await context.close();
  });

  test('memory with a parameter count only: what is counted is said, the sharding is planned, every fix offered fits, in both languages and on a phone', async () => {
    const hash = 'model.params=7e10&training.tokens=2e12&hardware.gpu=h100-sxm&hardware.count=8';
    const { context, page, problems } = await openPage(`${base}#${hash}&lang=zh`);
    await page.locator('#results[data-state="ok"]').waitFor();
    // 70e9 x 18 bytes over 8 H100s with ZeRO-3: 157.5 GB of states each, more than 80 GB.
    assert.match(await page.locator('.memory .verdict').innerText(), /^仅权重、梯度和优化器状态就放不下/);
    assert.match(await page.locator('.memory .verdict').innerText(), /激活值未计入/);
    const fixes = page.locator('.memory .suggestions li');
    assert.ok(await fixes.count() >= 1);
    for (const text of await fixes.allInnerTexts()) assert.match(text, /放得下$/);
    // The fewest GPUs that fit (16) applied: the verdict is about the states, and says so.
    await page.locator('.memory .suggestions button', { hasText: '16 张 GPU' }).click();
    await page.locator('.memory .verdict.ok').waitFor();
    assert.equal(await page.locator('.card [data-report="memory.fits"]').innerText(), '不计激活值时放得下');
    await page.click('#lang-toggle');
    await page.locator('.memory .verdict', { hasText: 'Activations are not counted' }).waitFor();
    assert.equal(await page.locator('.card [data-report="memory.fits"]').innerText(), 'Yes, without activations');
    // At phone width the verdict and its caveat stay on screen, unclipped.
    await page.setViewportSize({ width: 375, height: 812 });
    const card = await page.locator('.card [data-report="memory.fits"]').boundingBox();
    assert.ok(card.x >= 0 && card.x + card.width <= 375, JSON.stringify(card));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('memory: the chart, the verdict in both languages, and a suggestion that makes it fit', async () => {
    const hash = 'model.preset=gpt-3-175b&training.type=finetune&training.samples=10000&hardware.gpu=a100-80gb-sxm&hardware.count=8&strategy.tp=8&strategy.pp=1';
    const { context, page } = await openPage(`${base}#${hash}&lang=zh`);
    await page.locator('#results[data-state="ok"]').waitFor();
    // Seed 003: full fine-tuning of 175B does not fit on 8 A100-80GB.
    assert.match(await page.locator('.memory .verdict').innerText(), /放不下/);
    assert.equal(await page.getAttribute('.memory .verdict', 'data-value'), 'false');
    assert.ok(await page.locator('.memory-bar rect').count() >= 4);
    // Not even one token fits (8-way tensor parallelism leaves 44 GB of 16-bit weights a GPU, and
    // their states): said in words, not as a largest micro-batch of 0.
    assert.match(await page.locator('.memory').innerText(), /连 1 个 token 也放不下/);
    assert.doesNotMatch(await page.locator('.memory').innerText(), /放得下的最大微批：0|：0 个 token/);
    await page.click('#lang-toggle');
    await page.locator('.memory .verdict').filter({ hasText: /Does not fit/ }).waitFor();
    // QLoRA, as the suggestion computed, fits.
    await page.locator('.suggestions button', { hasText: 'QLoRA' }).click();
    await page.locator('.memory .verdict').filter({ hasText: /^Fits/ }).waitFor();
    assert.equal(await page.inputValue('#f-training-method'), 'qlora');
    await context.close();
  });

  test('speed: utilisation, the step\'s parts, the layout in words and the scaling chart, in both languages', async () => {
    const scenario = {
      model: { preset: 'llama-2-70b' }, training: { type: 'pretrain', tokens: 2e12 },
      hardware: { gpu: 'a100-80gb-sxm', count: 1024 }, pricing: { per_gpu_hour: 1.8, currency: 'USD' },
    };
    const expected = JSON.parse(execFileSync(CLI, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8' }));
    const hash = 'model.preset=llama-2-70b&training.tokens=2e12&hardware.gpu=a100-80gb-sxm&hardware.count=1024&pricing.per_gpu_hour=1.8';
    const { context, page, problems } = await openPage(`${base}#${hash}&lang=en`);
    assert.equal(await reportValue(page, 'time.mfu'), expected.time.mfu);
    assert.equal(await reportValue(page, 'time.step_seconds'), expected.time.step_seconds);
    for (const [part, seconds] of Object.entries(expected.time.breakdown_seconds)) {
      if (seconds > 0) assert.equal(await reportValue(page, `time.breakdown_seconds.${part}`), seconds, part);
    }
    assert.equal(await page.locator('.speed-source').getAttribute('data-mfu-source'), 'predicted');
    // Every predicted figure carries the engine's likely range (the 80% range of held-out error for a new source),
    // on the cards, beside MFU and step time, and in the math.
    const range = async (path) => {
      const node = page.locator(`.likely[data-report="${path}"]`);
      return [Number(await node.getAttribute('data-low')), Number(await node.getAttribute('data-high')), await node.innerText()];
    };
    for (const [path, low, high] of [
      ['time.mfu_range', expected.time.mfu_range.low, expected.time.mfu_range.high],
      ['time.step_seconds_range', expected.time.step_seconds_range.low, expected.time.step_seconds_range.high],
      // The cards show the expected run, the headline of a predicted utilisation, with the held-out
      // whole runs' range.
      ['time.expected.wall_clock_days_range', expected.time.expected.wall_clock_days_range.low, expected.time.expected.wall_clock_days_range.high],
      ['time.expected.gpu_hours_range', expected.time.expected.gpu_hours_range.low, expected.time.expected.gpu_hours_range.high],
      ['cost.expected_total_range', expected.cost.expected_total_range.low, expected.cost.expected_total_range.high],
    ]) {
      const [lo, hi, text] = await range(path);
      assert.equal(lo, low, path);
      assert.equal(hi, high, path);
      assert.ok(lo < hi, path);
      assert.doesNotMatch(text, /NaN|Infinity|undefined/, path);
    }
    assert.match((await range('time.mfu_range'))[2], /^ \(\d+–\d+%\)$/);
    assert.match((await range('time.expected.wall_clock_days_range'))[2], /^likely [\d.,]+–[\d.,]+ days$/);
    // The headline is the expected run, said so, with the steady state under it.
    assert.equal(await reportValue(page, 'time.expected.wall_clock_days'), expected.time.expected.wall_clock_days);
    const daysCard = page.locator('.card').first();
    assert.equal(await daysCard.locator('.value').getAttribute('data-report'), 'time.expected.wall_clock_days');
    assert.match(await daysCard.innerText(), /as runs go[\s\S]*steady state: [\d.,]+ days · goodput [\d.]+%/);
    assert.equal(Number(await daysCard.locator('.steady-line [data-report="time.wall_clock_days"]').getAttribute('data-value')), expected.time.wall_clock_days);
    // The phone's summary bar shows the headline too (66.0 expected days here, not 48.6 steady).
    // Compared as numbers: the page's formatter drops a trailing zero (66.0009 days shows as "66 days").
    const headlineDays = expected.time.expected.wall_clock_days;
    const barDays = await page.locator('.summary-bar span').first().textContent();
    assert.match(barDays, /^[\d.,]+ days$/);
    assert.ok(Math.abs(Number(barDays.replace(/[, ]|days/g, '')) - headlineDays) < 0.05, barDays);
    // Energy follows the headline: the expected run's, its busy and idle hours in the math.
    assert.equal(await reportValue(page, 'energy.expected.kwh'), expected.energy.expected.kwh);
    assert.equal(await page.locator('[data-report="energy.kwh"]').count(), 0);
    const energyLine = await page.locator('.energy-expected').textContent();
    assert.match(energyLine, /^The expected run: [\d.,]+ kW at full draw × \([\d.,]+ hours computing × [\d.]+% \+ [\d.,]+ hours idle[^=]+= [\d.,]+ [kMG]?Wh, [\d.,]+ (kg|t) CO₂\.( The slower steps do the same work in more hours, so the GPUs draw [\d.]+% of TDP while computing, not [\d.]+%\.)?$/);
    assert.doesNotMatch(energyLine, /NaN|Infinity|undefined/);
    assert.equal(await page.locator('[data-range-basis]').getAttribute('data-range-basis'), expected.time.range.basis);
    assert.match(await page.locator('[data-range-basis]').textContent(), /Likely range: on \d+ measured steps/);
    assert.equal(await page.locator('.step-bar rect').count(), Object.values(expected.time.breakdown_seconds).filter((x) => x > 0).length);
    const words = await page.locator('.layout-words').innerText();
    const p = expected.parallelism;
    assert.match(words, new RegExp(`${p.dp}-way data parallel`));
    assert.match(words, /Chosen by the planner/);
    // The scaling chart: one point per GPU count, each planned, the current one marked.
    await page.locator('#scaling[data-state="ok"]').waitFor();
    assert.equal(await page.locator('#scaling').getAttribute('data-points'), '13');
    assert.equal(await page.locator('#scaling .days-dot').count(), 13);
    assert.equal(await page.locator('#scaling .days-dot.current').count(), 1);
    assert.match(await page.locator('#scaling h3').innerText(), /Scaling/);
    assert.match(await page.locator('#scaling .scaling-note').innerText(), /GPUs/);
    // The chart's points are expected runs (interruptions grow with the GPUs), and the note says so.
    assert.equal(await page.locator('#scaling .scaling-note').getAttribute('data-expected'), 'true');
    assert.match(await page.locator('#scaling .scaling-note').innerText(), /as runs go/);
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.locator('#scaling[data-state="ok"]').waitFor();
    assert.match(await page.locator('.speed').innerText(), /速度[\s\S]*算力利用率[\s\S]*由规划器选出/);
    assert.match(await page.locator('.likely[data-report="time.expected.wall_clock_days_range"]').innerText(), /^可能 [\d.,]+–[\d.,]+ 天$/);
    assert.match(await page.locator('.card').first().innerText(), /按实际训练估算[\s\S]*稳态：[\d.,]+ 天/);
    assert.match(await page.locator('#scaling .scaling-note').innerText(), /每个点都按实际训练估算/);
    assert.match(await page.locator('[data-range-basis]').textContent(), /可能范围：在 \d+ 个来源的 \d+ 个同类实测步/);
    assert.match(await page.locator('#scaling h3').innerText(), /扩展性/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the expected run: interruptions, checkpoints and time lost beside the steady state, from the link, in both languages', async () => {
    const scenario = {
      model: { preset: 'llama-2-70b' }, training: { type: 'pretrain', tokens: 2e12 },
      hardware: { gpu: 'a100-80gb-sxm', count: 1024 }, pricing: { per_gpu_hour: 1.8, currency: 'USD' },
      operations: { recovery: 'manual' },
    };
    const expected = JSON.parse(execFileSync(CLI, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8' }));
    const hash = 'model.preset=llama-2-70b&training.tokens=2e12&hardware.gpu=a100-80gb-sxm&hardware.count=1024&pricing.per_gpu_hour=1.8&operations.recovery=manual';
    const { context, page, problems } = await openPage(`${base}#${hash}&lang=en`);
    for (const path of ['time.expected.gpu_hours', 'time.expected.interruptions', 'time.expected.checkpoint_interval_hours', 'time.goodput', 'cost.expected_total']) {
      const value = path.split('.').reduce((node, key) => node[key], expected);
      assert.equal(await reportValue(page, path), value, path);
    }
    // With a predicted utilisation the expected run is the headline; the steady state, shorter, is
    // said under it.
    assert.equal(await reportValue(page, 'time.expected.wall_clock_days'), expected.time.expected.wall_clock_days);
    assert.equal(await reportValue(page, 'time.wall_clock_days'), expected.time.wall_clock_days);
    assert.ok(expected.time.expected.wall_clock_days > expected.time.wall_clock_days);
    const section = page.locator('section.goodput');
    assert.match(await section.innerText(), /The run as it is likely to go[\s\S]*Interruptions[\s\S]*restarting/);
    await section.locator('.math summary').click();
    assert.match(await section.locator('.math').innerText(), /Daly \(2006\)[\s\S]*manual recovery/);
    assert.equal(await page.locator('#f-operations-recovery').inputValue(), 'manual');
    assert.deepEqual(problems, []);
    await context.close();
    const zh = await openPage(`${base}#${hash}&lang=zh`);
    await reportValue(zh.page, 'time.expected.gpu_hours');
    assert.match(await zh.page.locator('section.goodput').innerText(), /实际训练的预期[\s\S]*中断次数[\s\S]*重启/);
    assert.doesNotMatch(await zh.page.locator('section.goodput').innerText(), /Interruptions|restarting|\d h\b|\d min\b|\d s\b/);
    await zh.context.close();
  });

  test('the engine runs in a Web Worker, and newer input supersedes an older scaling search', async () => {
    const { context, page, problems } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#scaling[data-state="ok"]').waitFor();
    assert.equal(await page.getAttribute('html', 'data-engine'), 'worker');
    // In a worker of its own, through the messages the page sends (worker.js): a newer search stops
    // an older one, which resolves to null.
    await startPageWorker(page);
    const [older, newer] = await page.evaluate(async () => {
      const scenario = { model: { preset: 'llama-2-7b' }, training: { type: 'pretrain', tokens: 2e12 }, hardware: { gpu: 'h100-sxm' } };
      const first = window.callWorker('scaling', { scenario, catalog: '', counts: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096] });
      const second = window.callWorker('scaling', { scenario, catalog: '', counts: [64] });
      const out = [await first, (await second).length];
      window.stopWorker();
      return out;
    });
    assert.equal(older, null);
    assert.equal(newer, 1);
    const input = page.locator('#f-hardware-count');
    for (const count of ['128', '256', '512']) await input.fill(count);
    await page.waitForFunction(() => document.querySelector('#scaling .days-dot.current title')?.textContent.startsWith('512 '));
    assert.equal(await page.locator('#scaling').getAttribute('data-state'), 'ok');
    assert.equal(await reportValue(page, 'plan.gpus'), 512);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the validation module is fetched only when its view opens, and one that cannot load is said, in both languages', async () => {
    for (const lang of ['en', 'zh']) {
      const { context, page, requests } = await openPage(`${base}#${HASH}&lang=${lang}`, {
        prepare: (c) => c.route('**/traincalc_validation*', (route) => route.abort()),
      });
      await reportValue(page, 'time.gpu_hours');
      assert.deepEqual(requests.filter((url) => url.includes('traincalc_validation')), []);
      await page.locator('#validation-view summary').click();
      await page.locator('#validation-view[data-state="failed"]').waitFor();
      assert.match(await page.locator('#validation-view .status').textContent(),
        lang === 'en' ? /could not be loaded; the calculator works as before\. Reload the page/ : /无法加载验证表格；计算器照常可用。请刷新页面重试/);
      // The calculator goes on: the estimate is still on screen.
      assert.ok(await reportValue(page, 'time.gpu_hours') > 0);
      // The message follows the page's language.
      await page.click('#lang-toggle');
      await page.waitForFunction((other) => (other === 'en' ? /could not be loaded/ : /无法加载验证表格/)
        .test(document.querySelector('#validation-view .status').textContent), lang === 'en' ? 'zh' : 'en');
      await context.close();
    }
  });

  test('the validation view: 45 published runs, measured step times filterable by source, GPU and framework, measured memory, in both languages', async () => {
    const { context, page, problems } = await openPage(`${base}#${HASH}&lang=zh`);
    // The scaling chart above it arrives a moment later and moves it down: click once it is there.
    await page.locator('#scaling[data-state="ok"]').waitFor();
    await page.locator('#validation-view summary').click();
    await page.locator('#validation-view[data-state="ok"]').waitFor({ timeout: 60000 }).catch((error) => {
      throw new Error(`${error.message}; page problems: ${JSON.stringify(problems)}`);
    });
    assert.equal(await page.locator('.validation-table').first().locator('tbody tr').count(), 45);
    // Each calibration run described in Chinese from what ran (Narayanan et al. 2021, table 1: GPT 1.7B on
    // 32 A100s, TP 1 PP 1, batch 512 of 2,048 tokens, fp16, full recomputation), the source's label and
    // citation beneath.
    const narayanan = page.locator('.validation-table').first().locator('tr[data-row="narayanan2021-1.7b"]');
    assert.equal(await narayanan.locator('.val-run').innerText(), 'Megatron GPT 1.7B，24 层，16.5亿 参数，预训练，32 张 NVIDIA A100 80GB SXM4（TP 1 PP 1 DP 32）：微批次 1，每步 512 条序列 × 2,048 token，FP16，完全重计算');
    assert.match(await narayanan.locator('.val-source').innerText(), /^Megatron GPT 1\.7B \(Narayanan 2021\) · Narayanan et al\. 2021/);
    assert.doesNotMatch(await page.locator('.validation-table').first().innerText(), /NaN|undefined|Infinity/);
    const median = Number(await page.locator('[data-median]').first().getAttribute('data-median'));
    assert.ok(median <= 3, `median ${median}`);
    assert.match(await page.locator('#validation-view').innerText(), /预测有多准[\s\S]*中位数/);
    // The memory runs: every row of the engine's table, its held-out median as `traincalc validate
    // --memory` prints it.
    const memory = JSON.parse(execFileSync(CLI, ['validate', '--memory', '--json'], { encoding: 'utf8' }));
    assert.equal(await page.locator('.memory-validation tbody tr[data-row]').count(), memory.rows.length);
    // Calibrated on one measured peak, by distance, as the CLI prints it.
    for (const d of memory.calibration) {
      assert.equal(Number(await page.locator(`.memory-validation tr[data-distance="${d.distance}"] [data-value]`).getAttribute('data-value')),
        d.median_abs_error_pct);
    }
    assert.equal(Number(await page.locator('.memory-validation [data-median]').getAttribute('data-median')), memory.median_abs_error_pct);
    assert.match(await page.locator('.memory-validation').innerText(), /显存：真实训练的实测峰值[\s\S]*误差中位数/);
    // Each memory row described in Chinese from what ran, the source's label and citation beneath.
    const falcon = page.locator('.memory-validation tr[data-row="finetune.json#0"]');
    assert.equal(await falcon.locator('.val-run').innerText(), 'falcon-7b，32 层，72.2亿 参数，LoRA，1 张 NVIDIA A10G (AWS G5 only)：微批次 1 × 512 token，BF16，不重计算');
    assert.match(await falcon.locator('.val-source').innerText(), /^LitGPT falcon-7b lora r32 1xa10g mb1 s512 · github\.com\/Lightning-AI\/litgpt/);
    // LitGPT's config hub (README @00af8b0d): Llama 2 7B fine-tuned in full on 4 A10Gs, FSDP (ZeRO 3),
    // micro-batch 4, 512 tokens, activation checkpointing; the engine counts 6.74e9 parameters.
    assert.equal(await page.locator('.memory-validation tr[data-row="finetune.json#15"] .val-run').innerText(), 'Llama 2 7B，32 层，67.4亿 参数，全参数微调，4 张 NVIDIA A10G (AWS G5 only)（TP 1 PP 1 DP 4 ZeRO 3）：微批次 4 × 512 token，BF16，完全重计算');
    assert.doesNotMatch(await page.locator('.memory-validation').innerText(), /NaN|undefined|Infinity/);
    // A model its source leaves unnamed is called so in the reader's language, not by its depth in English.
    assert.doesNotMatch((await page.locator('.memory-validation .val-run').allInnerTexts()).join('\n'), /measured model|\d+-layer model/);
    assert.ok((await page.locator('.memory-validation .val-run').allInnerTexts()).some((text) => text.startsWith('未命名模型，32 层')));
    // The whole runs: every published run with its held-out error, the median as `traincalc validate
    // --runs` prints it.
    const runs = JSON.parse(execFileSync(CLI, ['validate', '--runs', '--json'], { encoding: 'utf8' }));
    const runTable = page.locator('.runs-validation');
    assert.equal(await runTable.locator('tbody tr').count(), runs.rows.length);
    assert.equal(Number(await runTable.locator('[data-median]').getAttribute('data-median')), runs.median_abs_error_pct);
    const llama = runs.rows.find((r) => r.name === 'LLaMA-65B');
    assert.equal(Number(await runTable.locator('tr[data-run="LLaMA-65B"] [data-error]').getAttribute('data-error')), llama.error_pct);
    assert.equal(await runTable.locator('tr[data-run="LLaMA-65B"] .val-source').innerText(), 'NVIDIA A100 80GB SXM4');
    assert.match(await runTable.innerText(), /完整训练：公开的 GPU 时与预期训练对比[\s\S]*误差中位数为 [\d.]+%[\s\S]*可信度/);
    assert.doesNotMatch(await runTable.innerText(), /NaN|undefined|\t(high|medium|low|medium-low|low-medium)\t/);
    // By how sure the published figure is: each tier's held-out median as the CLI prints it, in Chinese.
    for (const tier of runs.by_confidence)
      assert.equal(Number(await runTable.locator(`.val-by-confidence [data-confidence="${tier.confidence}"]`).getAttribute('data-tier-median')), tier.median_abs_error_pct);
    assert.match(await runTable.locator('.val-by-confidence').innerText(), /按公开数字的可信度分组（留出）：高 [\d.]+%（25 次训练/);
    // The measured step times: every source with its held-out error and range coverage as `traincalc
    // validate --speed` computes them; the rows filter by source, GPU and framework, and to those outside
    // their likely range.
    const speed = JSON.parse(execFileSync(CLI, ['validate', '--speed', '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
    const table = page.locator('.speed-validation');
    assert.equal(await table.locator('tr[data-source]').count(), speed.sources.length);
    for (const s of speed.sources) {
      const cells = table.locator(`tr[data-source="${s.group}"] td[data-value]`);
      assert.ok(Math.abs(Number(await cells.nth(0).getAttribute('data-value')) - s.median_abs_error_pct) < 1e-6, s.group);
      assert.ok(Math.abs(Number(await cells.nth(1).getAttribute('data-value')) - s.range_coverage_pct) < 1e-6, s.group);
    }
    assert.match(await table.innerText(), /每步时间：实测运行，逐个软件谱系留出[\s\S]*可能范围/);
    // A source kept for validation only says so in its row (NVIDIA's mixture-of-experts steps), and a
    // mixture of experts has its own likely range.
    for (const s of speed.sources)
      assert.equal(await table.locator(`tr[data-source="${s.group}"] [data-validation-only]`).count(), s.fitted ? 0 : 1, s.group);
    assert.match(await table.locator('tr[data-source="nemo-moe"]').innerText(), /仅用于验证[\s\S]*—/);
    // Sources are named in the page's language, not by their group ids, in the table and the filter.
    assert.match(await table.locator('tr[data-source="megatron-at-scale"] th').innerText(), /^大规模 Megatron 训练（256–12,288 张 GPU）/);
    assert.match(await table.locator('tr[data-source="vtrain-single-node"] th').innerText(), /^vTrain 单节点/);
    assert.equal(await table.locator('select[data-filter="source"] option[value="llama3-405b"]').innerText(), 'Llama 3.1 405B（Meta，8,192–16,384 张 GPU）');
    // Each row is described in the page's language from what ran (the GPU in its own column, by its
    // catalog name), the source's own name for it beneath.
    const first = table.locator('tr[data-row="vtrain-multi-node#0"]');
    assert.equal(await first.locator('.val-run').innerText(), 'GPT (vTrain)，30 层，35.6亿 参数，预训练，64 张 GPU：TP 1 PP 1 DP 64，微批次 8，每步 512 条序列 × 2,048 token，FP16，完全重计算');
    assert.match(await first.locator('.val-source').innerText(), /vTrain 多节点[\s\S]*vTrain multi-node: 30 layers/);
    assert.equal(await first.locator('td').first().innerText(), 'NVIDIA A100 80GB SXM4');
    assert.equal(await table.locator('select[data-filter="gpu"] option[value="h100-sxm"]').innerText(), 'NVIDIA H100 SXM5 80GB');
    const moeRange = speed.ranges.find((r) => r.basis === 'mixture_of_experts');
    assert.ok((await table.locator('.val-ranges').innerText()).includes(`混合专家 ${moeRange.low.toFixed(2)}`));
    assert.doesNotMatch(await table.innerText(), /NaN|undefined|Infinity/);
    // A bias that rounds to nothing reads 0%, never "-0%" (vTrain multi-node's is -0.004%).
    assert.doesNotMatch(await table.innerText(), /(^|[^\d.])-0%/);
    // The headline is the median of the sources' held-out medians, as the CLI prints it (each source
    // weighing the same), beside the all-rows median.
    const bySource = speed.median_of_sources_abs_error_pct.toFixed(1);
    assert.equal(Number(await table.locator('[data-median-by-source]').getAttribute('data-median-by-source')), speed.median_of_sources_abs_error_pct);
    assert.ok((await table.innerText()).includes(`各来源留出误差中位数的中位数为 ${bySource}%`), bySource);
    const matching = async () => Number(await table.locator('.val-shown').getAttribute('data-matching'));
    assert.equal(await matching(), speed.rows.length);
    await table.locator('select[data-filter="source"]').selectOption('simumax-b200');
    assert.equal(await matching(), speed.rows.filter((r) => r.source_group === 'simumax-b200').length);
    assert.equal(await table.locator('tbody tr[data-row^="simumax"]').count(), await matching());
    await table.locator('input[data-filter="outside"]').check();
    assert.equal(await matching(), speed.rows.filter((r) => r.source_group === 'simumax-b200' && !r.in_range).length);
    await table.locator('select[data-filter="source"]').selectOption('');
    await table.locator('input[data-filter="outside"]').uncheck();
    await table.locator('select[data-filter="gpu"]').selectOption('h100-sxm');
    assert.equal(await matching(), speed.rows.filter((r) => r.gpu === 'h100-sxm').length);
    assert.ok(await matching() > 0);
    // At most 300 rows are drawn at a time.
    await table.locator('select[data-filter="gpu"]').selectOption('');
    assert.equal(await table.locator('tbody tr[data-row]').count(), 300);
    await page.click('#lang-toggle');
    await page.waitForFunction(() => /How accurate/.test(document.querySelector('#validation-view').innerText));
    assert.match(await page.locator('#validation-view').innerText(), /Megatron-Core GPT 462B/);
    assert.equal(await page.locator('.speed-validation tr[data-row="vtrain-multi-node#0"] .val-run').innerText(),
      'GPT (vTrain), 30 layers, 3.56B parameters, pre-training on 64 GPUs: TP 1 PP 1 DP 64, micro-batch 8, 512 sequences × 2,048 tokens a step, FP16, full recomputation');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('energy, carbon and the scaling law, in both languages', async () => {
    const { context, page, problems } = await openPage(`${base}#${HASH}&energy.region=china&energy.pue=1.2&lang=en`);
    const expected = JSON.parse(execFileSync(CLI, ['estimate', '-'], {
      input: JSON.stringify({ ...SCENARIO, energy: { region: 'china', pue: 1.2 } }), encoding: 'utf8' }));
    assert.equal(await reportValue(page, 'energy.kwh'), expected.energy.kwh);
    assert.equal(await reportValue(page, 'energy.co2_kg'), expected.energy.co2_kg);
    await page.locator('[data-section="scaling-law"] summary').click();
    assert.match(await page.locator('[data-section="scaling-law"]').innerText(), /20-tokens-per-parameter[\s\S]*fitted law[\s\S]*disagree/);
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    // The results re-render in the new language a moment after the page's language switches (on a
    // loaded machine, later): wait for the Chinese energy card.
    await page.waitForFunction(() => /能耗/.test(document.querySelector('#results')?.innerText ?? ''));
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.match(await page.locator('#results').innerText(), /能耗[\s\S]*CO₂/);
    assert.match(await page.locator('[data-section="scaling-law"] summary').innerText(), /缩放定律/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('an image network: ResNet-50 on ImageNet for 90 epochs, in both languages', async () => {
    const scenario = { model: { preset: 'resnet-50' }, training: { type: 'pretrain', images: 1281167, epochs: 90 }, hardware: { gpu: 'a100-80gb-sxm', count: 8 }, strategy: { mfu: 0.4 } };
    const expected = JSON.parse(execFileSync(CLI, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8' }));
    const { context, page, problems } = await openPage(`${base}#model.preset=resnet-50&training.images=1281167&training.epochs=90&hardware.gpu=a100-80gb-sxm&hardware.count=8&strategy.mfu=0.4&lang=zh`);
    assert.equal(await reportValue(page, 'compute.total_flops'), expected.compute.total_flops);
    assert.match(await page.locator('#results .figures').first().innerText(), /图片数/);
    await page.locator('#results .math summary').first().click();
    assert.match(await page.locator('#results .math').first().innerText(), /乘加/);
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.match(await page.locator('#results .figures').first().innerText(), /Images/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('on a phone: the verdict in the summary bar, the comparison and the validation tables without sideways scrolling, chart text at 11 px or more, in both languages', async () => {
    for (const lang of ['en', 'zh']) {
      const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
      const page = await context.newPage();
      await page.goto(`${base}#model.preset=llama-2-70b&training.tokens=2e12&hardware.gpu=rtx-4090&hardware.count=8&pricing.per_gpu_hour=2&lang=${lang}`);
      await page.locator('#results[data-state="ok"]').waitFor();
      const verdict = page.locator('.summary-bar .bar-fits');
      assert.equal(await verdict.isVisible(), true);
      assert.equal(await verdict.getAttribute('data-fits'), 'false');
      assert.equal(await verdict.innerText(), lang === 'zh' ? '放不下' : 'does not fit');
      await page.locator('#compare summary').click();
      await page.locator('#compare[data-state="ok"]').waitFor();
      const table = await page.locator('.table-scroll').evaluate((box) => ({ scroll: box.scrollWidth, client: box.clientWidth }));
      assert.ok(table.scroll <= table.client + 1, `${lang}: the comparison scrolls sideways (${JSON.stringify(table)})`);
      for (const column of ['offer', 'gpus', 'days', 'cost', 'memory']) {
        assert.equal(await page.locator(`.compare-table thead .col-${column}`).isVisible(), true, column);
      }
      await page.locator('#scaling[data-state="ok"]').waitFor();
      // Every chart's text as drawn on screen: its font size times the drawing's scale.
      const smallest = await page.evaluate(() => Math.min(...[...document.querySelectorAll('svg text')].filter((node) => node.getBoundingClientRect().width > 0).map((node) => {
        const chart = node.ownerSVGElement;
        const scale = chart.getBoundingClientRect().width / chart.viewBox.baseVal.width;
        return parseFloat(getComputedStyle(node).fontSize) * scale;
      })));
      assert.ok(smallest >= 11, `${lang}: chart text drawn at ${smallest} px`);
      if (lang === 'zh') {
        // The validation view's tables stack each row on a phone: none scrolls sideways, and every
        // figure is labelled with its column's heading.
        await page.locator('#validation-view summary').click();
        await page.locator('#validation-view[data-state="ok"]').waitFor({ timeout: 60000 });
        await page.locator('.memory-validation').waitFor();
        const boxes = await page.locator('#validation-view .table-scroll').evaluateAll((nodes) => nodes.map((box) => ({ scroll: box.scrollWidth, client: box.clientWidth })));
        // Published runs; speed by lineage, by source, calibrated by distance, its rows; memory, calibrated
        // by distance; whole runs.
        assert.equal(boxes.length, 8);
        for (const box of boxes) assert.ok(box.scroll <= box.client + 1, `a validation table scrolls sideways (${JSON.stringify(box)})`);
        const unlabelled = await page.locator('#validation-view table').evaluateAll((tables) => tables.flatMap((table) => {
          const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
          return [...table.querySelectorAll('tbody tr')].flatMap((tr) => [...tr.children].map((cell, i) => (cell.tagName === 'TD' && cell.dataset.label !== heads[i] ? `${tr.dataset.row ?? tr.dataset.run ?? tr.dataset.source ?? tr.dataset.lineage}:${i}` : null))).filter(Boolean);
        }));
        assert.deepEqual(unlabelled, []);
        // Rows drawn again by a filter are labelled too.
        await page.locator('.speed-validation select[data-filter="source"]').selectOption('simumax-b200');
        const redrawn = await page.locator('.speed-validation tbody tr[data-row] td').evaluateAll((cells) => cells.map((td) => td.dataset.label));
        assert.ok(redrawn.length > 0);
        assert.deepEqual([...new Set(redrawn)].sort(), ['GPU', '可能范围', '实测', '预测（留出）', '每步时间误差'].sort());
        const cell = page.locator('.runs-validation tr[data-run="LLaMA-65B"] td').first();
        assert.equal(await cell.getAttribute('data-label'), '可信度');
        assert.match(await cell.evaluate((td) => getComputedStyle(td, '::before').content), /^"可信度"( \/ "")?$/);
      }
      await context.close();
    }
  });

  test('charts read at a glance: full width, axis titles with units, at least four ticks an axis, a short job in hours, the current count and the best offers named', async () => {
    const { context, page } = await openPage(`${base}#model.preset=llama-3-8b&training.type=finetune&training.method=lora&training.samples=52002&training.epochs=3&training.seq_len=2048&hardware.gpu=h100-sxm&hardware.count=8&pricing.per_gpu_hour=2.5&lang=en`);
    await page.locator('#scaling[data-state="ok"]').waitFor();
    const scaling = page.locator('#scaling .chart-svg');
    const widths = await page.evaluate(() => [document.querySelector('#scaling .chart-svg').getBoundingClientRect().width, document.querySelector('#scaling .chart').clientWidth]);
    assert.ok(Math.abs(widths[0] - widths[1]) <= 1, `the chart fills its panel: ${widths}`);
    const texts = (locator) => locator.evaluateAll((nodes) => nodes.map((n) => n.textContent));
    const titles = await texts(scaling.locator('.axis-title'));
    assert.deepEqual(titles.slice(1), ['Wall-clock time (hours)', 'Cost (USD)'], 'a 1.5-hour job is charted in hours');
    assert.match(titles[0], /^GPUs/);
    const ticks = await scaling.locator('text.tick').evaluateAll((nodes) => nodes.map((n) => ({ x: Number(n.getAttribute('x')), cls: n.getAttribute('class'), anchor: n.getAttribute('text-anchor') })));
    assert.ok(ticks.filter((t) => t.anchor === 'end').length >= 4, 'time ticks');
    // A log axis has no zero: every time tick reads as a number above it (0.05, not 0).
    const timeTicks = await scaling.locator('text.tick[text-anchor="end"]').evaluateAll((nodes) => nodes.map((n) => n.textContent));
    assert.ok(timeTicks.every((text) => Number(text.replace(/,/g, '')) > 0), `a time tick shown as 0: ${timeTicks}`);
    assert.ok(ticks.filter((t) => /cost-tick/.test(t.cls)).length >= 4, 'cost ticks');
    assert.ok(ticks.filter((t) => t.anchor === 'middle').length >= 4, 'GPU ticks');
    assert.match((await texts(scaling.locator('.point-label'))).join(), /^8 GPUs: [\d.]+ hours$/);
    await page.locator('#compare summary').click();
    await page.locator('#compare[data-state="ok"]').waitFor();
    const compare = page.locator('#compare .chart-svg');
    assert.deepEqual(await texts(compare.locator('.axis-title')), ['Wall-clock time (hours)', 'Cost (USD)']);
    assert.ok(await compare.locator('text.tick[text-anchor="middle"]').count() >= 3);
    assert.ok(await compare.locator('text.tick[text-anchor="end"]').count() >= 4);
    assert.match((await texts(compare.locator('.point-label'))).join(' '), /fastest.*: .+/);
    await context.close();
  });

  test('the article route: where the detailed count differs from 6·N·T, the days by 6·N·T stand beside the headline, in both languages', async () => {
    for (const [lang, pattern] of [['en', /^117\.2 days by 6·N·T$/], ['zh', /^按 6·N·T 为 117\.2 天$/]]) {
      const { context, page } = await openPage(`${base}#model.preset=llama-2-7b&training.tokens=2e12&hardware.gpu=a100-80gb-sxm&hardware.count=64&strategy.mfu=0.4&lang=${lang}`);
      await page.locator('#results[data-state="ok"]').waitFor();
      const line = page.locator('.cards .six-nt-line');
      assert.match(await line.innerText(), pattern);
      // 6·N·T at the same 40%: the time in proportion to the FLOPs (engine: compute.total_flops_6n).
      const days = await reportValue(page, 'time.wall_clock_days');
      const f = await reportValue(page, 'compute.total_flops');
      assert.ok(Math.abs(Number(await line.getAttribute('data-six-nt-days')) - days * (cliFlops6n / f)) < 1e-6);
      await context.close();
    }
    // A parameter count only: the count is 6·N·T, so one number.
    const { context, page } = await openPage(`${base}#model.params=7e9&training.tokens=2e12&hardware.gpu=a100-80gb-sxm&hardware.count=64&strategy.mfu=0.4&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await page.locator('.six-nt-line').count(), 0);
    await context.close();
  });
});
