// Organization members: list (filters, paging), get, update, remove, ping,
// SSO flag, and a member's spaces and teams.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createSpace, createTeam } from '../lib/fixtures.js';

const ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read'];

suite('members', (ctx) => {
    /** A fresh organization with one member per role plus a guest. */
    async function populatedOrg() {
        const o = await ctx.newOrg();
        const tag = uniq();
        const members = [];
        for (const role of [...ROLES, null]) {
            const name = `Member ${role ?? 'guest'} ${tag}`;
            const u = await ctx.user(role, { org: o.organization, name });
            members.push({ ...u, role });
        }
        return { o, members, tag };
    }

    const list = (o, query) => (page) =>
        o.api.orgs.listMembersInOrganizationById(o.organization, { ...query, page });

    it('listMembersInOrganizationById pages through all members with a consistent count', { timeout: TIMEOUT }, async () => {
        const { o, members } = await populatedOrg();
        const { items } = await walk('listMembersInOrganizationById', list(o, { limit: 3 }), { limit: 3 });
        const ids = items.map((m) => m.id).sort();
        assert.deepEqual(ids, [o.user, ...members.map((m) => m.user)].sort());
        for (const m of items) {
            assert.equal(m.object, 'member');
            assert.equal(m.user.id, m.id);
        }
        const guest = items.find((m) => m.id === members.at(-1).user);
        assert.equal(guest.role, null);
    });

    it('listMembersInOrganizationById filters by role, including guest', { timeout: TIMEOUT }, async () => {
        const { o, members } = await populatedOrg();
        for (const role of ['edit', 'read', 'admin']) {
            const { items } = await walk('listMembersInOrganizationById', list(o, { role }));
            const expected = members.filter((m) => m.role === role).map((m) => m.user);
            if (role === 'admin') expected.push(o.user);
            assert.deepEqual(items.map((m) => m.id).sort(), expected.sort(), `role=${role}`);
            for (const m of items) assert.equal(m.role, role);
        }
        const { items: guests } = await walk('listMembersInOrganizationById', list(o, { role: 'guest' }));
        assert.deepEqual(
            guests.map((m) => m.id),
            [members.at(-1).user],
        );
    });

    it('listMembersInOrganizationById searches displayName and email', { timeout: TIMEOUT }, async () => {
        const { o, members, tag } = await populatedOrg();
        const target = members.find((m) => m.role === 'review');
        const { items: byName } = await walk('listMembersInOrganizationById', list(o, { search: `review ${tag}` }));
        assert.deepEqual(
            byName.map((m) => m.id),
            [target.user],
            'search is expected to match a part of displayName',
        );
        const local = target.email.split('@')[0];
        const { items: byEmail } = await walk('listMembersInOrganizationById', list(o, { search: local }));
        assert.deepEqual(
            byEmail.map((m) => m.id),
            [target.user],
        );
        const { items: none } = await walk('listMembersInOrganizationById', list(o, { search: `zz-${uniq()}` }));
        assert.deepEqual(none, []);
    });

    it('listMembersInOrganizationById sorts by joinedAt in both orders', { timeout: TIMEOUT }, async () => {
        const { o } = await populatedOrg();
        const { items: asc } = await walk('listMembersInOrganizationById', list(o, { sort: 'joinedAt', order: 'asc' }));
        const { items: desc } = await walk('listMembersInOrganizationById', list(o, { sort: 'joinedAt', order: 'desc' }));
        assert.equal(asc.length, 8, 'bootstrap admin, six roles and a guest');
        assert.equal(desc.length, 8);
        const t = (m) => Date.parse(m.joinedAt);
        for (let i = 1; i < asc.length; i++) assert.ok(t(asc[i - 1]) <= t(asc[i]), 'asc order broken');
        for (let i = 1; i < desc.length; i++) assert.ok(t(desc[i - 1]) >= t(desc[i]), 'desc order broken');
        assert.equal(asc[0].id, o.user, 'the bootstrap admin joined first');
        assert.equal(desc.at(-1).id, o.user);
        const { items: dflt } = await walk('listMembersInOrganizationById', list(o, {}));
        assert.deepEqual(
            dflt.map((m) => m.id),
            desc.map((m) => m.id),
            'default is sort=joinedAt, order=desc',
        );
    });

    it('updateOrganizationMemberLastSeenAt (ping) answers JSON and sets lastSeenAt', { timeout: TIMEOUT }, async () => {
        const { o, members } = await populatedOrg();
        const pinger = members.find((m) => m.role === 'comment');
        const before = Date.now() - 60_000;
        const { data } = await expect('updateOrganizationMemberLastSeenAt', 200, () =>
            pinger.api.orgs.updateOrganizationMemberLastSeenAt(o.organization),
        );
        assert.equal(typeof data, 'object');
        assert.notEqual(data, null);
        const { data: m } = await expect('getMemberInOrganizationById', 200, () =>
            o.api.orgs.getMemberInOrganizationById(o.organization, pinger.user),
        );
        assert.ok(m.lastSeenAt, 'lastSeenAt not set after ping');
        assert.ok(Date.parse(m.lastSeenAt) >= before);
        const { items } = await walk('listMembersInOrganizationById', list(o, { sort: 'lastSeenAt' }));
        const ids = items.map((x) => x.id);
        assert.ok(ids.includes(pinger.user), 'sort=lastSeenAt omits the member who pinged');
        const silent = members.find((x) => x.role === 'edit');
        assert.ok(!ids.includes(silent.user), 'sort=lastSeenAt lists a member never seen');
    });

    it('updateOrganizationMemberLastSeenAt: 404 for a non-member', { timeout: TIMEOUT }, async () => {
        const other = await ctx.newOrg();
        await expectError('updateOrganizationMemberLastSeenAt', 404, () =>
            other.api.orgs.updateOrganizationMemberLastSeenAt(ctx.org),
        );
    });

    it('getMemberInOrganizationById: 200, 404 unknown user, 404 for a non-member caller', { timeout: TIMEOUT }, async () => {
        const u = await ctx.user('edit');
        const { data } = await expect('getMemberInOrganizationById', 200, () =>
            ctx.api.orgs.getMemberInOrganizationById(ctx.org, u.user),
        );
        assert.equal(data.id, u.user);
        assert.equal(data.role, 'edit');
        assert.equal(data.user.id, u.user);
        assert.equal(data.disabled, false);
        await expectError('getMemberInOrganizationById', 404, () =>
            ctx.api.orgs.getMemberInOrganizationById(ctx.org, UNKNOWN_ID),
        );
        const other = await ctx.newOrg();
        await expectError('getMemberInOrganizationById', 404, () =>
            other.api.orgs.getMemberInOrganizationById(ctx.org, u.user),
        );
        await expectError('getMemberInOrganizationById', 404, () =>
            ctx.api.orgs.getMemberInOrganizationById(ctx.org, other.user),
        );
    });

    it('updateMemberInOrganizationById changes the role, including to guest', { timeout: TIMEOUT }, async () => {
        const u = await ctx.user('read');
        const { data } = await expect('updateMemberInOrganizationById', 200, () =>
            ctx.api.orgs.updateMemberInOrganizationById(ctx.org, u.user, { role: 'edit' }),
        );
        assert.equal(data.role, 'edit');
        const { data: got } = await expect('getMemberInOrganizationById', 200, () =>
            ctx.api.orgs.getMemberInOrganizationById(ctx.org, u.user),
        );
        assert.equal(got.role, 'edit');
        const { data: guest } = await expect('updateMemberInOrganizationById', 200, () =>
            ctx.api.orgs.updateMemberInOrganizationById(ctx.org, u.user, { role: null }),
        );
        assert.equal(guest.role, null);
    });

    it('updateMemberInOrganizationById: 403 for a read member, 404 for an unknown user', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        const victim = await ctx.user('edit');
        await expectError('updateMemberInOrganizationById', 403, () =>
            reader.api.orgs.updateMemberInOrganizationById(ctx.org, victim.user, { role: 'admin' }),
        );
        await expectError('updateMemberInOrganizationById', 403, () =>
            reader.api.orgs.updateMemberInOrganizationById(ctx.org, reader.user, { role: 'admin' }),
        );
        await expectError('updateMemberInOrganizationById', 404, () =>
            ctx.api.orgs.updateMemberInOrganizationById(ctx.org, UNKNOWN_ID, { role: 'edit' }),
        );
        const { data } = await expect('getMemberInOrganizationById', 200, () =>
            ctx.api.orgs.getMemberInOrganizationById(ctx.org, victim.user),
        );
        assert.equal(data.role, 'edit');
    });

    it('removeMemberFromOrganizationById: 205, then 204; the member is gone', { timeout: TIMEOUT }, async () => {
        const u = await ctx.user('comment');
        await expect('removeMemberFromOrganizationById', 205, () =>
            ctx.api.orgs.removeMemberFromOrganizationById(ctx.org, u.user),
        );
        await expect('removeMemberFromOrganizationById', 204, () =>
            ctx.api.orgs.removeMemberFromOrganizationById(ctx.org, u.user),
        );
        await expectError('getMemberInOrganizationById', 404, () =>
            ctx.api.orgs.getMemberInOrganizationById(ctx.org, u.user),
        );
        await expectError('getOrganizationById', 404, () => u.api.orgs.getOrganizationById(ctx.org));
    });

    it('removeMemberFromOrganizationById: 403 for a read member', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        const victim = await ctx.user('read');
        await expectError('removeMemberFromOrganizationById', 403, () =>
            reader.api.orgs.removeMemberFromOrganizationById(ctx.org, victim.user),
        );
        await expect('getMemberInOrganizationById', 200, () =>
            ctx.api.orgs.getMemberInOrganizationById(ctx.org, victim.user),
        );
    });

    it('setUserAsSSOMemberForOrganization answers the member with sso set', { timeout: TIMEOUT }, async () => {
        const u = await ctx.user('read');
        const { data } = await expect('setUserAsSSOMemberForOrganization', 200, () =>
            ctx.api.orgs.setUserAsSsoMemberForOrganization(ctx.org, u.user),
        );
        assert.equal(data.id, u.user);
        assert.equal(data.sso, true);
        const { data: got } = await expect('getMemberInOrganizationById', 200, () =>
            ctx.api.orgs.getMemberInOrganizationById(ctx.org, u.user),
        );
        assert.equal(got.sso, true);
    });

    it('setUserAsSSOMemberForOrganization: 403 for a read member, 404 for an unknown user', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        await expectError('setUserAsSSOMemberForOrganization', 403, () =>
            reader.api.orgs.setUserAsSsoMemberForOrganization(ctx.org, reader.user),
        );
        await expectError('setUserAsSSOMemberForOrganization', 404, () =>
            ctx.api.orgs.setUserAsSsoMemberForOrganization(ctx.org, UNKNOWN_ID),
        );
    });

    it('listSpacesForOrganizationMember pages through the spaces shared with a member', { timeout: TIMEOUT }, async () => {
        const guest = await ctx.user(null);
        const spaces = [];
        for (let i = 0; i < 3; i++) spaces.push(await createSpace(ctx.api, ctx.org));
        for (const s of spaces) {
            await expect('inviteToSpace', 204, () =>
                ctx.api.spaces.inviteToSpace(s.id, { role: 'comment', users: [guest.user] }),
            );
        }
        const { items } = await walk(
            'listSpacesForOrganizationMember',
            (page) => ctx.api.orgs.listSpacesForOrganizationMember(ctx.org, guest.user, { page, limit: 2 }),
            { limit: 2, key: (x) => x.space.id },
        );
        assert.deepEqual(items.map((x) => x.space.id).sort(), spaces.map((s) => s.id).sort());
        for (const x of items) assert.equal(x.permission, 'comment');
        await expectError('listSpacesForOrganizationMember', 404, () =>
            ctx.api.orgs.listSpacesForOrganizationMember(ctx.org, UNKNOWN_ID),
        );
    });

    it('listTeamsForOrganizationMember lists the member’s teams, filtered by title', { timeout: TIMEOUT }, async () => {
        const u = await ctx.user('edit');
        const tag = uniq();
        const teams = [];
        for (const t of ['Alpha', 'Beta', 'Gamma']) {
            teams.push(await createTeam(ctx.api, ctx.org, { title: `${t} ${tag}`, members: [u.user] }));
        }
        await createTeam(ctx.api, ctx.org, { title: `Delta ${tag}` });
        const { items } = await walk(
            'listTeamsForOrganizationMember',
            (page) => ctx.api.orgs.listTeamsForOrganizationMember(ctx.org, u.user, { page, limit: 2 }),
            { limit: 2, key: (x) => x.team.id },
        );
        assert.deepEqual(items.map((x) => x.team.id).sort(), teams.map((t) => t.id).sort());
        for (const x of items) assert.ok(['owner', 'member'].includes(x.member.role));
        const { items: beta } = await walk('listTeamsForOrganizationMember', (page) =>
            ctx.api.orgs.listTeamsForOrganizationMember(ctx.org, u.user, { page, title: `beta ${tag}` }),
        );
        assert.deepEqual(
            beta.map((x) => x.team.id),
            [teams[1].id],
        );
        await expectError('listTeamsForOrganizationMember', 404, () =>
            ctx.api.orgs.listTeamsForOrganizationMember(ctx.org, UNKNOWN_ID),
        );
    });

    it('listMembersInOrganizationById: 404 for a non-member; a read member gets what listMembers says', { timeout: TIMEOUT }, async () => {
        const other = await ctx.newOrg();
        await expectError('listMembersInOrganizationById', 404, () =>
            other.api.orgs.listMembersInOrganizationById(ctx.org),
        );
        await expectError('listMembersInOrganizationById', 404, () =>
            ctx.api.orgs.listMembersInOrganizationById(UNKNOWN_ID),
        );
        const reader = await ctx.user('read');
        const { data: org } = await expect('getOrganizationById', 200, () => reader.api.orgs.getOrganizationById(ctx.org));
        await expect('listMembersInOrganizationById', org.permissions.listMembers ? 200 : 403, () =>
            reader.api.orgs.listMembersInOrganizationById(ctx.org),
        );
    });
});
