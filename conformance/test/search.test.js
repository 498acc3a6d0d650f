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

suite('search', (ctx) => {
    let files;
    let filesURL;
    before(async () => {
        files = createServer((req, res) => {
            if (req.url !== '/install.md') {
                res.writeHead(404).end();
                return;
            }
            res.writeHead(200, { 'Content-Type': 'text/markdown' }).end(
                '# Installation\n\nDownload the installer.\n\n## Configuring the server\n\nEdit the configuration and restart the daemons.\n',
            );
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
        const deadline = Date.now() + TIMEOUT;
        let found;
        for (;;) {
            found = (await expect('searchSpaceContent', 200, () =>
                ctx.api.spaces.searchSpaceContent(space.id, { query: 'restarting daemon' }),
            )).data;
            if (found.items.length > 0) break;
            assert.ok(Date.now() < deadline, 'the imported page is never found');
            await sleep(50);
        }
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
}, { serverArgs: ['--allow-local-fetch'] });
