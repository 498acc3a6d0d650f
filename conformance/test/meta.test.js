// GET /v1/ (getApiInformation), GET /v1/user (getAuthenticatedUser) and
// authentication failures.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, BAD_TOKEN, TIMEOUT } from '../lib/harness.js';
import { client, expect, expectError } from '../lib/client.js';

suite('meta', (ctx) => {
    it('getApiInformation answers {version, build}', { timeout: TIMEOUT }, async () => {
        const { data } = await expect('getApiInformation', 200, () => ctx.api.getApiInformation());
        assert.ok(data.version.length > 0);
        assert.ok(data.build.length > 0);
    });

    it('getAuthenticatedUser answers the token owner', { timeout: TIMEOUT }, async () => {
        const { data } = await expect('getAuthenticatedUser', 200, () => ctx.api.user.getAuthenticatedUser());
        assert.equal(data.object, 'user');
        assert.equal(data.id, ctx.me.id);
    });

    it('getAuthenticatedUser answers each CLI-created user', { timeout: TIMEOUT }, async () => {
        const u = await ctx.user('edit');
        const { data } = await expect('getAuthenticatedUser', 200, () => u.api.user.getAuthenticatedUser());
        assert.equal(data.id, u.user);
        assert.equal(data.displayName, u.name);
        if (data.email !== undefined) assert.equal(data.email, u.email);
    });

    it('a bad token gets 401 with the error shape', { timeout: TIMEOUT }, async () => {
        const bad = client(ctx.server, BAD_TOKEN);
        const e1 = await expectError('getAuthenticatedUser', 401, () => bad.user.getAuthenticatedUser());
        assert.equal(e1.error.code, 401);
        assert.ok(e1.error.message.length > 0);
        await expectError('listOrganizationsForAuthenticatedUser', 401, () =>
            bad.orgs.listOrganizationsForAuthenticatedUser(),
        );
        await expectError('getOrganizationById', 401, () => bad.orgs.getOrganizationById(ctx.org));
        await expectError('listSpacesInOrganizationById', 401, () => bad.orgs.listSpacesInOrganizationById(ctx.org));
        await expectError('createSpace', 401, () => bad.orgs.createSpace(ctx.org, { title: 'nope' }));
        await expectError('listCollectionsInOrganizationById', 401, () =>
            bad.orgs.listCollectionsInOrganizationById(ctx.org),
        );
    });

    it('a missing token gets 401 with the error shape', { timeout: TIMEOUT }, async () => {
        const anon = client(ctx.server, undefined);
        await expectError('getAuthenticatedUser', 401, () => anon.user.getAuthenticatedUser());
        await expectError('listOrganizationsForAuthenticatedUser', 401, () =>
            anon.orgs.listOrganizationsForAuthenticatedUser(),
        );
        await expectError('getOrganizationById', 401, () => anon.orgs.getOrganizationById(ctx.org));
    });
});
