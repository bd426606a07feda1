// Reads a number the way people type it: 7e9, 7B, 1.4T, 70亿, 1.4万亿, 3千, 7千万, 2百万, 10,000, ７０亿 (full width), 40%.
// Returns null for text that is not a number; the caller passes such text on to the engine,
// which names the field in its error, so what the user typed is never silently changed.

const SUFFIXES = new Map([
  ['k', 1e3], ['m', 1e6], ['b', 1e9], ['g', 1e9], ['t', 1e12], ['p', 1e15], ['e', 1e18], ['z', 1e21],
  ['百', 1e2], ['千', 1e3], ['万', 1e4], ['十万', 1e5], ['百万', 1e6], ['千万', 1e7], ['亿', 1e8], ['十亿', 1e9],
  ['百亿', 1e10], ['千亿', 1e11], ['万亿', 1e12],
]);

export function parseNumber(text) {
  if (typeof text !== 'string') return null;
  // Full-width digits, point and signs (an IME's ０.４, ７０亿) read as their ASCII forms.
  let s = text.trim().replace(/[０-９．＋－ｅＥ]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/[\s_\u3000]/g, '');
  if (s === '') return null;
  // Thousands separators: "10,000" and "10，000" (full-width comma).
  if (/^[+-]?\d{1,3}([,，]\d{3})+(?![\d,，])/.test(s)) s = s.replace(/[,，]/g, '');
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(.*)$/i.exec(s);
  if (!match) return null;
  const base = Number(match[1]);
  const suffix = match[2].toLowerCase();
  let value;
  if (suffix === '') value = base;
  else if (SUFFIXES.has(suffix)) value = base * SUFFIXES.get(suffix);
  else return null;
  return Number.isFinite(value) ? value : null;
}
