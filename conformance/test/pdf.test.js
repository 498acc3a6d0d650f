// PDF export: the links getSpacePDF and getChangeRequestPDF answer, fetched
// without a token, are PDF documents holding the space's or the change
// request's pages; page and only select pages; a tampered link is refused.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, TIMEOUT, UNKNOWN_ID } from '../lib/harness.js';
import { expect, expectError } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const insertPage = (title, markdown) => ({ operation: 'insert_page', title, document: { markdown } });

suite('pdf export', (ctx) => {
    /** POST …/content with plain fetch (the client has no such method). */
    async function writeContent(spaceId, crId, changes) {
        const res = await fetch(`${ctx.server.url}/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ changes }),
        });
        const text = await res.text();
        assert.equal(res.status, 200, `updateChangeRequestContent: ${res.status} ${text}`);
        return JSON.parse(text);
    }

    /** Fetches a PDF link without a token. */
    async function fetchPDF(url) {
        const res = await fetch(url);
        const body = Buffer.from(await res.arrayBuffer());
        return { status: res.status, type: res.headers.get('content-type'), body };
    }

    it('answers signed links to PDFs of a space and of a change request', { timeout: TIMEOUT }, async () => {
        const space = await createSpace(ctx.api, ctx.org);
        const cr = (await expect('createChangeRequest', 201, () => ctx.api.spaces.createChangeRequest(space.id, { subject: 'Pages' }))).data;
        const res = await writeContent(space.id, cr.id, [
            insertPage('Overview', '# Overview\n\nRead **this** first.\n'),
            insertPage('Details', 'More words.\n\n```\ncode line\n```\n'),
        ]);
        const pageId = res.changes[0].page.id;
        await expect('mergeChangeRequest', 200, () => ctx.api.spaces.mergeChangeRequest(space.id, cr.id));

        const reader = await ctx.user('read');
        const whole = (await expect('getSpacePDF', 200, () => reader.api.spaces.getSpacePdf(space.id))).data;
        assert.match(whole.url, new RegExp(`^${ctx.server.url}/v1/pdfs/`));
        const pdf = await fetchPDF(whole.url);
        assert.equal(pdf.status, 200);
        assert.equal(pdf.type, 'application/pdf');
        assert.equal(pdf.body.subarray(0, 5).toString('latin1'), '%PDF-');

        const one = (await expect('getSpacePDF', 200, () => reader.api.spaces.getSpacePdf(space.id, { page: pageId, only: true }))).data;
        assert.equal(new URL(one.url).searchParams.get('page'), pageId);
        const onePDF = await fetchPDF(one.url);
        assert.equal(onePDF.status, 200);
        assert.ok(onePDF.body.length < pdf.body.length, 'one page makes a smaller PDF than the whole space');

        const draft = (await expect('createChangeRequest', 201, () => ctx.api.spaces.createChangeRequest(space.id, { subject: 'Draft' }))).data;
        const crLink = (await expect('getChangeRequestPDF', 200, () => reader.api.spaces.getChangeRequestPdf(space.id, draft.id))).data;
        assert.equal((await fetchPDF(crLink.url)).status, 200);

        const tampered = new URL(whole.url);
        tampered.searchParams.set('only', 'true');
        const bad = await fetch(tampered);
        assert.equal(bad.status, 403);
        assert.equal((await bad.json()).error.code, 403);

        await expectError('getSpacePDF', 400, () => reader.api.spaces.getSpacePdf(space.id, { only: true }));
        await expectError('getSpacePDF', 404, () => reader.api.spaces.getSpacePdf(space.id, { page: UNKNOWN_ID }));
        await expectError('getSpacePDF', 404, () => reader.api.spaces.getSpacePdf(UNKNOWN_ID));
        await expectError('getChangeRequestPDF', 404, () => reader.api.spaces.getChangeRequestPdf(space.id, UNKNOWN_ID));
    });
});
