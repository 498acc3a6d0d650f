// OpenAPI specifications: created from a text and from a URL whose main
// file refers to a second file by a relative $ref, processed in the
// background into versions, read with their content, made public,
// updated and deleted. The server may fetch from 127.0.0.1, where the
// test serves the files.

import assert from 'node:assert/strict';
import { it, before, after } from 'node:test';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite, TIMEOUT } from '../lib/harness.js';
import { expect } from '../lib/client.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A test document of the apiref package. */
const doc = (name) => readFileSync(fileURLToPath(new URL(`../../internal/apiref/testdata/${name}`, import.meta.url)), 'utf8');

suite('openapi specifications', (ctx) => {
    let files;
    let filesURL;
    const served = {};
    before(async () => {
        served['/api/openapi.yaml'] = doc('petstore-3.0.yaml');
        served['/api/schemas/pet.yaml'] = doc('schemas/pet.yaml');
        files = createServer((req, res) => {
            const body = served[req.url];
            if (!body) {
                res.writeHead(404).end();
                return;
            }
            res.writeHead(200, { 'Content-Type': 'application/yaml' }).end(body);
        });
        await new Promise((r) => files.listen(0, '127.0.0.1', r));
        filesURL = `http://127.0.0.1:${files.address().port}`;
    });
    after(() => files?.close());

    /** Waits for a specification's processing to complete. */
    async function processed(slug) {
        const deadline = Date.now() + TIMEOUT;
        for (;;) {
            const { data } = await expect('getOpenAPISpecBySlug', 200, () => ctx.api.orgs.getOpenApiSpecBySlug(ctx.org, slug));
            if (data.processingState === 'complete') return data;
            assert.ok(Date.now() < deadline, `specification still processing: ${JSON.stringify(data)}`);
            await sleep(50);
        }
    }

    it('processes specifications from a text and from a URL into versions', { timeout: TIMEOUT }, async () => {
        const fromText = (await expect('createOpenAPISpec', 201, () =>
            ctx.api.orgs.createOpenApiSpec(ctx.org, { slug: 'pets-31', source: { text: doc('petstore-3.1.yaml') } }),
        )).data;
        assert.equal(fromText.slug, 'pets-31');
        const fromURL = (await expect('createOpenAPISpec', 201, () =>
            ctx.api.orgs.createOpenApiSpec(ctx.org, { slug: 'pets', source: { url: `${filesURL}/api/openapi.yaml` } }),
        )).data;
        assert.equal(fromURL.sourceURL, `${filesURL}/api/openapi.yaml`);
        await expect('createOpenAPISpec', 409, () =>
            ctx.api.orgs.createOpenApiSpec(ctx.org, { slug: 'pets', source: { text: doc('petstore-3.1.yaml') } }),
        );

        for (const slug of ['pets-31', 'pets']) {
            const spec = await processed(slug);
            assert.ok(spec.lastVersion, `${slug} has no version: ${JSON.stringify(spec)}`);
            assert.equal(spec.lastProcessErrorCode, undefined);
        }
        const list = (await expect('listOpenAPISpecs', 200, () => ctx.api.orgs.listOpenApiSpecs(ctx.org))).data;
        assert.deepEqual(list.items.map((s) => s.slug), ['pets-31', 'pets']);

        const versions = (await expect('listOpenAPISpecVersions', 200, () => ctx.api.orgs.listOpenApiSpecVersions(ctx.org, 'pets'))).data;
        assert.equal(versions.items.length, 1);
        const latest = (await expect('getLatestOpenAPISpecVersion', 200, () => ctx.api.orgs.getLatestOpenApiSpecVersion(ctx.org, 'pets'))).data;
        assert.equal(latest.id, versions.items[0].id);
        const byId = (await expect('getOpenAPISpecVersionById', 200, () =>
            ctx.api.orgs.getOpenApiSpecVersionById(ctx.org, 'pets', latest.id),
        )).data;
        assert.equal(byId.id, latest.id);
        const content = (await expect('getLatestOpenAPISpecVersionContent', 200, () =>
            ctx.api.orgs.getLatestOpenApiSpecVersionContent(ctx.org, 'pets'),
        )).data;
        assert.deepEqual(Object.keys(content.filesystem).sort(), ['openapi.yaml', 'schemas/pet.yaml']);
        const again = (await expect('getOpenAPISpecVersionContentById', 200, () =>
            ctx.api.orgs.getOpenApiSpecVersionContentById(ctx.org, 'pets', latest.id),
        )).data;
        assert.deepEqual(again.filesystem, content.filesystem);
        // The content URL serves the main file.
        const main = await fetch(content.url);
        assert.equal(main.status, 200);
        assert.equal(await main.text(), served['/api/openapi.yaml']);

        await expect('getOpenAPISpecBySlug', 404, () => ctx.api.orgs.getOpenApiSpecBySlug(ctx.org, 'nope'));
        await expect('getLatestOpenAPISpecVersion', 404, () => ctx.api.orgs.getLatestOpenApiSpecVersion(ctx.org, 'nope'));
        await expect('getOpenAPISpecVersionById', 404, () => ctx.api.orgs.getOpenApiSpecVersionById(ctx.org, 'pets', 'nope'));
        await expect('getOpenAPISpecVersionContentById', 404, () =>
            ctx.api.orgs.getOpenApiSpecVersionContentById(ctx.org, 'pets', 'nope'),
        );
        await expect('getLatestOpenAPISpecVersionContent', 404, () =>
            ctx.api.orgs.getLatestOpenApiSpecVersionContent(ctx.org, 'nope'),
        );
        await expect('listOpenAPISpecVersions', 404, () => ctx.api.orgs.listOpenApiSpecVersions(ctx.org, 'nope'));
    });

    it('creates or updates by slug, reports parse errors, publishes and deletes', { timeout: TIMEOUT }, async () => {
        const created = (await expect('createOrUpdateOpenAPISpecBySlug', 201, () =>
            ctx.api.orgs.createOrUpdateOpenApiSpecBySlug(ctx.org, 'swagger', { source: { text: doc('petstore-2.0.json') } }),
        )).data;
        assert.equal(created.slug, 'swagger');
        const good = await processed('swagger');
        assert.ok(good.lastVersion);

        await expect('createOrUpdateOpenAPISpecBySlug', 200, () =>
            ctx.api.orgs.createOrUpdateOpenApiSpecBySlug(ctx.org, 'swagger', { source: { text: 'swagger: "2.0"\ninfo:\n  title: x\npaths:\n  /a: [\n' } }),
        );
        let spec = await processed('swagger');
        assert.equal(spec.lastProcessErrorCode, 'PARSE_ERROR');
        assert.equal(spec.lastVersion, good.lastVersion, 'the last good version stays');
        assert.match(spec.lastProcessedErrors[0].message, /line \d+/);

        spec = (await expect('updateOpenAPISpecBySlug', 200, () =>
            ctx.api.orgs.updateOpenApiSpecBySlug(ctx.org, 'swagger', { visibility: 'public' }),
        )).data;
        assert.equal(spec.visibility, 'public');
        assert.ok(spec.urls.published);
        const published = await fetch(spec.urls.published);
        assert.equal(published.status, 200);
        await expect('updateOpenAPISpecBySlug', 404, () =>
            ctx.api.orgs.updateOpenApiSpecBySlug(ctx.org, 'nope', { visibility: 'public' }),
        );

        await expect('deleteOpenAPISpecBySlug', 205, () => ctx.api.orgs.deleteOpenApiSpecBySlug(ctx.org, 'swagger'));
        await expect('deleteOpenAPISpecBySlug', 204, () => ctx.api.orgs.deleteOpenApiSpecBySlug(ctx.org, 'swagger'));
        await expect('getOpenAPISpecBySlug', 404, () => ctx.api.orgs.getOpenApiSpecBySlug(ctx.org, 'swagger'));
    });
}, { serverArgs: ['--allow-local-fetch'] });
