// Collections: create, get, update, delete, list (nested), spaces in a
// collection, move, transfer.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, BAD_TOKEN, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { client, expect, expectError, walk } from '../lib/client.js';
import { createCollection, createSpace, transferSetup } from '../lib/fixtures.js';

suite('collections', (ctx) => {
    it('createCollection answers 201; nested under a parent', { timeout: TIMEOUT }, async () => {
        const title = `Handbook ${uniq()}`.slice(0, 50);
        const { data: top } = await expect('createCollection', 201, () =>
            ctx.api.orgs.createCollection(ctx.org, { title }),
        );
        assert.equal(top.object, 'collection');
        assert.equal(top.title, title);
        assert.equal(top.organization, ctx.org);
        assert.equal(top.parent, undefined);
        assert.equal(top.permissions.admin, true);
        const { data: child } = await expect('createCollection', 201, () =>
            ctx.api.orgs.createCollection(ctx.org, { title: 'Child', parent: top.id }),
        );
        assert.equal(child.parent, top.id);
    });

    it('createCollection: 403 for a read member, 404 for a non-member', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        await expectError('createCollection', 403, () => reader.api.orgs.createCollection(ctx.org, { title: 'No' }));
        const other = await ctx.newOrg();
        await expectError('createCollection', 404, () => other.api.orgs.createCollection(ctx.org, { title: 'No' }));
    });

    it('getCollectionById: 200, 404 unknown, 404 for a non-member, 401 bad token', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const { data } = await expect('getCollectionById', 200, () => ctx.api.collections.getCollectionById(c.id));
        assert.equal(data.id, c.id);
        assert.equal(data.title, c.title);
        await expectError('getCollectionById', 404, () => ctx.api.collections.getCollectionById(UNKNOWN_ID));
        const other = await ctx.newOrg();
        await expectError('getCollectionById', 404, () => other.api.collections.getCollectionById(c.id));
        await expectError('getCollectionById', 401, () =>
            client(ctx.server, BAD_TOKEN).collections.getCollectionById(c.id),
        );
    });

    it('updateCollectionById changes title, description and defaultLevel', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const { data } = await expect('updateCollectionById', 200, () =>
            ctx.api.collections.updateCollectionById(c.id, {
                title: 'Renamed',
                description: 'All about it',
                defaultLevel: 'edit',
            }),
        );
        assert.equal(data.title, 'Renamed');
        assert.equal(data.description, 'All about it');
        assert.equal(data.defaultLevel, 'edit');
        const { data: got } = await expect('getCollectionById', 200, () => ctx.api.collections.getCollectionById(c.id));
        assert.equal(got.title, 'Renamed');
        assert.equal(got.description, 'All about it');
        assert.equal(got.defaultLevel, 'edit');
        const { data: inherit } = await expect('updateCollectionById', 200, () =>
            ctx.api.collections.updateCollectionById(c.id, { defaultLevel: 'inherit' }),
        );
        assert.equal(inherit.defaultLevel, 'inherit');
        assert.equal(inherit.title, 'Renamed');
    });

    it('updateCollectionById: 403 for a read member, 404 unknown', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const reader = await ctx.user('read');
        await expectError('updateCollectionById', 403, () =>
            reader.api.collections.updateCollectionById(c.id, { title: 'No' }),
        );
        await expectError('updateCollectionById', 404, () =>
            ctx.api.collections.updateCollectionById(UNKNOWN_ID, { title: 'No' }),
        );
    });

    it('listCollectionsInOrganizationById pages through all collections; nested=false keeps top level only', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const tops = [];
        for (let i = 0; i < 5; i++) tops.push(await createCollection(o.api, o.organization));
        const child = await createCollection(o.api, o.organization, { parent: tops[0].id });
        const grandchild = await createCollection(o.api, o.organization, { parent: child.id });
        const all = [...tops, child, grandchild].map((c) => c.id).sort();

        const { items: dflt } = await walk(
            'listCollectionsInOrganizationById',
            (page) => o.api.orgs.listCollectionsInOrganizationById(o.organization, { page, limit: 2 }),
            { limit: 2 },
        );
        assert.deepEqual(dflt.map((c) => c.id).sort(), all, 'nested defaults to true');

        const { items: nested } = await walk(
            'listCollectionsInOrganizationById',
            (page) => o.api.orgs.listCollectionsInOrganizationById(o.organization, { page, limit: 3, nested: true }),
            { limit: 3 },
        );
        assert.deepEqual(nested.map((c) => c.id).sort(), all);

        const { items: flat } = await walk(
            'listCollectionsInOrganizationById',
            (page) => o.api.orgs.listCollectionsInOrganizationById(o.organization, { page, limit: 2, nested: false }),
            { limit: 2 },
        );
        assert.deepEqual(flat.map((c) => c.id).sort(), tops.map((c) => c.id).sort());
        await expectError('listCollectionsInOrganizationById', 404, () =>
            ctx.api.orgs.listCollectionsInOrganizationById(o.organization),
        );
    });

    it('listSpacesInCollectionById pages through the spaces of a collection', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const spaces = [];
        for (let i = 0; i < 5; i++) spaces.push(await createSpace(ctx.api, ctx.org, { parent: c.id }));
        await createSpace(ctx.api, ctx.org);
        const { items } = await walk(
            'listSpacesInCollectionById',
            (page) => ctx.api.collections.listSpacesInCollectionById(c.id, { page, limit: 2 }),
            { limit: 2 },
        );
        assert.deepEqual(items.map((s) => s.id).sort(), spaces.map((s) => s.id).sort());
        for (const s of items) assert.equal(s.parent, c.id);
        await expectError('listSpacesInCollectionById', 404, () =>
            ctx.api.collections.listSpacesInCollectionById(UNKNOWN_ID),
        );
    });

    it('moveCollection changes the parent and back to the root', { timeout: TIMEOUT }, async () => {
        const a = await createCollection(ctx.api, ctx.org);
        const b = await createCollection(ctx.api, ctx.org);
        const { data: moved } = await expect('moveCollection', 200, () =>
            ctx.api.collections.moveCollection(b.id, { parent: a.id }),
        );
        assert.equal(moved.parent, a.id);
        const { data: got } = await expect('getCollectionById', 200, () => ctx.api.collections.getCollectionById(b.id));
        assert.equal(got.parent, a.id);
        const { data: root } = await expect('moveCollection', 200, () =>
            ctx.api.collections.moveCollection(b.id, { parent: null }),
        );
        assert.equal(root.parent, undefined);
    });

    it('moveCollection with a position anchor among siblings', { timeout: TIMEOUT }, async () => {
        const parent = await createCollection(ctx.api, ctx.org);
        const x = await createCollection(ctx.api, ctx.org, { parent: parent.id });
        const y = await createCollection(ctx.api, ctx.org, { parent: parent.id });
        const s = await createSpace(ctx.api, ctx.org, { parent: parent.id });
        const { data } = await expect('moveCollection', 200, () =>
            ctx.api.collections.moveCollection(y.id, { position: { before: { type: 'collection', collection: x.id } } }),
        );
        assert.equal(data.parent, parent.id);
        const { data: d2 } = await expect('moveCollection', 200, () =>
            ctx.api.collections.moveCollection(y.id, { position: { after: { type: 'space', space: s.id } } }),
        );
        assert.equal(d2.parent, parent.id);
    });

    it('moveCollection: 409 when nothing would change', { timeout: TIMEOUT }, async () => {
        const a = await createCollection(ctx.api, ctx.org);
        const b = await createCollection(ctx.api, ctx.org, { parent: a.id });
        await expectError('moveCollection', 409, () => ctx.api.collections.moveCollection(b.id, { parent: a.id }));
        const c = await createCollection(ctx.api, ctx.org);
        await expectError('moveCollection', 409, () => ctx.api.collections.moveCollection(c.id, { parent: null }));
    });

    it('moveCollection: 400 for an invalid position anchor', { timeout: TIMEOUT }, async () => {
        const a = await createCollection(ctx.api, ctx.org);
        const b = await createCollection(ctx.api, ctx.org, { parent: a.id });
        const elsewhere = await createCollection(ctx.api, ctx.org);
        await expectError('moveCollection', 400, () =>
            ctx.api.collections.moveCollection(b.id, {
                position: { before: { type: 'collection', collection: UNKNOWN_ID } },
            }),
        );
        await expectError('moveCollection', 400, () =>
            ctx.api.collections.moveCollection(b.id, {
                parent: a.id,
                position: { after: { type: 'collection', collection: elsewhere.id } },
            }),
        );
    });

    it('moveCollection: 400 when the move would create a cycle', { timeout: TIMEOUT }, async () => {
        const a = await createCollection(ctx.api, ctx.org);
        const b = await createCollection(ctx.api, ctx.org, { parent: a.id });
        await expectError('moveCollection', 400, () => ctx.api.collections.moveCollection(a.id, { parent: b.id }));
        await expectError('moveCollection', 400, () => ctx.api.collections.moveCollection(a.id, { parent: a.id }));
        const { data } = await expect('getCollectionById', 200, () => ctx.api.collections.getCollectionById(a.id));
        assert.equal(data.parent, undefined);
    });

    it('moveCollection: 404 unknown collection, 400 unknown parent; 403 for a read member', { timeout: TIMEOUT }, async () => {
        const a = await createCollection(ctx.api, ctx.org);
        await expectError('moveCollection', 404, () =>
            ctx.api.collections.moveCollection(UNKNOWN_ID, { parent: a.id }),
        );
        // 400 is "invalid position space or collection provided"; 404 is about the moved collection only.
        await expectError('moveCollection', 400, () =>
            ctx.api.collections.moveCollection(a.id, { parent: UNKNOWN_ID }),
        );
        const b = await createCollection(ctx.api, ctx.org);
        const reader = await ctx.user('read');
        await expectError('moveCollection', 403, () => reader.api.collections.moveCollection(b.id, { parent: a.id }));
    });

    it('transferCollection moves a collection and its spaces to another organization', { timeout: TIMEOUT }, async () => {
        const { mover, target } = await transferSetup(ctx);
        const c = await createCollection(mover.api, ctx.org);
        const s = await createSpace(mover.api, ctx.org, { parent: c.id });
        const { data } = await expect('transferCollection', 200, () =>
            mover.api.collections.transferCollection(c.id, { organization: target.organization }),
        );
        assert.equal(data.id, c.id);
        assert.equal(data.organization, target.organization);
        const { data: space } = await expect('getSpaceById', 200, () => mover.api.spaces.getSpaceById(s.id));
        assert.equal(space.organization, target.organization);
        const { items } = await walk('listCollectionsInOrganizationById', (page) =>
            target.api.orgs.listCollectionsInOrganizationById(target.organization, { page }),
        );
        assert.ok(items.some((x) => x.id === c.id), 'transferred collection not listed in the target');
        const { items: left } = await walk('listCollectionsInOrganizationById', (page) =>
            ctx.api.orgs.listCollectionsInOrganizationById(ctx.org, { page }),
        );
        assert.ok(!left.some((x) => x.id === c.id), 'transferred collection still listed in the source');
    });

    it('transferCollection: 409 to its own organization, 412 where the caller is not admin, 404 unknown', { timeout: TIMEOUT }, async () => {
        const { mover, readOnly } = await transferSetup(ctx);
        const c = await createCollection(mover.api, ctx.org);
        await expectError('transferCollection', 409, () =>
            mover.api.collections.transferCollection(c.id, { organization: ctx.org }),
        );
        await expectError('transferCollection', 412, () =>
            mover.api.collections.transferCollection(c.id, { organization: readOnly.organization }),
        );
        await expectError('transferCollection', 404, () =>
            mover.api.collections.transferCollection(UNKNOWN_ID, { organization: ctx.org }),
        );
        const { data } = await expect('getCollectionById', 200, () => mover.api.collections.getCollectionById(c.id));
        assert.equal(data.organization, ctx.org);
    });

    it('deleteCollectionById: 205, then 204; the collection is gone', { timeout: TIMEOUT }, async () => {
        const c = await createCollection(ctx.api, ctx.org);
        const reader = await ctx.user('read');
        await expectError('deleteCollectionById', 403, () => reader.api.collections.deleteCollectionById(c.id));
        await expect('deleteCollectionById', 205, () => ctx.api.collections.deleteCollectionById(c.id));
        await expectError('getCollectionById', 404, () => ctx.api.collections.getCollectionById(c.id));
        await expect('deleteCollectionById', 204, () => ctx.api.collections.deleteCollectionById(c.id));
        await expect('deleteCollectionById', 204, () => ctx.api.collections.deleteCollectionById(UNKNOWN_ID));
    });
});
