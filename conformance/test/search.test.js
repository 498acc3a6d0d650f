// Search: a space filled by importing Markdown from a URL (served by the
// test on 127.0.0.1) is found by its words through the space and the
// organization search, once the index has followed the import's merge.

import assert from 'node:assert/strict';
import { it, before, after } from 'node:test';
import { createServer } from 'node:http';
import { suite, TIMEOUT } from '../lib/harness.js';
import { expect, expectError } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The Markdown files the test serves to import, by path. */
const pages = {
    '/install.md': '# Installation\n\nDownload the installer.\n\n## Configuring the server\n\nEdit the configuration and restart the daemons.\n',
    '/cafe.md': '# Café 中文\n\nLe café est délicieux.\n\n## Über uns\n\nWombats dig tunnels under the café.\n',
};

/** Search a space until it finds something for query. */
async function searchUntilFound(ctx, spaceId, query) {
    const deadline = Date.now() + TIMEOUT;
    for (;;) {
        const found = (await expect('searchSpaceContent', 200, () =>
            ctx.api.spaces.searchSpaceContent(spaceId, { query }),
        )).data;
        if (found.items.length > 0) return found;
        assert.ok(Date.now() < deadline, `nothing is ever found for ${query}`);
        await sleep(50);
    }
}

suite('search', (ctx) => {
    let files;
    let filesURL;
    before(async () => {
        files = createServer((req, res) => {
            const body = pages[req.url];
            if (body === undefined) {
                res.writeHead(404).end();
                return;
            }
            res.writeHead(200, { 'Content-Type': 'text/markdown; charset=utf-8' }).end(body);
        });
        await new Promise((r) => files.listen(0, '127.0.0.1', r));
        filesURL = `http://127.0.0.1:${files.address().port}`;
    });
    after(() => files?.close());

    it('finds pages and sections in a space and in the organization', { timeout: TIMEOUT }, async () => {
        const space = await createSpace(ctx.api, ctx.org);
        await expect('importContent', 201, () =>
            ctx.api.spaces.importContent(space.id, { url: `${filesURL}/install.md`, source: 'markdown' }),
        );
        const found = await searchUntilFound(ctx, space.id, 'restarting daemon');
        assert.equal(found.items.length, 1);
        const page = found.items[0];
        assert.equal(page.title, 'Installation');
        assert.ok(page.urls.app);
        assert.equal(page.sections[0].title, 'Configuring the server');
        assert.match(page.sections[0].path, /#configuring-the-server$/);
        assert.match(page.sections[0].body, /restart the daemons/);

        const prefix = (await expect('searchSpaceContent', 200, () =>
            ctx.api.spaces.searchSpaceContent(space.id, { query: 'instal', limit: 10 }),
        )).data;
        assert.deepEqual(prefix.items.map((p) => p.title), ['Installation']);

        const none = (await expect('searchSpaceContent', 200, () =>
            ctx.api.spaces.searchSpaceContent(space.id, { query: 'installer wombat' }),
        )).data;
        assert.deepEqual(none.items, []);

        const org = (await expect('searchOrganizationContent', 200, () =>
            ctx.api.orgs.searchOrganizationContent(ctx.org, { query: 'configuration' }),
        )).data;
        const mine = org.items.find((s) => s.id === space.id);
        assert.ok(mine, `the space is not among ${JSON.stringify(org.items.map((s) => s.id))}`);
        assert.equal(mine.title, space.title);
        assert.deepEqual(mine.pages.map((p) => p.title), ['Installation']);

        await expectError('searchSpaceContent', 400, () =>
            ctx.api.spaces.searchSpaceContent(space.id, { query: 'x'.repeat(513) }),
        );
    });

    // A title in any script gives a page path outside ASCII; every URL
    // answered for it is still a URI (the schema's format: uri, checked on
    // every answer).
    it('answers URIs for a page titled outside ASCII', { timeout: TIMEOUT }, async () => {
        const space = await createSpace(ctx.api, ctx.org, { visibility: 'public' });
        await expect('importContent', 201, () =>
            ctx.api.spaces.importContent(space.id, { url: `${filesURL}/cafe.md`, source: 'markdown' }),
        );
        const found = await searchUntilFound(ctx, space.id, 'wombats');
        const page = found.items[0];
        assert.equal(page.title, 'Café 中文');
        assert.equal(page.path, 'café-中文');
        assert.equal(decodeURI(new URL(page.urls.app).pathname), `/app/s/${space.id}/café-中文`);
        assert.equal(page.sections[0].title, 'Über uns');
        assert.equal(decodeURIComponent(new URL(page.sections[0].urls.app).hash), '#über-uns');

        const org = (await expect('searchOrganizationContent', 200, () =>
            ctx.api.orgs.searchOrganizationContent(ctx.org, { query: 'wombats' }),
        )).data;
        assert.ok(org.items.some((s) => s.id === space.id));

        const { data: read } = await expect('getPageById', 200, () => ctx.api.spaces.getPageById(space.id, page.id));
        assert.equal(read.urls.app, page.urls.app);
        const { data: byPath } = await expect('getPageByPath', 200, () =>
            ctx.api.spaces.getPageByPath(space.id, page.path),
        );
        assert.equal(byPath.id, page.id);
        await expect('listPages', 200, () => ctx.api.spaces.listPages(space.id));
        const { data: sp } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(space.id));
        assert.ok(sp.urls.published);
    });
}, { serverArgs: ['--allow-local-fetch'] });
