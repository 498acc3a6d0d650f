// Organizations: list, get, update, join, email domains, link invites, SSO logins.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, BAD_TOKEN, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { client, expect, expectError, walk } from '../lib/client.js';
import { domainOf } from '../lib/fixtures.js';

suite('organizations', (ctx) => {
    it('listOrganizationsForAuthenticatedUser lists the bootstrap organization', { timeout: TIMEOUT }, async () => {
        const { data } = await expect('listOrganizationsForAuthenticatedUser', 200, () =>
            ctx.api.orgs.listOrganizationsForAuthenticatedUser(),
        );
        const org = data.items.find((o) => o.id === ctx.org);
        assert.ok(org, 'bootstrap organization missing');
        assert.equal(org.object, 'organization');
        assert.equal(org.permissions.admin, true);
    });

    it('getOrganizationById: 200, then 404 for an unknown id and for a non-member', { timeout: TIMEOUT }, async () => {
        const { data } = await expect('getOrganizationById', 200, () => ctx.api.orgs.getOrganizationById(ctx.org));
        assert.equal(data.id, ctx.org);
        assert.equal(data.permissions.admin, true);
        await expectError('getOrganizationById', 404, () => ctx.api.orgs.getOrganizationById(UNKNOWN_ID));
        const other = await ctx.newOrg();
        await expectError('getOrganizationById', 404, () => other.api.orgs.getOrganizationById(ctx.org));
        await expectError('getOrganizationById', 401, () =>
            client(ctx.server, BAD_TOKEN).orgs.getOrganizationById(ctx.org),
        );
    });

    it('a read member sees the organization without admin permission', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        const { data } = await expect('getOrganizationById', 200, () => reader.api.orgs.getOrganizationById(ctx.org));
        assert.equal(data.permissions.admin, false);
    });

    it('updateOrganizationById changes title, emailDomains and defaultRole', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const title = `Renamed ${uniq()}`;
        const domain = `d-${uniq()}.example.org`;
        const { data } = await expect('updateOrganizationById', 200, () =>
            o.api.orgs.updateOrganizationById(o.organization, { title, emailDomains: [domain], defaultRole: 'comment' }),
        );
        assert.equal(data.title, title);
        assert.deepEqual(data.emailDomains, [domain]);
        assert.equal(data.defaultRole, 'comment');
        const { data: again } = await expect('getOrganizationById', 200, () =>
            o.api.orgs.getOrganizationById(o.organization),
        );
        assert.equal(again.title, title);
        assert.deepEqual(again.emailDomains, [domain]);
        assert.equal(again.defaultRole, 'comment');
    });

    it('updateOrganizationById: 400 for an invalid default content', { timeout: TIMEOUT }, async () => {
        const e = await expectError('updateOrganizationById', 400, () =>
            ctx.api.orgs.updateOrganizationById(ctx.org, { defaultContent: { type: 'site', site: UNKNOWN_ID } }),
        );
        assert.equal(e.error.code, 400);
    });

    it('updateOrganizationById: 403 for a read member, 404 for a non-member', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        await expectError('updateOrganizationById', 403, () =>
            reader.api.orgs.updateOrganizationById(ctx.org, { title: 'Not allowed' }),
        );
        const other = await ctx.newOrg();
        await expectError('updateOrganizationById', 404, () =>
            other.api.orgs.updateOrganizationById(ctx.org, { title: 'Not allowed' }),
        );
        await expectError('updateOrganizationById', 404, () =>
            ctx.api.orgs.updateOrganizationById(UNKNOWN_ID, { title: 'Not allowed' }),
        );
        const { data } = await expect('getOrganizationById', 200, () => ctx.api.orgs.getOrganizationById(ctx.org));
        assert.notEqual(data.title, 'Not allowed');
    });

    it('joinOrganization: 204 when the email domain matches, with the default role', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const joiner = await ctx.user('read');
        const domain = domainOf(joiner.email);
        await expect('updateOrganizationById', 200, () =>
            o.api.orgs.updateOrganizationById(o.organization, { emailDomains: [domain] }),
        );
        const { data: org } = await expect('getOrganizationById', 200, () => o.api.orgs.getOrganizationById(o.organization));
        await expect('joinOrganization', 204, () => joiner.api.orgs.joinOrganization(o.organization));
        const { data: m } = await expect('getMemberInOrganizationById', 200, () =>
            o.api.orgs.getMemberInOrganizationById(o.organization, joiner.user),
        );
        assert.equal(m.id, joiner.user);
        assert.equal(m.role, org.defaultRole ?? 'read');
        const { data: mine } = await expect('getOrganizationById', 200, () =>
            joiner.api.orgs.getOrganizationById(o.organization),
        );
        assert.equal(mine.id, o.organization);
    });

    it('joinOrganization: a domain not allowed gets the same 404 as an unknown org', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const outsider = await ctx.user('read');
        await expect('updateOrganizationById', 200, () =>
            o.api.orgs.updateOrganizationById(o.organization, { emailDomains: [`other-${uniq()}.example.net`] }),
        );
        const refused = await expectError('joinOrganization', 404, () => outsider.api.orgs.joinOrganization(o.organization));
        await expectError('getOrganizationById', 404, () => outsider.api.orgs.getOrganizationById(o.organization));
        const unknown = await expectError('joinOrganization', 404, () => outsider.api.orgs.joinOrganization(UNKNOWN_ID));
        assert.deepEqual(refused, unknown, 'the refusal tells an existing organization from an unknown one');
    });

    it('listOrganizationsForAuthenticatedUser pages through every organization joined', { timeout: TIMEOUT }, async () => {
        const joiner = await ctx.user('read');
        const domain = domainOf(joiner.email);
        const joined = [ctx.org];
        for (let i = 0; i < 4; i++) {
            const o = await ctx.newOrg();
            await expect('updateOrganizationById', 200, () =>
                o.api.orgs.updateOrganizationById(o.organization, { emailDomains: [domain] }),
            );
            await expect('joinOrganization', 204, () => joiner.api.orgs.joinOrganization(o.organization));
            joined.push(o.organization);
        }
        const { items } = await walk(
            'listOrganizationsForAuthenticatedUser',
            (page) => joiner.api.orgs.listOrganizationsForAuthenticatedUser({ page, limit: 2 }),
            { limit: 2 },
        );
        assert.deepEqual(items.map((o) => o.id).sort(), [...joined].sort());
    });

    it('getOrganizationsForEmailDomain lists the organizations allowing the caller’s domain', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const caller = await ctx.user('read');
        const domain = domainOf(caller.email);
        await expect('updateOrganizationById', 200, () =>
            o.api.orgs.updateOrganizationById(o.organization, { emailDomains: [domain] }),
        );
        const { data } = await expect('getOrganizationsForEmailDomain', 200, () =>
            caller.api.emailDomains.getOrganizationsForEmailDomain(domain),
        );
        assert.ok(
            data.organizations.some((x) => x.id === o.organization),
            `organization ${o.organization} missing from ${JSON.stringify(data.organizations.map((x) => x.id))}`,
        );
        for (const x of data.organizations) assert.ok(x.emailDomains.includes(domain));
        const lonely = await ctx.user('read');
        const { data: none } = await expect('getOrganizationsForEmailDomain', 200, () =>
            lonely.api.emailDomains.getOrganizationsForEmailDomain(domainOf(lonely.email)),
        );
        assert.deepEqual(none.organizations, []);
    });

    it('deleteOrganizationInviteById: 204 when the invite does not exist', { timeout: TIMEOUT }, async () => {
        await expect('deleteOrganizationInviteById', 204, () =>
            ctx.api.orgs.deleteOrganizationInviteById(ctx.org, UNKNOWN_ID),
        );
        await expect('deleteOrganizationInviteById', 204, () =>
            ctx.api.orgs.deleteOrganizationInviteById(ctx.org, UNKNOWN_ID),
        );
    });

    it('deleteOrganizationInviteById: 403 for a read member, 404 for a non-member', { timeout: TIMEOUT }, async () => {
        const reader = await ctx.user('read');
        await expectError('deleteOrganizationInviteById', 403, () =>
            reader.api.orgs.deleteOrganizationInviteById(ctx.org, UNKNOWN_ID),
        );
        const other = await ctx.newOrg();
        await expectError('deleteOrganizationInviteById', 404, () =>
            other.api.orgs.deleteOrganizationInviteById(ctx.org, UNKNOWN_ID),
        );
    });

    it('listSSOProviderLoginsInOrganization answers {items: []}', { timeout: TIMEOUT }, async () => {
        const { data } = await expect('listSSOProviderLoginsInOrganization', 200, () =>
            ctx.api.orgs.listSsoProviderLoginsInOrganization(ctx.org),
        );
        assert.deepEqual(data.items, []);
        assert.equal(data.next, undefined);
    });

    it('listSSOProviderLoginsInOrganization: 404 for an unknown organization', { timeout: TIMEOUT }, async () => {
        await expectError('listSSOProviderLoginsInOrganization', 404, () =>
            ctx.api.orgs.listSsoProviderLoginsInOrganization(UNKNOWN_ID),
        );
    });
});
