// Assembles the deployable outputs from what CMake built:
//   dist/site/          the static site: public/ + web/js/ + the two WebAssembly modules (the
//                       calculator's, and the validation view's, loaded when that view opens)
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
const wasmDir = join(root, 'build', 'wasm', 'web');

rmSync(site, { recursive: true, force: true });
mkdirSync(join(site, 'js'), { recursive: true });
cpSync(join(root, 'public'), site, { recursive: true });
cpSync(join(root, 'web', 'js'), join(site, 'js'), { recursive: true });
for (const file of ['traincalc_engine.mjs', 'traincalc_engine.wasm', 'traincalc_validation.mjs', 'traincalc_validation.wasm']) {
  cpSync(join(wasmDir, file), join(site, 'js', file));
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

// The vendor catalog's documentation, served beside the page (the embed snippet links to it).
mkdirSync(join(site, 'docs'), { recursive: true });
cpSync(join(root, 'docs', 'embedding.md'), join(site, 'docs', 'embedding.md'));

// One file: scripts and styles inline, the wasm as base64, a CSP that allows exactly these inline
// blocks by hash (and nothing from the network).
const bundle = await esbuild.build({
  entryPoints: [join(site, 'js', 'app.js')],
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
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
const validationBytes = readFileSync(join(site, 'js', 'traincalc_validation.wasm'));
console.log(`assemble: engine wasm ${sizes(wasmBytes)}, validation wasm ${sizes(validationBytes)}, page script ${sizes(Buffer.from(script))}`);
console.log(`assemble: dist/site/ and dist/traincalc.html ${sizes(Buffer.from(html))}`);
