// Links and backlinks: a page linking to another page, to a heading of
// it, to a missing page, to a file and to the server's own app, read
// through every links and backlinks operation of the space and of a
// change request that deletes the linked page.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, TIMEOUT, UNKNOWN_ID } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const text = (s) => ({ object: 'text', leaves: [{ object: 'leaf', text: s, marks: [] }] });
const link = (ref, label) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text(label)] });
const para = (...nodes) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const image = (ref) => ({
    object: 'block', type: 'images', data: {},
    nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref }, nodes: [], fragments: [] }],
});

/** Status and target of each link, one line each. */
const lines = (items) => items.map((u) => [u.status, u.target.kind, u.target.page || u.target.file || u.target.url, u.target.anchor].filter(Boolean).join(' '));

suite('links', (ctx) => {
    async function writeContent(spaceId, crId, changes) {
        const res = await fetch(`${ctx.server.url}/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ changes }),
        });
        const body = await res.text();
        assert.equal(res.status, 200, body);
        return JSON.parse(body);
    }

    async function createCR(spaceId) {
        return (await expect('createChangeRequest', 201, () => ctx.api.spaces.createChangeRequest(spaceId, { subject: 'Links' }))).data;
    }

    it('lists links, their status and backlinks in a space and a change request', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const cr = await createCR(s.id);
        const res = await writeContent(s.id, cr.id, [
            { operation: 'insert_page', title: 'Intro', document: { markdown: 'Soon.' } },
            { operation: 'insert_page', title: 'Guide', document: { markdown: '## Getting started\n\nRead on.\n' } },
            { operation: 'insert_files', files: [{ name: 'notes.txt', base64: Buffer.from('notes').toString('base64') }] },
        ]);
        const [intro, guide] = res.changes.slice(0, 2).map((c) => c.page.id);
        const file = res.insertedFiles[0].file.id;
        const appURL = `${ctx.server.url}/app/s/${s.id}`;
        await writeContent(s.id, cr.id, [{
            operation: 'update_page', page: intro, document: { document: { object: 'document', data: {}, nodes: [
                para(link({ kind: 'page', page: guide }, 'guide'), link({ kind: 'anchor', page: guide, anchor: 'getting-started' }, 'start'),
                    link({ kind: 'page', page: UNKNOWN_ID }, 'gone'), link({ kind: 'url', url: appURL }, 'app')),
                image({ kind: 'file', file: file }),
            ] } },
        }]);
        await expect('mergeChangeRequest', 200, () => ctx.api.spaces.mergeChangeRequest(s.id, cr.id));

        const want = [`ok page ${guide}`, `ok anchor ${guide} getting-started`, `broken page ${UNKNOWN_ID}`, `in-app url ${appURL}`, `ok file ${file}`];
        const { data: all } = await expect('listSpaceLinks', 200, () => ctx.api.spaces.listSpaceLinks(s.id));
        assert.deepEqual(lines(all.items), want);
        assert.deepEqual(all.stats, { total: 5, broken: { total: 1 } });
        assert.equal(all.items[0].targetReference.page.id, guide);
        assert.equal(all.items[0].locationReferences[0].page.id, intro);
        const { items: walked } = await walk('listSpaceLinks', (p) => ctx.api.spaces.listSpaceLinks(s.id, { page: p, limit: 2 }),
            { limit: 2, key: (u) => JSON.stringify(u.target) });
        assert.deepEqual(lines(walked), want);
        const { data: broken } = await expect('listSpaceLinks', 200, () => ctx.api.spaces.listSpaceLinks(s.id, { status: 'broken' }));
        assert.deepEqual(lines(broken.items), [want[2]]);

        const { data: pageLinks } = await expect('listPageLinksInSpace', 200, () =>
            ctx.api.spaces.listPageLinksInSpace(s.id, intro, { status: 'in-app' }));
        assert.deepEqual(lines(pageLinks.items), [want[3]]);
        assert.equal(pageLinks.stats.total, 5);
        const { data: back } = await expect('listSpacePageBacklinks', 200, () => ctx.api.spaces.listSpacePageBacklinks(s.id, guide));
        assert.deepEqual(back.items.map((l) => [l.kind, l.page.id]), [['page', intro]]);
        const { data: fileBack } = await expect('listSpaceFileBacklinks', 200, () => ctx.api.spaces.listSpaceFileBacklinks(s.id, file));
        assert.deepEqual(fileBack.items.map((l) => l.page.id), [intro]);
        await expectError('listSpaceFileBacklinks', 404, () => ctx.api.spaces.listSpaceFileBacklinks(s.id, UNKNOWN_ID));
        await expectError('listSpaceLinks', 404, () => ctx.api.spaces.listSpaceLinks(UNKNOWN_ID));
        await expectError('listSpaceLinks', 400, () => ctx.api.spaces.listSpaceLinks(s.id, { status: 'fine' }));

        // A change request deleting the guide breaks the links to it there,
        // not on main.
        const drop = await createCR(s.id);
        await writeContent(s.id, drop.id, [{ operation: 'delete_page', page: guide }]);
        const { data: crLinks } = await expect('listChangeRequestLinks', 200, () =>
            ctx.api.spaces.listChangeRequestLinks(s.id, drop.id, { status: 'broken' }));
        assert.deepEqual(lines(crLinks.items), [`broken page ${guide}`, `broken anchor ${guide} getting-started`, want[2]]);
        assert.deepEqual(crLinks.stats, { total: 5, broken: { total: 3, changeRequest: 2 } });
        assert.equal(crLinks.items[0].locationReferences[0].versionContext.changeRequest.id, drop.id);
        const { data: byCR } = await expect('listChangeRequestLinks', 200, () =>
            ctx.api.spaces.listChangeRequestLinks(s.id, drop.id, { brokenContext: 'change-request' }));
        assert.equal(byCR.items.length, 2);
        const { data: crPage } = await expect('listPageLinksInChangeRequest', 200, () =>
            ctx.api.spaces.listPageLinksInChangeRequest(s.id, drop.id, intro));
        assert.equal(crPage.items.length, 5);
        await expectError('listChangeRequestPageBacklinks', 404, () =>
            ctx.api.spaces.listChangeRequestPageBacklinks(s.id, drop.id, guide));
        const { data: crBack } = await expect('listChangeRequestPageBacklinks', 200, () =>
            ctx.api.spaces.listChangeRequestPageBacklinks(s.id, drop.id, intro));
        assert.deepEqual(crBack.items, []);
        const { data: crFileBack } = await expect('listChangeRequestFileBacklinks', 200, () =>
            ctx.api.spaces.listChangeRequestFileBacklinks(s.id, drop.id, file));
        assert.deepEqual(crFileBack.items.map((l) => l.page.id), [intro]);
        const { data: main } = await expect('listSpaceLinks', 200, () => ctx.api.spaces.listSpaceLinks(s.id));
        assert.deepEqual(lines(main.items), want);
    });
});
