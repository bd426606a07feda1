// Formats report numbers for people; never computes an estimate. Every function returns text that
// is safe to put in textContent (no markup), and never "NaN" or "Infinity".

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

function finite(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

// 5.88×10²¹
export function scientific(x, digits = 3) {
  if (!finite(x)) return '—';
  if (x === 0) return '0';
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  const e = Number(exponent);
  if (e >= -2 && e < 4) return Number(x.toPrecision(digits)).toString();
  return `${mantissa}×10${String(e).replace(/./g, (c) => SUPERSCRIPT[c] ?? c)}`;
}

const SI = [
  [1e24, 'Y'], [1e21, 'Z'], [1e18, 'E'], [1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k'],
];

// 5.88 ZFLOP (zetta-FLOP), 1.2 EFLOP ...
export function flops(x) {
  if (!finite(x)) return '—';
  for (const [scale, prefix] of SI) {
    if (x >= scale) return `${(x / scale).toPrecision(3)} ${prefix}FLOP`;
  }
  return `${x.toPrecision(3)} FLOP`;
}

export function locale(lang) {
  return lang === 'zh' ? 'zh-CN' : 'en-US';
}

// Intl.NumberFormat is costly to build and cheap to use: one per language and options, kept.
const formatters = new Map();
function numberFormat(lang, options) {
  const key = `${lang}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat(locale(lang), options);
    } catch {
      // Browsers before signDisplay 'negative' (Chrome 106, Firefox 116, Safari 15.4) throw on it:
      // format without it and drop the sign of a result that reads as zero.
      const { signDisplay, ...rest } = options;
      const plainFormatter = new Intl.NumberFormat(locale(lang), rest);
      formatter = signDisplay === 'negative'
        ? { format: (x) => plainFormatter.format(x).replace(/^[-\u2212](?=[^1-9]*$)/, '') }
        : plainFormatter;
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

// 64,693 / 6.47万 (Chinese readers count in 万 and 亿).
export function count(x, lang, digits = 3) {
  if (!finite(x)) return '—';
  const options = Math.abs(x) >= 1e5
    ? { notation: 'compact', maximumSignificantDigits: digits }
    : { maximumSignificantDigits: Math.max(digits, String(Math.round(Math.abs(x))).length) };
  return numberFormat(lang, { ...options, signDisplay: 'negative' }).format(x);
}

// signDisplay 'negative': a value that rounds to zero reads "0", never "-0".
export function plain(x, lang, maximumFractionDigits = 2) {
  if (!finite(x)) return '—';
  return numberFormat(lang, { maximumFractionDigits, signDisplay: 'negative' }).format(x);
}

// A ratio such as a likely range's ends: always two decimals ("0.90", not "0.9"), so ends line up.
export function factor(x, lang) {
  if (!finite(x)) return '—';
  return numberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'negative' }).format(x);
}

export function percent(x, lang) {
  if (!finite(x)) return '—';
  return numberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(x);
}

export function days(x, lang) {
  if (!finite(x)) return '—';
  const digits = x < 10 ? 2 : x < 1000 ? 1 : 0;
  return numberFormat(lang, { maximumFractionDigits: digits }).format(x);
}

// A wall-clock time given in days, in the unit people would say: minutes, hours, days (and years
// beside days from a year on). Returns [number text, unit key].
export function duration(days, lang) {
  if (!finite(days)) return ['—', 'unit_days'];
  if (days >= 1) return [plain(days, lang, days < 10 ? 2 : days < 1000 ? 1 : 0), 'unit_days'];
  const hours = days * 24;
  if (hours >= 1) return [plain(hours, lang, hours < 10 ? 2 : 1), 'unit_hours'];
  return [plain(hours * 60, lang, 1), 'unit_minutes'];
}

// Energy in kWh, MWh or GWh.
export function energy(kwh, lang) {
  if (!finite(kwh)) return '—';
  if (kwh >= 1e6) return `${plain(kwh / 1e6, lang, 2)} GWh`;
  if (kwh >= 1e3) return `${plain(kwh / 1e3, lang, kwh >= 1e5 ? 0 : 1)} MWh`;
  return `${plain(kwh, lang, kwh >= 100 ? 0 : 1)} kWh`;
}

// A mass of CO2 in kg or tonnes.
export function mass(kg, lang) {
  if (!finite(kg)) return '—';
  if (kg >= 1e3) return `${plain(kg / 1e3, lang, kg >= 1e5 ? 0 : 1)} t`;
  return `${plain(kg, lang, kg >= 100 ? 0 : 1)} kg`;
}

// The fewest decimals (from `least` up to `most`) at which a factor, rounded as shown, still gives
// the result as shown: the math on the page adds up (8.53 × $1.80 = $15.35, not 9 × $1.80).
export function decimalsThatAddUp(x, givesShownResult, least = 0, most = 4) {
  if (!finite(x)) return least;
  for (let digits = least; digits < most; digits += 1) if (givesShownResult(Number(x.toFixed(digits)))) return digits;
  return most;
}

// Decimals for an amount of hours as people read it: 8.53, 42.5, 1,021.
export function hourDigits(x) {
  return Math.abs(x) < 10 ? 2 : Math.abs(x) < 100 ? 1 : 0;
}

// Money in the report's currency; unknown codes fall back to "1,234 XYZ". `fractionDigits` shows a
// price with more decimals than money usually gets ($0.6931 per hour in a sum that must add up).
export function money(x, currency, lang, fractionDigits = null) {
  if (!finite(x)) return '—';
  const big = Math.abs(x) >= 1e6;
  try {
    return numberFormat(lang, {
      style: 'currency',
      currency,
      ...(big ? { notation: 'compact', maximumSignificantDigits: 3 }
        : fractionDigits !== null ? { minimumFractionDigits: Math.min(2, fractionDigits), maximumFractionDigits: fractionDigits }
          : { maximumFractionDigits: x < 100 ? 2 : 0 }),
    }).format(x);
  } catch {
    return `${count(x, lang)} ${currency}`;
  }
}

// Money on a chart's axis: short from ten thousand up ("$20K", "US$2万"), whole amounts below.
export function moneyTick(x, currency, lang) {
  if (!finite(x)) return '—';
  if (Math.abs(x) < 1e4) return money(x, currency, lang).replace(/[.,]00$/, '');
  try {
    return numberFormat(lang, { style: 'currency', currency, notation: 'compact', maximumSignificantDigits: 3 }).format(x);
  } catch {
    return `${count(x, lang)} ${currency}`;
  }
}

// Memory as GPU makers write it: "80 GB" for the H100's 80 × 1,024³ bytes (binary units under the
// decimal name, as on every datasheet and in nvidia-smi), TB from 1,024 of those up.
export function bytes(x, lang) {
  if (!finite(x)) return '—';
  const gib = x / 2 ** 30;
  if (Math.abs(gib) >= 1024) return `${plain(gib / 1024, lang, 1)} TB`;
  return `${plain(gib, lang, 1)} GB`;
}

// What storage and networks move, in their decimal units (1 GB = 10⁹ bytes), as their GB/s are: a
// checkpoint's size beside the storage speed it is written at.
export function storageBytes(x, lang) {
  if (!finite(x)) return '—';
  if (Math.abs(x) >= 1e12) return `${plain(x / 1e12, lang, 2)} TB`;
  return `${plain(x / 1e9, lang, 1)} GB`;
}

// A parallel layout's factors as the page writes them everywhere: TP 8, PP 4×2 (2 interleaved chunks a
// stage), CP and EP only where used, DP (language-neutral: the factors' names are the frameworks').
export function layoutFactors(l) {
  return [`TP ${l.tp}`, `PP ${l.pp}${l.virtual_stages > 1 ? `×${l.virtual_stages}` : ''}`, l.cp > 1 ? `CP ${l.cp}` : null,
    l.ep > 1 ? `EP ${l.ep}` : null, `DP ${l.dp}`].filter(Boolean);
}
