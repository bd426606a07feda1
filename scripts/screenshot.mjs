// Screenshots of the page as users see it, English and Chinese, desktop and phone width:
//   node scripts/screenshot.mjs [OUT_DIR] [HASH]   the page (default OUT_DIR: public/img)
//   node scripts/screenshot.mjs --set [OUT_DIR]    the ways in, the comparison, the embed and the
//                                                  printout at both widths (default OUT_DIR: docs/img)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from '../tests/browser/chromium.mjs';
import { serveStatic } from './serve.mjs';

const set = process.argv[2] === '--set';
const args = process.argv.slice(set ? 3 : 2);
const outDir = args[0] ?? (set ? 'docs/img' : 'public/img');
const hash = args[1] ?? 'model.preset=llama-2-70b&training.tokens=2e12&hardware.gpu=h100-sxm&hardware.count=512&pricing.per_gpu_hour=2.5';
mkdirSync(outDir, { recursive: true });

const WIDTHS = [['desktop', { width: 1280, height: 900 }], ['phone', { width: 375, height: 812 }]];
const FINETUNE = 'model.preset=llama-3-8b&training.type=finetune&training.method=lora&training.samples=52002&training.epochs=3&training.seq_len=2048&hardware.gpu=rtx-4090&hardware.count=1&pricing.per_gpu_hour=0.69';
const BUDGET = 'model.preset=llama-3-8b&training.tokens=1e12&hardware.gpu=h100-sxm&budget.per_month=200000&pricing.per_gpu_hour=2.5';
// What each picture shows: the link, what to do first, and what to photograph (the viewport, or an
// element whole).
const SET = [
  { name: 'finetune', hash: `${FINETUNE}&lang=zh` },
  { name: 'budget', hash: `${BUDGET}&lang=en` },
  { name: 'comparison', hash: `${BUDGET}&lang=zh`, open: '#compare summary', ready: '#compare[data-state="ok"]', element: '#compare' },
  { name: 'embed', hash: `embed=1&theme=aa3300&catalog=catalogs/seed-004.json&${hash}&lang=en`, viewport: { desktop: { width: 1000, height: 720 }, phone: { width: 375, height: 720 } }, full: true },
  { name: 'printout', hash: `${FINETUNE}&lang=en`, print: true, full: true },
];

const server = serveStatic('dist/site');
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();

async function shoot(viewport, link, file, shot = {}) {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
  await page.goto(`${base}#${link}`);
  await page.waitForSelector('#results[data-state="ok"] [data-report="time.gpu_hours"]', { state: 'attached' });
  if (shot.open) {
    await page.click(shot.open);
    await page.waitForSelector(shot.ready, { timeout: 60000 });
  } else if (!shot.print && !link.includes('embed=1')) {
    await page.locator('#results > .results-body > details.math').first().evaluate((d) => { d.open = true; });
  }
  if (shot.print) {
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await page.emulateMedia({ media: 'print' });
  }
  if (shot.element) await page.locator(shot.element).first().screenshot({ path: file });
  else {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({ path: file, fullPage: Boolean(shot.full), clip: shot.full ? { x: 0, y: 0, width: viewport.width, height: Math.min(height, 2400) } : undefined });
  }
  console.log(`screenshot: ${file}`);
  await page.close();
}

try {
  for (const [width, viewport] of WIDTHS) {
    if (set) {
      for (const shot of SET) await shoot(shot.viewport?.[width] ?? viewport, shot.hash, join(outDir, `${shot.name}-${width}.png`), shot);
    } else {
      for (const lang of ['en', 'zh']) {
        await shoot(viewport, `${hash}&lang=${lang}`, join(outDir, `screenshot-${lang}-${width === 'phone' ? 'mobile' : width}.png`));
      }
    }
  }
} finally {
  await browser.close();
  server.close();
}
