// The page's words in Chinese and English: one locale file per language (i18n/en.js, i18n/zh.js),
// each fetched when the page is first shown in it (loadLang), so a reader downloads only their own.
// Engine errors and warnings are translated by their stable code, with the engine's numbers from
// their params; an error that names its check (params.reason) has a message of its own.

export const LANGS = ['zh', 'en'];

// Each language's tables, filled in when its file arrives.
export const STRINGS = {};
export const ERRORS = {};
export const WARNINGS = {};
export const REASONS = {};
const ENGINE_NAMES = {};
const FEATURE_NAMES = {};

const LOCALES = { en: () => import('./i18n/en.js'), zh: () => import('./i18n/zh.js') };
const loading = {};

// The language's words, fetched once; a failed fetch is forgotten, so the next call tries again.
export function loadLang(lang) {
  loading[lang] ??= LOCALES[lang]().then((locale) => {
    STRINGS[lang] = locale.STRINGS;
    ERRORS[lang] = locale.ERRORS;
    WARNINGS[lang] = locale.WARNINGS;
    if (locale.REASONS) REASONS[lang] = locale.REASONS;
    if (locale.ENGINE_NAMES) ENGINE_NAMES[lang] = locale.ENGINE_NAMES;
    if (locale.FEATURE_NAMES) FEATURE_NAMES[lang] = locale.FEATURE_NAMES;
  }, (error) => {
    delete loading[lang];
    throw error;
  });
  return loading[lang];
}

export function defaultLang(navigatorLanguages) {
  for (const tag of navigatorLanguages ?? []) {
    const primary = String(tag).toLowerCase().split('-')[0];
    if (LANGS.includes(primary)) return primary;
  }
  return 'en';
}

// {name} is the value; {name#one|other} the word for that count, chosen by Intl.PluralRules in the
// page's language (so "1 GPU", "8 GPUs"; Chinese has one form).
export function t(lang, key, values) {
  let text = STRINGS[lang]?.[key] ?? STRINGS.en?.[key] ?? key;
  if (values) {
    const rules = new Intl.PluralRules(lang);
    text = text.replace(/\{(\w+)(?:#([^}]*))?\}/g, (whole, name, forms) => {
      if (!(name in values)) return whole;
      if (forms === undefined) return String(values[name]);
      const [one, other = one] = forms.split('|');
      const count = Number(String(values[name]).replace(/[^0-9.]/g, ''));
      return rules.select(count) === 'one' ? one : other;
    });
  }
  return text;
}

// The most specific message the issue's params allow: out_of_range with a max is out_of_range_max,
// a wrong_type that expected text is wrong_type_text, ... with {max}, {got}, {allowed} filled in.
function errorTemplate(lang, issue) {
  const params = issue.params ?? {};
  const variants = [];
  if (params.expected) variants.push(`${issue.code}_${params.expected}`);
  for (const name of ['max', 'min', 'got', 'allowed', 'suggestion']) if (params[name] !== undefined) variants.push(`${issue.code}_${name}`);
  const key = [...variants, issue.code].find((k) => ERRORS[lang]?.[k] ?? ERRORS.en?.[k]);
  return key ? ERRORS[lang]?.[key] ?? ERRORS.en?.[key] : null;
}

// An error in the user's language. One that names its check (params.reason: the stage layers, a
// layout that does not divide the GPUs, ...) has its own message with the engine's values; in English
// that is the engine's message. Others take their code's most specific message; an unknown code, the
// engine's own.
export function errorText(lang, issue) {
  const reason = issue.params?.reason;
  const text = reason && lang !== 'en' && REASONS[lang]?.[reason] ? REASONS[lang][reason]
    : reason && lang === 'en' && issue.message ? null
      : errorTemplate(lang, issue);
  if (!text) return issue.message;
  const values = { field: issue.field ?? '', ...(issue.params ?? {}) };
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? ENGINE_NAMES[lang]?.[values[name]] ?? values[name] : whole));
}

// An engine error as the page shows it: in English the engine's own message (it says what to change),
// in another language errorText's; either way with the scenario's paths in the page's words.
export function issueText(lang, issue) {
  return withFieldLabels(lang, lang === 'en' && issue.message ? pageMessage(issue) ?? issue.message : errorText(lang, issue));
}

// Engine messages written for the scenario file that read wrongly on the page, by field and code.
function pageMessage(issue) {
  return PAGE_MESSAGES[`${issue.field}:${issue.code}`] ?? null;
}
const PAGE_MESSAGES = {
  'pricing.per_gpu_hour:required': 'Give a price per GPU-hour or per GPU-month, or pick a cloud offer.',
};

// "set training.global_batch_sequences" reads "set “Global batch (sequences)”" where the page has an
// input for the path; a path without one (a link's own parameter) stays as written.
const SCENARIO_PATH = /\b(?:model|training|hardware|strategy|pricing|budget|energy|memory|operations)\.[a-z0-9_]+(?:\.[a-z0-9_]+)*/g;
export function withFieldLabels(lang, text) {
  if (typeof text !== 'string') return text;
  const labelled = text.replace(SCENARIO_PATH, (path) => {
    const label = STRINGS[lang]?.[path] ?? STRINGS.en?.[path];
    return label ? `“${label}”` : path;
  });
  // Chinese sets quotation marks against its characters, without the space a path needed.
  return lang === 'zh' ? labelled.replace(/” ([\u4e00-\u9fff])/g, '”$1').replace(/([\u4e00-\u9fff]) “/g, '$1“') : labelled;
}

// A catalog's or a source's confidence (high, medium, low, or a span such as medium-low) in the
// reader's words; a word without a translation as written.
export function confidenceWord(lang, word) {
  const key = `confidence_${word}`;
  const text = t(lang, key);
  return text === key || !text ? word : text;
}

// A warning in the user's language: by its reason where it names one, else by its code, falling back
// to the engine's English message for a code without a translation. A translation may name the field
// ({field}); the engine's numbers come in its params: {name} is the value as given, {name%} a fraction
// as a percentage, so no message repeats an engine constant.
export function warningText(lang, issue) {
  const reason = issue.params?.reason;
  const text = (lang !== 'en' && reason && REASONS[lang]?.[reason]) || WARNINGS[lang]?.[issue.code];
  if (!text) return withFieldLabels(lang, issue.message);
  const params = { field: issue.field ?? '', message: issue.message ?? '', ...(issue.params ?? {}) };
  return withFieldLabels(lang, text.replace(/\{(\w+)(%?)\}/g, (whole, name, percent) => {
    if (!(name in params)) return whole;
    if (percent) return `${Math.round(Number(params[name]) * 1000) / 10}%`;
    // A list, joined in the reader's way: of IDs (feature_ids: "qlora,cpu_offload"), each in the
    // reader's words, or of names (gpu_list: "A100 SXM,H100 SXM"), as written.
    if (name.endsWith('_ids') || name.endsWith('_list')) {
      const items = String(params[name]).split(',');
      const words = name.endsWith('_ids') ? items.map((id) => FEATURE_NAMES[lang]?.[id] ?? id) : items;
      return words.join(lang === 'zh' ? '、' : ', ');
    }
    return ENGINE_NAMES[lang]?.[params[name]] ?? params[name];
  }));
}
