// Translations: a space translated into another language. Without an
// engine a run records that none is configured; with a tiny LibreTranslate
// stand-in on 127.0.0.1, started here, a run fills the target space. All
// six operations are driven with the official client.

import assert from 'node:assert/strict';
import { it, after } from 'node:test';
import { createServer } from 'node:http';
import { suite, TIMEOUT, UNKNOWN_ID } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A stand-in for LibreTranslate's POST /translate: each text gets
// "[target] " before it, tags left where they are.
const engine = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/translate') {
            res.writeHead(404).end();
            return;
        }
        const body = JSON.parse(raw);
        const out = body.q.map((q) => q.replace(/(^|>)([^<]*[A-Za-z][^<]*)/g, (_, a, t) => `${a}[${body.target}] ${t}`));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ translatedText: out }));
    });
});
await new Promise((r) => engine.listen(0, '127.0.0.1', r));
after(() => engine.close());
const engineURL = `libretranslate+http://127.0.0.1:${engine.address().port}`;

const instructions = {
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Keep product names in English.', marks: [] }] }] }],
};

/** Run a translation and wait for the run to end. */
async function runAndWait(api, org, id, runs) {
    await expect('runTranslation', 204, () => api.orgs.runTranslation(org, id));
    const deadline = Date.now() + TIMEOUT;
    for (;;) {
        const { data } = await expect('getTranslation', 200, () => api.orgs.getTranslation(org, id));
        if (data.status !== 'running' && (data.stats.runs >= runs || data.error)) return data;
        assert.ok(Date.now() < deadline, `translation still not run: ${JSON.stringify(data)}`);
        await sleep(50);
    }
}

function operations(ctx, { withEngine }) {
    it('creates, reads, lists, updates, runs and deletes a translation', { timeout: TIMEOUT }, async () => {
        const source = await createSpace(ctx.api, ctx.org, { title: 'Product docs' });
        await expect('applyTemplateToSpace', 201, () => ctx.api.spaces.applyTemplateToSpace(source.id, { id: 'product-docs' }));
        const { data: created } = await expect('createTranslation', 201, () =>
            ctx.api.orgs.createTranslation(ctx.org, { source: { space: source.id, language: 'en' }, language: 'fr', instructions }),
        );
        assert.equal(created.object, 'translation');
        assert.equal(created.status, 'pending');
        assert.equal(created.language, 'fr');
        assert.deepEqual(created.source, { space: source.id, language: 'en' });
        assert.equal(created.stats.runs, 0);
        assert.deepEqual(created.instructions.nodes[0].type, 'paragraph');
        const target = (await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(created.result.space))).data;
        assert.equal(target.title, 'Product docs (fr)');

        await expectError('createTranslation', 409, () =>
            ctx.api.orgs.createTranslation(ctx.org, { source: { space: source.id, language: 'en' }, language: 'fr' }),
        );
        await expectError('createTranslation', 400, () =>
            ctx.api.orgs.createTranslation(ctx.org, { source: { space: UNKNOWN_ID, language: 'en' }, language: 'fr' }),
        );

        const { items } = await walk('listTranslations', (page) => ctx.api.orgs.listTranslations(ctx.org, { page, limit: 1 }), { limit: 1 });
        assert.ok(items.some((t) => t.id === created.id));
        const { data: got } = await expect('getTranslation', 200, () => ctx.api.orgs.getTranslation(ctx.org, created.id));
        assert.equal(got.id, created.id);
        await expectError('getTranslation', 404, () => ctx.api.orgs.getTranslation(ctx.org, UNKNOWN_ID));

        const { data: updated } = await expect('updateTranslation', 200, () =>
            ctx.api.orgs.updateTranslation(ctx.org, created.id, { instructions: { object: 'document', data: {}, nodes: [] } }),
        );
        assert.deepEqual(updated.instructions.nodes, []);

        await expectError('runTranslation', 404, () => ctx.api.orgs.runTranslation(ctx.org, UNKNOWN_ID));
        const ran = await runAndWait(ctx.api, ctx.org, created.id, 1);
        if (withEngine) {
            assert.equal(ran.status, 'completed', JSON.stringify(ran));
            assert.equal(ran.stats.runs, 1);
            assert.ok(ran.stats.latestPages > 0 && ran.stats.latestWords > 0, JSON.stringify(ran.stats));
            const { data: pages } = await expect('listPages', 200, () => ctx.api.spaces.listPages(created.result.space));
            assert.ok(pages.pages.length > 0);
            assert.ok(pages.pages.every((p) => p.title.startsWith('[fr] ')), JSON.stringify(pages.pages.map((p) => p.title)));
        } else {
            assert.match(ran.error, /no translation engine is configured/);
            assert.equal(ran.status, 'pending');
            assert.equal(ran.stats.runs, 0);
        }

        const reader = await ctx.user('read');
        await expectError('runTranslation', 403, () => reader.api.orgs.runTranslation(ctx.org, created.id));
        await expectError('deleteTranslation', 403, () => reader.api.orgs.deleteTranslation(ctx.org, created.id));
        await expect('getTranslation', 200, () => reader.api.orgs.getTranslation(ctx.org, created.id));

        await expect('deleteTranslation', 205, () => ctx.api.orgs.deleteTranslation(ctx.org, created.id));
        await expect('deleteTranslation', 204, () => ctx.api.orgs.deleteTranslation(ctx.org, created.id));
        await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(created.result.space));
    });
}

suite('translations without an engine', (ctx) => operations(ctx, { withEngine: false }));
suite('translations with LibreTranslate', (ctx) => operations(ctx, { withEngine: true }), { serverArgs: ['--translator', engineURL] });
