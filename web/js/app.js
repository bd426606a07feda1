// The controller: owns the state, keeps the URL hash in step with it, asks the engine for a report
// on every change (the latest request wins) and hands the result to the widgets.
import { parseNumber } from './numbers.js';
import { LinkProblems, linkProblems } from './widgets/link-problems.js';
import { el } from './dom.js';
import { Catalogs } from './catalogs.js';
import { applyEmbed, EmbedProtocol, reportEmbedProblems } from './embed.js';
import { compare as compareOffers, engineThread, estimate, estimateMany, importHfConfig, loadEngine, parseLog, memoryValidation, runValidation, scaling, speedValidation, validation } from './engine.js';
import { FIELD_BY_PATH } from './fields.js';
import { CURRENCIES } from './contract.js';
import { count, money } from './format.js';
import { defaultLang, LANGS, loadLang, t } from './i18n.js';
import { hashFromState, pinBudgetCurrency, scenarioWithExtras, stateFromHash, storedValue } from './state.js';
import { Compare } from './widgets/compare.js';
import { Form } from './widgets/form.js';
import { HfImport } from './widgets/hf-import.js';
import { LogPaste } from './widgets/log-paste.js';
import { OfferPicker } from './widgets/offer-picker.js';
import { Results } from './widgets/results.js';
import { Scaling, scalingCounts } from './widgets/scaling.js';
import { Share } from './widgets/share.js';
import { Validation } from './widgets/validation.js';
import { Examples } from './widgets/examples.js';
import { EXAMPLES } from './examples.js';
import { Ways } from './widgets/ways.js';
import { applyTrainingDefaults, chooseMode, choosePriceOf, dropImportedModelKeys, enterWay, impliedMode, priceKey } from './modes.js';
import { latestWins } from './latest.js';
import { EmbedSnippet } from './widgets/embed-snippet.js';
import { PrintSummary } from './widgets/print-summary.js';

const engineReady = loadEngine();  // start fetching and compiling the engine before anything else
// Where the engine runs ("worker", or "page" where no worker could start or it failed), on the
// document for tests and tools to see; said again after each estimate.
const markEngine = () => engineThread().then((where) => { document.documentElement.dataset.engine = where; }, () => {});
markEngine();

let state = stateFromHash(location.hash);
// The fields whose value came with the link and has not been edited since: a refused one is said in
// the link's banner at the top, where it is seen, with its fix.
let fromLink = linkedFields(location.hash);
function linkedFields(hash) {
  return new Set([...new URLSearchParams(String(hash).replace(/^#/, '')).keys()].filter((key) => FIELD_BY_PATH.has(key)));
}
state.lang ??= defaultLang(navigator.languages);
// The reader's words before anything is shown in them; where their file cannot be fetched, the other
// language's. Where neither can be, the page says so in both (the one text not in a locale file, as
// no locale could be read) and goes no further.
const WORDS_MISSING = 'The page could not load its words: reload to try again. 页面文字未能加载，请刷新重试。';
await loadLang(state.lang)
  .catch(() => {
    state.lang = LANGS.find((lang) => lang !== state.lang);
    return loadLang(state.lang);
  })
  .catch((error) => {
    const banner = document.getElementById('engine-problem');
    banner.textContent = WORDS_MISSING;
    banner.hidden = false;
    throw error;
  });
const estimates = latestWins();  // the estimate on screen answers the newest input

const form = new Form(document.getElementById('inputs'), {
  onInput(path, typed, { typing = false } = {}) {
    typingPath = typing ? path : null;
    fromLink.delete(path);
    // Once the form is edited its values win: the link's parameters the engine refused are dropped.
    for (const key of refusedExtras) state.extra.delete(key);
    refusedExtras.clear();
    if (path === 'pricing.currency') {
      pinBudgetCurrency(state);
      currencyReread.from ??= state.values.get(path);
    } else if (path !== 'currency') currencyReread.from = null;
    state.values.set(path, storedValue(FIELD_BY_PATH.get(path), typed));
    if (path === 'budget.per_month') pinBudgetCurrency(state);
    if (path === 'model.preset') dropImportedModelKeys(state);
    dropOfferForGpu(path);
    if (path === 'training.type') applyTrainingDefaults(state, state.values.get('training.type'));
    changed();
  },
  // A typed value is complete (the input left, or Enter): the estimate on screen is the user's.
  onCommit(path) {
    if (typingPath !== path) return;
    typingPath = null;
    if (shown) committed = shown;
  },
  onMode(name, value) {
    chooseMode(state, name, value);
    changed();
  },
});
// A typed price whose currency is edited is re-read in the new currency, not converted: said under
// the currency, with the conversion one click away (the price back in its currency, the costs shown
// in the new one).
const currencyReread = { from: null };
function showCurrencyReread() {
  const from = currencyCode(currencyReread.from);
  const to = currencyCode(state.values.get('pricing.currency'));
  const amount = parseNumber(state.values.get(priceKey(state)) ?? '');
  if (!from || !to || from === to || amount === null || state.modes.price === 'none') {
    form.showFieldNote('pricing.currency', null);
    return;
  }
  const unit = t(state.lang, state.modes.price === 'per_gpu_month' ? 'per_gpu_month_unit' : 'per_gpu_hour_unit');
  form.showFieldNote('pricing.currency', t(state.lang, 'price_reread', {
    was: `${money(amount, from, state.lang)}${unit}`, now: `${money(amount, to, state.lang)}${unit}`, to,
  }), [t(state.lang, 'price_reread_convert', { from, to }), () => {
    state.values.set('pricing.currency', from);
    state.values.set('currency', to);
    currencyReread.from = null;
    changed();
  }]);
}
function currencyCode(text) {
  const code = String(text ?? '').trim().toUpperCase();
  return CURRENCIES.includes(code) ? code : null;
}

const results = new Results(document.getElementById('results'), {
  // A rate of the user's own replaces the reference one (units for one US dollar), in the link.
  onRate(code, text) {
    const key = `exchange_rates.${code}`;
    const number = parseNumber(text);
    if (text.trim() === '') state.extra.delete(key);
    else state.extra.set(key, number === null ? text.trim() : String(number));  // "1,740.5", "7,1": numbers
    changed();
  },
  // A memory suggestion applied: each change goes to its input, or as a link parameter.
  onApply(changes) {
    for (const [path, value] of Object.entries(changes)) {
      impliedMode(state, path);
      if (path === 'training.method') state.values.set('training.type', 'finetune');
      dropOfferForGpu(path);
      if (FIELD_BY_PATH.has(path)) state.values.set(path, String(value));
      else state.extra.set(path, String(value));
    }
    changed();
  },
});
const hfImport = new HfImport(document.querySelector('#inputs fieldset[data-section="section_model"]'), {
  async onImport(text) {
    const result = await importHfConfig(text);
    if (!result.errors.length) applyImportedModel(result);
    hfImport.render(result, count(result.params, state.lang));
  },
});

// A pasted log's figures into the measured-run fields (a throughput per GPU made the job's with the
// measured run's GPU count, else this run's).
const logPaste = new LogPaste(document.querySelector('#inputs fieldset[data-section="section_measured"]'), {
  async onRead(text) {
    const result = await parseLog(text);
    const gpus = Number(state.values.get('calibration.hardware.count') || state.values.get('hardware.count') || 0);
    const { used, unused } = LogPaste.usable(result, gpus);
    for (const [key, value] of Object.entries(used)) state.values.set(`calibration.${key}`, String(value));
    logPaste.render(result, used, unused);
    if (Object.keys(used).length) changed();
  },
});

// An offer's price into the price inputs, in the offer's currency.
function adoptOfferPrice(offer) {
  choosePriceOf(state, offer);
  pinBudgetCurrency(state);
  currencyReread.from = null;  // an offer's price comes in its own currency
  state.values.set('pricing.currency', offer.currency);
}

const offerPicker = new OfferPicker(document.querySelector('#inputs fieldset[data-section="section_price"] .grid'), {
  onPick(offer) {
    adoptOfferPrice(offer);
    state.extra.set('pricing.offer', offer.id);  // its instances and network, at the price in the inputs
    changed();
  },
  onClear() {
    state.extra.delete('pricing.offer');
    changed();
  },
});

const compare = new Compare(document.getElementById('comparison'), { onOpen: () => recomputeComparison() });
const ways = new Ways(document.querySelector('main.layout'), {
  onChoose(way) {
    // Planning by budget starts from what the estimate on screen costs a month, for the user to change.
    if (way === 'budget' && !state.values.get('budget.per_month') && shown?.report.cost) {
      state.values.set('budget.per_month', String(Math.ceil(shown.report.cost.per_month)));
      state.values.set('budget.currency', shown.report.cost.currency);  // the amount is in the report's currency
    }
    enterWay(state, way);
    changed();
    if (way === 'compare') {
      compare.reveal('gpus');
      const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      document.getElementById('comparison').scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
    }
  },
});
const scalingView = new Scaling(document.getElementById('scaling'));
let shown = null;  // {scenario, report} of the estimate on screen
// A picked cloud offer rents one GPU: choosing another GPU (typed, a memory fix, a link fix) drops it.
function dropOfferForGpu(path) {
  if (path === 'hardware.gpu') state.extra.delete('pricing.offer');
}

const refusedExtras = new Set();  // the link's parameters (without an input) the engine refused
const linkBox = new LinkProblems(document.getElementById('inputs'), {
  // The suggestion used: the value moves to the suggested field (hardware.cuont=8 -> hardware.count=8)
  // or the field takes the suggested ID (hardware.gpu=h1000 -> h100-sxm).
  onFix(issue, path, value) {
    state.extra.delete(issue.field);
    fromLink.delete(issue.field);
    dropOfferForGpu(path);
    if (FIELD_BY_PATH.has(path)) {
      state.values.set(path, String(value));
      impliedMode(state, path);
    } else {
      state.extra.set(path, String(value));
    }
    changed();
  },
  onRemove(issue) {
    // A parameter the form has no input for is dropped; a field's refused value goes back to its default.
    if (state.extra.has(issue.field)) state.extra.delete(issue.field);
    else if (FIELD_BY_PATH.has(issue.field)) state.values.set(issue.field, FIELD_BY_PATH.get(issue.field).default);
    fromLink.delete(issue.field);
    changed();
  },
});
// The last estimate of complete input: while a value is being typed, the estimates of its prefixes
// ("1e3" on the way to "1e30") are shown but never kept as the last valid one.
let committed = null;
let typingPath = null;  // the input being typed in, until it is left
const share = new Share(document.getElementById('share'), { current: () => shown });
const embedSnippet = new EmbedSnippet(document.getElementById('embed-view'));
const printSummary = new PrintSummary(document.getElementById('print-summary'));
const examplesView = new Examples(document.getElementById('examples-view'), {
  async onOpen() {
    if (examplesView.reports) return;
    examplesView.loading(state.lang);
    try {
      const scenarios = EXAMPLES.map((example) => scenarioWithExtras(stateFromHash(example.hash)).scenario);
      const reports = await estimateMany(scenarios, '');
      if (reports) examplesView.render(reports, state.lang);
    } catch (error) {
      console.error(error);
      examplesView.failed(state.lang);
    }
  },
});
const validationView = new Validation(document.getElementById('validation-view'), {
  async onOpen() {
    if (validationView.data) return;
    validationView.loading(state.lang);
    try {
      const speed = await validation(true);
      validationView.render(speed, state.lang, await memoryValidation(), await speedValidation(), await runValidation());
    } catch (error) {
      console.error(error);
      validationView.failed(state.lang);
    }
  },
});

// Days and cost at GPU counts around the current one, each planned by the engine in its worker; a
// newer input supersedes a search still running (the worker stops it, and it resolves to null).
const scalings = latestWins();
async function recomputeScaling(report) {
  const request = scalings.start();
  const { scenario } = scenarioWithExtras(state);
  const lang = state.lang;
  scalingView.started(lang);
  // Started once typing pauses, so that the worker answers the next keystroke's estimate first.
  await new Promise((resolve) => { setTimeout(resolve, 150); });
  if (!request.current()) return;
  const fixed = (key) => Number(scenario.strategy?.[key]) || 1;
  const group = fixed('tp') * fixed('pp') * fixed('cp');
  let points;
  try {
    points = await scaling(scenario, catalogs.vendorText, scalingCounts(report.plan.gpus, group, report.plan.max_gpus ?? Infinity), (done, total) => {
      if (request.current()) scalingView.step(done, total, lang);
    });
  } catch (error) {
    console.error(error);
    if (request.current()) scalingView.failed(lang);
    return;
  }
  if (points === null || !request.current()) return;
  scalingView.render(points, report.plan.gpus, lang, report.time.mfu_source === 'given', report.plan.max_gpus, group);
}

const catalogs = new Catalogs();
// The built-in rows' sources are fetched when the page would show one (the math opened, an offer
// picked, a model's or GPU's facts pointed at), then shown wherever the page cites them.
catalogs.onTexts = () => {
  form.setCatalog(catalogs.data, state.lang);
  form.update(state);
  offerPicker.update(state, shownCatalog());
  if (shown) results.render(shown.report, state.lang, catalogs.data);
};
document.getElementById('results').addEventListener('toggle', (event) => {
  if (event.target.open && event.target.hasAttribute('data-cites-catalog')) catalogs.needTexts();
}, true);  // toggle does not bubble
document.getElementById('inputs').addEventListener('mouseover', (event) => {
  if (event.target.closest?.('.facts')) catalogs.needTexts();
});
// Which catalog the estimates use, on the document for an embedding page's tests and tools to see.
function markCatalog() {
  document.documentElement.dataset.catalog = catalogs.vendorText ? 'vendor' : 'built-in';
}
let engineError = null;  // why the engine could not load, said again in the other language
let catalogsLoaded = null;  // resolves once the built-in (and any #catalog=URL) catalog is in place

// Embedded by a vendor (its catalog named by the link or expected from its page): its offers only.
const shownCatalog = () => catalogs.shown(state.embed.on && Boolean(state.catalogUrl || state.embed.origin));
const applyEmbedNow = () => applyEmbed(state.embed, state.lang, catalogs);
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyEmbedNow);
const embedProtocol = new EmbedProtocol({
  embed: () => state.embed,
  ready: () => catalogsLoaded,
  accept: async (text, origin) => {
    const answer = await catalogs.acceptFromPage(text, origin);
    form.setCatalog(catalogs.data, state.lang);
    markCatalog();
    changed();
    return answer;
  },
});

const comparisons = latestWins();
async function recomputeComparison() {
  if (!compare.open || !catalogs.data) return;
  const request = comparisons.start();
  const { scenario } = scenarioWithExtras(state);
  // The engine puts the workload on each offer (its GPU and price; the user's GPU count or budget,
  // in the user's currency, so other currencies are refused, not converted) or on each GPU (the
  // user's count, or the one on screen where a budget or deadline chose it). With a utilisation of
  // the user's own (seed 004's 100%), each row also comes at the engine's, and both days are shown.
  const kind = compare.kind;
  const listed = shownCatalog();
  const ids = (kind === 'gpus' ? listed.compareGpus ?? listed.gpus : listed.offers).map((row) => row.id);
  let out;
  try {
    out = await compareOffers(scenario, catalogs.vendorText, { kind, ids, gpusWhenUnset: shown?.report.plan.gpus ?? 8 });
  } catch (error) {
    console.error(error);
    if (request.current()) compare.stale();
    return;
  }
  if (out === null || !request.current()) return;  // a newer input superseded it
  if (out.errors.length) {
    compare.stale();
    return;
  }
  compare.render(out.rows.map((row) => ({
    offer: kind === 'gpus'
      ? { provider: row.provider, name: row.name, gpu: row.gpu }
      : { id: row.id, provider: row.provider, name: row.name, date: row.date, gpu: row.gpu },
    gpuName: row.gpu_name,
    report: row.report,
    predicted: row.at_engine_utilisation,
  })), state.lang);
}

function applyImportedModel(result) {
  chooseMode(state, 'model', 'architecture');
  const plainDefaults = { kv_heads: result.model.heads, head_dim: result.model.hidden / result.model.heads, encoder_only: false,
    bias: false, norm: 'rmsnorm', position_embeddings: 0, experts: 1, experts_per_token: 1 };
  for (const [key, value] of Object.entries(result.model)) {
    const path = `model.${key}`;
    if (FIELD_BY_PATH.has(path)) state.values.set(path, String(value));
    else if (plainDefaults[key] !== value) state.extra.set(path, String(value));
  }
  if (result.seq_len) state.values.set('training.seq_len', String(result.seq_len));
  changed();
}
document.getElementById('inputs').addEventListener('submit', (event) => event.preventDefault());

// Printing shows every explanation: closed sections open for the page, and close again after.
let openedForPrint = [];
window.addEventListener('beforeprint', () => {
  openedForPrint = [...document.querySelectorAll('#results details:not([open]), #scaling details:not([open])')];
  for (const details of openedForPrint) details.open = true;
});
window.addEventListener('afterprint', () => {
  for (const details of openedForPrint) details.open = false;
  openedForPrint = [];
});

function applyLanguage() {
  reportEmbedProblems(state.embed);
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t(state.lang, 'title');
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(state.lang, node.dataset.i18n);
  const toggle = document.getElementById('lang-toggle');
  // The accessible name starts with the visible word (WCAG 2.5.3, label in name); the word is in the
  // other language, so marked as such.
  toggle.replaceChildren(el('span', { lang: state.lang === 'zh' ? 'en' : 'zh-CN', text: t(state.lang, 'switch_lang') }));
  toggle.setAttribute('aria-label', `${t(state.lang, 'switch_lang')}: ${t(state.lang, 'switch_lang_label')}`);
  if (engineError) showEngineProblem();
}

// The engine did not load: said in the results and at the top of the page.
function showEngineProblem() {
  results.failed(state.lang, engineError);
  const banner = document.getElementById('engine-problem');
  banner.textContent = results.status.textContent;
  banner.hidden = false;
}

function writeHash() {
  const hash = hashFromState(state);
  if (location.hash.replace(/^#/, '') !== hash) history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}

async function recompute() {
  const request = estimates.start();
  const { scenario, unplaced } = scenarioWithExtras(state);
  let report;
  try {
    report = await estimate(scenario, catalogs.vendorText);
  } catch (error) {
    // The engine loaded but this call failed (the page-thread fallback failing too): said in the
    // results; the banner is for an engine that never loaded.
    console.error(error);
    results.failed(state.lang, error);
    return;
  }
  markEngine();
  if (!request.current()) return;  // a newer input has already asked
  const errors = [
    ...report.errors,
    ...unplaced.map((field) => ({ field, code: 'link_parameter_unused', message: t(state.lang, 'link_parameter_unused', { key: field }) })),
  ];
  // The link's problems at the top of the form, each with its fix; the rest beside their inputs.
  const problems = linkProblems(errors, state.extra, fromLink);
  linkBox.render(problems, state);
  refusedExtras.clear();
  // (Not the picked offer: the picker shows and clears it, and a vendor's catalog may still be on its way.)
  for (const issue of errors) if (state.extra.has(issue.field) && issue.field !== 'pricing.offer') refusedExtras.add(issue.field);
  const formErrors = errors.filter((issue) => !state.extra.has(issue.field));
  // A vendor catalog that failed is said, but the estimate goes on with the built-in catalog.
  const catalogProblem = catalogs.problem && { ...catalogs.problem, message: catalogs.problem.messageIn(state.lang) };
  form.showErrors(catalogProblem ? [catalogProblem, ...formErrors] : formErrors, state.lang);
  // Which catalog is in use is the vendor's business, not its visitors': said on the full page only.
  form.showNotice(catalogs.notice && !state.embed.on ? t(state.lang, ...catalogs.notice) : null);
  if (errors.length) {
    // The last valid estimate is that of complete input: a half-typed prefix's never stands in.
    if (shown && shown !== committed) {
      if (committed) results.render(committed.report, state.lang, catalogs.data);
      else results.clear();
    }
    // A plan that cannot start without a price (a monthly budget) asks for it; a field emptied to be
    // retyped keeps the last estimate on screen, marked stale.
    const missing = formErrors.length > 0 && formErrors.every((issue) => issue.code === 'required' && issue.field.startsWith('pricing.'));
    if (missing) committed = null;
    results.invalid(state.lang, formErrors.map((issue) => form.visiblePathFor(issue.field)).filter((path) => FIELD_BY_PATH.has(path)), { missing });
    compare.stale();
    comparisons.start();  // searches still running for an older input must not draw over this one
    scalings.start();
    scalingView.stale();
    shown = null;
  }
  else {
    // A link (or a vendor's embed) that names an offer without a price: the offer's price is the price,
    // and the price inputs say so rather than "no price" beside its cost.
    const linkedOffer = state.modes.price === 'none' && report.cost?.offer && catalogs.data?.offers?.find((o) => o.id === report.cost.offer);
    if (linkedOffer) {
      adoptOfferPrice(linkedOffer);
      changed();
      return;
    }
    results.render(report, state.lang, catalogs.data);
    printSummary.render(scenario, report, state.lang, location.href);
    shown = { scenario, report };
    if (!typingPath) committed = shown;
    recomputeComparison();
    recomputeScaling(report);
    form.setPlaceholders({
      'training.seq_len': report.compute.seq_len, 'training.epochs': report.compute.epochs, 'energy.pue': report.energy?.pue,
    });
  }
}

// The widgets share one interface, each method where the widget has it: label(lang) words it in the
// page's language; update(state) shows what the state says (the form, the ways in, the offer picker);
// render(...) shows an engine's answer (a report, rows, an import); loading(lang), stale() and failed(lang, error) say
// where the next answer stands. Sections without state of their own (speed, memory, goodput,
// exchange) are functions of the report that the results widget places.
const worded = [ways, hfImport, logPaste, compare, scalingView, validationView, examplesView, share, embedSnippet];
function labelWidgets() {
  form.update(state);
  for (const widget of worded) widget.label(state.lang);
  ways.update(state);
  hfImport.update(state);
  applyEmbedNow();
}

function changed() {
  labelWidgets();
  showCurrencyReread();
  offerPicker.update(state, shownCatalog());
  if (state.extra.get('pricing.offer')) catalogs.needTexts();
  writeHash();
  applyEmbedNow();  // the link to the full calculator carries the state just written
  recompute();
}

// The other language, once its words have arrived: a second click while they load asks for the
// language shown again; a failed fetch leaves the page as it is and says so.
let switchingTo = null;
document.getElementById('lang-toggle').addEventListener('click', async () => {
  const lang = (switchingTo ?? state.lang) === 'zh' ? 'en' : 'zh';
  switchingTo = lang;
  try {
    await loadLang(lang);
  } catch (error) {
    console.error(error);
    if (switchingTo === lang) {
      switchingTo = null;
      form.showNotice(t(state.lang, 'words_failed'));
    }
    return;
  }
  if (switchingTo !== lang) return;
  switchingTo = null;
  if (lang === state.lang) return;
  state.lang = lang;
  applyLanguage();
  changed();
});

const hashChanges = latestWins();  // a link opened while another's words load wins
window.addEventListener('hashchange', async () => {
  const change = hashChanges.start();
  const hash = location.hash;
  const next = stateFromHash(hash);
  next.lang ??= state.lang;
  if (next.lang !== state.lang) await loadLang(next.lang).catch(() => { next.lang = state.lang; });
  if (!change.current()) return;
  fromLink = linkedFields(hash);
  const catalogChanged = next.catalogUrl !== state.catalogUrl;
  state = next;
  applyLanguage();
  if (catalogChanged) {
    await catalogs.load(state.catalogUrl);
    form.setCatalog(catalogs.data, state.lang);
    markCatalog();
  }
  changed();
  if (state.view === 'compare') compare.reveal('gpus');
});

applyLanguage();
labelWidgets();
results.loading(state.lang);
catalogsLoaded = engineReady
  .then(async () => {
    await catalogs.load(state.catalogUrl);
    form.setCatalog(catalogs.data, state.lang);
    markCatalog();
    changed();
    if (state.view === 'compare') compare.reveal('gpus');
    embedProtocol.ready();  // the embedding page may now send its catalog
  })
  .catch((error) => {
    console.error(error);
    engineError = error;
    showEngineProblem();
  });
