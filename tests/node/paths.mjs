// Where the built artefacts are, for tests that run after scripts/build.sh.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'build', 'native', 'bin', 'traincalc');
export const SITE = join(ROOT, 'dist', 'site');
export const SINGLE_FILE = join(ROOT, 'dist', 'traincalc.html');
export const SCENARIOS = join(ROOT, 'tests', 'scenarios');
