// Assembles the deployable outputs from what CMake built:
//   dist/site/          the static site: public/ + the page's script and its worker's, each bundled
//                       and minified (js/app.js, js/worker.js) + the three WebAssembly modules with
//                       their loaders (the calculator's; the imports', loaded on the first paste; the
//                       validation view's, loaded when that view opens) + the built-in catalog's
//                       texts, which the calculator's module leaves out (js/catalog-texts.json)
//   dist/modules/       the page's ES modules as written (web/js/) beside the same engine files: what
//                       the bundles are built from, and what the node tests import
//   dist/traincalc.html the whole app in one file that works offline from disk, with the validation
//                       module (the whole engine) embedded
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const site = join(dist, 'site');
const modules = join(dist, 'modules');
const wasmDir = join(root, 'build', 'wasm', 'web');
const ENGINE_MODULES = ['traincalc_engine', 'traincalc_import', 'traincalc_validation'];

for (const folder of [site, modules]) rmSync(folder, { recursive: true, force: true });
mkdirSync(join(site, 'js'), { recursive: true });
cpSync(join(root, 'public'), site, { recursive: true });
cpSync(join(root, 'web', 'js'), modules, { recursive: true });
for (const name of ENGINE_MODULES) {
  for (const suffix of ['.mjs', '.wasm']) {
    cpSync(join(wasmDir, name + suffix), join(site, 'js', name + suffix));
    cpSync(join(wasmDir, name + suffix), join(modules, name + suffix));
  }
}

// The contract's JSON Schemas, from the engine's own field tables, for people who integrate with it
// (the whole engine's module writes them; the calculator's leaves the descriptions out).
const createEngine = (await import(join(wasmDir, 'traincalc_validation.mjs'))).default;
const engine = await createEngine({ wasmBinary: readFileSync(join(wasmDir, 'traincalc_validation.wasm')) });
mkdirSync(join(site, 'schema'), { recursive: true });
for (const which of ['scenario', 'catalog', 'report']) {
  const text = engine.schema(which);
  if (!text) throw new Error(`assemble: the engine has no ${which} schema`);
  writeFileSync(join(site, 'schema', `${which}.schema.json`), text);
}

// The built-in catalog's texts (each row's source and notes), which the calculator's module leaves
// out: every text field the whole engine's catalog has and the calculator's lacks, by list and ID.
const calculator = await (await import(join(wasmDir, 'traincalc_engine.mjs'))).default({
  wasmBinary: readFileSync(join(wasmDir, 'traincalc_engine.wasm')),
});
const whole = JSON.parse(engine.catalog(''));
const lean = JSON.parse(calculator.catalog(''));
const texts = {};
for (const list of ['gpus', 'offers', 'models']) {
  const leanRows = new Map(lean[list].map((row) => [row.id, row]));
  texts[list] = whole[list].map((row) => {
    const kept = leanRows.get(row.id);
    if (!kept) throw new Error(`assemble: the calculator's catalog has no ${list} row ${row.id}`);
    const missing = Object.entries(row).filter(([key]) => !(key in kept));
    // Only texts: a source or notes (engine/CMakeLists.txt leaves out no other key).
    const other = missing.filter(([key, value]) => !/(^|_)(source|notes)$/.test(key) || typeof value !== 'string');
    if (other.length) throw new Error(`assemble: the calculator's catalog lacks ${list} ${row.id}'s ${other.map(([key]) => key).join(', ')}`);
    return Object.fromEntries([['id', row.id], ...missing]);
  });
}
for (const folder of [join(site, 'js'), modules]) writeFileSync(join(folder, 'catalog-texts.json'), JSON.stringify(texts));

// The page's script and its worker's, each one file. The engine's loaders stay files of their own:
// the two share the calculator's, and the others are fetched only when needed.
const engineLoaders = {
  name: 'engine-loaders',
  setup(build) {
    build.onResolve({ filter: /^\.\/traincalc_\w+\.mjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};
// Each language's words are a file of their own, fetched for the language the page is shown in.
const locales = {
  name: 'locales',
  setup(build) {
    build.onResolve({ filter: /^\.\/i18n\/\w+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
await esbuild.build({
  entryPoints: [join(modules, 'app.js'), join(modules, 'worker.js'), join(modules, 'i18n', 'en.js'), join(modules, 'i18n', 'zh.js')],
  outdir: join(site, 'js'),
  outbase: modules,
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  plugins: [engineLoaders, locales],
  logLevel: 'error',
});

// The vendor catalog's documentation, served beside the page (the embed snippet links to it).
mkdirSync(join(site, 'docs'), { recursive: true });
cpSync(join(root, 'docs', 'embedding.md'), join(site, 'docs', 'embedding.md'));

// One file: scripts and styles inline, the wasm as base64, a CSP that allows exactly these inline
// blocks by hash (and nothing from the network).
// The single file's whole engine serves every request, so the calculator's and the imports' loaders
// are left out of it (never fetched).
const wholeEngineOnly = {
  name: 'whole-engine-only',
  setup(build) {
    build.onResolve({ filter: /^\.\/traincalc_(engine|import)\.mjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};
const bundle = await esbuild.build({
  entryPoints: [join(modules, 'app.js')],
  plugins: [wholeEngineOnly],
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  write: false,
  logLevel: 'error',
});
const script = bundle.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
const style = readFileSync(join(site, 'style.css'), 'utf8');
const wasm = readFileSync(join(site, 'js', 'traincalc_validation.wasm')).toString('base64');
const sha = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const csp = [
  "default-src 'none'",
  `script-src ${sha(script)} 'wasm-unsafe-eval'`,
  `style-src ${sha(style)}`,
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

let html = readFileSync(join(site, 'index.html'), 'utf8');
const replaceOnce = (pattern, replacement) => {
  if (!pattern.test(html)) throw new Error(`assemble: index.html no longer contains ${pattern}`);
  html = html.replace(pattern, () => replacement);
};
replaceOnce(/<meta http-equiv="Content-Security-Policy"[^>]*>/, `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
const icon = readFileSync(join(site, 'favicon.svg')).toString('base64');
replaceOnce(/<link rel="icon" href="favicon.svg"/, `<link rel="icon" href="data:image/svg+xml;base64,${icon}"`);
replaceOnce(/<link rel="stylesheet" href="style.css">/, `<style>${style}</style>`);
replaceOnce(/<link rel="modulepreload"[^>]*>\n?/, '');
replaceOnce(
  /<script type="module" src="js\/app.js"><\/script>/,
  `<script id="traincalc-wasm" type="application/octet-stream">${wasm}</script>\n<script type="module">${script}</script>`,
);
writeFileSync(join(dist, 'traincalc.html'), html);

// Sizes, measured here so the README's figures can be checked by anyone who builds.
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
const sizes = (buffer) => `${kb(buffer.length)} (${kb(gzipSync(buffer, { level: 9 }).length)} gzip)`;
const wasmBytes = readFileSync(join(site, 'js', 'traincalc_engine.wasm'));
const importBytes = readFileSync(join(site, 'js', 'traincalc_import.wasm'));
const validationBytes = readFileSync(join(site, 'js', 'traincalc_validation.wasm'));
const textsBytes = readFileSync(join(site, 'js', 'catalog-texts.json'));
const siteScript = (name) => sizes(readFileSync(join(site, 'js', name)));
console.log(`assemble: engine wasm ${sizes(wasmBytes)}, catalog texts ${sizes(textsBytes)}, import wasm ${sizes(importBytes)}, validation wasm ${sizes(validationBytes)}`);
console.log(`assemble: site scripts: app.js ${siteScript('app.js')}, worker.js ${siteScript('worker.js')}, words ${siteScript('i18n/en.js')} (en) and ${siteScript('i18n/zh.js')} (zh), engine loader ${siteScript('traincalc_engine.mjs')}; single file's script ${sizes(Buffer.from(script))}`);
console.log(`assemble: dist/site/ and dist/traincalc.html ${sizes(Buffer.from(html))}`);
