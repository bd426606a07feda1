// The form is the state: what the user typed (as text), which modes are chosen, and the language.
// The URL hash holds what differs from the defaults, as the scenario's dotted paths, so a shared
// link reproduces the estimate exactly. Pure functions; no DOM.
import { CUSTOM_GPU, FIELDS, FIELD_BY_PATH, MODES } from './fields.js';
import { parseNumber } from './numbers.js';

export function initialState() {
  return {
    values: new Map(FIELDS.map((field) => [field.path, field.default])),
    modes: Object.fromEntries(Object.entries(MODES).map(([name, mode]) => [name, mode.default])),
    lang: null,
  };
}

// Modes follow from which paths a link carries.
function inferModes(params) {
  const has = (path) => params.has(path);
  const modes = {};
  if (['model.layers', 'model.hidden', 'model.heads', 'model.ffn_hidden', 'model.vocab'].some(has)) modes.model = 'architecture';
  else if (has('model.params')) modes.model = 'params';
  else modes.model = 'preset';
  if (params.get('training.tokens') === 'chinchilla') modes.data = 'chinchilla';
  else modes.data = ['dataset_gb', 'samples', 'steps', 'total_flops'].find((k) => has(`training.${k}`)) ?? 'tokens';
  modes.gpus = has('budget.per_month') ? 'per_month' : has('budget.deadline_days') ? 'deadline' : 'count';
  modes.price = has('pricing.per_gpu_hour') ? 'per_gpu_hour' : has('pricing.per_gpu_month') ? 'per_gpu_month' : 'none';
  return modes;
}

export function stateFromHash(hash) {
  const state = initialState();
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  Object.assign(state.modes, inferModes(params));
  for (const [key, value] of params) {
    if (key === 'lang') state.lang = value === 'zh' || value === 'en' ? value : null;
    else if (key === 'training.tokens' && value === 'chinchilla') continue;
    else if (FIELD_BY_PATH.has(key)) state.values.set(key, value);
  }
  if ([...params.keys()].some((key) => key.startsWith('hardware.gpu.'))) state.values.set('hardware.gpu', CUSTOM_GPU);
  return state;
}

function isActive(field, state) {
  return field.active(state);
}

// Paths a link must carry: every active value that differs from its default, and every active
// value of a non-default mode (so that the mode itself survives the round trip).
export function hashFromState(state) {
  const params = new URLSearchParams();
  const nonDefaultMode = (field) =>
    Object.entries(MODES).some(([name, mode]) => state.modes[name] !== mode.default && sectionModeOf(field) === name);
  for (const field of FIELDS) {
    if (!isActive(field, state)) continue;
    if (field.path === 'hardware.gpu' && state.values.get(field.path) === CUSTOM_GPU) continue;
    const value = state.values.get(field.path) ?? '';
    if (value !== field.default || (nonDefaultMode(field) && value !== '')) params.set(field.path, value);
  }
  if (state.modes.data === 'chinchilla') params.set('training.tokens', 'chinchilla');
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

function setPath(target, path, value) {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = node[key] ??= {};
  node[keys.at(-1)] = value;
}

// The value the engine receives: numbers parsed (7B -> 7e9; stored values are already in the
// scenario's units); text that is not a number goes through unchanged so the engine can name the
// field in its error.
function scenarioValue(field, text) {
  if (field.kind === 'check') return text === 'true';
  if (field.kind !== 'number') return text;
  return parseNumber(text) ?? text;
}

export function scenarioFromState(state) {
  const scenario = {};
  for (const field of FIELDS) {
    if (!isActive(field, state)) continue;
    const text = state.values.get(field.path) ?? '';
    if (text === '' || (field.path === 'hardware.gpu' && text === CUSTOM_GPU)) continue;
    setPath(scenario, field.path, scenarioValue(field, text));
  }
  if (state.modes.data === 'chinchilla') setPath(scenario, 'training.tokens', 'chinchilla');
  return scenario;
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
