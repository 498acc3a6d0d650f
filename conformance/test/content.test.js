// Versioned content: pages and files written into a change request
// (updateChangeRequestContent, through plain fetch since the client of
// 0.143.2 has no such method), read back through every read of the change
// request, of a revision and of the space; update, merge and templates.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';
import { validateComponent } from '../lib/schema.js';

/** CRC-32 of a PNG chunk. */
// stable is v with every file download link cut to its path: a link's
// expiry moves on each hour, so two reads may sign the same file apart.
function stable(v) {
    return JSON.parse(JSON.stringify(v, (k, val) => (k === 'downloadURL' ? new URL(val).pathname : val)));
}

function crc32(buf) {
    let c = ~0;
    for (const b of buf) {
        c ^= b;
        for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
}

/** A w×h RGB PNG image. */
function png(w, h) {
    const chunk = (type, data) => {
        const len = Buffer.alloc(4);
        len.writeUInt32BE(data.length);
        const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
        const crc = Buffer.alloc(4);
        crc.writeUInt32BE(crc32(td));
        return Buffer.concat([len, td, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr[8] = 8; // bit depth
    ihdr[9] = 2; // RGB
    const rows = [];
    for (let y = 0; y < h; y++) {
        rows.push(Buffer.from([0]));
        for (let x = 0; x < w; x++) rows.push(Buffer.from([40 * x, 60 * y, 200]));
    }
    return Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        chunk('IHDR', ihdr),
        chunk('IDAT', deflateSync(Buffer.concat(rows))),
        chunk('IEND', Buffer.alloc(0)),
    ]);
}

const insertPage = (title, markdown, extra = {}) => ({ operation: 'insert_page', title, document: { markdown }, ...extra });
const updatePage = (page, extra) => ({ operation: 'update_page', page, ...extra });

/** Titles and paths of a page tree, children indented. */
function outline(pages, depth = 0) {
    return pages.flatMap((p) => [`${'  '.repeat(depth)}${p.path} ${p.title}`, ...outline(p.pages || [], depth + 1)]);
}

suite('content', (ctx) => {
    /**
     * POST …/content with plain fetch; the answer is checked against the
     * published ChangeRequest schema (compat=true, the default) or, with
     * compat=false, its changeRequest is.
     */
    async function writeContent(spaceId, crId, changes, { compat, token = ctx.token, status = 200 } = {}) {
        const q = compat === undefined ? '' : `?compat=${compat}`;
        const res = await fetch(`${ctx.server.url}/v1/spaces/${spaceId}/change-requests/${crId}/content${q}`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ changes }),
        });
        const text = await res.text();
        assert.equal(res.status, status, `updateChangeRequestContent: ${res.status} ${text}`);
        assert.match(res.headers.get('content-type') || '', /application\/json/);
        const body = JSON.parse(text);
        if (status >= 400) {
            assert.equal(validateComponent('Error', body), null);
            assert.equal(body.error.code, status);
            return body;
        }
        if (compat === false) {
            assert.equal(validateComponent('ChangeRequest', body.changeRequest), null);
            assert.ok(Array.isArray(body.changes));
            assert.equal(body.changes.length, changes.length);
        } else {
            const problem = validateComponent('ChangeRequest', body);
            assert.equal(problem, null, problem);
        }
        return body;
    }

    async function createCR(spaceId, subject = `Change ${uniq()}`) {
        const { data } = await expect('createChangeRequest', 201, () => ctx.api.spaces.createChangeRequest(spaceId, { subject }));
        return data;
    }

    async function merge(spaceId, crId, result = 'merge', api = ctx.api) {
        const { data } = await expect('mergeChangeRequest', 200, () => api.spaces.mergeChangeRequest(spaceId, crId));
        assert.equal(data.result, result, JSON.stringify(data));
        return data;
    }

    async function markdownOf(spaceId, pageId) {
        const { data } = await expect('getPageById', 200, () => ctx.api.spaces.getPageById(spaceId, pageId, { format: 'markdown' }));
        return data.markdown;
    }

    it('pages and files written into a change request read back through every read', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const cr = await createCR(s.id);
        const image = png(3, 2);
        const res = await writeContent(
            s.id,
            cr.id,
            [
                insertPage('Guide', '# Guide\n\nWelcome to the **guide**.', { ref: 'guide', emoji: '1f4d8' }),
                insertPage('Setup', 'First setup.', { into: 'guide' }),
                insertPage('Setup', 'Second setup.', { into: 'guide' }),
                insertPage('Notes', '{% hint style="info" %}\nRemember.\n{% endhint %}', { at: 0 }),
                { operation: 'insert_files', files: [{ name: 'diagram.png', base64: image.toString('base64'), ref: 'd' }] },
            ],
            { compat: false },
        );
        assert.deepEqual(
            res.changes.map((c) => c.object),
            ['created_page', 'created_page', 'created_page', 'created_page', 'inserted_files'],
        );
        assert.equal(res.changes[0].ref, 'guide');
        assert.equal(res.changes[0].page.object, 'page');
        const [guide, setup, setup1, notes] = res.changes.slice(0, 4).map((c) => c.page.id);
        assert.equal(res.insertedFiles.length, 1);
        assert.equal(res.insertedFiles[0].ref, 'd');
        const file = res.insertedFiles[0].file;
        assert.equal(validateComponent('RevisionFile', file), null);
        const rev = res.changeRequest.revision;
        assert.notEqual(rev, s.revision);

        const tree = ['notes Notes', 'guide Guide', '  guide/setup Setup', '  guide/setup-1 Setup'];
        const { data: content } = await expect('getRevisionOfChangeRequestById', 200, () =>
            ctx.api.spaces.getRevisionOfChangeRequestById(s.id, cr.id),
        );
        assert.equal(content.id, rev);
        assert.deepEqual(content.parents, [s.revision]);
        assert.deepEqual(outline(content.pages), tree);
        assert.equal(content.pages[1].emoji, '1f4d8');
        assert.equal(content.pages[1].kind, 'sheet');
        assert.equal(content.pages[1].type, 'document');
        const { data: pages } = await expect('listPagesInChangeRequest', 200, () =>
            ctx.api.spaces.listPagesInChangeRequest(s.id, cr.id),
        );
        assert.deepEqual(pages.pages, content.pages);

        const { data: page } = await expect('getPageInChangeRequestById', 200, () =>
            ctx.api.spaces.getPageInChangeRequestById(s.id, cr.id, guide, { format: 'markdown' }),
        );
        assert.equal(page.markdown, '# Guide\n\nWelcome to the **guide**.\n');
        assert.deepEqual(outline(page.pages, 1), ['  guide/setup Setup', '  guide/setup-1 Setup']);
        const { data: asDoc } = await expect('getPageInChangeRequestById', 200, () =>
            ctx.api.spaces.getPageInChangeRequestById(s.id, cr.id, guide, { format: 'document' }),
        );
        assert.equal(asDoc.document.object, 'document');
        assert.equal(asDoc.document.data.schemaVersion, 1);
        assert.deepEqual(asDoc.document.nodes.map((n) => n.type), ['heading-1', 'paragraph']);
        assert.ok(asDoc.document.nodes.every((n) => typeof n.key === 'string' && n.key));
        const { data: byPath } = await expect('getPageInChangeRequestByPath', 200, () =>
            ctx.api.spaces.getPageInChangeRequestByPath(s.id, cr.id, 'guide/setup-1', { format: 'markdown' }),
        );
        assert.equal(byPath.id, setup1);
        assert.equal(byPath.markdown, 'Second setup.\n');
        const { data: hint } = await expect('getPageInChangeRequestById', 200, () =>
            ctx.api.spaces.getPageInChangeRequestById(s.id, cr.id, notes, { format: 'markdown' }),
        );
        assert.equal(hint.markdown, '{% hint style="info" %}\nRemember.\n{% endhint %}\n');

        const { items: files } = await walk(
            'listFilesInChangeRequestById',
            (p) => ctx.api.spaces.listFilesInChangeRequestById(s.id, cr.id, { page: p, limit: 1 }),
            { limit: 1 },
        );
        assert.deepEqual(stable(files), stable([file]));
        assert.deepEqual(file.dimensions, { width: 3, height: 2 });
        assert.equal(file.contentType, 'image/png');
        assert.equal(file.size, image.length);
        const { data: oneFile } = await expect('getFileInChangeRequestById', 200, () =>
            ctx.api.spaces.getFileInChangeRequestById(s.id, cr.id, file.id),
        );
        assert.deepEqual(stable(oneFile), stable(file));

        // The same revision by id.
        const { data: byId } = await expect('getRevisionById', 200, () => ctx.api.spaces.getRevisionById(s.id, rev));
        assert.deepEqual(stable(byId), stable(content));
        const { data: revPages } = await expect('listPagesInRevisionById', 200, () =>
            ctx.api.spaces.listPagesInRevisionById(s.id, rev),
        );
        assert.deepEqual(revPages.pages, content.pages);
        const { items: revFiles } = await walk(
            'listFilesInRevisionById',
            (p) => ctx.api.spaces.listFilesInRevisionById(s.id, rev, { page: p, limit: 5 }),
            { limit: 5 },
        );
        assert.deepEqual(stable(revFiles), stable([file]));
        const { data: revFile } = await expect('getFileInRevisionById', 200, () =>
            ctx.api.spaces.getFileInRevisionById(s.id, rev, file.id),
        );
        assert.deepEqual(stable(revFile), stable(file));
        const { data: revPage } = await expect('getPageInRevisionById', 200, () =>
            ctx.api.spaces.getPageInRevisionById(s.id, rev, setup, { format: 'markdown' }),
        );
        assert.equal(revPage.markdown, 'First setup.\n');
        const { data: revByPath } = await expect('getPageInRevisionByPath', 200, () =>
            ctx.api.spaces.getPageInRevisionByPath(s.id, rev, 'guide/setup'),
        );
        assert.equal(revByPath.id, setup);
        assert.equal(revByPath.document.object, 'document');

        // The file's bytes, on a signed link that needs no token and ends
        // with the file's id and name.
        const link = new URL(file.downloadURL);
        assert.ok(link.pathname.endsWith(`/${file.id}/${file.name}`), file.downloadURL);
        assert.ok(link.searchParams.get('expires') && link.searchParams.get('signature'), file.downloadURL);
        const dl = await fetch(file.downloadURL);
        assert.equal(dl.status, 200);
        assert.equal(dl.headers.get('content-type'), 'image/png');
        assert.equal(dl.headers.get('x-content-type-options'), 'nosniff');
        assert.deepEqual(Buffer.from(await dl.arrayBuffer()), image);
        link.searchParams.set('signature', 'A'.repeat(43));
        const forged = await fetch(link);
        assert.equal(forged.status, 403);
        assert.equal((await forged.json()).error.code, 403);

        // Main content is untouched.
        const { data: main } = await expect('getCurrentRevision', 200, () => ctx.api.spaces.getCurrentRevision(s.id));
        assert.equal(main.id, s.revision);
        assert.deepEqual(main.pages, []);
        const { data: mainPages } = await expect('listPages', 200, () => ctx.api.spaces.listPages(s.id));
        assert.deepEqual(mainPages.pages, []);
        const { data: mainFiles } = await expect('listFiles', 200, () => ctx.api.spaces.listFiles(s.id));
        assert.deepEqual(mainFiles.items, []);
        await expectError('getPageById', 404, () => ctx.api.spaces.getPageById(s.id, guide));
        await expectError('getPageByPath', 404, () => ctx.api.spaces.getPageByPath(s.id, 'guide'));
        await expectError('getFileById', 404, () => ctx.api.spaces.getFileById(s.id, file.id));
    });

    it('update and merge: both change requests keep their work in main', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const seed = await createCR(s.id);
        const seeded = await writeContent(s.id, seed.id, [insertPage('Doc', 'Alpha\n\nBeta\n\nGamma')], { compat: false });
        const doc = seeded.changes[0].page.id;
        const m1 = await merge(s.id, seed.id);

        const a = await createCR(s.id);
        const b = await createCR(s.id);
        const written = await writeContent(s.id, a.id, [updatePage(doc, { document: { markdown: 'Alpha by A\n\nBeta\n\nGamma' } })]);
        assert.equal(written.id, a.id);
        assert.notEqual(written.revision, a.revision);
        const bWritten = await writeContent(s.id, b.id, [
            updatePage(doc, { document: { markdown: 'Alpha\n\nBeta\n\nGamma by B' }, title: 'Document' }),
            {
                operation: 'insert_files',
                files: [{ name: 'notes.txt', base64: Buffer.from('notes').toString('base64') }],
            },
        ]);

        const editor = await ctx.user('edit');
        const mA = await merge(s.id, a.id, 'merge', editor.api);
        let { data: bNow } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(s.id, b.id));
        assert.equal(bNow.outdated, true);
        const { data: upd } = await expect('updateChangeRequest', 200, () => ctx.api.spaces.updateChangeRequest(s.id, b.id));
        assert.equal(upd.result, 'update');
        assert.notEqual(upd.revision, bWritten.revision);
        ({ data: bNow } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(s.id, b.id)));
        assert.equal(bNow.outdated, false);
        assert.equal(bNow.revisionMergedAncestor, mA.revision);
        assert.equal(bNow.revision, upd.revision);
        const { data: bContent } = await expect('getRevisionOfChangeRequestById', 200, () =>
            ctx.api.spaces.getRevisionOfChangeRequestById(s.id, b.id),
        );
        assert.equal(bContent.type, 'update');

        const mB = await merge(s.id, b.id);
        const { data: main } = await expect('getCurrentRevision', 200, () => ctx.api.spaces.getCurrentRevision(s.id));
        assert.equal(main.id, mB.revision);
        assert.equal(main.type, 'merge');
        assert.deepEqual(main.parents, [mA.revision, upd.revision]);
        assert.equal(main.mergedFrom.id, b.id);
        assert.equal(main.mergedFrom.status, 'merged');
        assert.deepEqual(outline(main.pages), ['doc Document']);
        assert.equal(await markdownOf(s.id, doc), 'Alpha by A\n\nBeta\n\nGamma by B\n');
        const { data: byPath } = await expect('getPageByPath', 200, () => ctx.api.spaces.getPageByPath(s.id, 'doc', { format: 'document' }));
        assert.equal(byPath.id, doc);
        assert.equal(byPath.document.nodes.length, 3);
        const { data: listed } = await expect('listPages', 200, () => ctx.api.spaces.listPages(s.id));
        assert.deepEqual(listed.pages, main.pages);
        const { items: files } = await walk('listFiles', (p) => ctx.api.spaces.listFiles(s.id, { page: p, limit: 1 }), { limit: 1 });
        assert.deepEqual(files.map((f) => f.name), ['notes.txt']);
        const { data: f } = await expect('getFileById', 200, () => ctx.api.spaces.getFileById(s.id, files[0].id));
        assert.ok(new URL(f.downloadURL).pathname.includes(`/${mB.revision}/${f.id}/`));
        const { data: merged } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(s.id, b.id));
        assert.equal(merged.status, 'merged');
        assert.equal(merged.revisionMerged, mB.revision);
        const { data: older } = await expect('getRevisionById', 200, () => ctx.api.spaces.getRevisionById(s.id, m1.revision));
        assert.deepEqual(outline(older.pages), ['doc Doc']);

        // The same paragraph changed both ways: conflicts, main unchanged.
        const c = await createCR(s.id);
        const d = await createCR(s.id);
        await writeContent(s.id, c.id, [updatePage(doc, { document: { markdown: 'Alpha by A\n\nBeta by C\n\nGamma by B' } })]);
        await writeContent(s.id, d.id, [updatePage(doc, { document: { markdown: 'Alpha by A\n\nBeta by D\n\nGamma by B' } })]);
        const mC = await merge(s.id, c.id);
        const conflict = await merge(s.id, d.id, 'conflicts');
        assert.equal(conflict.revision, mC.revision);
        const { data: still } = await expect('getCurrentRevision', 200, () => ctx.api.spaces.getCurrentRevision(s.id));
        assert.equal(still.id, mC.revision);
        const { data: updConflict } = await expect('updateChangeRequest', 200, () => ctx.api.spaces.updateChangeRequest(s.id, d.id));
        assert.equal(updConflict.result, 'conflicts');
        await expectError('mergeChangeRequest', 400, () => ctx.api.spaces.mergeChangeRequest(s.id, c.id));
    });

    it('applyTemplateToSpace answers 201 without a body and fills main', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        await expect('applyTemplateToSpace', 201, () => ctx.api.spaces.applyTemplateToSpace(s.id, { id: 'product-docs' }));
        const { data: main } = await expect('getCurrentRevision', 200, () => ctx.api.spaces.getCurrentRevision(s.id));
        assert.notEqual(main.id, s.revision);
        assert.deepEqual(outline(main.pages), [
            'overview Overview',
            'getting-started Getting started',
            '  getting-started/quickstart Quickstart',
            '  getting-started/concepts Concepts',
            'guides Guides',
            'faq FAQ',
        ]);
        const { data: quick } = await expect('getPageByPath', 200, () =>
            ctx.api.spaces.getPageByPath(s.id, 'getting-started/quickstart', { format: 'markdown' }),
        );
        assert.match(quick.markdown, /## Install/);
        for (const id of ['api-reference', 'knowledge-base']) {
            const other = await createSpace(ctx.api, ctx.org);
            await expect('applyTemplateToSpace', 201, () => ctx.api.spaces.applyTemplateToSpace(other.id, { id }));
            const { data } = await expect('listPages', 200, () => ctx.api.spaces.listPages(other.id));
            assert.ok(data.pages.length >= 4, `${id}: ${outline(data.pages)}`);
            assert.ok(data.pages.some((p) => p.pages.length > 0), `${id} has no nested pages`);
        }
        await expectError('applyTemplateToSpace', 400, () => ctx.api.spaces.applyTemplateToSpace(s.id, { id: 'cookbook' }));
        const reader = await ctx.user('read');
        await expectError('applyTemplateToSpace', 403, () => reader.api.spaces.applyTemplateToSpace(s.id, { id: 'product-docs' }));
    });

    it('content errors: unknown ids, refused writes, locked spaces', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const cr = await createCR(s.id);
        const before = cr.revision;
        const err = await writeContent(s.id, cr.id, [insertPage('A', 'a'), insertPage('B', 'b'), updatePage(UNKNOWN_ID, { title: 'X' })], {
            status: 400,
        });
        assert.match(err.error.message, /changes\[2\]\.page/);
        const { data: same } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(s.id, cr.id));
        assert.equal(same.revision, before);
        await writeContent(s.id, cr.id, [], { status: 400 });
        await writeContent(s.id, cr.id, [{ operation: 'insert_page', title: 'No document' }], { status: 400 });
        const reader = await ctx.user('read');
        await writeContent(s.id, cr.id, [insertPage('A', 'a')], { token: reader.token, status: 403 });
        await expectError('mergeChangeRequest', 403, () => reader.api.spaces.mergeChangeRequest(s.id, cr.id));
        await expectError('updateChangeRequest', 403, () => reader.api.spaces.updateChangeRequest(s.id, cr.id));
        const outsider = await ctx.newOrg();
        await writeContent(s.id, cr.id, [insertPage('A', 'a')], { token: outsider.token, status: 404 });
        await expectError('getCurrentRevision', 404, () => outsider.api.spaces.getCurrentRevision(s.id));

        await expectError('getRevisionById', 404, () => ctx.api.spaces.getRevisionById(s.id, UNKNOWN_ID));
        await expectError('getPageInChangeRequestById', 404, () => ctx.api.spaces.getPageInChangeRequestById(s.id, cr.id, UNKNOWN_ID));
        await expectError('getFileInChangeRequestById', 404, () => ctx.api.spaces.getFileInChangeRequestById(s.id, cr.id, UNKNOWN_ID));
        await expectError('getRevisionOfChangeRequestById', 404, () => ctx.api.spaces.getRevisionOfChangeRequestById(s.id, '99'));
        await expectError('listFilesInRevisionById', 400, () =>
            ctx.api.spaces.listFilesInRevisionById(s.id, s.revision, { limit: 1001 }),
        );

        await expect('updateSpaceById', 200, () => ctx.api.spaces.updateSpaceById(s.id, { editMode: 'locked' }));
        const locked = await writeContent(s.id, cr.id, [insertPage('A', 'a')], { status: 400 });
        assert.match(locked.error.message, /locked/);
        await expectError('mergeChangeRequest', 400, () => ctx.api.spaces.mergeChangeRequest(s.id, cr.id));
        await expectError('updateChangeRequest', 400, () => ctx.api.spaces.updateChangeRequest(s.id, cr.id));
        await expectError('applyTemplateToSpace', 400, () => ctx.api.spaces.applyTemplateToSpace(s.id, { id: 'product-docs' }));
        await expect('getRevisionOfChangeRequestById', 200, () => ctx.api.spaces.getRevisionOfChangeRequestById(s.id, cr.id));
        await expect('getCurrentRevision', 200, () => ctx.api.spaces.getCurrentRevision(s.id));
    });
});
