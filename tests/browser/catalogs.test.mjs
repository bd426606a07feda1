// The page in Debian's Chromium, served over HTTP: catalogs, offers and prices (vendor catalogs,
// cloud offers, currencies, pickers, the comparison).
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

describe('catalogs, offers and prices', () => {
  test('seed 004\'s Cloud-A100 X row from a link: 5 GPUs, 43 days', async () => {
    const hash = 'model.params=1e11&training.total_flops=1e22&hardware.gpu.name=Cloud-A100%20X&hardware.gpu.memory_gb=83'
      + '&hardware.gpu.fp16_tflops=539.8&budget.per_month=10000&pricing.per_gpu_month=1999.99&pricing.currency=CNY'
      + '&strategy.precision=fp16&strategy.mfu=1&lang=zh';
    const { context, page } = await openPage(`${base}#${hash}`);
    assert.equal(await reportValue(page, 'plan.gpus'), 5);
    assert.equal(Math.round(await reportValue(page, 'time.wall_clock_days')), 43);
    await context.close();
  });

  test('seed 004\'s table from the example vendor catalog, in the comparison', async () => {
    const hash = 'catalog=catalogs/seed-004.json&model.params=1e11&training.total_flops=1e22&budget.per_month=10000'
      + '&pricing.per_gpu_month=1999.99&pricing.currency=CNY&strategy.precision=fp16&strategy.mfu=1&lang=zh';
    const { context, page, problems } = await openPage(`${base}#${hash}`);
    await page.locator('#results[data-state="ok"]').waitFor();
    // A vendor catalog in use is always said: it may redefine built-in rows.
    assert.match(await page.locator('.notice').innerText(), /catalogs\/seed-004\.json/);
    await page.click('#compare > summary');
    const row = (id) => page.locator(`#compare tr[data-offer="${id}"]`);
    await row('neuronforge-cloud-a100-x').locator('[data-report="plan.gpus"]').waitFor();
    // Seed article 004 (docs/seeds.md): GPUs rented and days (the article's 372 for Tencent's A100 is 371).
    const expected = {
      'neuronforge-cloud-a100-x': [5, 43], 'neuronforge-cloud-a100-x-pro': [4, 47], 'neuronforge-cloud-a100-z': [2, 54],
      'tencent-t4': [5, 289], 'tencent-v100': [3, 309], 'tencent-a100': [1, 371], 'alibaba-t4': [3, 482], 'alibaba-a10': [1, 827],
    };
    for (const [id, [gpus, days]] of Object.entries(expected)) {
      assert.equal(Number(await row(id).locator('[data-report="plan.gpus"]').getAttribute('data-value')), gpus, id);
      assert.equal(Math.round(Number(await row(id).locator('[data-report="time.wall_clock_days"]').getAttribute('data-value'))), days, id);
    }
    // Beside the article's 100%, the engine's utilisation: assumed at 40% for a bare parameter count,
    // so each offer takes 2.5 times the days (and the note says which figure is realistic).
    for (const id of Object.keys(expected)) {
      const fixed = Number(await row(id).locator('[data-report="time.wall_clock_days"]').getAttribute('data-value'));
      const engine = Number(await row(id).locator('[data-engine-days]').getAttribute('data-engine-days'));
      assert.ok(Math.abs(engine / fixed - 2.5) < 1e-9, `${id}: ${engine} / ${fixed}`);
    }
    assert.match(await page.locator('#compare .hint').innerText(), /更接近实际/);
    assert.match(await page.locator('#compare .hint').innerText(), /引擎按 40% 估算/);  // the engine's assumed MFU, from its reports
    assert.match(await row('alibaba-a100').innerText(), /预算/);  // "the budget does not rent a single GPU"
    // The engine's rank, kept by the page: offers that run and fit first, then the fewest days.
    assert.equal(await page.locator('#compare tbody tr').first().getAttribute('data-offer'), 'neuronforge-cloud-a100-x');
    assert.equal(await page.locator('#compare thead th').first().getAttribute('aria-sort'), 'ascending');
    const refused = await page.locator('#compare tbody tr').evaluateAll((rows) => rows.map((r) => Boolean(r.querySelector('.row-error'))));
    assert.ok(refused.includes(true) && refused.indexOf(true) === refused.filter((x) => !x).length, 'rows that run come first');
    assert.ok(await page.locator('#compare svg circle').count() >= 8);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a vendor catalog that cannot be loaded is named, and the built-in one still works', async () => {
    const { context, page } = await openPage(`${base}#catalog=catalogs/missing.json&${HASH}&lang=en`);
    await page.locator('.general-errors [data-error-for="catalog"]').waitFor();
    assert.equal(await reportValue(page, 'time.gpu_hours'), cliReport.time.gpu_hours);
    await context.close();
  });

  test('a cloud offer fills an editable price and says whose snapshot it is', async () => {
    const { context, page, requests } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    // The catalog's sources are fetched only when the page would show one (here, the offer's).
    assert.deepEqual(requests.filter((url) => url.includes('catalog-texts')), []);
    await page.selectOption('#offer-picker', 'aws-p5.48xlarge-on-demand-h100-sxm');
    assert.equal(await page.inputValue('#f-pricing-per_gpu_hour'), '6.88');  // AWS us-east-1 feed, 2026-09-10
    // The estimate with the offer's price (an earlier one may still be on the page for a moment).
    await page.waitForFunction((total) => Number(document.querySelector('[data-report="cost.total"]')?.getAttribute('data-value')) === total,
      cliReport.time.gpu_hours * 6.88);
    assert.match(await page.locator('.offer-note').innerText(), /snapshot in USD: AWS, 2026-09-10/);
    // Its source, which the page fetches apart from the calculator's module (js/catalog-texts.json).
    const offers = JSON.parse(execFileSync(CLI, ['catalog'], { encoding: 'utf8' })).offers;
    const source = offers.find((o) => o.id === 'aws-p5.48xlarge-on-demand-h100-sxm').source;
    await page.waitForFunction((text) => document.querySelector('.offer-note').textContent.includes(`(source: ${text})`), source);
    assert.equal(await reportValue(page, 'cost.total'), cliReport.time.gpu_hours * 6.88);
    // What the offer's instances can form (scripts/offer-networks.json: p5.48xlarge, 8 H100 and
    // 3,200 Gbit/s of EFA), and the offer in the link.
    assert.equal(await page.locator('.offer-network').innerText(),
      'Instances of up to 8 GPUs, joined into clusters over a training fabric (400 Gbit/s per GPU).');
    await page.waitForFunction(() => location.hash.includes('pricing.offer=aws-p5.48xlarge-on-demand-h100-sxm'));
    // An edited price is the user's own for the same instances.
    await page.fill('#f-pricing-per_gpu_hour', '5');
    await page.waitForFunction(() => document.querySelector('.offer-note').textContent.startsWith('Your own price for AWS p5.48xlarge'));
    // The note follows the field at once; the estimate follows a moment later.
    await page.waitForFunction((total) => Number(document.querySelector('[data-report="cost.total"]')?.getAttribute('data-value')) === total,
      cliReport.time.gpu_hours * 5);
    assert.equal(await reportValue(page, 'cost.total'), cliReport.time.gpu_hours * 5);
    // Another GPU: the offer no longer applies.
    await page.selectOption('#f-hardware-gpu', 'a100-80gb-sxm');
    await page.waitForFunction(() => !location.hash.includes('pricing.offer='));
    await context.close();
  });

  test('without the catalog\'s texts (not fetched), the page leaves their sources out and says the rest, in both languages', async () => {
    for (const [lang, snapshot] of [['en', 'Price snapshot in USD: AWS, 2026-09-10. Prices change'], ['zh', '价格快照（USD）：AWS，2026-09-10。价格会变动']]) {
      const { context, page, requests } = await openPage(`${base}#${HASH}&lang=${lang}`, {
        prepare: (c) => c.route('**/catalog-texts.json', (route) => route.abort()),
      });
      await page.locator('#results[data-state="ok"]').waitFor();
      await page.selectOption('#offer-picker', 'aws-p5.48xlarge-on-demand-h100-sxm');
      await page.waitForFunction((text) => document.querySelector('.offer-note').textContent.startsWith(text), snapshot);
      assert.ok(requests.some((url) => url.endsWith('/js/catalog-texts.json')), 'the texts were asked for');
      await page.locator('#results .math summary').first().click();
      const text = `${await page.locator('.offer-note').innerText()} ${await page.locator('#results').innerText()}`;
      assert.doesNotMatch(text, /undefined|\{source\}/);
      assert.ok(await reportValue(page, 'time.gpu_hours') > 0);
      await context.close();
    }
  });

  test('an offer whose instances cannot be joined: a count above one pod is refused at its field, a budget is held to one pod and the comparison says so, in both languages', async () => {
    // RunPod community pods: at most 8 GPUs, no network between pods (scripts/offer-networks.json).
    const hash = 'model.preset=llama-2-7b&training.tokens=1e11&hardware.gpu=h100-sxm&hardware.count=16';
    const { context, page, problems } = await openPage(`${base}#${hash}&lang=zh`);
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.selectOption('#offer-picker', 'runpod-community-1-gpu-pod-on-demand-h100-sxm');
    assert.equal(await page.locator('.offer-network').innerText(), '一个实例最多 8 张 GPU，且多个实例不能连成一个训练任务。');
    const error = page.locator('[data-error-for="hardware.count"]');
    await error.filter({ hasText: /最多用 8 张/ }).waitFor();
    assert.doesNotMatch(await error.innerText(), /[A-Za-z]{4,} [a-z]{3,}/);  // no English sentence
    await page.fill('#f-hardware-count', '8');
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await reportValue(page, 'plan.gpus'), 8);
    // A monthly budget that would rent 80: held to one pod, said beside the plan.
    const budget = 'model.preset=llama-2-7b&training.tokens=1e11&hardware.gpu=rtx-4090&budget.per_month=20000&budget.currency=USD'
      + '&pricing.per_gpu_month=248.2&pricing.currency=USD&strategy.mfu=0.4&lang=en';
    await page.goto(`${base}#${budget}`);
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.click('#compare > summary');
    const pod = page.locator('#compare tr[data-offer="runpod-community-1-gpu-pod-on-demand-rtx-4090"]');
    await pod.locator('[data-report="plan.gpus"]').waitFor();
    assert.equal(Number(await pod.locator('[data-report="plan.gpus"]').getAttribute('data-value')), 8);
    assert.match(await pod.locator('[data-report="plan.gpus"]').innerText(), /at most 8 on this offer/);
    assert.match(await pod.locator('[data-report="plan.gpus"]').getAttribute('title'), /The budget rents 80 GPUs, but RunPod/);
    await page.click('#lang-toggle');
    await pod.locator('[data-report="plan.gpus"]').filter({ hasText: /此报价最多 8 张/ }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a budget typed in yuan stays in yuan when a dollar offer is picked: the price is converted, said, and a rate of one\'s own replaces the reference one', async () => {
    // An old link: the budget has no currency of its own, so it is the price's (CNY).
    const hash = 'model.params=7e9&training.tokens=1.4e11&hardware.gpu=a100-80gb-sxm&budget.per_month=100000&pricing.per_gpu_month=5000&pricing.currency=CNY&strategy.mfu=0.4';
    const { context, page } = await openPage(`${base}#${hash}&lang=zh`);
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await page.inputValue('#f-budget-currency'), '');
    assert.equal(await reportValue(page, 'plan.gpus'), 20);  // 100,000 / 5,000 yuan
    await page.selectOption('#offer-picker', 'lambda-8x-a100-sxm-80gb-p-on-demand-a100-80gb-sxm');
    await page.locator('.exchange-line').waitFor();
    // The typed amount keeps its currency; the dollar price is converted at the ECB's rate of
    // 2026-04-13 (7.9827 CNY and 1.1684 USD per euro), as the engine does for the same scenario.
    assert.equal(await page.inputValue('#f-budget-currency'), 'CNY');
    assert.equal(await page.inputValue('#f-pricing-currency'), 'USD');
    const scenario = {
      model: { params: 7e9 }, training: { type: 'pretrain', tokens: 1.4e11 }, strategy: { mfu: 0.4 },
      pricing: { per_gpu_hour: 2.79, currency: 'USD' }, budget: { per_month: 100000, currency: 'CNY' },
      hardware: { gpu: 'a100-80gb-sxm' },
    };
    const expected = JSON.parse(execFileSync(CLI, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8' }));
    assert.equal(expected.cost.currency, 'CNY');
    assert.equal(await reportValue(page, 'cost.exchange.rate'), 7.9827 / 1.1684);
    assert.equal(await reportValue(page, 'plan.gpus'), expected.plan.gpus);
    assert.equal(await reportValue(page, 'cost.total'), expected.cost.total);
    assert.match(await page.locator('.exchange-line').innerText(), /^价格 US\$2\.79\/小时，按 1 USD = 6\.8322 CNY 换算（2026-04-13）$/);
    assert.match(await page.locator('[data-section="exchange"]').innerText(), /货币换算[\s\S]*= US\$2\.79 × 6\.8322（CNY\/USD）= ¥19\.06。\n1 美元 = 6\.8322 CNY（ECB euro foreign exchange reference rates, 13 April 2026/);
    assert.equal(await page.inputValue('#exchange-rate-CNY'), '6.83216');
    // A rate of one's own: in the link, in the sum, said to be the user's.
    await page.fill('#exchange-rate-CNY', '7');
    await page.locator('#exchange-rate-CNY').dispatchEvent('change');
    await page.waitForFunction(() => location.hash.includes('exchange_rates.CNY=7'));
    await page.waitForFunction(() => document.querySelector('.exchange-line')?.textContent.includes('你的汇率'));
    assert.equal(await reportValue(page, 'cost.exchange.rate'), 7);
    await context.close();
  });

  test('GPU and model pickers can be searched and show the key numbers', async () => {
    const { context, page } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.match(await page.locator('#f-hardware-gpu-facts').innerText(), /BF16 989\.4/);
    await page.fill('#f-hardware-gpu-search', 'mi300');
    const visible = await page.locator('#f-hardware-gpu option:not([hidden])').allTextContents();
    assert.ok(visible.some((text) => text.includes('MI300X')));
    assert.ok(visible.length <= 3, visible.join('\n'));  // MI300X and the chosen H100 (and nothing else)
    await context.close();
  });

  test('the comparison by GPU runs the workload on every catalog GPU', async () => {
    const { context, page } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.match(await page.locator('#compare > summary').innerText(), /Compare GPUs/);  // labelled while closed
    await page.click('#compare > summary');
    await page.selectOption('#compare-kind', 'gpus');
    const a100 = page.locator('#compare tr[data-gpu="a100-80gb-sxm"] [data-report="time.wall_clock_days"]');
    await a100.waitFor();
    // Same FLOPs at 312 instead of 989.4 TFLOPS: 989.4 / 312 times the H100's days.
    const h100Days = cliReport.time.wall_clock_days;
    assert.ok(Math.abs(Number(await a100.getAttribute('data-value')) / h100Days - 989.4 / 312) < 1e-9);
    assert.ok(await page.locator('#compare tbody tr').count() >= 44);
    await context.close();
  });

  test('keyboard in a filtered picker: arrows move through the matches, Enter picks one, Escape goes back', async () => {
    const { context, page } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.fill('#f-hardware-gpu-search', 'a100');
    const matches = await page.locator('#f-hardware-gpu option').evaluateAll((options) => options
      .filter((o) => `${o.value} ${o.textContent}`.toLowerCase().includes('a100')).map((o) => o.value));
    assert.ok(matches.length >= 2);
    await page.press('#f-hardware-gpu-search', 'ArrowDown');
    assert.equal(await page.inputValue('#f-hardware-gpu'), matches[0]);
    await page.press('#f-hardware-gpu-search', 'ArrowDown');
    assert.equal(await page.inputValue('#f-hardware-gpu'), matches[1]);
    await page.press('#f-hardware-gpu-search', 'ArrowUp');
    await page.press('#f-hardware-gpu-search', 'Escape');
    assert.equal(await page.inputValue('#f-hardware-gpu'), 'h100-sxm', 'Escape goes back to the chosen GPU');
    assert.match(page.url(), /hardware\.gpu=h100-sxm/);
    // Leaving the box after the arrows takes their preview back.
    await page.press('#f-hardware-gpu-search', 'ArrowDown');
    await page.locator('#f-hardware-count').focus();
    assert.equal(await page.inputValue('#f-hardware-gpu'), 'h100-sxm');
    // Enter without arrows keeps the chosen one where it matches; an empty box picks nothing.
    await page.fill('#f-hardware-gpu-search', 'h100');
    await page.press('#f-hardware-gpu-search', 'Enter');
    assert.equal(await page.inputValue('#f-hardware-gpu'), 'h100-sxm');
    await page.fill('#f-hardware-gpu-search', '');
    await page.press('#f-hardware-gpu-search', 'Enter');
    assert.match(page.url(), /hardware\.gpu=h100-sxm/);
    await page.fill('#f-hardware-gpu-search', 'a100');
    await page.press('#f-hardware-gpu-search', 'ArrowDown');
    await page.press('#f-hardware-gpu-search', 'ArrowDown');
    await page.press('#f-hardware-gpu-search', 'Enter');
    await page.waitForFunction((id) => location.hash.includes(`hardware.gpu=${id}`), matches[1]);
    assert.equal(await page.locator('#f-hardware-gpu-search').evaluate((n) => n === document.activeElement), true, 'focus stays in the search box');
    await context.close();
  });
});
