// Builds an integration as `gitbook publish` does (same esbuild options as
// the CLI's buildScriptFromManifest, production mode) without publishing
// it: node integrations/build.mjs <integration dir> <output file>.
// The Go tests of internal/jsruntime run the bundle it writes.

import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const [dir, outfile] = process.argv.slice(2);
if (!dir || !outfile) {
    console.error('usage: node integrations/build.mjs <integration dir> <output file>');
    process.exit(2);
}
const manifestPath = join(resolve(dir), 'gitbook-manifest.yaml');
const script = /^script:\s*(\S+)\s*$/m.exec(readFileSync(manifestPath, 'utf8'))?.[1];
if (!script) {
    console.error(`${manifestPath}: no script`);
    process.exit(1);
}
const mode = 'production';
await build({
    platform: 'neutral',
    entryPoints: [resolve(dirname(manifestPath), script)],
    outfile: resolve(outfile),
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    write: true,
    mainFields: ['worker', 'browser', 'module', 'jsnext', 'main'],
    conditions: ['worker', 'browser', 'import', 'production'],
    define: {
        'process.env.NODE_ENV': JSON.stringify(mode),
        MODE: JSON.stringify(mode),
    },
    external: ['node:*', 'cloudflare:*'],
    jsx: 'automatic',
    jsxImportSource: '@gitbook/runtime',
    globalName: '__gitbook_integration',
    loader: { '.raw.js': 'text', '.raw.css': 'text' },
    logLevel: 'warning',
});
