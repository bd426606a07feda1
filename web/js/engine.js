// The engine facade: the WebAssembly modules behind an async API, the calculator's loaded once and
// started early, the others on their first request.
// It runs in a Web Worker (worker.js) so that searches never block the page; where a worker cannot
// start (node, the single offline file, a browser that refuses it) it runs on the page's thread.
// Values cross as JSON; nothing here computes an estimate.
import { createImportModule, createModule, createValidationModule, dispatcher, lazyModule } from './engine-core.js';

let ready = null;  // Promise of {where, call(method, args, onProgress)}

// The single-file build embeds the validation module's wasm bytes (base64) in
// <script id="traincalc-wasm">: that module holds the whole engine, so it serves every request.
function embeddedWasm() {
  const element = typeof document !== 'undefined' ? document.getElementById('traincalc-wasm') : null;
  if (!element) return undefined;
  const binary = atob(element.textContent.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// wasmBinary: the calculator's module; importWasmBinary and validationWasmBinary: the import and
// validation modules', each loaded on its first request; wholeWasmBinary: the validation module's,
// serving every request.
function onThisThread({ wasmBinary, importWasmBinary, validationWasmBinary, wholeWasmBinary } = {}) {
  const whole = wholeWasmBinary ? createValidationModule(wholeWasmBinary) : null;
  return (whole ?? createModule(wasmBinary)).then((module) => ({
    where: 'page',
    call: dispatcher({
      calculator: () => module,
      imports: lazyModule(() => createImportModule(importWasmBinary), whole),
      validation: lazyModule(() => createValidationModule(validationWasmBinary), whole),
    }),
  }));
}

function inWorker() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const pending = new Map();
    let nextId = 0;
    let started = false;
    const call = (method, args, onProgress) => new Promise((done, fail) => {
      const id = ++nextId;
      pending.set(id, { done, fail, onProgress });
      worker.postMessage({ id, method, args });
    });
    const giveUp = (error) => {
      worker.terminate();
      for (const entry of pending.values()) entry.fail(error);
      pending.clear();
      if (started) ready = onThisThread();  // later calls run on the page's thread
      else reject(error);
    };
    worker.addEventListener('message', ({ data }) => {
      const entry = pending.get(data.id);
      if (!entry) return;
      if (data.progress) {
        entry.onProgress?.(data.progress.done, data.progress.total);
        return;
      }
      pending.delete(data.id);
      if ('error' in data) entry.fail(new Error(data.error));
      else entry.done(data.result);
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      giveUp(new Error('engine worker failed'));
    });
    // A worker that cannot start within 15 s (a blocked script, a browser without module workers) is
    // abandoned for the page's thread.
    const timer = setTimeout(() => giveUp(new Error('engine worker did not start')), 15000);
    call('init', {}).then(() => {
      clearTimeout(timer);
      started = true;
      resolve({ where: 'worker', call });
    }, (error) => {
      clearTimeout(timer);
      giveUp(error);
    });
  });
}

// options: wasmBinary, importWasmBinary and validationWasmBinary, the three modules' bytes (node has
// no fetch for files); mainThread, no worker. The single file's embedded module runs on the page's
// thread.
export function loadEngine(options = {}) {
  if (ready) return ready;
  const wholeWasmBinary = options.wasmBinary ? undefined : embeddedWasm();
  const workerPossible = typeof Worker !== 'undefined' && !options.wasmBinary && !wholeWasmBinary && !options.mainThread;
  const { wasmBinary, importWasmBinary, validationWasmBinary } = options;
  ready = workerPossible ? inWorker().catch(() => onThisThread())
    : onThisThread({ wasmBinary, importWasmBinary, validationWasmBinary, wholeWasmBinary });
  return ready;
}

// Where the engine runs now: "worker", or "page" (no worker could start, or the worker failed).
export async function engineThread() {
  return (await loadEngine()).where;
}

export async function estimate(scenario, catalogJson = '') {
  return (await loadEngine()).call('estimate', { scenario, catalog: catalogJson });
}

export async function catalog(catalogJson = '') {
  return (await loadEngine()).call('catalog', { catalog: catalogJson });
}

// A pasted training log: each figure read, with its line, and the medians as measured figures.
export async function parseLog(text) {
  return (await loadEngine()).call('parseLog', { text });
}

export async function importHfConfig(configText) {
  return (await loadEngine()).call('importHf', { text: configText });
}

// The engine against published runs (planner: also the planner's layout for each).
export async function validation(planner = false) {
  return (await loadEngine()).call('validation', { planner });
}

// The memory model against measured peak memory, each source held out.
export async function memoryValidation() {
  return (await loadEngine()).call('memoryValidation', {});
}

// Many scenarios (the comparison), one report each; a newer call supersedes an older one, which then
// resolves to null.
export async function estimateMany(scenarios, catalogJson = '', onProgress) {
  return (await loadEngine()).call('estimateMany', { scenarios, catalog: catalogJson }, onProgress);
}

// The scenario on each catalog offer or GPU (ids), ranked by the engine: { errors, rows }; a newer
// call supersedes an older one, which then resolves to null.
export async function compare(scenario, catalogJson, { kind, ids, gpusWhenUnset }, onProgress) {
  return (await loadEngine()).call('compare', { scenario, catalog: catalogJson, kind, ids, gpusWhenUnset }, onProgress);
}

// Estimates at each GPU count; onProgress(done, total). A newer call supersedes (and stops) an older
// one, which then resolves to null.
export async function scaling(scenario, catalogJson, counts, onProgress) {
  return (await loadEngine()).call('scaling', { scenario, catalog: catalogJson, counts }, onProgress);
}

// Published whole runs' GPU-hours against the expected run, each run held out.
export async function runValidation() {
  return (await loadEngine()).call('runValidation', {});
}

// The step model against measured step times, each source held out, with the likely ranges' coverage.
export async function speedValidation() {
  return (await loadEngine()).call('speedValidation', {});
}
