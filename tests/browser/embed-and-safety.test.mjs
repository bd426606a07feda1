// The page in Debian's Chromium: sharing, embedding and safety (links, downloads, CSP,
// accessibility, embeds, hostile input), and the single file from file:// offline.
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

describe('sharing, embedding and safety', () => {
  test('share and keep: copy the link, download the report and the comparison, print', async () => {
    const { context, page, problems } = await openPage(`${base}#${HASH}&lang=en`);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.click('#copy-link');
    await page.waitForFunction(() => /Link copied/.test(document.querySelector('.tool-status').textContent));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
    // The report as JSON: the scenario and the report the CLI gives.
    const [json] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
    assert.equal(json.suggestedFilename(), 'traincalc-report.json');
    const doc = JSON.parse(readFileSync(await json.path(), 'utf8'));
    assert.equal(doc.report.time.gpu_hours, cliReport.time.gpu_hours);
    assert.equal(doc.scenario.hardware.count, 64);
    // The comparison as CSV: a header and a line per offer.
    await page.locator('#compare summary').click();
    await page.locator('#compare[data-state="ok"]').waitFor();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#download-csv')]);
    // The cost-against-days chart: a point per priced offer in the main currency.
    assert.ok(await page.locator('#compare .chart-svg circle').count() >= 5);
    const lines = readFileSync(await csv.path(), 'utf8').trim().split('\r\n');
    assert.match(lines[0], /^provider,offer,date,gpu,price_per_gpu_hour/);
    assert.equal(lines.length - 1, await page.locator('.compare-table tbody tr').count());
    // Printed: the results without the form and the buttons, but saying what was estimated (model,
    // training, GPUs, price and the link as text), with the math expanded and no table clipped.
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('#inputs').isVisible(), false);
    assert.equal(await page.locator('#copy-link').isVisible(), false);
    assert.equal(await page.locator('[data-report="time.gpu_hours"]').first().isVisible(), true);
    assert.equal(await page.locator('#print-summary').isVisible(), true);
    assert.match(await page.locator('[data-print="print_model"]').innerText(), /Llama 2 7B · 6\.74B parameters/);
    assert.match(await page.locator('[data-print="print_training"]').innerText(), /Pre-training · 2T tokens/);
    assert.match(await page.locator('[data-print="print_gpus"]').innerText(), /^64 × NVIDIA H100/);
    assert.equal(await page.locator('[data-print="print_link"]').innerText(), page.url());
    assert.equal(await page.locator('#results details:not([open])').count(), 0);
    const clipped = await page.evaluate(() => [...document.querySelectorAll('.compare-table, .table-scroll')]
      .filter((node) => node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1).length);
    assert.equal(clipped, 0, 'a printed table is clipped');
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await page.emulateMedia({ media: 'screen' });
    assert.equal(await page.locator('#print-summary').isVisible(), false);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('works under Content-Security-Policy: script-src \'self\' \'wasm-unsafe-eval\' sent as a header', async () => {
    const strict = track(serveStatic(SITE, { headers: { 'Content-Security-Policy': "script-src 'self' 'wasm-unsafe-eval'" } }));
    await new Promise((ok) => strict.listen(0, '127.0.0.1', ok));
    const context = await browser.newContext();
    await context.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => window.reportViolation?.(`${e.violatedDirective} ${e.blockedURI}`)));
    const problems = [];
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    await page.goto(`http://127.0.0.1:${strict.address().port}/#${HASH}&lang=en`);
    const violations = [];
    await page.exposeFunction('reportViolation', (text) => violations.push(text));
    await page.reload();  // with the listener in place from the start (init scripts run before the page's)
    assert.equal(await reportValue(page, 'time.gpu_hours'), cliReport.time.gpu_hours);
    await page.locator('#scaling[data-state="ok"]').waitFor();
    assert.equal(await page.getAttribute('html', 'data-engine'), 'worker');
    assert.deepEqual(violations, []);
    assert.deepEqual(problems, []);
    await context.close();
    strict.close();
  });

  for (const lang of ['en', 'zh']) {
    test(`360 px wide (${lang}): no horizontal scrolling, results and charts in view`, async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${base}#model.preset=llama-2-70b&training.tokens=2e12&hardware.gpu=a100-80gb-sxm&hardware.count=1024&pricing.per_gpu_hour=1.8&lang=${lang}`);
      await page.locator('#scaling[data-state="ok"]').waitFor();
      await page.locator('#compare summary').click();
      await page.locator('#compare[data-state="ok"]').waitFor();
      const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      assert.ok(scrollWidth <= innerWidth, `${scrollWidth} > ${innerWidth}`);
      await context.close();
    });
  }

  test('accessibility: axe-core finds no serious or critical violation: both languages, dark mode, a themed embed', async () => {
    const axeSource = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
    const runs = [['en', 'light', ''], ['zh', 'light', ''], ['en', 'dark', ''], ['zh', 'light', '&embed=1&theme=ffcc00']];
    for (const [lang, colorScheme, extra] of runs) {
      const context = await browser.newContext({ colorScheme });
      const page = await context.newPage();
      await page.goto(`${base}#${HASH}&pricing.per_gpu_hour=2&lang=${lang}${extra}`);
      await page.locator('#results[data-state="ok"]').waitFor();
      if (!extra) await page.locator('#scaling[data-state="ok"]').waitFor();
      await page.locator('#compare summary').click();
      await page.locator('#compare[data-state="ok"]').waitFor();
      await page.evaluate(axeSource);  // through the debugger, not a <script>: the page's CSP stays as it is
      const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), [], `${lang} ${colorScheme}${extra}`);
      await context.close();
    }
  });

  test('embed: compact and themed, a vendor catalog by postMessage from the named origin only, a link back', async () => {
    const vendor = {
      gpus: [{ id: 'vendor-x1', name: 'Vendor X1', memory_gb: 96, bf16_tflops: 700, memory_bandwidth_tbs: 3, source: 'test vendor' }],
      offers: [{ id: 'vendor-x1-hourly', name: 'X1 on demand', provider: 'Vendor', gpu: 'vendor-x1', per_gpu_hour: 1.5, currency: 'USD', date: '2026-11', source: 'test vendor' }],
    };
    const embedOrigin = base.replace(/\/$/, '');
    // A vendor page on another origin: sends its catalog when the calculator says it is ready.
    const hostPage = (allowed) => `<!doctype html><title>vendor</title>
      <iframe id="calc" width="900" height="900" src="${base}#embed=1&theme=aa3300&origin=${encodeURIComponent(allowed)}&model.preset=llama-2-7b&training.tokens=2e11&hardware.gpu=vendor-x1&hardware.count=16&pricing.offer=vendor-x1-hourly&lang=en"></iframe>
      <script>
        window.results = [];
        addEventListener('message', (e) => {
          if (e.origin !== ${JSON.stringify(embedOrigin)}) return;
          if (e.data.type === 'traincalc-ready') document.getElementById('calc').contentWindow.postMessage({ type: 'traincalc-catalog', catalog: ${JSON.stringify(vendor)} }, ${JSON.stringify(embedOrigin)});
          if (e.data.type === 'traincalc-catalog-result') window.results.push(e.data);
        });
      </script>`;
    const hosts = [];
    const serveHost = async (html) => {
      const server = track(createServer((request, response) => response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html())));
      await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
      hosts.push(server);
      return `http://127.0.0.1:${server.address().port}`;
    };
    let hostOrigin = '';
    hostOrigin = await serveHost(() => hostPage(hostOrigin));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${hostOrigin}/`);
    await page.waitForFunction(() => window.results.length > 0);
    assert.deepEqual(await page.evaluate(() => window.results), [{ type: 'traincalc-catalog-result', ok: true }]);
    const frame = page.frames().find((f) => f.url().startsWith(base));
    await frame.locator('#results[data-state="ok"] [data-report="plan.gpus"]').first().waitFor();
    assert.match(await frame.locator('.cards').innerText(), /Vendor X1/);
    assert.equal(Number(await frame.locator('[data-report="cost.total"]').first().getAttribute('data-value')) > 0, true);
    assert.equal(await frame.evaluate(() => getComputedStyle(document.body).getPropertyValue('--accent').trim()), '#aa3300');
    assert.equal(await frame.locator('#scaling').isVisible(), false);
    assert.equal(await frame.locator('fieldset[data-section="section_layout"]').isVisible(), false);
    // The link back keeps the workload but not the vendor's own GPU and offer (unknown on the full page).
    const full = await frame.locator('#full-link').getAttribute('href');
    assert.match(full, /model\.preset=llama-2-7b/);
    assert.match(full, /hardware\.count=16/);
    assert.doesNotMatch(full, /embed=|theme=|origin=|vendor-x1/);
    await context.close();

    // A page whose origin the link does not name: the same catalog, sent the same way, is ignored (the
    // vendor's GPU stays unknown, no catalog notice).
    const otherOrigin = await serveHost(() => hostPage('https://vendor.example'));
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(`${otherOrigin}/`);
    const otherFrame = otherPage.frames().find((f) => f.url().startsWith(base));
    await otherFrame.locator('[data-error-for="hardware.gpu"]:not(:empty)').first().waitFor();
    await otherPage.evaluate(([origin, catalog]) => {
      document.getElementById('calc').contentWindow.postMessage({ type: 'traincalc-catalog', catalog }, origin);
    }, [embedOrigin, vendor]);
    // A message the frame does accept afterwards (a hello, answered only to the named origin) shows the
    // catalog one was handled first: messages are processed in order.
    await otherFrame.evaluate(() => new Promise((resolve) => { setTimeout(resolve, 500); }));
    assert.equal(await otherFrame.locator('.notice').isVisible(), false);
    assert.notEqual(await otherFrame.locator('[data-error-for="hardware.gpu"]').first().innerText(), '');
    await other.close();
    for (const server of hosts) server.close();
  });

  test('the embed a vendor ships: at most 720 px tall, its own offers only once its catalog is in, no energy or articles unless asked, the full link current, a bad theme in the console', async () => {
    const vendor = {
      offers: [
        { id: 'vendor-h100-hourly', name: 'H100 on demand', provider: 'Vendor', gpu: 'h100-sxm', per_gpu_hour: 2.1, currency: 'USD', date: '2026-11', source: 'test vendor', instance_gpus: 8, cluster: 'rdma' },
        { id: 'vendor-a100-hourly', name: 'A100 on demand', provider: 'Vendor', gpu: 'a100-80gb-sxm', per_gpu_hour: 1.2, currency: 'USD', date: '2026-11', source: 'test vendor', instance_gpus: 8, cluster: 'rdma' },
      ],
    };
    // The vendor's catalog at a link (#catalog=URL), served beside the page here.
    const serveCatalog = (context) => context.route('**/vendor-catalog.json', (route) => route.fulfill({ json: vendor }));
    const hash = `embed=1&theme=nothex&catalog=vendor-catalog.json&model.preset=llama-2-70b&training.tokens=2e12&hardware.gpu=rtx-4090&hardware.count=8&pricing.per_gpu_hour=2`;
    for (const lang of ['en', 'zh']) {
      const context = await browser.newContext({ viewport: { width: 1000, height: 720 } });
      await serveCatalog(context);
      const page = await context.newPage();
      const warnings = [];
      page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
      await page.goto(`${base}#${hash}&lang=${lang}`);
      await page.locator('#results[data-state="ok"]').waitFor();
      // The vendor's catalog is in; which catalog it is stays the vendor's business, not said to visitors.
      await page.locator('html[data-catalog="vendor"]').waitFor({ state: 'attached' });
      assert.equal(await page.locator('#inputs .notice').isHidden(), true);
      // A workload that does not fit, with notes: still within the snippet's 720 px frame.
      assert.equal(await page.locator('[data-report="memory.fits"]').first().getAttribute('data-value'), 'false');
      assert.ok(await page.evaluate(() => document.documentElement.scrollHeight) <= 720, `${lang}: taller than 720 px`);
      assert.equal(await page.locator('.memory .suggestions').isVisible(), true, 'what would make it fit stays');
      // No energy (form, figure, math, note) and no articles unless asked.
      assert.equal(await page.locator('fieldset[data-section="section_energy"]').isVisible(), false);
      const energyParts = await page.locator('.energy-part').evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().height));
      assert.ok(energyParts.length >= 3 && energyParts.every((h) => h === 0), `energy on the page: ${energyParts}`);
      assert.equal(await page.locator('[data-warning^="energy"]').first().isVisible(), false);
      assert.equal(await page.locator('#examples-view').isVisible(), false);
      // The vendor's offers only: in the picker and in the comparison.
      await page.selectOption('#f-hardware-gpu', 'h100-sxm');
      await page.locator('#results[data-state="ok"]').waitFor();
      const offered = await page.locator('#offer-picker option').evaluateAll((options) => options.map((o) => o.value).filter(Boolean));
      assert.deepEqual(offered, ['vendor-h100-hourly'], lang);
      await page.locator('#compare summary').click();
      await page.locator('#compare[data-state="ok"]').waitFor();
      assert.deepEqual(await page.locator('.compare-table tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.offer).sort()),
        ['vendor-a100-hourly', 'vendor-h100-hourly']);
      // The link to the full calculator carries the edit just made, without the embedding parameters.
      await page.fill('#f-hardware-count', '32');
      await page.waitForFunction(() => /hardware\.count=32/.test(document.getElementById('full-link').href));
      assert.doesNotMatch(await page.locator('#full-link').getAttribute('href'), /embed=|theme=/);
      assert.ok(warnings.some((w) => /theme="nothex" is ignored/.test(w)), warnings.join('\n'));
      // At phone width: one column, nothing wider than the screen.
      await page.setViewportSize({ width: 375, height: 720 });
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 375);
      await context.close();
    }
    // Asked for by the link: energy and the articles come back.
    const { context, page } = await openPage(`${base}#embed=1&show=energy,articles&${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    assert.equal(await page.locator('fieldset[data-section="section_energy"]').isVisible(), true);
    assert.equal(await page.locator('dd.energy-part').isVisible(), true);
    assert.equal(await page.locator('#examples-view').isVisible(), true);
    await context.close();
  });

  test('the snippet generator writes the iframe code for the current workload', async () => {
    const { context, page, problems } = await openPage(`${base}#${HASH}&lang=en`);
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.locator('#embed-view summary').click();
    await page.fill('#embed-origin', 'https://vendor.example');
    await page.fill('#embed-catalog', 'https://vendor.example/catalog.json');
    const code = await page.inputValue('#embed-code');
    assert.match(code, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/#/);
    assert.match(code, /embed=1/);
    assert.match(code, /origin=https%3A%2F%2Fvendor\.example/);
    assert.match(code, /catalog=https%3A%2F%2Fvendor\.example%2Fcatalog\.json/);
    assert.match(code, /hardware\.count=64&amp;/);
    assert.match(code, /title="traincalc"/);
    assert.doesNotMatch(code, /show=/);
    await page.check('#embed-show-energy');
    assert.match(await page.inputValue('#embed-code'), /show=energy&amp;/);
    // The vendor's catalog documentation, served beside the page: the format and its JSON Schema.
    for (const href of await page.locator('.embed-docs a').evaluateAll((links) => links.map((a) => a.href))) {
      const response = await page.request.get(href);
      assert.equal(response.status(), 200, href);
    }
    assert.match(await page.locator('.embed-docs').innerText(), /catalog: the format, with an example · its JSON Schema/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('if the engine cannot load, the page says why in the user\'s language and keeps what was typed', async () => {
    const broken = (context) => context.route('**/*.wasm', (route) => route.abort('failed'));
    const { context, page } = await openPage(`${base}#${HASH}&lang=zh`, { prepare: broken });
    await page.locator('#results[data-state="failed"]').waitFor();
    assert.match(await page.locator('#results').innerText(), /计算引擎加载失败（.+）。请刷新页面/);
    assert.equal(await page.inputValue('#f-hardware-count'), '64');
    await page.click('#lang-toggle');
    await page.waitForFunction(() => /could not be loaded/.test(document.getElementById('results').textContent));
    assert.equal(await page.inputValue('#f-hardware-count'), '64');
    // (As a word: "text=NaN" alone matches case-insensitively, "nanoGPT" in the log box's label too.)
    assert.equal(await page.locator('text=/\\bNaN\\b/').count(), 0);
    await context.close();
  });

  test('hostile link values and vendor catalogs stay text: no markup, no script', async () => {
    const payload = '<img src=x onerror="window.__hostile=1"><script>window.__hostile=2</script>';
    const catalog = {
      description: payload,
      gpus: [{ id: 'evil-gpu', name: payload, memory_gb: 80, bf16_tflops: 500, source: payload }],
      offers: [{ id: 'evil-offer', provider: payload, name: payload, gpu: 'evil-gpu', per_gpu_hour: 1, currency: 'USD', source: payload }],
      models: [{ id: 'evil-model', name: payload, params: 7e9, source: payload }],
    };
    const serve = (context) => context.route('**/catalogs/hostile.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(catalog) }));
    const hash = `catalog=catalogs/hostile.json&model.preset=evil-model&training.tokens=2e12&hardware.gpu=evil-gpu&hardware.count=8`
      + `&strategy.mfu=0.4&lang=en&label=${encodeURIComponent(payload)}&model.name=${encodeURIComponent(payload)}`;
    const { context, page } = await openPage(`${base}#${hash}`, { prepare: serve });
    await page.locator('#results[data-state="ok"]').waitFor();
    await page.click('#compare > summary');
    await page.locator('#compare tr[data-offer="evil-offer"] [data-report="time.wall_clock_days"]').waitFor();
    // The names are shown, as text.
    assert.ok((await page.locator('#compare').innerText()).includes('<img src=x'));
    assert.ok((await page.locator('#f-hardware-gpu').innerText()).includes('<script>'));
    // And nothing they spell was made into an element or run.
    assert.equal(await page.evaluate(() => window.__hostile), undefined);
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    assert.equal(await page.evaluate(() => [...document.scripts].filter((s) => !s.src).length), 0);
    await context.close();
  });

  test('nothing is requested from any other origin, in any way in or embedded', async () => {
    const { context, page, requests } = await openPage(`${base}#${HASH}`);
    await page.locator('#scaling[data-state="ok"]').waitFor();
    for (const way of ['finetune', 'budget', 'compare', 'pretrain']) {
      await page.click(`[data-way="${way}"]`);
      await page.waitForTimeout(200);
    }
    await page.locator('#compare[data-state="ok"]').waitFor();
    await page.locator('#validation-view summary').click();
    await page.locator('#validation-view[data-state="ok"]').waitFor();
    await page.locator('#examples > summary').click();
    await page.locator('#examples-view[data-state="ok"]').waitFor();
    await page.locator('#embed-view summary').click();
    const embedded = await openPage(`${base}#${HASH}&embed=1&theme=aa3300&origin=https%3A%2F%2Fvendor.example`);
    await embedded.page.locator('#results[data-state="ok"]').waitFor();
    const foreign = [...requests, ...embedded.requests].filter((url) => !url.startsWith(base));
    assert.deepEqual(foreign, []);
    await embedded.context.close();
    await context.close();
  });
});

describe('the single file, offline', () => {
  test('dist/traincalc.html from file:// with the network blocked gives the same numbers', async () => {
    const url = `${pathToFileURL(SINGLE_FILE).href}#${HASH}&lang=zh`;
    const { context, page, requests, problems } = await openPage(url, { offline: true });
    assert.equal(await reportValue(page, 'time.gpu_hours'), cliReport.time.gpu_hours);
    assert.equal(await reportValue(page, 'time.wall_clock_days'), cliReport.time.wall_clock_days);
    // Every feature, the engine on the page's thread: the speed section and the scaling chart.
    await page.locator('#scaling[data-state="ok"]').waitFor();
    assert.equal(await page.locator('.speed .step-bar').count(), 1);
    assert.equal(await page.evaluate(() => document.getElementById('traincalc-wasm') !== null), true);
    assert.deepEqual(requests.filter((u) => !u.startsWith('file:')), []);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
