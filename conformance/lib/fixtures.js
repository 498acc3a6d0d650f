// Small builders used by several test files. Each goes through the client
// and checks its response like any other call.

import assert from 'node:assert/strict';
import { expect } from './client.js';
import { uniq } from './server.js';

export async function createSpace(api, org, body = {}) {
    const { data } = await expect('createSpace', 201, () =>
        api.orgs.createSpace(org, { title: `Space ${uniq()}`.slice(0, 50), ...body }),
    );
    return data;
}

export async function createCollection(api, org, body = {}) {
    const { data } = await expect('createCollection', 201, () =>
        api.orgs.createCollection(org, { title: `Collection ${uniq()}`.slice(0, 50), ...body }),
    );
    return data;
}

export async function createTeam(api, org, body = {}) {
    const { data } = await expect('createOrganizationTeam', 201, () =>
        api.orgs.createOrganizationTeam(org, { title: `Team ${uniq()}`.slice(0, 64), ...body }),
    );
    return data;
}

/** Domain part of an email address. */
export function domainOf(email) {
    return email.split('@')[1];
}

/**
 * Make `member` (an object with api, user, email) join `org` (an object with
 * api, organization) through the email-domain flow: the org's admin allows
 * the member's domain, the member joins, and if `role` is given the admin
 * sets that role.
 */
export async function joinByDomain(org, member, role) {
    const domain = domainOf(member.email);
    const { data: current } = await expect('getOrganizationById', 200, () =>
        org.api.orgs.getOrganizationById(org.organization),
    );
    const domains = [...new Set([...(current.emailDomains || []), domain])];
    const { data: updated } = await expect('updateOrganizationById', 200, () =>
        org.api.orgs.updateOrganizationById(org.organization, { emailDomains: domains }),
    );
    assert.ok(updated.emailDomains.includes(domain), 'emailDomains was not updated');
    await expect('joinOrganization', 204, () => member.api.orgs.joinOrganization(org.organization));
    if (role !== undefined) {
        const { data: m } = await expect('updateMemberInOrganizationById', 200, () =>
            org.api.orgs.updateMemberInOrganizationById(org.organization, member.user, { role }),
        );
        assert.equal(m.role, role);
    }
}

/**
 * Transfer setup: a user `mover` who is admin of ctx.org and of a second
 * organization `target`, and only `read` in a third organization `readOnly`.
 */
export async function transferSetup(ctx) {
    const mover = await ctx.user('admin');
    const target = await ctx.newOrg();
    await joinByDomain(target, mover, 'admin');
    const readOnly = await ctx.newOrg();
    await joinByDomain(readOnly, mover, 'read');
    return { mover, target, readOnly };
}
