// What the engine does for the page, as plain functions of the loaded module: the same code runs in
// the Web Worker (worker.js) and, where no worker can start, on the page's thread (engine.js).
import { headline } from './headline.js';
import { latestWinsByKind } from './latest.js';

// The calculator's module (loaded at once; the single file's whole engine stands in for it).
export function createModule(wasmBinary) {
  return import('./traincalc_engine.mjs').then(({ default: create }) => create(wasmBinary ? { wasmBinary } : {}));
}

// The readers of other tools' text (a Hugging Face config, a training log), a module of its own:
// fetched the first time someone pastes one.
export function createImportModule(wasmBinary) {
  return import('./traincalc_import.mjs').then(({ default: create }) => create(wasmBinary ? { wasmBinary } : {}));
}

// The engine with its validation data, a module of its own (the calculator's leaves the data out):
// fetched the first time the validation view asks. It holds the whole engine, the readers included.
export function createValidationModule(wasmBinary) {
  return import('./traincalc_validation.mjs').then(({ default: create }) => create(wasmBinary ? { wasmBinary } : {}));
}

// A module as the worker and the page's thread both hold it: created on its first request (or
// already loaded) and kept; a failed load is forgotten, so a later request tries again.
export function lazyModule(create, loaded = null) {
  let module = loaded;
  return () => {
    module ??= create().catch((error) => {
      module = null;
      throw error;
    });
    return module;
  };
}

const parse = (text) => JSON.parse(text);

export const METHODS = {
  estimate: (module, { scenario, catalog }) => parse(module.estimate(JSON.stringify(scenario), catalog ?? '')),
  catalog: (module, { catalog }) => parse(module.catalog(catalog ?? '')),
};

// What the import module does; each runs on the module createImportModule gives.
export const IMPORT_METHODS = {
  importHf: (module, { text }) => parse(module.import_hf_config(text)),
  parseLog: (module, { text }) => parse(module.parse_log(text)),
};

// What the validation module does; each runs on the module createValidationModule gives.
export const VALIDATION_METHODS = {
  validation: (module, { planner }) => parse(module.validation(Boolean(planner))),
  memoryValidation: (module) => parse(module.memory_validation()),
  speedValidation: (module) => parse(module.speed_validation()),
  runValidation: (module) => parse(module.run_validation()),
};

const nextTurn = () => new Promise((resolve) => { setTimeout(resolve, 0); });

// Many scenarios, `stride` at a time, letting newer requests in between; stops (returning null) as
// soon as `cancelled()` says a newer request came.
export async function estimateMany(module, { scenarios, catalog }, { progress, cancelled }, stride = 4) {
  const reports = [];
  for (const [i, scenario] of scenarios.entries()) {
    if (cancelled()) return null;
    reports.push(parse(module.estimate(JSON.stringify(scenario), catalog ?? '')));
    progress(i + 1, scenarios.length);
    if ((i + 1) % stride === 0) await nextTurn();
  }
  return reports;
}

// The scenario on each catalog offer (kind 'offers') or GPU (kind 'gpus'), ranked by the engine
// (traincalc::compare_json), `stride` rows at a time so that newer requests get in; null when
// superseded. Each stride comes back ranked; the strides are merged by the rank key the engine gives
// each row, so the whole list is in the engine's order without the page knowing its rule.
export async function compare(module, { scenario, catalog, kind, ids, gpusWhenUnset }, { progress, cancelled }, stride = 4) {
  const rows = [];
  const text = JSON.stringify(scenario);
  for (let i = 0; i < ids.length; i += stride) {
    if (cancelled()) return null;
    const request = { kind, ids: ids.slice(i, i + stride), ...(gpusWhenUnset ? { gpus_when_unset: gpusWhenUnset } : {}) };
    const out = parse(module.compare(text, catalog ?? '', JSON.stringify(request)));
    if (out.errors.length) return { errors: out.errors, rows: [] };
    rows.push(...out.rows);
    progress(Math.min(i + stride, ids.length), ids.length);
    await nextTurn();
  }
  rows.sort((a, b) => compareRankKeys(a.rank_key, b.rank_key));
  return { errors: [], rows };
}

// Element by element, as the engine compares them: numbers by value, text by code unit.
export function compareRankKeys(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return a.length - b.length;
}

// The scenario at each GPU count (the planner choosing the layout for each; the engine's compare,
// kind counts, says what a count replaces), one count at a time (each can take a search), summarised
// as points of the curve; null when superseded.
export async function scaling(module, { scenario, catalog, counts }, { progress, cancelled }) {
  const text = JSON.stringify(scenario);
  const points = [];
  for (const [i, gpus] of counts.entries()) {
    if (cancelled()) return null;
    const out = parse(module.compare(text, catalog ?? '', JSON.stringify({ kind: 'counts', counts: [gpus] })));
    points.push(out.errors.length ? { gpus, errors: out.errors } : point(gpus, out.rows[0].report));
    progress(i + 1, counts.length);
    await nextTurn();
  }
  return points;
}

// One point of the curve from the report at `gpus` GPUs.
function point(gpus, r) {
  // A count no layout suits (the batch does not divide among its GPUs) is not a point of the curve.
  const noLayout = r.warnings?.filter((w) => w.code === 'no_layout') ?? [];
  if (r.errors.length || noLayout.length) return { gpus, errors: r.errors.length ? r.errors : noLayout };
  // The headline's figures: the expected run's with a predicted utilisation, so the curve shows
  // where interruptions, growing with the GPUs, stop more GPUs from paying.
  const h = headline(r);
  return {
    gpus,
    days: h.days,
    gpu_hours: h.gpuHours,
    expected: h.expected,
    mfu: r.time.mfu,
    cost: h.cost,
    currency: r.cost?.currency,
    fits: r.memory.fits,
    layout: r.parallelism,
  };
}

// The requests a newer one of the same kind supersedes.
export const LONG_RUNNING = { scaling, estimateMany, compare };

// Every request, on the module that serves it: `calculator` gives (a promise of) the calculator's
// module, `imports` and `validation` the other two (lazyModule). A long request reports
// progress(done, total) and stops (null) when a newer one of its kind arrives.
export function dispatcher({ calculator, imports, validation }) {
  const requests = latestWinsByKind();
  return async (method, args, progress = () => {}) => {
    if (IMPORT_METHODS[method]) return IMPORT_METHODS[method](await imports(), args);
    if (VALIDATION_METHODS[method]) return VALIDATION_METHODS[method](await validation(), args);
    const module = await calculator();
    if (LONG_RUNNING[method]) {
      const request = requests.start(method);
      return LONG_RUNNING[method](module, args, { progress, cancelled: () => !request.current() });
    }
    if (!METHODS[method]) throw new Error(`the engine has no method "${method}"`);
    return METHODS[method](module, args);
  };
}
