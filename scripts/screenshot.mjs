// Screenshots of the page as users see it: English and Chinese, desktop and phone width.
//   node scripts/screenshot.mjs [OUT_DIR] [HASH]     (default OUT_DIR: public/img)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from '../tests/browser/chromium.mjs';
import { serveStatic } from './serve.mjs';

const outDir = process.argv[2] ?? 'public/img';
const hash = process.argv[3] ?? 'model.preset=llama-2-70b&training.tokens=2e12&hardware.gpu=h100-sxm&hardware.count=512&pricing.per_gpu_hour=2.5';
mkdirSync(outDir, { recursive: true });

const server = serveStatic('dist/site');
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
try {
  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['mobile', { width: 375, height: 812 }]]) {
    for (const lang of ['en', 'zh']) {
      const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
      await page.goto(`${base}#${hash}&lang=${lang}`);
      await page.waitForSelector('[data-report="time.gpu_hours"]');
      await page.locator('#results > .results-body > details.math').first().evaluate((d) => { d.open = true; });
      const file = join(outDir, `screenshot-${lang}-${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      console.log(`screenshot: ${file}`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
