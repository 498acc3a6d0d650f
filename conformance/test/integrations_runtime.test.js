// Integrations that run: one written with @gitbook/runtime is built and
// published with the official @gitbook/cli, installed on a space, and a
// merge in that space runs its space_content_updated handler, which posts
// a comment back through the API with its installation token. The same
// integration in development mode is delivered to a local tunnel, signed.
// A throwing script, a script that never stops and scripts that allocate
// without end record failed events.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suite, TIMEOUT, uniq } from '../lib/harness.js';
import { expect } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const execFileP = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const conformance = join(here, '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `gitbook publish` of the CLI on an integration directory. */
async function gitbookPublish(server, token, org, dir) {
    const home = mkdtempSync(join(tmpdir(), 'gitbook-cli-'));
    try {
        const cli = join(conformance, 'node_modules', '@gitbook', 'cli', 'cli.js');
        const { stdout } = await execFileP(process.execPath, [cli, 'publish', join(dir, 'gitbook-manifest.yaml')], {
            cwd: dir,
            timeout: TIMEOUT,
            env: {
                PATH: process.env.PATH,
                HOME: home,
                XDG_CONFIG_HOME: home,
                GITBOOK_ENDPOINT: server.url,
                GITBOOK_TOKEN: token,
                GITBOOK_ORGANIZATION: org,
            },
        });
        return stdout;
    } finally {
        rmSync(home, { recursive: true, force: true });
    }
}

/** Polls until get() returns something truthy. */
async function eventually(what, get) {
    const deadline = Date.now() + TIMEOUT;
    for (;;) {
        const v = await get();
        if (v) return v;
        assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
        await sleep(100);
    }
}

suite('integrations that run', (ctx) => {
    /** Merges a change request adding a page to a space; returns the merged revision. */
    async function mergePage(spaceId) {
        const { data: cr } = await expect('createChangeRequest', 201, () =>
            ctx.api.spaces.createChangeRequest(spaceId, { subject: `Page ${uniq()}` }));
        const res = await fetch(`${ctx.server.url}/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ changes: [{ operation: 'insert_page', title: `Page ${uniq()}`, document: { markdown: 'Hello.' } }] }),
        });
        assert.equal(res.status, 200, await res.text());
        const { data: merged } = await expect('mergeChangeRequest', 200, () => ctx.api.spaces.mergeChangeRequest(spaceId, cr.id));
        assert.equal(merged.result, 'merge');
        return merged.revision;
    }

    /** The event of a type about a space, once it has an outcome. */
    async function settledEvent(name, type, spaceId) {
        return eventually(`a settled ${type} event`, async () => {
            const { data } = await expect('listIntegrationEvents', 200, () => ctx.api.integrations.listIntegrationEvents(name));
            return data.items.find((e) => e.payload.type === type && e.payload.spaceId === spaceId);
        });
    }

    /** Installs an integration on the organization and on one space. */
    async function installOn(name, spaceId) {
        const ints = ctx.api.integrations;
        const { data: inst } = await expect('installIntegration', 201, () => ints.installIntegration(name, { organization: ctx.org }));
        await expect('installIntegrationOnSpace', 201, () => ints.installIntegrationOnSpace(name, inst.id, { space: spaceId }));
        return inst;
    }

    it('runs a CLI-published integration on a merge, which comments through the API', { timeout: 4 * TIMEOUT }, async () => {
        const dir = join(conformance, 'integrations', 'comment-on-merge');
        const out = await gitbookPublish(ctx.server, ctx.token, ctx.org, dir);
        assert.match(out, /Integration "comment-on-merge" published/);
        const { data: integration } = await expect('getIntegrationByName', 200, () =>
            ctx.api.integrations.getIntegrationByName('comment-on-merge'));
        assert.equal(integration.owner.id, ctx.org);
        assert.deepEqual([...integration.scopes].sort(), ['space:content:read', 'space:content:write']);

        const space = await createSpace(ctx.api, ctx.org);
        await installOn('comment-on-merge', space.id);
        const revision = await mergePage(space.id);

        const comment = await eventually('the integration\'s comment', async () => {
            const { data } = await expect('listCommentsInSpace', 200, () => ctx.api.spaces.listCommentsInSpace(space.id));
            return data.items.find((c) => JSON.stringify(c.body).includes(`Merged revision ${revision}`));
        });
        assert.ok(comment.postedBy, 'the comment has no author');

        const ev = await settledEvent('comment-on-merge', 'space_content_updated', space.id);
        assert.equal(ev.status, 'success', JSON.stringify(ev));
        const { data: one } = await expect('getIntegrationEvent', 200, () =>
            ctx.api.integrations.getIntegrationEvent('comment-on-merge', ev.id));
        const logs = one.trace.logs.map((l) => l.message).join('\n');
        assert.match(logs, new RegExp(`space ${space.id} moved to revision ${revision}`));
        assert.match(logs, /posted comment /);

        // In development mode the same event goes to the tunnel instead,
        // signed with the integration's signing secret.
        const received = [];
        const tunnel = createServer((req, res) => {
            const chunks = [];
            req.on('data', (c) => chunks.push(c));
            req.on('end', () => {
                received.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
                res.end('OK');
            });
        });
        await new Promise((r) => tunnel.listen(0, '127.0.0.1', r));
        try {
            const tunnelUrl = `http://127.0.0.1:${tunnel.address().port}`;
            await expect('setIntegrationDevelopmentMode', 204, () =>
                ctx.api.integrations.setIntegrationDevelopmentMode('comment-on-merge', { tunnelUrl }));
            const before = (await ctx.api.spaces.listCommentsInSpace(space.id)).data.items.length;
            const second = await mergePage(space.id);
            const got = await eventually('a delivery to the tunnel', async () =>
                received.find((r) => r.body.toString().includes(second)));
            assert.equal(got.url, '/v1');
            const form = await new Response(got.body, { headers: { 'content-type': got.headers['content-type'] } }).formData();
            const event = JSON.parse(form.get('event'));
            const env = JSON.parse(form.get('environment'));
            assert.equal(event.type, 'space_content_updated');
            assert.equal(event.revisionId, second);
            assert.equal(env.apiEndpoint, ctx.server.url);
            assert.ok(env.apiTokens.installation, 'no installation token in the environment');
            const want = 'sha256=' + createHmac('sha256', env.signingSecrets.integration).update(got.body).digest('hex');
            assert.equal(got.headers['x-quire-signature'], want);
            // The script did not run: no new comment.
            const after = (await ctx.api.spaces.listCommentsInSpace(space.id)).data.items.length;
            assert.equal(after, before);
            await expect('disableIntegrationDevelopmentMode', 205, () =>
                ctx.api.integrations.disableIntegrationDevelopmentMode('comment-on-merge'));
        } finally {
            await new Promise((r) => tunnel.close(r));
        }
    });

    /** Publishes a script directly (an ES module, as the CLI uploads it). */
    async function publishScript(name, handler) {
        const script = `export default { async fetch(request) {
            const form = await request.formData();
            const event = JSON.parse(form.get('event'));
            if (event.type === 'space_content_updated') { ${handler} }
            return new Response('OK');
        } };`;
        await expect('publishIntegration', 200, () => ctx.api.integrations.publishIntegration(name, {
            organization: ctx.org, title: 'Failing', description: 'Fails on purpose', script,
            scopes: ['space:content:read'], runtime: 'v2',
        }));
    }

    /** Runs a script failing on a merge; returns the space and the event's logs. */
    async function failingRun(prefix, handler) {
        const name = `${prefix}-${uniq()}`.toLowerCase();
        await publishScript(name, handler);
        const space = await createSpace(ctx.api, ctx.org);
        await installOn(name, space.id);
        await mergePage(space.id);
        const ev = await settledEvent(name, 'space_content_updated', space.id);
        assert.equal(ev.status, 'failed');
        const { data: one } = await expect('getIntegrationEvent', 200, () => ctx.api.integrations.getIntegrationEvent(name, ev.id));
        return { space, logs: one.trace.logs.map((l) => l.message).join('\n') };
    }

    it('records a throwing script as a failed event with its error', { timeout: 2 * TIMEOUT }, async () => {
        const { space, logs } = await failingRun('throws',
            `console.log('about to fail'); throw new Error('broken handler for ' + event.spaceId);`);
        assert.match(logs, /about to fail/);
        assert.match(logs, new RegExp(`broken handler for ${space.id}`));
    });

    it('stops a script that never returns at its CPU limit', { timeout: 2 * TIMEOUT }, async () => {
        const { space, logs } = await failingRun('loops', `for (;;) {}`);
        assert.match(logs, /CPU/i);
        // The server still answers.
        await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(space.id));
    });

    /** A size field (VmRSS, VmHWM) of the server's /proc status, in bytes. */
    function serverSize(field) {
        const status = readFileSync(`/proc/${ctx.server.pid}/status`, 'utf8');
        return Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))[1]) * 1024;
    }

    const memoryLimit = 128 << 20;
    for (const [what, handler] of [
        ['a doubling string', `let s = 'x'; for (;;) s = s + s;`],
        ['an endless promise chain', `const keep = [];
            const step = (i) => { keep.push(new Uint8Array(8 << 20)); return Promise.resolve(i + 1).then(step); };
            await step(0);`],
    ]) {
        it(`stops ${what} at its memory limit, outside the server`, { timeout: 2 * TIMEOUT, skip: process.platform !== 'linux' }, async () => {
            // Peak resident size back to the current one (Linux: clear_refs 5).
            writeFileSync(`/proc/${ctx.server.pid}/clear_refs`, '5');
            const before = serverSize('VmRSS');
            const { space, logs } = await failingRun('hog', `console.log('allocating'); ${handler}`);
            assert.match(logs, /allocating/);
            assert.match(logs, /script went past its memory limit of 128 MiB/);
            const grew = serverSize('VmHWM') - before;
            assert.ok(grew < 2 * memoryLimit, `the server grew by ${grew >> 20} MiB during the run`);
            await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(space.id));
        });
    }
}, { serverArgs: ['--allow-local-fetch'] });
