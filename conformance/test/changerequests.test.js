// Change requests: create (201, numbered per space), get by id or number,
// update (subject, description, status), list in a space and in an
// organization (paging, status/creator/contributor filters).

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const DOC = {
    object: 'document',
    data: { schemaVersion: 1 },
    nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }],
};

/** Ids of change requests in list order: newest first, ties by id, descending. */
function newestFirst(...crs) {
    const key = (cr) => `${cr.createdAt} ${cr.id}`;
    return [...crs].sort((a, b) => (key(a) < key(b) ? 1 : -1)).map((cr) => cr.id);
}

suite('change requests', (ctx) => {
    async function createCR(api, spaceId, body = { subject: `Change ${uniq()}` }) {
        const { data } = await expect('createChangeRequest', 201, () => api.spaces.createChangeRequest(spaceId, body));
        return data;
    }

    async function setStatus(spaceId, cr, status) {
        const { data } = await expect('updateChangeRequestById', 200, () =>
            ctx.api.spaces.updateChangeRequestById(spaceId, cr.id, { status }),
        );
        assert.equal(data.status, status);
        return data;
    }

    async function listSpace(api, spaceId, query = {}) {
        const { items } = await walk(
            'listChangeRequestsForSpace',
            (page) => api.spaces.listChangeRequestsForSpace(spaceId, { ...query, page, limit: 2 }),
            { limit: 2 },
        );
        return items.map((cr) => cr.id);
    }

    async function listOrg(api, org, query = {}) {
        const { items } = await walk(
            'listChangeRequestsForOrganization',
            (page) => api.orgs.listChangeRequestsForOrganization(org, { ...query, page, limit: 2 }),
            { limit: 2 },
        );
        return items.map((cr) => cr.id);
    }

    it('createChangeRequest answers 201 with a draft numbered in its space', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const subject = `Fix typos ${uniq()}`;
        const first = await createCR(ctx.api, s.id, { subject, agentTaskId: 'task-1' });
        assert.equal(first.object, 'change-request');
        assert.equal(first.number, 1);
        assert.equal(first.status, 'draft');
        assert.equal(first.subject, subject);
        assert.equal(first.space, s.id);
        assert.equal(first.revision, s.revision);
        assert.equal(first.revisionInitial, s.revision);
        assert.equal(first.outdated, false);
        assert.equal(first.comments, 0);
        assert.equal(first.createdBy.id, ctx.me.id);
        assert.equal(first.description, undefined);
        assert.ok(first.urls.location.endsWith(`/v1/spaces/${s.id}/change-requests/${first.id}`));
        const second = await createCR(ctx.api, s.id, {});
        assert.equal(second.number, 2);
        assert.equal(second.subject, '');
        const { data: space } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id));
        assert.equal(space.changeRequests, 2);
        assert.equal(space.changeRequestsDraft, 2);
        assert.equal(space.changeRequestsOpen, 0);
    });

    it('createChangeRequest: 400 for a long subject or a locked space, 403 below edit, 404 outside', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        await expectError('createChangeRequest', 400, () =>
            ctx.api.spaces.createChangeRequest(s.id, { subject: 'x'.repeat(101) }),
        );
        const reviewer = await ctx.user('review');
        await expectError('createChangeRequest', 403, () => reviewer.api.spaces.createChangeRequest(s.id, { subject: 'No' }));
        const editor = await ctx.user('edit');
        const byEditor = await createCR(editor.api, s.id);
        assert.equal(byEditor.createdBy.id, editor.user);
        const other = await ctx.newOrg();
        await expectError('createChangeRequest', 404, () => other.api.spaces.createChangeRequest(s.id, { subject: 'No' }));
        await expect('updateSpaceById', 200, () => ctx.api.spaces.updateSpaceById(s.id, { editMode: 'locked' }));
        await expectError('createChangeRequest', 400, () => ctx.api.spaces.createChangeRequest(s.id, { subject: 'Locked' }));
    });

    it('getChangeRequestById by id or number; 404 unknown or in another space', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const other = await createSpace(ctx.api, ctx.org);
        const cr = await createCR(ctx.api, s.id);
        for (const key of [cr.id, String(cr.number)]) {
            const { data } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(s.id, key));
            assert.equal(data.id, cr.id);
            assert.equal(data.subject, cr.subject);
            assert.equal(data.createdAt, cr.createdAt);
        }
        const reader = await ctx.user('read');
        await expect('getChangeRequestById', 200, () => reader.api.spaces.getChangeRequestById(s.id, cr.id));
        await expectError('getChangeRequestById', 404, () => ctx.api.spaces.getChangeRequestById(s.id, UNKNOWN_ID));
        await expectError('getChangeRequestById', 404, () => ctx.api.spaces.getChangeRequestById(s.id, '2'));
        await expectError('getChangeRequestById', 404, () => ctx.api.spaces.getChangeRequestById(other.id, cr.id));
        const outsider = await ctx.newOrg();
        await expectError('getChangeRequestById', 404, () => outsider.api.spaces.getChangeRequestById(s.id, cr.id));
    });

    it('updateChangeRequestById sets subject, description and status', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const cr = await createCR(ctx.api, s.id);
        const subject = `Renamed ${uniq()}`;
        const { data } = await expect('updateChangeRequestById', 200, () =>
            ctx.api.spaces.updateChangeRequestById(s.id, String(cr.number), { subject, description: DOC, status: 'open' }),
        );
        assert.equal(data.subject, subject);
        assert.deepEqual(data.description, DOC);
        assert.equal(data.status, 'open');
        const { data: got } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(s.id, cr.id));
        assert.deepEqual(got.description, DOC);
        let { data: space } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id));
        assert.deepEqual([space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft], [1, 1, 0]);
        await setStatus(s.id, cr, 'archived');
        ({ data: space } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id)));
        assert.deepEqual([space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft], [1, 0, 0]);
        await setStatus(s.id, cr, 'draft');
        ({ data: space } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id)));
        assert.deepEqual([space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft], [1, 0, 1]);
    });

    it('updateChangeRequestById: 403 below edit, 404 unknown, 400 in a deleted space', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const cr = await createCR(ctx.api, s.id);
        const reviewer = await ctx.user('review');
        await expectError('updateChangeRequestById', 403, () =>
            reviewer.api.spaces.updateChangeRequestById(s.id, cr.id, { subject: 'No' }),
        );
        await expectError('updateChangeRequestById', 404, () =>
            ctx.api.spaces.updateChangeRequestById(s.id, UNKNOWN_ID, { subject: 'No' }),
        );
        await expect('deleteSpaceById', 205, () => ctx.api.spaces.deleteSpaceById(s.id));
        await expectError('updateChangeRequestById', 400, () =>
            ctx.api.spaces.updateChangeRequestById(s.id, cr.id, { subject: 'Too late' }),
        );
        const { data } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(s.id, cr.id));
        assert.equal(data.subject, cr.subject);
    });

    it('listChangeRequestsForSpace pages newest first and filters by status, creator, contributor', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const editor = await ctx.user('edit');
        const a1 = await createCR(ctx.api, s.id);
        const e1 = await createCR(editor.api, s.id);
        const a2 = await createCR(ctx.api, s.id);
        const e2 = await createCR(editor.api, s.id);
        const a3 = await createCR(ctx.api, s.id);
        for (const cr of [a1, e1, a2, e2]) await setStatus(s.id, cr, 'open');
        await setStatus(s.id, a2, 'archived');
        assert.deepEqual(await listSpace(ctx.api, s.id), newestFirst(e2, e1, a1), 'the default status is open');
        assert.deepEqual(await listSpace(ctx.api, s.id, { status: 'open' }), newestFirst(e2, e1, a1));
        assert.deepEqual(await listSpace(ctx.api, s.id, { status: 'draft' }), [a3.id]);
        assert.deepEqual(await listSpace(ctx.api, s.id, { status: 'archived' }), [a2.id]);
        assert.deepEqual(await listSpace(ctx.api, s.id, { status: 'merged' }), []);
        assert.deepEqual(await listSpace(ctx.api, s.id, { creator: editor.user }), newestFirst(e2, e1));
        assert.deepEqual(await listSpace(ctx.api, s.id, { contributor: editor.user }), newestFirst(e2, e1));
        assert.deepEqual(await listSpace(ctx.api, s.id, { status: 'draft', creator: editor.user }), []);
        const reader = await ctx.user('read');
        assert.deepEqual(await listSpace(reader.api, s.id, { status: 'draft' }), [a3.id]);
        const outsider = await ctx.newOrg();
        await expectError('listChangeRequestsForSpace', 404, () => outsider.api.spaces.listChangeRequestsForSpace(s.id));
    });

    it('listChangeRequestsForOrganization spans the live spaces of the organization', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const s1 = await createSpace(o.api, o.organization);
        const s2 = await createSpace(o.api, o.organization);
        const gone = await createSpace(o.api, o.organization);
        const c1 = await createCR(o.api, s1.id);
        const c2 = await createCR(o.api, s2.id);
        const c3 = await createCR(o.api, s1.id);
        const cGone = await createCR(o.api, gone.id);
        await createCR(ctx.api, (await createSpace(ctx.api, ctx.org)).id);
        assert.deepEqual(await listOrg(o.api, o.organization, { status: 'draft' }), newestFirst(cGone, c3, c2, c1));
        await expect('deleteSpaceById', 205, () => o.api.spaces.deleteSpaceById(gone.id));
        assert.deepEqual(await listOrg(o.api, o.organization, { status: 'draft' }), newestFirst(c3, c2, c1));
        assert.deepEqual(await listOrg(o.api, o.organization), [], 'the default status is open');
        assert.deepEqual(await listOrg(o.api, o.organization, { status: 'draft', creator: o.user }), newestFirst(c3, c2, c1));
        assert.deepEqual(await listOrg(o.api, o.organization, { status: 'draft', contributor: ctx.me.id }), []);
        await expectError('listChangeRequestsForOrganization', 404, () =>
            ctx.api.orgs.listChangeRequestsForOrganization(o.organization),
        );
        await expectError('listChangeRequestsForOrganization', 400, () =>
            o.api.orgs.listChangeRequestsForOrganization(o.organization, { page: 'garbage' }),
        );
    });
});
