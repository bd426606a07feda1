// The form is the state: what the user typed (as text), which modes are chosen, and the language.
// The URL hash holds what differs from the defaults, as the scenario's dotted paths, so a shared
// link reproduces the estimate exactly. Pure functions; no DOM.
import { CUSTOM_GPU, FIELDS, FIELD_BY_PATH, MODES } from './fields.js';
import { parseNumber } from './numbers.js';
import { inferModes, requireMonthlyPrice } from './modes.js';

export function initialState() {
  return {
    values: new Map(FIELDS.map((field) => [field.path, field.default])),
    modes: Object.fromEntries(Object.entries(MODES).map(([name, mode]) => [name, mode.default])),
    // Link parameters the form has no input for (strategy.tp=8, pricing.offer=..., or a typo): passed
    // to the engine as they are, so it uses them or names them in an error, and kept in the link.
    extra: new Map(),
    catalogUrl: '',  // a vendor's catalog to load (#catalog=URL)
    // 'compare' when the user came to compare GPUs (#view=compare); the other ways in follow from the inputs.
    view: null,
    // Embedded on another site (#embed=1): its theme colour (#theme=RRGGBB) and the one origin whose
    // page may send a catalog by postMessage (#origin=https://vendor.example); the sections a vendor
    // asks for beyond the essentials (#show=energy,articles); embedding parameters that could not be
    // used, for the console (a vendor's typo must not pass silently).
    embed: { on: false, theme: null, origin: null, show: [], problems: [] },
    lang: null,
  };
}

// What an embedding vendor may switch on beyond the essentials (#show=energy,articles).
export const EMBED_SECTIONS = ['energy', 'articles'];

export function stateFromHash(hash) {
  const state = initialState();
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  Object.assign(state.modes, inferModes(params));
  for (const [key, value] of params) {
    if (key === 'lang') state.lang = value === 'zh' || value === 'en' ? value : null;
    else if (key === 'catalog') state.catalogUrl = value;
    else if (key === 'view') state.view = value === 'compare' ? value : null;
    else if (key === 'embed') state.embed.on = value === '1';
    else if (key === 'theme') {
      state.embed.theme = /^#?[0-9a-fA-F]{6}$/.test(value) ? value.replace('#', '').toLowerCase() : null;
      if (!state.embed.theme) state.embed.problems.push({ key, value, expected: 'six hex digits, as theme=aa3300' });
    } else if (key === 'origin') {
      state.embed.origin = originOf(value);
      if (!state.embed.origin) state.embed.problems.push({ key, value, expected: 'an http(s) origin, as origin=https://vendor.example' });
    } else if (key === 'show') {
      for (const part of value.split(',').map((word) => word.trim()).filter(Boolean)) {
        if (EMBED_SECTIONS.includes(part)) { if (!state.embed.show.includes(part)) state.embed.show.push(part); }
        else state.embed.problems.push({ key, value: part, expected: `one of ${EMBED_SECTIONS.join(', ')}` });
      }
    }
    else if (key === 'training.tokens' && value === 'chinchilla') continue;
    else if (FIELD_BY_PATH.has(key)) state.values.set(key, value);
    else state.extra.set(key, value);
  }
  if ([...params.keys()].some((key) => key.startsWith('hardware.gpu.') && FIELD_BY_PATH.has(key))) {
    state.values.set('hardware.gpu', CUSTOM_GPU);
  }
  // A link with a monthly budget opens with the monthly price's input.
  requireMonthlyPrice(state);
  // A link's field that the form does not show in these modes (a batch in sequences beside steps,
  // say) goes to the engine as it is, which uses it or says why not: never dropped silently.
  for (const key of [...state.values.keys()]) {
    const field = FIELD_BY_PATH.get(key);
    if (params.get(key) === state.values.get(key) && field && !isActive(field, state)) {
      state.extra.set(key, state.values.get(key));
      state.values.delete(key);
    }
  }
  return state;
}

// An http(s) origin ("https://vendor.example"; a trailing slash or default port is normalised), or
// null for anything else (a path, credentials, a query, another scheme).
export function originOf(text) {
  try {
    const url = new URL(text);
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    return ['http:', 'https:'].includes(url.protocol) && bare ? url.origin : null;
  } catch {
    return null;
  }
}

function isActive(field, state) {
  return field.active(state);
}

// Paths a link must carry: the inputs that define the estimate (model, data, GPU, count, MFU) even
// at their defaults, so an old link means the same when defaults change; every other active value
// that differs from its default; and every value of a non-default mode, even empty, so that the
// mode itself survives the round trip.
export function hashFromState(state) {
  const params = new URLSearchParams();
  const nonDefaultMode = (field) =>
    Object.entries(MODES).some(([name, mode]) => state.modes[name] !== mode.default && sectionModeOf(field) === name);
  for (const field of FIELDS) {
    if (!isActive(field, state) || field.omit?.(state)) continue;
    if (field.path === 'hardware.gpu' && state.values.get(field.path) === CUSTOM_GPU) continue;
    const value = state.values.get(field.path) ?? '';
    if (field.keep || value !== field.default || nonDefaultMode(field)) params.set(field.path, value);
  }
  if (state.modes.data === 'chinchilla') params.set('training.tokens', 'chinchilla');
  for (const [key, value] of state.extra) params.set(key, value);
  if (state.catalogUrl) params.set('catalog', state.catalogUrl);
  if (state.view) params.set('view', state.view);
  if (state.embed.on) params.set('embed', '1');
  if (state.embed.theme) params.set('theme', state.embed.theme);
  if (state.embed.origin) params.set('origin', state.embed.origin);
  if (state.embed.show.length) params.set('show', state.embed.show.join(','));
  if (state.lang) params.set('lang', state.lang);
  return params.toString().replace(/%2C/g, ',');
}

let sectionModes = null;
function sectionModeOf(field) {
  if (!sectionModes) {
    sectionModes = new Map();
    // A field belongs to a mode when its visibility depends on that mode alone.
    const probe = initialState();
    for (const f of FIELDS) {
      for (const [name, mode] of Object.entries(MODES)) {
        const visible = mode.options.map((option) => f.active({ ...probe, modes: { ...probe.modes, [name]: option } }));
        if (visible.some(Boolean) && !visible.every(Boolean)) sectionModes.set(f.path, name);
      }
    }
  }
  return sectionModes.get(field.path);
}

const UNSAFE_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

// Sets a dotted path in a plain-object tree. Returns false (and changes nothing) when the path
// cannot be set: an unsafe key, an empty segment, or a value already there that is not an object.
function setPath(target, path, value) {
  const keys = path.split('.');
  if (keys.some((key) => key === '' || UNSAFE_KEYS.has(key))) return false;
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (!Object.hasOwn(node, key)) node[key] = {};
    node = node[key];
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return false;
  }
  const last = keys.at(-1);
  if (Object.hasOwn(node, last) && typeof node[last] === 'object') return false;
  node[last] = value;
  return true;
}

// A link parameter the form has no input for, read the way JSON would hold it: a plain JSON number
// (not "7B", which may be a name), true/false, or text.
function extraValue(text) {
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) && Number.isFinite(Number(text)) ? Number(text) : text;
}

// The value the engine receives: numbers parsed (7B -> 7e9; stored values are already in the
// scenario's units); text that is not a number goes through unchanged so the engine can name the
// field in its error.
function scenarioValue(field, text) {
  if (field.kind === 'check') return text === 'true';
  // A yes/no choice: anything else goes through as typed, so the engine names the field.
  if (field.boolean) return text === 'true' ? true : text === 'false' ? false : text;
  if (field.kind !== 'number' && !field.numeric) return text;
  return parseNumber(text) ?? text;
}

export function scenarioFromState(state) {
  const scenario = {};
  for (const field of FIELDS) {
    if (!isActive(field, state) || field.omit?.(state)) continue;
    const text = state.values.get(field.path) ?? '';
    if (text === '' || (field.path === 'hardware.gpu' && text === CUSTOM_GPU)) continue;
    setPath(scenario, field.path, scenarioValue(field, text));
  }
  if (state.modes.data === 'chinchilla') setPath(scenario, 'training.tokens', 'chinchilla');
  return withMeasuredRun(scenario);
}

// The form's measured run (calibration.time.*, calibration.memory.*, calibration.hardware.count) as
// the scenario's calibration list: what was measured, and the run as measured where its GPU count
// differs. A GPU count with nothing measured asks for nothing.
function withMeasuredRun(scenario) {
  const form = scenario.calibration;
  if (!form) return scenario;
  delete scenario.calibration;
  const measured = {};
  for (const group of ['time', 'memory'])
    for (const [key, value] of Object.entries(form[group] ?? {})) measured[`${group}.${key}`] = value;
  if (!Object.keys(measured).length) return scenario;
  const run = { measured };
  if (form.hardware) run.scenario = { hardware: form.hardware };
  scenario.calibration = [run];
  return scenario;
}

// The scenario with the link's extra parameters, and those that could not be placed in it.
export function scenarioWithExtras(state) {
  const scenario = scenarioFromState(state);
  const unplaced = [];
  for (const [key, text] of state.extra) if (!setPath(scenario, key, extraValue(text))) unplaced.push(key);
  return { scenario, unplaced };
}

// The text an input shows for a stored value (percent fields show 40 for 0.4).
export function displayValue(field, text) {
  if (!field.scale || text === '') return text;
  const number = parseNumber(text);
  return number === null ? text : String(Number((number * field.scale).toPrecision(12)));
}

// The stored value for what the user typed into an input.
export function storedValue(field, typed) {
  if (!field.scale) return typed;
  const number = parseNumber(typed.replace(/[%％]\s*$/, ''));
  return number === null ? typed : String(Number((number / field.scale).toPrecision(12)));
}

// A typed budget keeps the currency it was typed in: before the price's currency changes (an offer
// picked, the currency edited) or when the budget is typed, a budget that follows the price's
// currency is pinned to it, so that the engine converts the price instead of reading the budget anew.
export function pinBudgetCurrency(state) {
  if (state.modes.gpus !== 'per_month' || !state.values.get('budget.per_month')) return;
  if (state.values.get('budget.currency')) return;
  state.values.set('budget.currency', state.values.get('pricing.currency') || 'USD');
}
