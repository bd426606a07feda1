#!/usr/bin/env node
// The planner in the browser: serves dist/site, opens it in headless Chromium and times, in the
// page's engine worker (js/worker.js, driven by the messages the page sends it), a full layout search
// for 4096 GPUs and the scaling chart's 13 planned GPU counts. Prints milliseconds (median of 7,
// after one warm-up).
//   node scripts/bench-browser.mjs        (after scripts/build.sh)
import { launch } from '../tests/browser/chromium.mjs';
import { startPageWorker } from '../tests/browser/harness.mjs';
import { serveStatic } from './serve.mjs';

const server = serveStatic('dist/site');
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/#lang=en`);
  await page.locator('#results[data-state="ok"]').waitFor();
  const thread = await page.getAttribute('html', 'data-engine');
  await startPageWorker(page);
  const result = await page.evaluate(async () => {
    const call = window.callWorker;
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const time = async (run) => {
      await run();
      const samples = [];
      for (let i = 0; i < 7; i += 1) {
        const start = performance.now();
        await run();
        samples.push(performance.now() - start);
      }
      return median(samples);
    };
    const scenario = (gpus) => ({
      model: { preset: 'llama-2-70b' },
      training: { type: 'pretrain', tokens: 2e12, seq_len: 4096, global_batch_sequences: 4096 },
      hardware: { gpu: 'h100-sxm', count: gpus },
    });
    let layouts = 0;
    const search = await time(async () => {
      const r = await call('estimate', { scenario: scenario(4096), catalog: '' });
      layouts = r.parallelism.layouts_evaluated;
    });
    const counts = [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144];
    const chart = await time(() => call('scaling', { scenario: scenario(4096), catalog: '', counts }));
    window.stopWorker();
    return { search, layouts, chart, points: counts.length };
  });
  console.log(`bench-browser: the page's engine runs in the ${thread}; timed in a worker of its own`);
  console.log(`bench-browser: planned estimate, 4096 GPUs (${result.layouts} layouts): ${result.search.toFixed(1)} ms`);
  console.log(`bench-browser: scaling chart, ${result.points} planned GPU counts: ${result.chart.toFixed(1)} ms`);
} finally {
  await browser.close();
  server.close();
}
