// The engine facade: the WebAssembly module behind an async API, loaded once and started early.
// Values cross as JSON strings; nothing here computes an estimate.
import createTraincalcEngine from './traincalc_engine.mjs';

let modulePromise = null;

// The single-file build embeds the wasm bytes (base64) in <script id="traincalc-wasm">.
function embeddedWasm() {
  const element = typeof document !== 'undefined' ? document.getElementById('traincalc-wasm') : null;
  if (!element) return undefined;
  const text = element.textContent.trim();
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function loadEngine(options = {}) {
  modulePromise ??= createTraincalcEngine({ wasmBinary: options.wasmBinary ?? embeddedWasm() });
  return modulePromise;
}

export async function estimate(scenario, catalogJson = '') {
  const module = await loadEngine();
  return JSON.parse(module.estimate(JSON.stringify(scenario), catalogJson));
}

export async function catalog(catalogJson = '') {
  const module = await loadEngine();
  return JSON.parse(module.catalog(catalogJson));
}

export async function importHfConfig(configText) {
  const module = await loadEngine();
  return JSON.parse(module.import_hf_config(configText));
}
