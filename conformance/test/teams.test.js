// Organization teams: create (PUT, 201), list (paging, owner/title
// filters), get, update, delete.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createTeam } from '../lib/fixtures.js';

suite('teams', (ctx) => {
    it('createOrganizationTeam: PUT answers 201 with the team', { timeout: TIMEOUT }, async () => {
        const a = await ctx.user('edit');
        const b = await ctx.user('read');
        const title = `Writers ${uniq()}`;
        const { data } = await expect('createOrganizationTeam', 201, () =>
            ctx.api.orgs.createOrganizationTeam(ctx.org, { title, members: [a.user, b.user] }),
        );
        assert.equal(data.object, 'team');
        assert.equal(data.title, title);
        assert.equal(data.members, 2);
        assert.equal(data.spaces, 0);
        assert.equal(data.permissions.admin, true);
        assert.equal(data.permissions.view, true);
        const { data: bare } = await expect('createOrganizationTeam', 201, () =>
            ctx.api.orgs.createOrganizationTeam(ctx.org, { title: `Empty ${uniq()}` }),
        );
        assert.equal(bare.members, 0);
    });

    it('createOrganizationTeam: 403 for a read member, 404 for a non-member', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        await expectError('createOrganizationTeam', 403, () =>
            reader.api.orgs.createOrganizationTeam(ctx.org, { title: 'Not allowed' }),
        );
        const other = await ctx.newOrg();
        await expectError('createOrganizationTeam', 404, () =>
            other.api.orgs.createOrganizationTeam(ctx.org, { title: 'Not allowed' }),
        );
        await expectError('listTeamsInOrganizationById', 404, () =>
            other.api.orgs.listTeamsInOrganizationById(ctx.org),
        );
    });

    it('listTeamsInOrganizationById pages through all teams with a consistent count', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const created = [];
        for (let i = 0; i < 5; i++) created.push(await createTeam(o.api, o.organization));
        const { items } = await walk(
            'listTeamsInOrganizationById',
            (page) => o.api.orgs.listTeamsInOrganizationById(o.organization, { page, limit: 2 }),
            { limit: 2 },
        );
        assert.deepEqual(items.map((t) => t.id).sort(), created.map((t) => t.id).sort());
    });

    it('listTeamsInOrganizationById filters by title (case-insensitive contains)', { timeout: TIMEOUT }, async () => {
        const tag = uniq();
        const match = await createTeam(ctx.api, ctx.org, { title: `Docs Reviewers ${tag}` });
        await createTeam(ctx.api, ctx.org, { title: `Engineers ${tag}` });
        const { items } = await walk('listTeamsInOrganizationById', (page) =>
            ctx.api.orgs.listTeamsInOrganizationById(ctx.org, { page, title: `REVIEWERS ${tag}`.toUpperCase() }),
        );
        assert.deepEqual(
            items.map((t) => t.id),
            [match.id],
        );
    });

    it('listTeamsInOrganizationById filters by owner (teams that member can manage)', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const reader = await ctx.user('read', { org: o.organization });
        const t1 = await createTeam(o.api, o.organization, { members: [reader.user] });
        const t2 = await createTeam(o.api, o.organization);
        for (const t of [t1, t2]) {
            const { data } = await expect('getTeamInOrganizationById', 200, () =>
                o.api.orgs.getTeamInOrganizationById(o.organization, t.id),
            );
            assert.equal(data.permissions.admin, true, 'the organization admin can manage the team');
        }
        const { items: adminTeams } = await walk('listTeamsInOrganizationById', (page) =>
            o.api.orgs.listTeamsInOrganizationById(o.organization, { page, owner: o.user }),
        );
        assert.deepEqual(adminTeams.map((t) => t.id).sort(), [t1.id, t2.id].sort(), 'an admin manages every team');
        const { items: readerTeams } = await walk('listTeamsInOrganizationById', (page) =>
            o.api.orgs.listTeamsInOrganizationById(o.organization, { page, owner: reader.user }),
        );
        assert.deepEqual(readerTeams, [], 'a read member who is a plain team member manages no team');
    });

    it('getTeamInOrganizationById: 200, 404 unknown, 404 for a non-member', { timeout: TIMEOUT }, async () => {
        const t = await createTeam(ctx.api, ctx.org);
        const { data } = await expect('getTeamInOrganizationById', 200, () =>
            ctx.api.orgs.getTeamInOrganizationById(ctx.org, t.id),
        );
        assert.equal(data.id, t.id);
        assert.equal(data.title, t.title);
        await expectError('getTeamInOrganizationById', 404, () =>
            ctx.api.orgs.getTeamInOrganizationById(ctx.org, UNKNOWN_ID),
        );
        const other = await ctx.newOrg();
        await expectError('getTeamInOrganizationById', 404, () =>
            other.api.orgs.getTeamInOrganizationById(ctx.org, t.id),
        );
        await expectError('getTeamInOrganizationById', 404, () =>
            other.api.orgs.getTeamInOrganizationById(other.organization, t.id),
        );
    });

    it('updateTeamInOrganizationById renames; 403 for a read member; 404 unknown', { timeout: TIMEOUT }, async () => {
        const t = await createTeam(ctx.api, ctx.org);
        const title = `Renamed ${uniq()}`;
        const { data } = await expect('updateTeamInOrganizationById', 200, () =>
            ctx.api.orgs.updateTeamInOrganizationById(ctx.org, t.id, { title }),
        );
        assert.equal(data.title, title);
        const { data: got } = await expect('getTeamInOrganizationById', 200, () =>
            ctx.api.orgs.getTeamInOrganizationById(ctx.org, t.id),
        );
        assert.equal(got.title, title);
        const reader = await ctx.user('read');
        await expectError('updateTeamInOrganizationById', 403, () =>
            reader.api.orgs.updateTeamInOrganizationById(ctx.org, t.id, { title: 'Not allowed' }),
        );
        await expectError('updateTeamInOrganizationById', 404, () =>
            ctx.api.orgs.updateTeamInOrganizationById(ctx.org, UNKNOWN_ID, { title: 'Nobody' }),
        );
    });

    it('removeTeamFromOrganizationById: 205, then 204; the team is gone', { timeout: TIMEOUT }, async () => {
        const t = await createTeam(ctx.api, ctx.org);
        const reader = await ctx.user('read');
        await expectError('removeTeamFromOrganizationById', 403, () =>
            reader.api.orgs.removeTeamFromOrganizationById(ctx.org, t.id),
        );
        await expect('removeTeamFromOrganizationById', 205, () =>
            ctx.api.orgs.removeTeamFromOrganizationById(ctx.org, t.id),
        );
        await expect('removeTeamFromOrganizationById', 204, () =>
            ctx.api.orgs.removeTeamFromOrganizationById(ctx.org, t.id),
        );
        await expectError('getTeamInOrganizationById', 404, () =>
            ctx.api.orgs.getTeamInOrganizationById(ctx.org, t.id),
        );
    });
});
