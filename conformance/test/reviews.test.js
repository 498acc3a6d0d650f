// Change request reviews and requested reviewers, and merge rules: the
// author asks two reviewers, one requests changes, the author pushes a fix
// (the first review is outdated), both approve, and a
// require_specific_reviewers rule first blocks and then allows the merge.
// Content is written through updateChangeRequestContent with plain fetch,
// as the client of 0.143.2 has no such method.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';
import { validateComponent } from '../lib/schema.js';

suite('reviews', (ctx) => {
    /** POST …/content with plain fetch as the holder of token. */
    async function writeContent(token, spaceId, crId, title) {
        const res = await fetch(`${ctx.server.url}/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ changes: [{ operation: 'insert_page', title, document: { markdown: `${title}.` } }] }),
        });
        const text = await res.text();
        assert.equal(res.status, 200, `updateChangeRequestContent: ${res.status} ${text}`);
        const cr = JSON.parse(text);
        assert.equal(validateComponent('ChangeRequest', cr), null);
        return cr;
    }

    async function reviews(api, spaceId, crId, query = {}) {
        const { items } = await walk(
            'getReviewsByChangeRequestId',
            (page) => api.spaces.getReviewsByChangeRequestId(spaceId, crId, { ...query, page, limit: 1 }),
            { limit: 1 },
        );
        return items;
    }

    async function requested(api, spaceId, crId) {
        const { items } = await walk(
            'getRequestedReviewersByChangeRequestId',
            (page) => api.spaces.getRequestedReviewersByChangeRequestId(spaceId, crId, { page, limit: 1 }),
            { limit: 1, key: (r) => r.user.id },
        );
        return items;
    }

    async function review(who, spaceId, crId, body) {
        const { data } = await expect('submitChangeRequestReview', 201, () =>
            who.api.spaces.submitChangeRequestReview(spaceId, crId, body),
        );
        assert.equal(data.object, 'change-request-review');
        assert.equal(data.reviewer.id, who.user);
        assert.equal(data.status, body.status);
        assert.equal(data.outdated, false);
        return data;
    }

    async function getCR(spaceId, crId) {
        const { data } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(spaceId, crId));
        return data;
    }

    it('a review round: request, changes requested, a fix, approvals, and a merge rule that blocks then allows', { timeout: TIMEOUT }, async () => {
        const author = await ctx.user('edit');
        const first = await ctx.user('review');
        const second = await ctx.user('review');
        const space = await createSpace(ctx.api, ctx.org);
        const { data: cr } = await expect('createChangeRequest', 201, () =>
            author.api.spaces.createChangeRequest(space.id, { subject: `Guide ${uniq()}` }),
        );
        assert.equal(cr.status, 'draft');
        const rev1 = (await writeContent(author.token, space.id, cr.id, 'Welcome')).revision;

        // Two reviewers are asked; the change request opens.
        const { data: asked } = await expect('requestReviewersForChangeRequest', 200, () =>
            author.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [first.user, second.user] }),
        );
        assert.deepEqual(asked.users.map((r) => r.user.id).sort(), [first.user, second.user].sort());
        for (const r of asked.users) {
            assert.equal(r.object, 'change-request-requested-reviewer');
            assert.equal(r.kind, 'user');
            assert.equal(r.requestedBy.id, author.user);
            assert.equal(r.revision, rev1);
        }
        assert.equal((await getCR(space.id, cr.id)).status, 'open');
        assert.equal((await requested(ctx.api, space.id, cr.id)).length, 2);

        // The author cannot review their own change request; a reader cannot review.
        await expectError('submitChangeRequestReview', 403, () =>
            author.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' }),
        );
        const reader = await ctx.user('read');
        await expectError('submitChangeRequestReview', 403, () =>
            reader.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' }),
        );

        // The first reviewer requests changes, with a comment.
        const changes = await review(first, space.id, cr.id, { status: 'changes-requested', comment: { markdown: 'Fix the title.' } });
        assert.equal(changes.revision, rev1);
        assert.equal(changes.requestedBy.id, author.user);
        assert.equal(changes.comment.target.review, changes.id);
        assert.equal(changes.comment.target.changeRequest, cr.id);
        assert.deepEqual(
            (await requested(ctx.api, space.id, cr.id)).map((r) => r.user.id),
            [second.user],
        );
        const { data: comments } = await expect('listCommentsInChangeRequest', 200, () =>
            ctx.api.spaces.listCommentsInChangeRequest(space.id, cr.id),
        );
        assert.deepEqual(comments.items.map((c) => c.id), [changes.comment.id]);

        // The author pushes a fix: the first review is outdated.
        const rev2 = (await writeContent(author.token, space.id, cr.id, 'Fixed title')).revision;
        assert.notEqual(rev2, rev1);
        const all = await reviews(ctx.api, space.id, cr.id, { format: 'document' });
        assert.deepEqual(all.map((r) => [r.id, r.outdated]), [[changes.id, true]]);
        assert.equal(all[0].comment.body.document.object, 'document');
        assert.deepEqual((await reviews(ctx.api, space.id, cr.id, { outdated: true })).map((r) => r.id), [changes.id]);
        assert.deepEqual(await reviews(ctx.api, space.id, cr.id, { outdated: false }), []);

        // A rule requires both reviewers' approval: one approval is not enough.
        const { data: ruled } = await expect('updateSpaceById', 200, () =>
            ctx.api.spaces.updateSpaceById(space.id, {
                mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [first.user, second.user] }] },
            }),
        );
        assert.equal(ruled.mergeRules.type, 'rules');
        const approved1 = await review(first, space.id, cr.id, { status: 'approved' });
        assert.equal(approved1.revision, rev2);
        const refused = await expectError('mergeChangeRequest', 400, () => author.api.spaces.mergeChangeRequest(space.id, cr.id));
        assert.match(refused.error.message, /require_specific_reviewers/);
        assert.match(refused.error.message, new RegExp(second.user));
        const { data: after } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(space.id));
        assert.equal(after.revision, space.revision);
        assert.equal((await getCR(space.id, cr.id)).status, 'open');

        // Both approve: the rule allows the merge.
        const approved2 = await review(second, space.id, cr.id, { status: 'approved' });
        assert.equal(approved2.requestedBy.id, author.user);
        assert.deepEqual(
            (await reviews(ctx.api, space.id, cr.id, { outdated: false })).map((r) => r.id),
            [approved1.id, approved2.id],
        );
        assert.deepEqual(await requested(ctx.api, space.id, cr.id), []);
        const { data: merged } = await expect('mergeChangeRequest', 200, () => author.api.spaces.mergeChangeRequest(space.id, cr.id));
        assert.equal(merged.result, 'merge');
        assert.equal((await getCR(space.id, cr.id)).status, 'merged');

        // A merged change request takes no more reviews.
        await expectError('submitChangeRequestReview', 400, () =>
            first.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' }),
        );
    });

    it('removeRequestedReviewerFromChangeRequest answers 205, then 204; bad requests and outsiders are refused', { timeout: TIMEOUT }, async () => {
        const reviewer = await ctx.user('review');
        const commenter = await ctx.user('comment');
        const space = await createSpace(ctx.api, ctx.org);
        const { data: cr } = await expect('createChangeRequest', 201, () => ctx.api.spaces.createChangeRequest(space.id, {}));
        const subject = `Renamed ${uniq()}`;
        await expect('requestReviewersForChangeRequest', 200, () =>
            ctx.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.user], subject }),
        );
        assert.equal((await getCR(space.id, cr.id)).subject, subject);
        const err = await expectError('requestReviewersForChangeRequest', 400, () =>
            ctx.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [commenter.user] }),
        );
        assert.match(err.error.message, /users\[0\]/);
        await expectError('requestReviewersForChangeRequest', 400, () =>
            ctx.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [ctx.me.id] }),
        );
        await expectError('requestReviewersForChangeRequest', 403, () =>
            reviewer.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.user] }),
        );
        await expect('removeRequestedReviewerFromChangeRequest', 205, () =>
            ctx.api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer.user),
        );
        await expect('removeRequestedReviewerFromChangeRequest', 204, () =>
            ctx.api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer.user),
        );
        assert.deepEqual(await requested(ctx.api, space.id, cr.id), []);

        const outsider = await ctx.newOrg();
        await expectError('getReviewsByChangeRequestId', 404, () =>
            outsider.api.spaces.getReviewsByChangeRequestId(space.id, cr.id),
        );
        await expectError('getRequestedReviewersByChangeRequestId', 404, () =>
            outsider.api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id),
        );
        await expectError('getReviewsByChangeRequestId', 404, () =>
            ctx.api.spaces.getReviewsByChangeRequestId(space.id, UNKNOWN_ID),
        );
    });
});
