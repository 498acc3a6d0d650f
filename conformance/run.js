// Entry point of `npm test`: builds the server once, then runs every test
// file with Node's test runner. Extra arguments are passed to `node --test`
// (for example a single file: `npm test -- test/spaces.test.js`).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './lib/server.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'quire-bin-'));
const bin = join(dir, 'quire');

const build = spawnSync('go', ['build', '-o', bin, './cmd/quire'], { cwd: REPO_ROOT, stdio: 'inherit' });
if (build.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    console.error('go build ./cmd/quire failed');
    process.exit(1);
}

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));
if (!flags.some((f) => f.startsWith('--test-reporter'))) flags.push('--test-reporter=spec');
const run = spawnSync(process.execPath, ['--test', ...flags, ...(files.length ? files : ['test/'])], {
    cwd: here,
    stdio: 'inherit',
    env: { ...process.env, QUIRE_BIN: bin },
});
rmSync(dir, { recursive: true, force: true });
process.exit(run.status ?? 1);
