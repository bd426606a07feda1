// Where the built artefacts are, for tests that run after scripts/build.sh.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'build', 'native', 'bin', 'traincalc');
export const SITE = join(ROOT, 'dist', 'site');
// The page's modules unbundled, beside the engine's files (scripts/assemble.mjs).
export const MODULES = join(ROOT, 'dist', 'modules');
export const SINGLE_FILE = join(ROOT, 'dist', 'traincalc.html');
export const SCENARIOS = join(ROOT, 'tests', 'scenarios');
