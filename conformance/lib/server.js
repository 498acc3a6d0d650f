// Builds and runs a real Quire server for the conformance tests.
//
// Backends: "sqlite" always; "postgres" too when QUIRE_TEST_POSTGRES_URL is
// set (a fresh database is created on that server for each started server
// and dropped when it stops).

import { spawn, execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

/** The environment for quire processes, without QUIRE_* settings that would override flags. */
function cleanEnv() {
    const env = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('QUIRE_')) env[k] = v;
    return env;
}

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Backends to run the suite against. */
export function backends() {
    const list = ['sqlite'];
    if (process.env.QUIRE_TEST_POSTGRES_URL) list.push('postgres');
    return list;
}

let builtBinary;

// Servers still running when the process exits (a crashed test file) are killed.
const live = new Set();
process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
});

/**
 * Path of the quire binary. QUIRE_BIN (set by run.js after one build) wins;
 * otherwise the binary is built into a temporary directory once per process.
 */
export function quireBinary() {
    if (process.env.QUIRE_BIN) return process.env.QUIRE_BIN;
    if (builtBinary) return builtBinary;
    const dir = mkdtempSync(join(tmpdir(), 'quire-bin-'));
    const out = join(dir, 'quire');
    try {
        execFileSync('go', ['build', '-o', out, './cmd/quire'], { cwd: REPO_ROOT, stdio: 'pipe' });
    } catch (err) {
        throw new Error(`go build ./cmd/quire failed:\n${err.stderr?.toString() || err.message}`);
    }
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    builtBinary = out;
    return out;
}

function freePort() {
    return new Promise((res, rej) => {
        const srv = createServer();
        srv.unref();
        srv.on('error', rej);
        srv.listen(0, '127.0.0.1', () => {
            const { port } = srv.address();
            srv.close(() => res(port));
        });
    });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function psql(url, sql) {
    execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql], { stdio: 'pipe' });
}

function createPostgresDatabase() {
    const base = process.env.QUIRE_TEST_POSTGRES_URL;
    const name = `quire_conf_${Date.now()}_${randomBytes(4).toString('hex')}`;
    psql(base, `CREATE DATABASE ${name}`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    return {
        name,
        url: u.toString(),
        drop() {
            try {
                psql(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            } catch {
                psql(base, `DROP DATABASE IF EXISTS ${name}`);
            }
        },
    };
}

/**
 * Start a server, with extra command-line arguments if given. Returns
 * { backend, pid, url, port, dataDir, databaseUrl, adminToken, cli(), logs(), stop() }.
 */
export async function startServer(backend = 'sqlite', { args: extraArgs = [] } = {}) {
    const bin = quireBinary();
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-data-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let db;
    if (backend === 'postgres') db = createPostgresDatabase();

    const storeArgs = ['--data', dataDir];
    if (db) storeArgs.push('--database', db.url);

    const args = ['serve', '--addr', `127.0.0.1:${port}`, ...storeArgs, ...extraArgs];
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv() });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    live.add(child);
    let exited = null;
    const exitPromise = new Promise((res) =>
        child.on('exit', (code, signal) => {
            live.delete(child);
            exited = { code, signal };
            res(exited);
        }),
    );

    const server = {
        backend,
        bin,
        pid: child.pid,
        url,
        port,
        dataDir,
        databaseUrl: db?.url,
        adminToken: undefined,
        logs: () => output,
        /** Run a quire CLI command against this server's store; parses JSON stdout. */
        async cli(...cliArgs) {
            try {
                const { stdout } = await execFileP(bin, [...cliArgs, ...storeArgs], { timeout: 30000, env: cleanEnv() });
                const text = stdout.trim();
                try {
                    return JSON.parse(text);
                } catch {
                    return text;
                }
            } catch (err) {
                throw new Error(
                    `quire ${cliArgs.join(' ')} failed (exit ${err.code}):\n${err.stderr || ''}${err.stdout || ''}`,
                );
            }
        },
        async stop() {
            if (!exited) {
                child.kill('SIGTERM');
                const killer = setTimeout(() => !exited && child.kill('SIGKILL'), 5000);
                await exitPromise;
                clearTimeout(killer);
            }
            rmSync(dataDir, { recursive: true, force: true });
            if (db) db.drop();
        },
    };

    const deadline = Date.now() + 30000;
    let lastErr = 'no answer';
    for (;;) {
        if (exited) {
            await server.stop();
            throw new Error(`quire serve exited early (${JSON.stringify(exited)}):\n${output}`);
        }
        try {
            const r = await fetch(`${url}/healthz`);
            if (r.status === 200) break;
            lastErr = `GET /healthz answered ${r.status}`;
        } catch (err) {
            lastErr = err.message;
        }
        if (Date.now() > deadline) {
            await server.stop();
            throw new Error(`quire serve not healthy after 30s (${lastErr}):\n${output}`);
        }
        await sleep(100);
    }

    const tokenFile = join(dataDir, 'admin-token');
    while (!existsSync(tokenFile) || !readFileSync(tokenFile, 'utf8').trim()) {
        if (Date.now() > deadline) {
            await server.stop();
            throw new Error(`${tokenFile} was not written:\n${output}`);
        }
        await sleep(100);
    }
    server.adminToken = readFileSync(tokenFile, 'utf8').trim();
    return server;
}

let counter = 0;
/** A unique-enough suffix for names and emails. */
export function uniq() {
    return `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;
}

/**
 * Create a user with the CLI. role: admin|create|edit|review|comment|read,
 * or null for a guest. Returns { user, token, email, name }.
 */
export async function createUser(server, { org, role = 'read', email, name } = {}) {
    const id = uniq();
    email ??= `user-${id}@members-${id}.example.com`;
    name ??= `User ${id}`;
    const args = ['admin', 'user', 'create', '--email', email, '--name', name, '--org', org];
    if (role) args.push('--role', role);
    const out = await server.cli(...args);
    if (!out || typeof out !== 'object' || !out.user || !out.token) {
        throw new Error(`unexpected output of quire admin user create: ${JSON.stringify(out)}`);
    }
    return { ...out, email, name };
}

/**
 * Bootstrap a new organization with its own admin user.
 * Returns { organization, user, token, email, name, title }.
 */
export async function bootstrapOrg(server, { title, email, name } = {}) {
    const id = uniq();
    title ??= `Org ${id}`;
    email ??= `owner-${id}@owner-${id}.example.com`;
    name ??= `Owner ${id}`;
    const out = await server.cli('admin', 'bootstrap', '--org-title', title, '--email', email, '--name', name);
    if (!out || typeof out !== 'object' || !out.organization || !out.token) {
        throw new Error(`unexpected output of quire admin bootstrap: ${JSON.stringify(out)}`);
    }
    return { ...out, email, name, title };
}
