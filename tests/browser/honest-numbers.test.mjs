// The page never gives a silent wrong answer or a number no team would recognise: money keeps its
// meaning across currencies, a vendor's GPU is the GPU it copies, defaults scale with the cluster, the
// math adds up as shown, and what the page cannot answer it says where the answer would be. In
// Debian's Chromium, in English and Chinese, at desktop and phone width.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { SINGLE_FILE } from '../node/paths.mjs';
import { iframeSnippet } from '../../web/js/widgets/embed-snippet.js';
import { openPage, reportChange, reportValue, startSite } from './harness.mjs';

let site;
before(async () => { site = await startSite(); });
after(async () => { await site?.close(); });

const PHONE = { width: 390, height: 844 };
const RUN_64 = 'model.preset=llama-2-7b&training.tokens=2e12&hardware.gpu=h100-sxm&hardware.count=64&pricing.per_gpu_hour=2.5';
const LORA = (gpu) => `model.preset=llama-3-8b&training.type=finetune&training.method=lora&training.samples=52002&training.epochs=3&training.seq_len=2048&hardware.gpu=${gpu}&hardware.count=1`;
const RUN_405B = (gpus, extra = '') => `model.preset=llama-3.1-405b&training.tokens=15.6e12&hardware.gpu=h100-sxm&hardware.count=${gpus}${extra}`;

describe('money keeps its meaning', () => {
  for (const [lang, viewport] of [['en', {}], ['zh', PHONE]]) {
    test(`showing costs in another currency converts them at the dated rate and says so (${lang})`, async () => {
      const { context, page, problems } = await openPage(site.browser, `${site.base}#${RUN_64}&lang=${lang}`, viewport);
      const usd = await reportValue(page, 'cost.total');
      await page.selectOption('#f-currency', 'CNY');
      const cny = await reportChange(page, 'cost.total', usd);
      const rate = Number(await page.getAttribute('[data-report="cost.exchange.rate"]', 'data-value'));
      // The reference rates' CNY per USD (engine/data: ECB 2026-04-13), not a relabelled dollar figure.
      assert.ok(rate > 6 && rate < 8, String(rate));
      assert.ok(Math.abs(cny / usd - rate) < 1e-9 * rate, `${cny} / ${usd} vs ${rate}`);
      assert.match(page.url(), /pricing\.currency=USD/);
      assert.match(page.url(), /(^|&|#)currency=CNY/);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test('editing the price\'s own currency re-reads the amount, says so, and offers the conversion instead', async () => {
    const { context, page } = await openPage(site.browser, `${site.base}#${RUN_64}&lang=en`);
    const usd = await reportValue(page, 'cost.total');
    await page.fill('#f-pricing-currency', 'EUR');
    const note = page.locator('[data-note-for="pricing.currency"]');
    await note.waitFor();
    // The same amount, now in euros: what the user asked for, and said.
    await page.waitForFunction(() => document.querySelector('#results[data-state="ok"] [data-report="cost.total"]')?.textContent.includes('€'));
    assert.equal(await reportValue(page, 'cost.total'), usd);
    assert.match(await note.innerText(), /€2\.50 per GPU-hour \(it was \$2\.50 per GPU-hour\).*does not convert/);
    await note.locator('button').click();
    await page.waitForFunction(() => /pricing\.currency=USD/.test(location.hash) && /currency=EUR/.test(location.hash));
    await page.waitForFunction(() => document.querySelector('[data-note-for="pricing.currency"]').hidden);
    await context.close();
  });
});

describe('a vendor\'s GPU is the GPU it copies', () => {
  for (const [lang, viewport] of [['en', {}], ['zh', PHONE]]) test(`docs/embedding.md's example H100 row gives the built-in H100's days, and names what it took (${lang})`, async () => {
    const catalog = {
      gpus: [{ id: 'example-h100', name: 'H100 SXM (Example Cloud)', memory_gb: 80, bf16_tflops: 989.4, fp8_tflops: 1978.9, gpus_per_node: 8, source: 'NVIDIA datasheet' }],
    };
    const hash = 'model.preset=llama-3.1-8b&training.tokens=2e12&hardware.count=64&catalog=vendor.json';
    const prepare = (context) => context.route('**/vendor.json', (route) => route.fulfill({ json: catalog, headers: { 'access-control-allow-origin': '*' } }));
    const { context, page } = await openPage(site.browser, `${site.base}#${hash}&hardware.gpu=h100-sxm&lang=${lang}`, { ...viewport, prepare });
    const builtIn = await reportValue(page, 'time.wall_clock_days');
    await page.selectOption('#f-hardware-gpu', 'example-h100');
    await page.waitForFunction(() => document.querySelector('#results [data-warning="gpu_fields_filled"]'));
    assert.equal(await reportValue(page, 'time.wall_clock_days'), builtIn);
    assert.match(await page.locator('[data-warning="gpu_fields_filled"]').innerText(),
      lang === 'zh' ? /没有给出显存带宽、.*NVIDIA H100 SXM5 80GB/ : /memory_bandwidth_tbs.*NVIDIA H100 SXM5 80GB/);
    await context.close();
  });
});

describe('defaults scale with the cluster', () => {
  test('a 405B run on 16,000 GPUs takes about as long as on 16,384, and typing the assumed batch changes nothing', async () => {
    const { context, page } = await openPage(site.browser, `${site.base}#${RUN_405B(16384)}&lang=en`);
    const days16384 = await reportValue(page, 'time.wall_clock_days');
    await page.fill('#f-hardware-count', '16000');
    const days16000 = await reportChange(page, 'time.wall_clock_days', days16384);
    assert.ok(days16000 > days16384 && days16000 / days16384 < 1.04, `${days16000} vs ${days16384}`);
    assert.equal(await page.locator('[data-warning="batch_padded"]').count(), 0);
    // 16,384 GPUs assume 2,048 sequences (16M tokens, Llama 3's); typed, the same days.
    await page.fill('#f-hardware-count', '16384');
    await reportChange(page, 'time.wall_clock_days', days16000);
    assert.match(await page.locator('[data-warning="global_batch_assumed"]').innerText(), /2048 sequences/);
    await page.fill('#f-training-global_batch_sequences', '2048');
    await page.waitForFunction(() => !document.querySelector('[data-warning="global_batch_assumed"]'));
    assert.equal(await reportValue(page, 'time.wall_clock_days'), days16384);
    await context.close();
  });

  for (const [lang, viewport, words] of [['en', {}, /cannot keep 160000 GPUs busy/], ['zh', PHONE, /无法让 160000 张 GPU 保持忙碌/]]) {
    test(`a cluster the batch cannot keep busy says so under the headline (${lang})`, async () => {
      const { context, page } = await openPage(site.browser, `${site.base}#${RUN_405B(160000, '&training.global_batch_sequences=2048')}&lang=${lang}`, viewport);
      await reportValue(page, 'time.wall_clock_days');
      const note = page.locator('.headline-note [data-headline-warning="batch_cannot_fill"]');
      assert.match(await note.innerText(), words);
      // Right under the cards: seen with the headline.
      const cards = await page.locator('#results .cards').boundingBox();
      const box = await note.boundingBox();
      assert.ok(box.y - (cards.y + cards.height) < 40, `${box.y} vs ${cards.y + cards.height}`);
      await context.close();
    });
  }

  test('a 405B run on 16,384 GPUs checkpoints every few minutes against its storage, as published runs do', async () => {
    // DeepSeek checkpoints about every 5 minutes asynchronously (arXiv 2408.14158, sec. VII-A); runs of
    // 10,000+ GPUs writing to storage use 5-60 minutes.
    for (const [lang, viewport, words] of [['en', {}, /asynchronously.*2,000 GB\/s shared by every node/], ['zh', PHONE, /异步保存.*存储带宽 2,000 GB\/s，由所有节点共享/]]) {
      const { context, page } = await openPage(site.browser, `${site.base}#${RUN_405B(16384)}&lang=${lang}`, viewport);
      const interval = await reportValue(page, 'time.expected.checkpoint_interval_hours');
      assert.ok(interval * 60 > 4 && interval * 60 < 60, String(interval * 60));
      await page.locator('.goodput details.math summary').click();
      assert.match(await page.locator('[data-checkpoint="async"]').innerText(), words);
      await context.close();
    }
  });

  test('the longest sequence that fits is at micro-batch 1: an 80 GB A100 takes more than a 24 GB RTX 4090', async () => {
    // The A100 in English at desktop width, the 4090 in Chinese at phone width.
    const longest = async (gpu, lang, viewport) => {
      const { context, page } = await openPage(site.browser, `${site.base}#${LORA(gpu)}&lang=${lang}`, viewport);
      await reportValue(page, 'memory.fits');
      const text = await page.locator('section.memory').innerText();
      await context.close();
      const match = (lang === 'zh' ? /放得下的最长序列：微批 1 时 ([\d,]+) 个 token/ : /longest sequence that fits: ([\d,]+) tokens at micro-batch 1/).exec(text);
      assert.ok(match, text);
      return Number(match[1].replace(/,/g, ''));
    };
    const a100 = await longest('a100-80gb-sxm', 'en', {});
    const rtx = await longest('rtx-4090', 'zh', PHONE);
    assert.ok(a100 > rtx, `${a100} vs ${rtx}`);
    assert.equal(a100, 4954);  // engine test: test_cluster_defaults.cpp
  });
});

describe('what the page cannot answer, it says where the answer would be', () => {
  for (const [lang, viewport, words] of [['en', {}, /needs:/], ['zh', PHONE, /还需要填写/]]) {
    test(`a budget without a price asks for the price, with no estimate it never asked for (${lang})`, async () => {
      const { context, page } = await openPage(site.browser, `${site.base}#model.params=1e11&training.total_flops=1e22&budget.per_month=10000&budget.currency=CNY&lang=${lang}`, viewport);
      await page.locator('#results[data-state="empty"]').waitFor();
      assert.match(await page.locator('#results .status').innerText(), words);
      assert.equal(await page.locator('#results .cards').count(), 0);
      await page.locator('#results [data-go-to="pricing.per_gpu_month"]').click();
      await page.waitForFunction(() => document.activeElement?.name === 'pricing.per_gpu_month');
      await context.close();
    });
  }

  test('a deadline plans GPUs without a price, even with the price inputs open and empty', async () => {
    const { context, page } = await openPage(site.browser, `${site.base}#model.params=1e11&training.total_flops=1e22&budget.per_month=10000&lang=en`);
    await page.locator('#results[data-state="empty"]').waitFor();
    await page.selectOption('#mode-gpus', 'deadline');
    assert.ok(await reportValue(page, 'plan.gpus') >= 1);
    assert.equal(await page.locator('#inputs .error:not(:empty)').count(), 0);
    await context.close();
  });

  for (const [lang, viewport] of [['en', {}], ['zh', PHONE]]) {
    test(`a link's value out of range is said at the top with its fix (${lang})`, async () => {
      const { context, page } = await openPage(site.browser, `${site.base}#${RUN_64}&strategy.mfu=40&lang=${lang}`, { ...viewport });
      const problem = page.locator('.link-problems [data-link-problem="strategy.mfu"]');
      await problem.waitFor();
      assert.match(await problem.innerText(), /100%.*4000%/);
      const box = await problem.boundingBox();
      assert.ok(box.y < (viewport.height ?? 900), String(box.y));  // in the first screen, not 1,000 px down
      await problem.locator('[data-fix="strategy.mfu"]').click();
      assert.ok(Math.abs(await reportValue(page, 'time.mfu') - 0.4) < 1e-12);
      assert.match(page.url(), /strategy\.mfu=0\.4/);
      assert.equal(await page.locator('.link-problems').isHidden(), true);
      await context.close();
    });
  }
});

describe('the numbers read as people write them', () => {
  const MATH = {
    en: { gpuHours: /GPU-hours = GPUs × hours = ([\d,]+) × ([\d,.]+) = ([\d,.]+)/, cost: /Cost = GPU-hours × price = ([\d,.]+) × \$([\d,.]+) = \$([\d,.]+)/, time: /= ([\d,.]+) hours = ([\d.]+) days/ },
    zh: { gpuHours: /GPU 小时 = GPU 数 × 小时 = ([\d,]+) × ([\d,.]+) = ([\d,.]+)/, cost: /费用 = GPU 小时 × 单价 = ([\d,.]+) × US\$([\d,.]+) = US\$([\d,.]+)/, time: /= ([\d,.]+) 小时 = ([\d.]+) 天/ },
  };
  for (const [lang, viewport] of [['en', {}], ['zh', PHONE]]) {
    test(`every sum in the math adds up as shown (${lang})`, async () => {
      const { context, page } = await openPage(site.browser, `${site.base}#${LORA('a100-80gb-sxm')}&pricing.per_gpu_hour=1.8&lang=${lang}`, viewport);
      await reportValue(page, 'time.gpu_hours');
      await page.locator('#results details.math').first().evaluate((node) => { node.open = true; });
      const text = await page.locator('#results details.math').first().innerText();
      const number = (x) => Number(x.replace(/[$,]/g, ''));
      const gpuHours = MATH[lang].gpuHours.exec(text);
      assert.ok(gpuHours, text);
      assert.equal(Number((number(gpuHours[1]) * number(gpuHours[2])).toFixed(gpuHours[3].split('.')[1]?.length ?? 0)), number(gpuHours[3]));
      const cost = MATH[lang].cost.exec(text);
      assert.ok(cost, text);
      assert.equal(Math.round(number(cost[1]) * number(cost[2])), Math.round(number(cost[3])));
      const time = MATH[lang].time.exec(text);
      assert.ok(time, text);
      assert.equal((number(time[1]) / 24).toFixed(2), time[2]);
      await context.close();
    });
  }

  for (const [lang, viewport, usable, card] of [
    ['en', {}, /of 79\.\d GB usable per GPU/, /NVIDIA H100 SXM5 80GB’s 80 GB/],
    ['zh', PHONE, /可用 79\.\d GB/, /NVIDIA H100 SXM5 80GB 标称 80 GB/],
  ]) {
    test(`memory is in GB as vendors write them: an 80 GB H100 is 80 GB, and what is usable is said once (${lang})`, async () => {
      const { context, page } = await openPage(site.browser, `${site.base}#${RUN_64}&lang=${lang}`, viewport);
      await reportValue(page, 'memory.fits');
      const results = await page.locator('#results').innerText();
      assert.doesNotMatch(results, /\b85(\.\d)? GB/);
      assert.match(results, usable);
      assert.match(await page.locator('[data-report="hardware.usable_memory_gib"]').innerText(), card);
      await context.close();
    });
  }

  test('English speaks of the page\'s fields, counts take their plural, and a short job has no monthly bill', async () => {
    const { context, page } = await openPage(site.browser, `${site.base}#${LORA('a100-80gb-sxm')}&training.epochs=1&pricing.per_gpu_hour=1.8&lang=en`);
    await reportValue(page, 'time.gpu_hours');
    const notes = await page.locator('#results .warnings').innerText();
    assert.match(notes, /“Global batch \(sequences per step\)”/);
    assert.doesNotMatch(notes, /training\.global_batch_sequences/);
    assert.equal(await page.locator('[data-report="cost.per_month"]').count(), 0);
    assert.match(await page.locator('[data-print="print_training"]').textContent(), /1 epoch$/);
    await context.close();
  });

  test('a search picks the model whose words were typed, and 7千万 is seventy million', async () => {
    const { context, page } = await openPage(site.browser, `${site.base}#${RUN_64}&lang=zh`);
    await reportValue(page, 'time.gpu_hours');
    const search = page.locator('#f-model-preset-search');
    await search.fill('llama 3 8b');
    await search.press('Enter');
    await page.waitForFunction(() => /model\.preset=llama-3-8b(&|$)/.test(location.hash));
    await page.fill('#f-training-tokens', '7千万');
    await page.waitForFunction(() => document.querySelector('#results[data-state="ok"] [data-report="compute.tokens"]')?.dataset.value === '70000000');
    await context.close();
  });
});

describe('the layout holds', () => {
  for (const [lang, viewport] of [['en', {}], ['zh', PHONE]]) {
    test(`a headline number stays on one line (${lang}, ${viewport.width ?? 1280} px)`, async () => {
      const { context, page } = await openPage(site.browser, `${site.base}#${RUN_64}&currency=CNY&lang=${lang}`, viewport);
      await reportValue(page, 'cost.total');
      for (const value of await page.locator('#results .cards .card > .value').all()) {
        const lines = await value.evaluate((node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        });
        assert.equal(lines, 1, await value.innerText());
      }
      await context.close();
    });
  }

  test('the scaling chart\'s cost axis spans the costs worth comparing, and its marker does not follow the typed count', async () => {
    const limitAt = async (count) => {
      const { context, page } = await openPage(site.browser, `${site.base}#model.preset=llama-2-7b&training.tokens=2e12&hardware.gpu=h100-sxm&hardware.count=${count}&pricing.per_gpu_hour=2.5&lang=en`);
      await page.locator('#scaling[data-state="ok"]').waitFor({ timeout: 120000 });
      const ticks = await page.locator('#scaling .cost-tick').allTextContents();
      // Each fitting count's cost, from its point's title ("64 GPU: 31.4 days, $120,418, MFU ...").
      const costs = await page.locator('#scaling .cost-dot title').allTextContents();
      const limit = await page.locator('#scaling .scaling-note').getAttribute('data-limit');
      await context.close();
      return { ticks, costs, limit };
    };
    // 4,096 GPUs: the chart reaches 262,144, where interruptions make a run cost many times more.
    const at64 = await limitAt(4096);
    const at100 = await limitAt(6000);
    assert.equal(at100.limit, at64.limit);
    // The top tick is at most 1.1 x 4 times the cheapest count's cost, however far the counts reach
    // (a million GPUs may cost a hundred times more).
    const money = (text) => {
      const [, digits, suffix = ''] = /\$([\d.,]+)([KMB]?)/.exec(text);
      return Number(digits.replace(/,/g, '')) * { '': 1, K: 1e3, M: 1e6, B: 1e9 }[suffix];
    };
    const cheapest = Math.min(...at64.costs.map(money));
    const dearest = Math.max(...at64.costs.map(money));
    const top = Math.max(...at64.ticks.map(money));
    assert.ok(dearest > 4.4 * cheapest, 'the counts reach costs the axis leaves out');
    assert.ok(top <= 4.4 * cheapest, `${at64.ticks.join(' ')} against ${cheapest}`);
  });

  test('the comparison names its fastest and cheapest offers beside their points', async () => {
    const { context, page } = await openPage(site.browser, `${site.base}#model.preset=llama-3-8b&training.tokens=1e12&hardware.gpu=h100-sxm&budget.per_month=200000&pricing.per_gpu_hour=2.5&lang=en`, PHONE);
    await page.click('#compare summary');
    await page.locator('#compare[data-state="ok"]').waitFor({ timeout: 120000 });
    const rings = await page.locator('#compare .point-ring').all();
    const labels = await page.locator('#compare .compare-chart .point-label').all();
    assert.ok(rings.length >= 1 && rings.length === labels.length);
    for (let i = 0; i < rings.length; i += 1) {
      const ring = await rings[i].boundingBox();
      const label = await labels[i].boundingBox();
      const gap = Math.max(0, label.x - (ring.x + ring.width), ring.x - (label.x + label.width));
      assert.ok(gap < 12 && Math.abs(label.y - ring.y) < 40, JSON.stringify({ ring, label }));
    }
    // On a phone each offer's name has the row's width: a provider's name is never broken mid-word.
    const names = await page.locator('#compare .compare-table tbody th[scope="row"]').evaluateAll((cells) => cells.map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell.firstChild);
      return [cell.firstChild.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
    }));
    assert.ok(names.length > 3);
    for (const [name, lines] of names) if (!/\s/.test(name)) assert.equal(lines, 1, name);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await context.close();
  });
});

describe('the embed shows a vendor\'s visitors only what is theirs', () => {
  test('no word about the catalog\'s origin, no empty offer fields, and a linked offer is the price', async () => {
    const offer = { id: 'acme-h100', provider: 'Acme Cloud', name: '', gpu: 'h100-sxm', per_gpu_hour: 12.5, currency: 'CNY', source: 'acme.example/pricing' };
    const prepare = (context) => context.route('**/acme.json', (route) => route.fulfill({ json: { offers: [offer] }, headers: { 'access-control-allow-origin': '*' } }));
    const { context, page } = await openPage(site.browser, `${site.base}#embed=1&catalog=acme.json&${RUN_64.replace('&pricing.per_gpu_hour=2.5', '')}&pricing.offer=acme-h100&lang=en`, { width: 720, prepare });
    assert.ok(await reportValue(page, 'cost.total') > 0);
    assert.equal(await page.locator('#inputs .notice').isHidden(), true);
    const options = await page.locator('#offer-picker option').allTextContents();
    assert.ok(options.some((o) => /Acme Cloud/.test(o)));
    for (const o of options) assert.doesNotMatch(o, /·\s*·|·\s*$/);
    assert.equal(await page.locator('#mode-price').inputValue(), 'per_gpu_hour');
    assert.equal(await page.locator('#f-pricing-per_gpu_hour').inputValue(), '12.5');
    await context.close();
  });

  test('on a phone the frame grows to the embed\'s height with the code the page writes, instead of scrolling inside', async () => {
    // A vendor's page on another origin, with the iframe code the page writes for that origin.
    let hostOrigin = '';
    const host = createServer((request, response) => {
      const code = iframeSnippet(site.base, `#${RUN_64}&lang=zh`, { origin: hostOrigin, height: 720 });
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta name="viewport" content="width=device-width"><title>vendor</title><body style="margin:0">${code}</body>`);
    });
    await new Promise((ok) => host.listen(0, '127.0.0.1', ok));
    hostOrigin = `http://127.0.0.1:${host.address().port}`;
    const { context, page } = await openPage(site.browser, `${hostOrigin}/`, PHONE);
    // Taller than the 720 px the code starts it at, as the one-column page is on a phone.
    await page.waitForFunction(() => parseFloat(document.querySelector('iframe').style.height) > 720, null, { timeout: 30000 });
    const calc = page.frames().find((f) => f.url().startsWith(site.base));
    await calc.locator('#results[data-state="ok"]').waitFor();
    await calc.waitForFunction(() => !document.querySelector('#scaling[data-state="computing"]'));
    // The frame follows the page's height: nothing left to scroll inside it.
    await page.waitForFunction(() => {
      const frame = document.querySelector('iframe');
      return Math.abs(parseFloat(frame.style.height) - frame.getBoundingClientRect().height) <= 1;
    });
    await calc.waitForFunction(() => document.documentElement.scrollHeight <= window.innerHeight + 2, null, { timeout: 10000 });
    await context.close();
    host.closeAllConnections?.();
    host.close();
  });

  test('the offline file asks where the calculator is hosted before writing embed code', async () => {
    const { context, page } = await openPage(site.browser, `${pathToFileURL(SINGLE_FILE).href}#${RUN_64}&lang=en`);
    await reportValue(page, 'time.gpu_hours');
    const details = page.locator('details.embed-snippet');
    await details.locator('summary').click();
    assert.doesNotMatch(await page.locator('#embed-code').inputValue(), /file:\/\//);
    assert.match(await page.locator('#embed-code').inputValue(), /host the calculator/);
    await page.fill('#embed-host', 'https://calc.example/');
    assert.match(await page.locator('#embed-code').inputValue(), /^<iframe src="https:\/\/calc\.example\/#/);
    await context.close();
  });
});
