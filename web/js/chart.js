// What the page's charts share: ticks a reader can count on (at least four per axis), times in the
// unit a job is said in (hours for a job under two days), axis titles with units, and a drawing
// width equal to the width shown, so that text is drawn at its CSS size (11 px and up) on a phone.
import { svg } from './dom.js';
import { plain } from './format.js';

// Ticks on a logarithmic axis from min to max (both > 0): decades where there are at least `least`
// of them, else 1-3, 1-2-5 or 1-1.5-2-3-5-7 steps in each decade; a linear fallback for a range too
// narrow for any of those.
export function logTicks(min, max, least = 4) {
  if (!(min > 0) || !(max >= min) || !Number.isFinite(max)) return [];
  for (const steps of [[1], [1, 3], [1, 2, 5], [1, 1.5, 2, 3, 5, 7]]) {
    const ticks = [];
    for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e += 1) {
      for (const m of steps) {
        const v = m * 10 ** e;
        if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) ticks.push(v);
      }
    }
    if (ticks.length >= least) return ticks;
  }
  return linearTicks(min, max, least);
}

// Ticks on a linear axis: the largest round step (1, 2 or 5 times a power of ten) that gives at
// least `least` ticks between min and max.
export function linearTicks(min, max, least = 4) {
  const span = max - min;
  if (!(span > 0)) return [min];
  let step = 10 ** Math.ceil(Math.log10(span));
  for (let i = 0; i < 40; i += 1) {
    const ticks = [];
    for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
    if (ticks.length >= least) return ticks;
    const mantissa = Math.round(step / 10 ** Math.floor(Math.log10(step)));
    step = mantissa === 5 ? step / 2.5 : step / 2;  // 10 → 5 → 2 → 1 → 0.5 ...
  }
  return [min, max];
}

// A time axis in hours where the longest time is under two days, else in days.
export function timeUnit(maxDays) {
  return maxDays < 2 ? { unit: 'hours', perDay: 24 } : { unit: 'days', perDay: 1 };
}

// The drawing width of a chart in `container`: the width it is shown at (a closed <details> has none,
// so a typical one until it opens and the chart is drawn again).
export function drawingWidth(container, fallback = 560) {
  return Math.max(280, Math.round(container.clientWidth || fallback));
}

// Redraws a chart when its container's width changes (a phone turned, a window resized).
export function redrawOnResize(container, draw) {
  if (typeof ResizeObserver === 'undefined') return;
  let last = container.clientWidth;
  new ResizeObserver(() => {
    const width = container.clientWidth;
    if (Math.abs(width - last) < 8 || !width) return;
    last = width;
    draw();
  }).observe(container);
}

// About how wide a text is drawn at 11 px: 6.6 px a Latin character or digit, 11 px a CJK one.
export function textWidth(text) {
  let width = 0;
  for (const c of text) width += /[\u2E80-\uFFEF]/.test(c) ? 11 : 6.6;
  return width;
}

// A label cut to fit a width, with an ellipsis.
export function fitText(text, width) {
  if (textWidth(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && textWidth(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

// A tick's value as read: whole from 10 up, else to two significant digits (0.05, 0.3, 1.5).
export function tickText(v, lang) {
  return v >= 10 ? plain(v, lang, 0) : plain(Number(v.toPrecision(2)), lang, 3);
}

// An axis title: under the x axis, or turned along a y axis (left or right side).
export function axisTitle(text, x, y, rotate = 0) {
  return svg('text', {
    x, y, 'text-anchor': 'middle', class: 'axis-title', ...(rotate ? { transform: `rotate(${rotate} ${x} ${y})` } : {}),
  }, text);
}
