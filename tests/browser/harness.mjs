// The built site served on a free loopback port, Debian's Chromium, and the few reads every browser
// test makes of the page.
import { execFileSync } from 'node:child_process';
import { after, before } from 'node:test';
import { serveStatic } from '../../scripts/serve.mjs';
import { CLI, SITE } from '../node/paths.mjs';
import { launch } from './chromium.mjs';

export async function startSite() {
  const server = serveStatic(SITE);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const browser = await launch();
  return {
    base: `http://127.0.0.1:${server.address().port}/`,
    browser,
    async close() {
      await browser.close();
      server.closeAllConnections?.();
      server.close();
    },
  };
}

// A page at a viewport (desktop by default): the requests it makes, and its page errors, console
// errors and failed responses. offline: every request but file:// is refused.
export async function openPage(browser, url, { width = 1280, height = 900, prepare, offline = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  await prepare?.(context);
  if (offline) {
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  }
  const page = await context.newPage();
  const requests = [];
  const problems = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  page.on('response', (response) => { if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`); });
  await page.goto(url);
  return { context, page, requests, problems };
}

// Starts an engine worker of the page's own (js/worker.js) and defines, in the page,
// callWorker(method, args), which sends it a request as the page does and resolves with its answer,
// and stopWorker().
export async function startPageWorker(page) {
  await page.evaluate(async () => {
    const worker = new Worker('./js/worker.js', { type: 'module' });
    let next = 0;
    window.callWorker = (method, args) => new Promise((done, fail) => {
      const id = ++next;
      const answer = ({ data }) => {
        if (data.id !== id || data.progress) return;
        worker.removeEventListener('message', answer);
        if ('error' in data) fail(new Error(data.error));
        else done(data.result);
      };
      worker.addEventListener('message', answer);
      worker.postMessage({ id, method, args });
    });
    window.stopWorker = () => worker.terminate();
    await window.callWorker('init', {});
  });
}

// A number of the current estimate (not a stale one kept on screen while the input has errors).
export async function reportValue(page, path) {
  await page.locator('#results[data-state="ok"]').waitFor();
  const locator = page.locator(`[data-report="${path}"]`).first();
  await locator.waitFor({ state: 'attached' });
  return Number(await locator.getAttribute('data-value'));
}

// Waits until the estimate on screen is a new one: the value at `path` differs from `before`.
export async function reportChange(page, path, before) {
  await page.waitForFunction(([p, b]) => {
    const node = document.querySelector(`#results[data-state="ok"] [data-report="${p}"]`);
    return node && node.dataset.value !== String(b);
  }, [path, before], { timeout: 20000 });
  return reportValue(page, path);
}

// The reference workload of the page's tests: Llama 2 7B, 2T tokens, 64 H100s at 40% utilisation.
export const HASH = 'model.preset=llama-2-7b&training.tokens=2e12&hardware.gpu=h100-sxm&hardware.count=64&strategy.mfu=0.4';
export const SCENARIO = {
  model: { preset: 'llama-2-7b' },
  training: { type: 'pretrain', tokens: 2e12 },
  hardware: { gpu: 'h100-sxm', count: 64 },
  strategy: { mfu: 0.4 },
};

// A file of page tests: before them the site, the browser, the CLI's report of the reference
// workload and its 6·N·T count on A100s (the article route), handed to `receive`; after them all is
// closed, with every server a test started (track), so that a failing test cannot keep node running.
// openPage here opens at Playwright's default viewport, 1280 x 720.
export function pageTests(receive) {
  let site;
  const servers = [];
  before(async () => {
    site = await startSite();
    const cli = (scenario) => JSON.parse(execFileSync(CLI, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8' }));
    receive({
      base: site.base,
      browser: site.browser,
      cliReport: cli(SCENARIO),
      cliFlops6n: cli({ ...SCENARIO, hardware: { gpu: 'a100-80gb-sxm', count: 64 } }).compute.total_flops_6n,
      openPage: (url, options = {}) => openPage(site.browser, url, { width: 1280, height: 720, ...options }),
      track: (server) => {
        servers.push(server);
        return server;
      },
    });
  });
  after(async () => {
    await site?.close();
    for (const server of servers) {
      server.closeAllConnections?.();
      server.close();
    }
  });
}
