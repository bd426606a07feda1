// Your measured run: a measured step time or peak typed (or read from pasted log lines) calibrates
// the estimate, the headline says so, and the link carries it. In Debian's Chromium, in English at
// desktop width and in Chinese at phone width.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPage, reportChange, reportValue, startSite } from './harness.mjs';

let site;
before(async () => { site = await startSite(); });
after(async () => { await site?.close(); });

const PHONE = { width: 390, height: 844 };
// Llama 3 8B on 64 H100s with Megatron-LM named: a compute-bound step.
const RUN = 'model.preset=llama-3-8b&training.tokens=1e12&hardware.gpu=h100-sxm&hardware.count=64&strategy.framework=megatron';

describe('your measured run', () => {
  for (const [lang, viewport] of [['en', {}], ['zh', PHONE]]) {
    test(`a measured step time calibrates the step, the headline says so, and the link keeps it (${lang})`, async () => {
      const { context, page, problems } = await openPage(site.browser, `${site.base}#${RUN}&lang=${lang}`, viewport);
      const predicted = await reportValue(page, 'time.step_seconds');
      // Measured 25% slower than predicted, typed into the measured run's field.
      await page.fill('#f-calibration-time-step_seconds', String(Number((predicted * 1.25).toFixed(3))));
      const calibrated = await reportChange(page, 'time.step_seconds', predicted);
      assert.ok(Math.abs(calibrated / (predicted * 1.25) - 1) < 0.01, `${calibrated} vs ${predicted * 1.25}`);
      const note = await page.locator('[data-calibrated]').textContent();
      assert.match(note, lang === 'en' ? /Calibrated to your measured run/ : /已按您的实测校准/);
      assert.match(page.url(), /calibration\.time\.step_seconds=/);
      // The link reopens the calibrated estimate.
      const again = await openPage(site.browser, page.url(), viewport);
      assert.ok(Math.abs(await reportValue(again.page, 'time.step_seconds') - calibrated) < 1e-9 * calibrated);
      await again.context.close();
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test('a run measured on other GPUs carries a fifth of its departure, says so, and the math gives the calibrated range', async () => {
    // The same run on 8 GPUs, measured 25% slower than predicted: 64 GPUs take 1.25^0.195 of it
    // (report.calibration.speed.carried, docs/validation.md) and the calibrated rows' range.
    const eight = await openPage(site.browser, `${site.base}#${RUN.replace('hardware.count=64', 'hardware.count=8')}&lang=en`);
    const predicted8 = await reportValue(eight.page, 'time.step_seconds');
    await eight.context.close();
    const { context, page, problems } = await openPage(site.browser, `${site.base}#${RUN}&lang=en`);
    const predicted = await reportValue(page, 'time.step_seconds');
    await page.fill('#f-calibration-hardware-count', '8');
    await page.fill('#f-calibration-time-step_seconds', String(Number((predicted8 * 1.25).toFixed(3))));
    const calibrated = await reportChange(page, 'time.step_seconds', predicted);
    assert.ok(Math.abs(calibrated / (predicted * 1.25 ** 0.1946) - 1) < 0.01, `${calibrated} vs ${predicted}`);
    assert.match(await page.locator('[data-calibrated]').textContent(), /19\.5% of your run's ×1\.25 \(measured on another GPU count/);
    assert.equal(await page.locator('[data-range-basis="calibrated_gpus"]').count(), 1);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a measurement that cannot be is named at its field, and what was typed stays (en)', async () => {
    const { context, page } = await openPage(site.browser, `${site.base}#${RUN}&lang=en`);
    await reportValue(page, 'time.step_seconds');
    await page.fill('#f-calibration-time-step_seconds', '0.001');
    const error = page.locator('[data-error-for="calibration.time.step_seconds"]');
    await error.filter({ hasText: /peak/ }).waitFor();
    assert.equal(await page.inputValue('#f-calibration-time-step_seconds'), '0.001');
    await context.close();
  });

  test('pasted Megatron-LM log lines fill the measured run, each reading listed with its line (zh)', async () => {
    const { context, page, problems } = await openPage(site.browser, `${site.base}#${RUN}&lang=zh`, PHONE);
    const predicted = await reportValue(page, 'time.step_seconds');
    await page.locator('.log-paste summary').click();
    // github.com/NVIDIA/Megatron-LM/issues/756, the iteration line as printed (time per iteration in ms).
    await page.fill('#log-paste', ' [2024-04-06 03:02:12] iteration       71/     100 | consumed samples:         9088 | ' +
      `elapsed time per iteration (ms): ${(predicted * 1100).toFixed(1)} | learning rate: 1.420000E-05 | global batch size:   128 |`);
    await page.click('#log-read');
    await page.locator('[data-log-found="1"]').waitFor();
    assert.equal(await page.locator('.log-readings li').count(), 1);
    const filled = Number(await page.inputValue('#f-calibration-time-step_seconds'));
    assert.ok(Math.abs(filled - predicted * 1.1) < 1e-4 * predicted, `${filled} vs ${predicted * 1.1}`);
    const calibrated = await reportChange(page, 'time.step_seconds', predicted);
    assert.ok(Math.abs(calibrated / (predicted * 1.1) - 1) < 0.01);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
