// Space permissions: invite users and teams, list, update, remove.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createSpace, createTeam } from '../lib/fixtures.js';

suite('space permissions', (ctx) => {
    async function userPermissions(spaceId, limit) {
        const { items } = await walk(
            'listUserPermissionsInSpace',
            (page) => ctx.api.spaces.listUserPermissionsInSpace(spaceId, { page, limit }),
            { limit, key: (x) => x.user.id },
        );
        return items;
    }

    async function teamPermissions(spaceId, limit) {
        const { items } = await walk(
            'listTeamPermissionsInSpace',
            (page) => ctx.api.spaces.listTeamPermissionsInSpace(spaceId, { page, limit }),
            { limit, key: (x) => x.team.id },
        );
        return items;
    }

    it('a guest sees a space only once invited, with the granted role', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const guest = await ctx.user(null);
        await expectError('getSpaceById', 404, () => guest.api.spaces.getSpaceById(s.id));
        await expect('inviteToSpace', 204, () => ctx.api.spaces.inviteToSpace(s.id, { role: 'read', users: [guest.user] }));
        const { data } = await expect('getSpaceById', 200, () => guest.api.spaces.getSpaceById(s.id));
        assert.equal(data.permissions.view, true);
        assert.equal(data.permissions.edit, false);
        assert.equal(data.permissions.admin, false);
        const items = await userPermissions(s.id);
        const mine = items.find((x) => x.user.id === guest.user);
        assert.ok(mine, 'invited user not listed');
        assert.equal(mine.permission, 'read');
    });

    it('listUserPermissionsInSpace pages through invited users', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const users = [];
        for (let i = 0; i < 5; i++) users.push(await ctx.user(null));
        await expect('inviteToSpace', 204, () =>
            ctx.api.spaces.inviteToSpace(s.id, { role: 'edit', users: users.map((u) => u.user) }),
        );
        const items = await userPermissions(s.id, 2);
        for (const u of users) {
            const p = items.find((x) => x.user.id === u.user);
            assert.ok(p, `user ${u.user} not listed`);
            assert.equal(p.permission, 'edit');
        }
    });

    it('updateUserPermissionInSpace changes the role (204)', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const guest = await ctx.user(null);
        await expect('inviteToSpace', 204, () => ctx.api.spaces.inviteToSpace(s.id, { role: 'read', users: [guest.user] }));
        await expect('updateUserPermissionInSpace', 204, () =>
            ctx.api.spaces.updateUserPermissionInSpace(s.id, guest.user, { role: 'edit' }),
        );
        const p = (await userPermissions(s.id)).find((x) => x.user.id === guest.user);
        assert.equal(p.permission, 'edit');
        const { data } = await expect('getSpaceById', 200, () => guest.api.spaces.getSpaceById(s.id));
        assert.equal(data.permissions.edit, true);
        assert.equal(data.permissions.admin, false);
    });

    it('removeUserFromSpace: 205, then 204; access is gone', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const guest = await ctx.user(null);
        await expect('inviteToSpace', 204, () => ctx.api.spaces.inviteToSpace(s.id, { role: 'read', users: [guest.user] }));
        await expect('removeUserFromSpace', 205, () => ctx.api.spaces.removeUserFromSpace(s.id, guest.user));
        await expect('removeUserFromSpace', 204, () => ctx.api.spaces.removeUserFromSpace(s.id, guest.user));
        assert.ok(!(await userPermissions(s.id)).some((x) => x.user.id === guest.user));
        await expectError('getSpaceById', 404, () => guest.api.spaces.getSpaceById(s.id));
    });

    it('a team invited to a space gives its members access', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const guest = await ctx.user(null);
        const team = await createTeam(ctx.api, ctx.org, { members: [guest.user] });
        await expectError('getSpaceById', 404, () => guest.api.spaces.getSpaceById(s.id));
        await expect('inviteToSpace', 204, () => ctx.api.spaces.inviteToSpace(s.id, { role: 'comment', teams: [team.id] }));
        const items = await teamPermissions(s.id);
        const p = items.find((x) => x.team.id === team.id);
        assert.ok(p, 'invited team not listed');
        assert.equal(p.permission, 'comment');
        const { data } = await expect('getSpaceById', 200, () => guest.api.spaces.getSpaceById(s.id));
        assert.equal(data.permissions.comment, true);
        assert.equal(data.permissions.edit, false);
        const { data: t } = await expect('getTeamInOrganizationById', 200, () =>
            ctx.api.orgs.getTeamInOrganizationById(ctx.org, team.id),
        );
        assert.equal(t.spaces, 1);
    });

    it('listTeamPermissionsInSpace pages through invited teams', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const teams = [];
        for (let i = 0; i < 5; i++) teams.push(await createTeam(ctx.api, ctx.org));
        await expect('inviteToSpace', 204, () =>
            ctx.api.spaces.inviteToSpace(s.id, { role: 'review', teams: teams.map((t) => t.id) }),
        );
        const items = await teamPermissions(s.id, 2);
        assert.deepEqual(items.map((x) => x.team.id).sort(), teams.map((t) => t.id).sort());
        for (const x of items) assert.equal(x.permission, 'review');
    });

    it('updateTeamPermissionInSpace changes the role (204)', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const team = await createTeam(ctx.api, ctx.org);
        await expect('inviteToSpace', 204, () => ctx.api.spaces.inviteToSpace(s.id, { role: 'read', teams: [team.id] }));
        await expect('updateTeamPermissionInSpace', 204, () =>
            ctx.api.spaces.updateTeamPermissionInSpace(s.id, team.id, { role: 'edit' }),
        );
        const p = (await teamPermissions(s.id)).find((x) => x.team.id === team.id);
        assert.equal(p.permission, 'edit');
    });

    it('removeTeamFromSpace: 205, then 204; the team leaves the list', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const guest = await ctx.user(null);
        const team = await createTeam(ctx.api, ctx.org, { members: [guest.user] });
        await expect('inviteToSpace', 204, () => ctx.api.spaces.inviteToSpace(s.id, { role: 'read', teams: [team.id] }));
        await expect('removeTeamFromSpace', 205, () => ctx.api.spaces.removeTeamFromSpace(s.id, team.id));
        await expect('removeTeamFromSpace', 204, () => ctx.api.spaces.removeTeamFromSpace(s.id, team.id));
        assert.ok(!(await teamPermissions(s.id)).some((x) => x.team.id === team.id));
        await expectError('getSpaceById', 404, () => guest.api.spaces.getSpaceById(s.id));
    });

    it('permission operations answer 404 for an unknown space, or a user or team without access', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const guest = await ctx.user(null);
        await expectError('inviteToSpace', 404, () =>
            ctx.api.spaces.inviteToSpace(UNKNOWN_ID, { role: 'read', users: [guest.user] }),
        );
        await expectError('listUserPermissionsInSpace', 404, () =>
            ctx.api.spaces.listUserPermissionsInSpace(UNKNOWN_ID),
        );
        await expectError('listTeamPermissionsInSpace', 404, () =>
            ctx.api.spaces.listTeamPermissionsInSpace(UNKNOWN_ID),
        );
        await expectError('updateUserPermissionInSpace', 404, () =>
            ctx.api.spaces.updateUserPermissionInSpace(s.id, guest.user, { role: 'edit' }),
        );
        await expectError('updateTeamPermissionInSpace', 404, () =>
            ctx.api.spaces.updateTeamPermissionInSpace(s.id, UNKNOWN_ID, { role: 'edit' }),
        );
    });

    it('inviteToSpace: 404 for an unknown user', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        await expectError('inviteToSpace', 404, () =>
            ctx.api.spaces.inviteToSpace(s.id, { role: 'read', users: [UNKNOWN_ID] }),
        );
    });

    it('inviteToSpace: 404 for an unknown team', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        await expectError('inviteToSpace', 404, () =>
            ctx.api.spaces.inviteToSpace(s.id, { role: 'read', teams: [UNKNOWN_ID] }),
        );
    });

    it('a read member cannot manage space permissions (403); a non-member gets 404', { timeout: TIMEOUT }, async () => {
        const s = await createSpace(ctx.api, ctx.org);
        const guest = await ctx.user(null);
        const reader = await ctx.user('read');
        await expectError('inviteToSpace', 403, () =>
            reader.api.spaces.inviteToSpace(s.id, { role: 'read', users: [guest.user] }),
        );
        await expect('inviteToSpace', 204, () => ctx.api.spaces.inviteToSpace(s.id, { role: 'read', users: [guest.user] }));
        await expectError('updateUserPermissionInSpace', 403, () =>
            reader.api.spaces.updateUserPermissionInSpace(s.id, guest.user, { role: 'admin' }),
        );
        await expectError('removeUserFromSpace', 403, () => reader.api.spaces.removeUserFromSpace(s.id, guest.user));
        const other = await ctx.newOrg();
        await expectError('listUserPermissionsInSpace', 404, () => other.api.spaces.listUserPermissionsInSpace(s.id));
        await expectError('inviteToSpace', 404, () =>
            other.api.spaces.inviteToSpace(s.id, { role: 'read', users: [guest.user] }),
        );
    });
});
