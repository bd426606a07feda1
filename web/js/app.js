// The controller: owns the state, keeps the URL hash in step with it, asks the engine for a report
// on every change (the latest request wins) and hands the result to the widgets.
import { catalog, estimate, loadEngine } from './engine.js';
import { FIELD_BY_PATH } from './fields.js';
import { defaultLang, t } from './i18n.js';
import { hashFromState, scenarioWithExtras, stateFromHash, storedValue } from './state.js';
import { Form } from './widgets/form.js';
import { Results } from './widgets/results.js';

const engineReady = loadEngine();  // start fetching and compiling the engine before anything else

let state = stateFromHash(location.hash);
state.lang ??= defaultLang(navigator.languages);
let requestId = 0;

const form = new Form(document.getElementById('inputs'), {
  onInput(path, typed) {
    state.values.set(path, storedValue(FIELD_BY_PATH.get(path), typed));
    changed();
  },
  onMode(name, value) {
    state.modes[name] = value;
    // A monthly budget needs a monthly price.
    if (name === 'gpus' && value === 'per_month' && state.modes.price === 'none') state.modes.price = 'per_gpu_month';
    changed();
  },
});
const results = new Results(document.getElementById('results'));
document.getElementById('inputs').addEventListener('submit', (event) => event.preventDefault());

function applyLanguage() {
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t(state.lang, 'title');
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(state.lang, node.dataset.i18n);
  const toggle = document.getElementById('lang-toggle');
  toggle.textContent = t(state.lang, 'switch_lang');
  toggle.setAttribute('aria-label', t(state.lang, 'switch_lang_label'));
}

function writeHash() {
  const hash = hashFromState(state);
  if (location.hash.replace(/^#/, '') !== hash) history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}

async function recompute() {
  const id = ++requestId;
  const { scenario, unplaced } = scenarioWithExtras(state);
  let report;
  try {
    report = await estimate(scenario);
  } catch (error) {
    console.error(error);
    results.failed(state.lang);
    return;
  }
  if (id !== requestId) return;  // a newer input has already asked
  const errors = [
    ...report.errors,
    ...unplaced.map((field) => ({ field, code: 'unknown_key', message: t(state.lang, 'link_parameter_unused', { key: field }) })),
  ];
  form.showErrors(errors, state.lang);
  if (errors.length) results.invalid(state.lang);
  else {
    results.render(report, state.lang);
    form.setPlaceholders({ 'training.seq_len': report.compute.seq_len, 'training.epochs': report.compute.epochs });
  }
}

function changed() {
  form.update(state);
  writeHash();
  recompute();
}

document.getElementById('lang-toggle').addEventListener('click', () => {
  state.lang = state.lang === 'zh' ? 'en' : 'zh';
  applyLanguage();
  changed();
});

window.addEventListener('hashchange', () => {
  const next = stateFromHash(location.hash);
  next.lang ??= state.lang;
  state = next;
  applyLanguage();
  changed();
});

applyLanguage();
form.update(state);
results.loading(state.lang);
engineReady
  .then(async () => {
    form.setCatalog(await catalog(), state.lang);
    changed();
  })
  .catch((error) => {
    console.error(error);
    results.failed(state.lang);
  });
