// The built site served on a free loopback port, Debian's Chromium, and the few reads every browser
// test makes of the page.
import { serveStatic } from '../../scripts/serve.mjs';
import { SITE } from '../node/paths.mjs';
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

// A page at a viewport (desktop by default), its page errors and console errors collected.
export async function openPage(browser, url, { width = 1280, height = 900, prepare } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  await prepare?.(context);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  await page.goto(url);
  return { context, page, problems };
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
