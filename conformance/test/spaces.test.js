// Spaces: create, get, update, delete, restore, duplicate, move, transfer,
// list in organization.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, BAD_TOKEN, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { client, expect, expectError, walk } from '../lib/client.js';
import { createCollection, createSpace, transferSetup } from '../lib/fixtures.js';

const ICON_URL = 'https://example.com/icon.png';

suite('spaces', (ctx) => {
    async function listIds(api, org) {
        const { items } = await walk('listSpacesInOrganizationById', (page) =>
            api.orgs.listSpacesInOrganizationById(org, { page }),
        );
        return items.map((s) => s.id);
    }

    it('createSpace answers 201 with the space', { timeout: TIMEOUT }, async () => {
        const title = `Guide ${uniq()}`.slice(0, 50);
        const { data } = await expect('createSpace', 201, () =>
            ctx.api.orgs.createSpace(ctx.org, { title, emoji: '📘', language: 'fr', editMode: 'live' }),
        );
        assert.equal(data.object, 'space');
        assert.equal(data.title, title);
        assert.equal(data.emoji, '📘');
        assert.equal(data.language, 'fr');
        assert.equal(data.organization, ctx.org);
        assert.equal(data.parent, undefined);
        assert.equal(data.deletedAt, undefined);
        assert.equal(data.permissions.admin, true);
        assert.equal(data.permissions.view, true);
    });

    it('createSpace without a body, and inside a collection', { timeout: TIMEOUT }, async () => {
        const { data: bare } = await expect('createSpace', 201, () => ctx.api.orgs.createSpace(ctx.org, {}));
        assert.equal(bare.organization, ctx.org);
        assert.equal(typeof bare.emoji, 'string');
        const c = await createCollection(ctx.api, ctx.org);
        const { data } = await expect('createSpace', 201, () =>
            ctx.api.orgs.createSpace(ctx.org, { title: 'In a collection', parent: c.id }),
        );
        assert.equal(data.parent, c.id);
    });

    it('createSpace: 403 for a read member, 404 for a non-member', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        await expectError('createSpace', 403, () => reader.api.orgs.createSpace(ctx.org, { title: 'No' }));
        const other = await ctx.newOrg();
        await expectError('createSpace', 404, () => other.api.orgs.createSpace(ctx.org, { title: 'No' }));
    });

    it('getSpaceById: 200, 404 unknown, 404 for a non-member, 401 bad token', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const { data } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id));
        assert.equal(data.id, s.id);
        assert.equal(data.title, s.title);
        assert.equal(data.revision, s.revision);
        await expectError('getSpaceById', 404, () => ctx.api.spaces.getSpaceById(UNKNOWN_ID));
        const other = await ctx.newOrg();
        await expectError('getSpaceById', 404, () => other.api.spaces.getSpaceById(s.id));
        await expectError('getSpaceById', 401, () => client(ctx.server, BAD_TOKEN).spaces.getSpaceById(s.id));
    });

    it('a read member can view a space but not administer it', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const reader = await ctx.user('read');
        const { data } = await expect('getSpaceById', 200, () => reader.api.spaces.getSpaceById(s.id));
        assert.equal(data.permissions.view, true);
        assert.equal(data.permissions.admin, false);
        assert.equal(data.permissions.edit, false);
    });

    it('updateSpaceById changes title, emoji, editMode, defaultLevel and language', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const { data } = await expect('updateSpaceById', 200, () =>
            ctx.api.spaces.updateSpaceById(s.id, {
                title: 'Renamed',
                emoji: '🚀',
                editMode: 'locked',
                defaultLevel: 'comment',
                language: 'de',
            }),
        );
        assert.equal(data.title, 'Renamed');
        assert.equal(data.emoji, '🚀');
        assert.equal(data.editMode, 'locked');
        assert.equal(data.defaultLevel, 'comment');
        assert.equal(data.language, 'de');
        const { data: got } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id));
        assert.equal(got.title, 'Renamed');
        assert.equal(got.editMode, 'locked');
        assert.equal(got.defaultLevel, 'comment');
    });

    it('updateSpaceById sets an icon, then clears emoji and icon', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org, { emoji: '📗' });
        const { data } = await expect('updateSpaceById', 200, () =>
            ctx.api.spaces.updateSpaceById(s.id, { icon: ICON_URL }),
        );
        assert.equal(data.urls.icon, ICON_URL);
        const { data: cleared } = await expect('updateSpaceById', 200, () =>
            ctx.api.spaces.updateSpaceById(s.id, { emoji: null, icon: null }),
        );
        assert.equal(cleared.emoji, '');
        assert.equal(cleared.urls.icon, undefined);
    });

    it('updateSpaceById: 403 for a read member, 404 unknown', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const reader = await ctx.user('read');
        await expectError('updateSpaceById', 403, () => reader.api.spaces.updateSpaceById(s.id, { title: 'No' }));
        await expectError('updateSpaceById', 404, () => ctx.api.spaces.updateSpaceById(UNKNOWN_ID, { title: 'No' }));
        const { data } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id));
        assert.equal(data.title, s.title);
    });

    it('listSpacesInOrganizationById pages through all spaces with a consistent count', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const created = [];
        for (let i = 0; i < 5; i++) created.push(await createSpace(o.api, o.organization));
        const c = await createCollection(o.api, o.organization);
        created.push(await createSpace(o.api, o.organization, { parent: c.id }));
        const { items } = await walk(
            'listSpacesInOrganizationById',
            (page) => o.api.orgs.listSpacesInOrganizationById(o.organization, { page, limit: 2 }),
            { limit: 2 },
        );
        assert.deepEqual(items.map((s) => s.id).sort(), created.map((s) => s.id).sort());
        await expectError('listSpacesInOrganizationById', 404, () =>
            ctx.api.orgs.listSpacesInOrganizationById(o.organization),
        );
    });

    it('duplicateSpace answers 201 with a new space', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const s = await createSpace(ctx.api, ctx.org, { parent: c.id, emoji: '📙' });
        const { data } = await expect('duplicateSpace', 201, () => ctx.api.spaces.duplicateSpace(s.id));
        assert.notEqual(data.id, s.id);
        assert.equal(data.organization, ctx.org);
        assert.equal(data.parent, c.id);
        assert.equal(data.emoji, '📙');
        await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(data.id));
        await expectError('duplicateSpace', 404, () => ctx.api.spaces.duplicateSpace(UNKNOWN_ID));
        const reader = await ctx.user('read');
        await expectError('duplicateSpace', 403, () => reader.api.spaces.duplicateSpace(s.id));
    });

    it('deleteSpaceById: 205, then 204; the space leaves the list', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const reader = await ctx.user('read');
        await expectError('deleteSpaceById', 403, () => reader.api.spaces.deleteSpaceById(s.id));
        await expect('deleteSpaceById', 205, () => ctx.api.spaces.deleteSpaceById(s.id));
        assert.ok(!(await listIds(ctx.api, ctx.org)).includes(s.id), 'deleted space still listed');
        await expect('deleteSpaceById', 204, () => ctx.api.spaces.deleteSpaceById(s.id));
        await expect('deleteSpaceById', 204, () => ctx.api.spaces.deleteSpaceById(UNKNOWN_ID));
    });

    it('restoreSpace brings a deleted space back', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        await expect('deleteSpaceById', 205, () => ctx.api.spaces.deleteSpaceById(s.id));
        const { data } = await expect('restoreSpace', 200, () => ctx.api.spaces.restoreSpace(s.id));
        assert.equal(data.id, s.id);
        assert.equal(data.deletedAt, undefined);
        const { data: got } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id));
        assert.equal(got.deletedAt, undefined);
        assert.ok((await listIds(ctx.api, ctx.org)).includes(s.id), 'restored space not listed');
        await expectError('restoreSpace', 404, () => ctx.api.spaces.restoreSpace(UNKNOWN_ID));
    });

    it('restoreSpace: 403 for a read member', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        await expect('deleteSpaceById', 205, () => ctx.api.spaces.deleteSpaceById(s.id));
        const reader = await ctx.user('read');
        await expectError('restoreSpace', 403, () => reader.api.spaces.restoreSpace(s.id));
    });

    it('moveSpace into a collection and back to the root', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const s = await createSpace(ctx.api, ctx.org);
        const { data } = await expect('moveSpace', 200, () => ctx.api.spaces.moveSpace(s.id, { parent: c.id }));
        assert.equal(data.parent, c.id);
        const { items } = await walk('listSpacesInCollectionById', (page) =>
            ctx.api.collections.listSpacesInCollectionById(c.id, { page }),
        );
        assert.deepEqual(
            items.map((x) => x.id),
            [s.id],
        );
        const { data: root } = await expect('moveSpace', 200, () => ctx.api.spaces.moveSpace(s.id, { parent: null }));
        assert.equal(root.parent, undefined);
    });

    it('moveSpace with a position anchor among siblings', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const a = await createSpace(ctx.api, ctx.org, { parent: c.id });
        const b = await createSpace(ctx.api, ctx.org, { parent: c.id });
        const sub = await createCollection(ctx.api, ctx.org, { parent: c.id });
        const { data } = await expect('moveSpace', 200, () =>
            ctx.api.spaces.moveSpace(b.id, { position: { before: { type: 'space', space: a.id } } }),
        );
        assert.equal(data.parent, c.id);
        const { data: d2 } = await expect('moveSpace', 200, () =>
            ctx.api.spaces.moveSpace(b.id, { position: { after: { type: 'collection', collection: sub.id } } }),
        );
        assert.equal(d2.parent, c.id);
    });

    it('moveSpace: 409 when nothing would change', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const s = await createSpace(ctx.api, ctx.org, { parent: c.id });
        await expectError('moveSpace', 409, () => ctx.api.spaces.moveSpace(s.id, { parent: c.id }));
        const r = await createSpace(ctx.api, ctx.org);
        await expectError('moveSpace', 409, () => ctx.api.spaces.moveSpace(r.id, { parent: null }));
    });

    it('moveSpace: 400 for an invalid position anchor', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const s = await createSpace(ctx.api, ctx.org, { parent: c.id });
        const elsewhere = await createSpace(ctx.api, ctx.org);
        await expectError('moveSpace', 400, () =>
            ctx.api.spaces.moveSpace(s.id, { position: { before: { type: 'space', space: UNKNOWN_ID } } }),
        );
        await expectError('moveSpace', 400, () =>
            ctx.api.spaces.moveSpace(s.id, {
                parent: c.id,
                position: { after: { type: 'space', space: elsewhere.id } },
            }),
        );
        const { data } = await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(s.id));
        assert.equal(data.parent, c.id);
    });

    it('moveSpace: 404 unknown space, 400 unknown parent; 403 for a read member', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const s = await createSpace(ctx.api, ctx.org);
        await expectError('moveSpace', 404, () => ctx.api.spaces.moveSpace(UNKNOWN_ID, { parent: c.id }));
        // 400 is "invalid position space or collection provided"; 404 is about the moved space only.
        await expectError('moveSpace', 400, () => ctx.api.spaces.moveSpace(s.id, { parent: UNKNOWN_ID }));
        const reader = await ctx.user('read');
        await expectError('moveSpace', 403, () => reader.api.spaces.moveSpace(s.id, { parent: c.id }));
    });

    it('transferSpace moves a space to another organization', { timeout: TIMEOUT }, async () => {
        const { mover, target } = await transferSetup(ctx);
        const c = await createCollection(mover.api, ctx.org);
        const s = await createSpace(mover.api, ctx.org, { parent: c.id });
        const { data } = await expect('transferSpace', 200, () =>
            mover.api.spaces.transferSpace(s.id, { organization: target.organization }),
        );
        assert.equal(data.id, s.id);
        assert.equal(data.organization, target.organization);
        assert.equal(data.parent, undefined, 'a transferred space leaves its collection');
        assert.ok((await listIds(target.api, target.organization)).includes(s.id), 'not listed in the target');
        assert.ok(!(await listIds(ctx.api, ctx.org)).includes(s.id), 'still listed in the source');
    });

    it('transferSpace: 409 to its own organization, 412 where the caller is not admin, 404 unknown', { timeout: TIMEOUT }, async () => {
        const { mover, readOnly } = await transferSetup(ctx);
        const s = await createSpace(mover.api, ctx.org);
        await expectError('transferSpace', 409, () => mover.api.spaces.transferSpace(s.id, { organization: ctx.org }));
        await expectError('transferSpace', 412, () =>
            mover.api.spaces.transferSpace(s.id, { organization: readOnly.organization }),
        );
        await expectError('transferSpace', 404, () =>
            mover.api.spaces.transferSpace(UNKNOWN_ID, { organization: ctx.org }),
        );
        const { data } = await expect('getSpaceById', 200, () => mover.api.spaces.getSpaceById(s.id));
        assert.equal(data.organization, ctx.org);
    });
});
