// Comments on a space and on a change request: post, read, list (status,
// page, author filters, order, paging), update (body, resolve, reactions),
// delete, and replies, with the counters of open comments checked at every
// step of a full review thread. Content is written through
// updateChangeRequestContent with plain fetch, as the client of 0.143.2
// has no such method.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';
import { validateComponent } from '../lib/schema.js';

const md = (markdown) => ({ markdown });

const DOC = {
    object: 'document',
    data: { schemaVersion: 1 },
    nodes: [
        {
            object: 'block',
            type: 'paragraph',
            nodes: [
                {
                    object: 'text',
                    leaves: [
                        { object: 'leaf', text: 'Bold', marks: [{ object: 'mark', type: 'bold' }] },
                        { object: 'leaf', text: ' move.', marks: [] },
                    ],
                },
            ],
        },
    ],
};

/**
 * The comment operations of a space (cr undefined) or of a change request,
 * for one client: each entry is [operationId, call].
 */
function commentOps(api, spaceId, cr) {
    const s = api.spaces;
    if (!cr) {
        return {
            list: ['listCommentsInSpace', (q) => s.listCommentsInSpace(spaceId, q)],
            post: ['postCommentInSpace', (b) => s.postCommentInSpace(spaceId, b)],
            get: ['getCommentInSpace', (id, q) => s.getCommentInSpace(spaceId, id, q)],
            update: ['updateCommentInSpace', (id, b) => s.updateCommentInSpace(spaceId, id, b)],
            del: ['deleteCommentInSpace', (id) => s.deleteCommentInSpace(spaceId, id)],
            listReplies: ['listCommentRepliesInSpace', (id, q) => s.listCommentRepliesInSpace(spaceId, id, q)],
            postReply: ['postCommentReplyInSpace', (id, b) => s.postCommentReplyInSpace(spaceId, id, b)],
            getReply: ['getCommentReplyInSpace', (id, r, q) => s.getCommentReplyInSpace(spaceId, id, r, q)],
        };
    }
    return {
        list: ['listCommentsInChangeRequest', (q) => s.listCommentsInChangeRequest(spaceId, cr, q)],
        post: ['postCommentInChangeRequest', (b) => s.postCommentInChangeRequest(spaceId, cr, b)],
        get: ['getCommentInChangeRequest', (id, q) => s.getCommentInChangeRequest(spaceId, cr, id, q)],
        update: ['updateCommentInChangeRequest', (id, b) => s.updateCommentInChangeRequest(spaceId, cr, id, b)],
        del: ['deleteCommentInChangeRequest', (id) => s.deleteCommentInChangeRequest(spaceId, cr, id)],
        listReplies: ['listCommentRepliesInChangeRequest', (id, q) => s.listCommentRepliesInChangeRequest(spaceId, cr, id, q)],
        postReply: ['postCommentReplyInChangeRequest', (id, b, q) => s.postCommentReplyInChangeRequest(spaceId, cr, id, b, q)],
        getReply: ['getCommentReplyInChangeRequest', (id, r, q) => s.getCommentReplyInChangeRequest(spaceId, cr, id, r, q)],
    };
}

/** Call one comment operation and check its status; returns the body. */
async function call(ops, name, status, ...args) {
    const [op, fn] = ops[name];
    const { data } = await expect(op, status, () => fn(...args));
    return data;
}

suite('comments', (ctx) => {
    /** POST …/content with plain fetch, checked against the ChangeRequest schema. */
    async function writeContent(spaceId, crId, changes) {
        const res = await fetch(`${ctx.server.url}/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ changes }),
        });
        const text = await res.text();
        assert.equal(res.status, 200, `updateChangeRequestContent: ${res.status} ${text}`);
        const body = JSON.parse(text);
        assert.equal(validateComponent('ChangeRequest', body.changeRequest), null);
        return body;
    }

    async function createCR(spaceId) {
        const { data } = await expect('createChangeRequest', 201, () =>
            ctx.api.spaces.createChangeRequest(spaceId, { subject: `Change ${uniq()}` }),
        );
        return data;
    }

    async function merge(spaceId, crId) {
        const { data } = await expect('mergeChangeRequest', 200, () => ctx.api.spaces.mergeChangeRequest(spaceId, crId));
        assert.equal(data.result, 'merge', JSON.stringify(data));
    }

    async function blockKeys(spaceId, pageId) {
        const { data } = await expect('getPageById', 200, () => ctx.api.spaces.getPageById(spaceId, pageId, { format: 'document' }));
        return data.document.nodes.map((n) => n.key);
    }

    /**
     * A space whose main content holds the page Guide ("Intro." and
     * "Details."), with an open change request on it.
     */
    async function commentSpace() {
        const s = await createSpace(ctx.api, ctx.org);
        const first = await createCR(s.id);
        const res = await writeContent(s.id, first.id, [{ operation: 'insert_page', title: 'Guide', document: md('Intro.\n\nDetails.') }]);
        const page = res.changes[0].page.id;
        await merge(s.id, first.id);
        const [intro, details] = await blockKeys(s.id, page);
        const cr = await createCR(s.id);
        return { space: s.id, page, intro, details, cr: cr.id };
    }

    /** Open comments of the space and of the change request. */
    async function counters(spaceId, crId) {
        const { data: sp } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(spaceId));
        const { data: cr } = await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(spaceId, crId));
        return [sp.comments, cr.comments];
    }

    /** A full review thread on a block of the page. */
    async function reviewThread(inCR) {
        const cs = await commentSpace();
        const author = await ctx.user('comment');
        const editor = await ctx.user('edit');
        const reviewer = await ctx.user('review');
        const reader = await ctx.user('read');
        const ops = (u) => commentOps(u.api, cs.space, inCR ? cs.cr : undefined);
        const admin = commentOps(ctx.api, cs.space, inCR ? cs.cr : undefined);
        const open = async (n) => assert.deepEqual(await counters(cs.space, cs.cr), inCR ? [0, n] : [n, 0]);
        await open(0);

        // Post on the block.
        const c = await call(ops(author), 'post', 200, { body: md('Is this right?'), page: cs.page, node: cs.details });
        assert.equal(c.object, 'comment');
        assert.equal(c.status, 'open');
        assert.equal(c.replies, 0);
        assert.deepEqual(c.reactions, []);
        assert.deepEqual(c.body, { markdown: 'Is this right?\n' });
        assert.equal(c.postedBy.id, author.user);
        assert.equal(c.target.space, cs.space);
        assert.equal(c.target.changeRequest, inCR ? cs.cr : undefined);
        assert.deepEqual(c.target.node, { id: cs.details, preview: 'Details.' });
        assert.equal(c.target.page.id, cs.page);
        assert.equal(c.target.page.title, 'Guide');
        assert.equal(c.target.page.path, 'guide');
        assert.equal(c.target.page.outdated, false);
        assert.deepEqual(c.permissions, { view: true, edit: true, reply: true, delete: true });
        assert.ok(c.urls.location.endsWith(inCR ? `/change-requests/${cs.cr}/comments/${c.id}` : `/spaces/${cs.space}/comments/${c.id}`));
        await open(1);
        const read = await call(ops(reader), 'get', 200, c.id);
        assert.deepEqual(read.target, c.target);
        assert.deepEqual(read.permissions, { view: true, edit: false, reply: false, delete: false });
        await expectError(ops(reader).post[0], 403, () => ops(reader).post[1]({ body: md('No') }));

        // A reply.
        const r = await call(ops(editor), 'postReply', 200, c.id, { body: md('Yes.') });
        assert.equal(r.object, 'comment-reply');
        assert.deepEqual(r.body, { markdown: 'Yes.\n' });
        assert.equal(r.postedBy.id, editor.user);
        assert.ok(r.urls.location.endsWith(`/comments/${c.id}/replies/${r.id}`));
        assert.equal((await call(ops(reader), 'get', 200, c.id)).replies, 1);
        const { items: replies } = await walk(ops(reader).listReplies[0], (page) => ops(reader).listReplies[1](c.id, { page, limit: 1 }), { limit: 1 });
        assert.deepEqual(replies.map((x) => x.id), [r.id]);
        assert.equal((await call(ops(reader), 'getReply', 200, c.id, r.id)).id, r.id);
        await open(1);

        // Reactions.
        await call(ops(reviewer), 'update', 200, c.id, { addedReactions: ['👍'] });
        await call(ops(editor), 'update', 200, c.id, { addedReactions: ['👍', '🎉'] });
        const reacted = await call(ops(editor), 'update', 200, c.id, { addedReactions: ['👍'] });
        assert.deepEqual(
            reacted.reactions.map((x) => [x.emoji, x.count, x.users.map((u) => u.user.id)]),
            [['👍', 2, [reviewer.user, editor.user]], ['🎉', 1, [editor.user]]],
        );
        await expectError(ops(reader).update[0], 403, () => ops(reader).update[1](c.id, { addedReactions: ['👍'] }));
        await open(1);

        // Resolve, list by status, unresolve.
        const list = async (q) => (await walk(ops(reader).list[0], (page) => ops(reader).list[1]({ ...q, page, limit: 2 }), { limit: 2 })).items.map((x) => x.id);
        const resolved = await call(ops(editor), 'update', 200, c.id, { resolved: true });
        assert.equal(resolved.status, 'resolved');
        assert.equal(resolved.resolvedBy.id, editor.user);
        assert.ok(resolved.resolvedAt);
        await open(0);
        assert.deepEqual(await list({ status: 'open' }), []);
        assert.deepEqual(await list({ status: 'resolved' }), [c.id]);
        assert.deepEqual(await list({}), [c.id]);
        const reopened = await call(ops(reviewer), 'update', 200, c.id, { resolved: false });
        assert.equal(reopened.status, 'open');
        assert.equal(reopened.resolvedAt, undefined);
        assert.equal(reopened.resolvedBy, undefined);
        await open(1);
        assert.deepEqual(await list({ status: 'open' }), [c.id]);

        // Only the author edits the body.
        await expectError(ops(editor).update[0], 403, () => ops(editor).update[1](c.id, { body: md('Not yours') }));
        const edited = await call(ops(author), 'update', 200, c.id, { body: { document: DOC } });
        assert.deepEqual(edited.body, { markdown: '**Bold** move.\n' });
        assert.ok(edited.editedAt);
        const asDoc = await call(ops(reader), 'get', 200, c.id, { format: 'document' });
        assert.equal(asDoc.body.document.nodes[0].nodes[0].leaves[0].text, 'Bold');

        // A second comment; delete: not by another commenter, by the
        // author, and by an admin.
        const second = await call(ops(reviewer), 'post', 200, { body: md('Looks good.') });
        await open(2);
        await expectError(ops(editor).del[0], 403, () => ops(editor).del[1](c.id));
        await call(ops(author), 'del', 205, c.id);
        await open(1);
        await expectError(ops(reader).get[0], 404, () => ops(reader).get[1](c.id));
        await expectError(ops(reader).getReply[0], 404, () => ops(reader).getReply[1](c.id, r.id));
        await call(ops(author), 'del', 204, c.id);
        await call(admin, 'del', 205, second.id);
        await open(0);
        assert.deepEqual(await list({}), []);
    }

    it('a full review thread on a space', { timeout: TIMEOUT }, async () => {
        await reviewThread(false);
    });

    it('a full review thread on a change request', { timeout: TIMEOUT }, async () => {
        await reviewThread(true);
    });

    it('space replies: list, update, delete', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const author = await ctx.user('comment');
        const other = await ctx.user('review');
        const ops = (u) => commentOps(u.api, s.id);
        const c = await call(commentOps(ctx.api, s.id), 'post', 200, { body: md('Thread') });
        const made = [];
        for (let i = 0; i < 5; i++) {
            const by = i % 2 ? other : author;
            made.push((await call(ops(by), 'postReply', 200, c.id, { body: md(`Reply ${i}`) })).id);
        }
        const { items } = await walk('listCommentRepliesInSpace', (page) => ctx.api.spaces.listCommentRepliesInSpace(s.id, c.id, { page, limit: 2 }), { limit: 2 });
        assert.deepEqual(items.map((r) => r.id), made, 'oldest first');
        const { data: asDoc } = await expect('listCommentRepliesInSpace', 200, () => ctx.api.spaces.listCommentRepliesInSpace(s.id, c.id, { format: 'document' }));
        assert.equal(asDoc.items[0].body.document.object, 'document');

        const { data: reacted } = await expect('updateCommentReplyInSpace', 200, () =>
            other.api.spaces.updateCommentReplyInSpace(s.id, c.id, made[0], { addedReactions: ['👀'] }),
        );
        assert.deepEqual(reacted.reactions.map((x) => x.emoji), ['👀']);
        await expectError('updateCommentReplyInSpace', 403, () => other.api.spaces.updateCommentReplyInSpace(s.id, c.id, made[0], { body: md('Mine now') }));
        const { data: edited } = await expect('updateCommentReplyInSpace', 200, () =>
            author.api.spaces.updateCommentReplyInSpace(s.id, c.id, made[0], { body: md('Edited') }),
        );
        assert.deepEqual(edited.body, { markdown: 'Edited\n' });
        assert.ok(edited.editedAt);
        const { data: got } = await expect('getCommentReplyInSpace', 200, () => ctx.api.spaces.getCommentReplyInSpace(s.id, c.id, made[0], { format: 'markdown' }));
        assert.deepEqual(got.body, { markdown: 'Edited\n' });

        await expectError('deleteCommentReplyInSpace', 403, () => other.api.spaces.deleteCommentReplyInSpace(s.id, c.id, made[0]));
        await expect('deleteCommentReplyInSpace', 205, () => author.api.spaces.deleteCommentReplyInSpace(s.id, c.id, made[0]));
        await expect('deleteCommentReplyInSpace', 205, () => ctx.api.spaces.deleteCommentReplyInSpace(s.id, c.id, made[1]));
        await expect('deleteCommentReplyInSpace', 204, () => ctx.api.spaces.deleteCommentReplyInSpace(s.id, c.id, made[1]));
        const { data: after } = await expect('getCommentInSpace', 200, () => ctx.api.spaces.getCommentInSpace(s.id, c.id));
        assert.equal(after.replies, 3);
    });

    it('change request replies take the format on post', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const cr = await createCR(s.id);
        const ops = commentOps(ctx.api, s.id, cr.id);
        const c = await call(ops, 'post', 200, { body: { document: DOC } });
        assert.deepEqual(c.body, { markdown: '**Bold** move.\n' });
        const r = await call(ops, 'postReply', 200, c.id, { body: md('A *reply*.') }, { format: 'document' });
        assert.equal(r.body.document.nodes[0].nodes[0].leaves[1].text, 'reply');
        const got = await call(ops, 'getReply', 200, c.id, r.id, { format: 'markdown' });
        assert.deepEqual(got.body, { markdown: 'A _reply_.\n' });
        const listed = await call(ops, 'listReplies', 200, c.id, { format: 'document' });
        assert.equal(listed.items[0].body.document.object, 'document');
        const comments = await call(ops, 'list', 200, { format: 'document' });
        assert.equal(comments.items[0].body.document.object, 'document');
    });

    it('comment lists filter by status, page and authors, order and page', { timeout: TIMEOUT }, async () => {
        const cs = await commentSpace();
        const users = [await ctx.user('comment'), await ctx.user('review'), await ctx.user('edit')];
        const made = [];
        for (let i = 0; i < 7; i++) {
            const body = { body: md(`Comment ${i}`), ...(i % 2 === 0 ? { page: cs.page } : {}) };
            made.push((await call(commentOps(users[i % 3].api, cs.space), 'post', 200, body)).id);
            await new Promise((r) => setTimeout(r, 3));
        }
        for (const i of [1, 4]) await call(commentOps(ctx.api, cs.space), 'update', 200, made[i], { resolved: true });
        await call(commentOps(ctx.api, cs.space, cs.cr), 'post', 200, { body: md('Elsewhere'), page: cs.page });
        assert.deepEqual(await counters(cs.space, cs.cr), [5, 1]);
        const pick = (...is) => is.map((i) => made[i]);
        const list = async (q) =>
            (await walk('listCommentsInSpace', (page) => ctx.api.spaces.listCommentsInSpace(cs.space, { ...q, page, limit: 2 }), { limit: 2 })).items.map((c) => c.id);
        assert.deepEqual(await list({}), pick(6, 5, 4, 3, 2, 1, 0));
        assert.deepEqual(await list({ order: 'asc' }), pick(0, 1, 2, 3, 4, 5, 6));
        assert.deepEqual(await list({ status: 'open' }), pick(6, 5, 3, 2, 0));
        assert.deepEqual(await list({ status: 'resolved', order: 'asc' }), pick(1, 4));
        assert.deepEqual(await list({ status: 'all' }), pick(6, 5, 4, 3, 2, 1, 0));
        assert.deepEqual(await list({ targetPage: cs.page }), pick(6, 4, 2, 0));
        assert.deepEqual(await list({ authors: [users[0].user] }), pick(6, 3, 0));
        assert.deepEqual(await list({ authors: [users[1].user, users[2].user], order: 'asc' }), pick(1, 2, 4, 5));
        assert.deepEqual(await list({ authors: [users[1].user], status: 'resolved', targetPage: cs.page }), pick(4));
        const { items } = await walk('listCommentsInChangeRequest', (page) => ctx.api.spaces.listCommentsInChangeRequest(cs.space, cs.cr, { page, limit: 1 }), { limit: 1 });
        assert.equal(items.length, 1);
        assert.equal(items[0].target.changeRequest, cs.cr);
    });

    it('target.page follows the content and turns outdated when the block goes', { timeout: TIMEOUT }, async () => {
        const cs = await commentSpace();
        const spaceOps = commentOps(ctx.api, cs.space);
        const crOps = commentOps(ctx.api, cs.space, cs.cr);
        const inSpace = await call(spaceOps, 'post', 200, { body: md('On details'), page: cs.page, node: cs.details });
        const onIntro = await call(spaceOps, 'post', 200, { body: md('On intro'), page: cs.page, node: cs.intro });
        const inCR = await call(crOps, 'post', 200, { body: md('On details'), page: cs.page, node: cs.details });
        const outdated = async (ops, c) => (await call(ops, 'get', 200, c.id)).target.page.outdated;

        await writeContent(cs.space, cs.cr, [{ operation: 'update_page', page: cs.page, title: 'Handbook', document: md('Intro.') }]);
        assert.equal(await outdated(crOps, inCR), true);
        assert.equal(await outdated(spaceOps, inSpace), false, 'main content did not change');
        assert.equal((await call(crOps, 'get', 200, inCR.id)).target.page.title, 'Handbook');
        await merge(cs.space, cs.cr);
        assert.equal(await outdated(spaceOps, inSpace), true);
        assert.equal(await outdated(spaceOps, onIntro), false);
        const now = await call(spaceOps, 'get', 200, onIntro.id);
        assert.equal(now.target.page.title, 'Handbook');
        assert.equal(now.target.revision, inSpace.target.revision, 'the revision it was posted on');
    });

    it('errors: 400 bodies and targets, 403 below comment, 404 elsewhere', { timeout: TIMEOUT }, async () => {
        const cs = await commentSpace();
        const ops = commentOps(ctx.api, cs.space);
        await expectError('postCommentInSpace', 400, () => ctx.api.spaces.postCommentInSpace(cs.space, { body: {} }));
        await expectError('postCommentInSpace', 400, () => ctx.api.spaces.postCommentInSpace(cs.space, { body: md('x'), page: UNKNOWN_ID }));
        await expectError('postCommentInSpace', 400, () => ctx.api.spaces.postCommentInSpace(cs.space, { body: md('x'), page: cs.page, node: 'nosuchblock' }));
        await expectError('postCommentInSpace', 400, () => ctx.api.spaces.postCommentInSpace(cs.space, { body: md('x'), node: cs.intro }));
        await expectError('postCommentInSpace', 400, () =>
            ctx.api.spaces.postCommentInSpace(cs.space, { body: md('x'), page: cs.page, node: cs.intro, tableCell: { record: 'r1', definition: 'c1' } }),
        );
        await expectError('postCommentReplyInSpace', 400, () => ctx.api.spaces.postCommentReplyInSpace(cs.space, UNKNOWN_ID, { body: {} }));
        const c = await call(ops, 'post', 200, { body: md('x') });
        await expectError('updateCommentInSpace', 400, () => ctx.api.spaces.updateCommentInSpace(cs.space, c.id, { addedReactions: Array.from({ length: 21 }, (_, i) => `e${i}`) }));
        await expectError('updateCommentInSpace', 400, () => ctx.api.spaces.updateCommentInSpace(cs.space, c.id, { addedReactions: ['x'.repeat(51)] }));
        await expectError('listCommentsInSpace', 400, () => ctx.api.spaces.listCommentsInSpace(cs.space, { page: 'garbage' }));

        const reader = await ctx.user('read');
        await expectError('postCommentInChangeRequest', 403, () => reader.api.spaces.postCommentInChangeRequest(cs.space, cs.cr, { body: md('x') }));
        await expectError('postCommentReplyInChangeRequest', 403, () => reader.api.spaces.postCommentReplyInChangeRequest(cs.space, cs.cr, c.id, { body: md('x') }));
        const outsider = await ctx.newOrg();
        await expectError('listCommentsInSpace', 404, () => outsider.api.spaces.listCommentsInSpace(cs.space));
        await expectError('getCommentInChangeRequest', 404, () => ctx.api.spaces.getCommentInChangeRequest(cs.space, cs.cr, c.id));
        await expectError('listCommentRepliesInChangeRequest', 404, () => ctx.api.spaces.listCommentRepliesInChangeRequest(cs.space, cs.cr, c.id));
        await expectError('getCommentReplyInChangeRequest', 404, () => ctx.api.spaces.getCommentReplyInChangeRequest(cs.space, cs.cr, c.id, UNKNOWN_ID));
        await expectError('updateCommentInChangeRequest', 404, () => ctx.api.spaces.updateCommentInChangeRequest(cs.space, cs.cr, c.id, { resolved: true }));
        await expect('deleteCommentInChangeRequest', 204, () => ctx.api.spaces.deleteCommentInChangeRequest(cs.space, cs.cr, c.id));
        await expectError('getCommentInSpace', 404, () => ctx.api.spaces.getCommentInSpace(cs.space, UNKNOWN_ID));
        await expect('getCommentInSpace', 200, () => ctx.api.spaces.getCommentInSpace(cs.space, c.id));
    });
});
