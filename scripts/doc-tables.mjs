// The tables docs/validation.md shows between `<!-- traincalc validate ... -->` and `<!-- end -->`
// are the output of that command. This script writes them (default) or, with --check, fails
// naming each block whose text differs from what the command prints now (CTest runs it so).
//   node scripts/doc-tables.mjs [--check] [--cli build/native/bin/traincalc] [FILE.md ...]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const cliAt = args.indexOf('--cli');
const cli = cliAt >= 0 ? args[cliAt + 1] : join(root, 'build', 'native', 'bin', 'traincalc');
const files = args.filter((a, i) => !a.startsWith('--') && (cliAt < 0 || i !== cliAt + 1));
if (files.length === 0) files.push(join(root, 'docs', 'validation.md'));

// A block: the command's marker line, what it printed, and the end marker.
const block = /<!-- traincalc (validate[a-z\- ]*) -->\n([\s\S]*?)<!-- end -->/g;
let stale = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const outputs = new Map();
  const updated = text.replace(block, (whole, command, current) => {
    if (!outputs.has(command)) outputs.set(command, execFileSync(cli, command.trim().split(/\s+/), { encoding: 'utf8', maxBuffer: 1 << 26 }));
    const fresh = outputs.get(command);
    if (fresh !== current) {
      stale += 1;
      console.error(`${file}: the block "traincalc ${command}" differs from what the command prints now`);
    }
    return `<!-- traincalc ${command} -->\n${fresh}<!-- end -->`;
  });
  if (outputs.size === 0) {
    console.error(`${file}: no <!-- traincalc validate ... --> block`);
    process.exitCode = 1;
  }
  if (!check && updated !== text) writeFileSync(file, updated);
}
if (check && stale > 0) {
  console.error('run `node scripts/doc-tables.mjs` to write them');
  process.exitCode = 1;
}
