// Test scaffolding: one server per backend per test file, with its
// bootstrap organization and admin, plus a closing check that every
// response recorded in the file conformed to the document.

import assert from 'node:assert/strict';
import { describe, before, after, test } from 'node:test';
import { backends, startServer, createUser, bootstrapOrg, uniq } from './server.js';
import { client, expect, nonConforming } from './client.js';

export const TIMEOUT = 60000;

/**
 * Declare the suite `title` once per backend. `body(ctx)` declares tests;
 * ctx is filled before they run:
 *   ctx.server      the running server
 *   ctx.api         client of the bootstrap admin
 *   ctx.token       that admin's token
 *   ctx.me          that admin's User
 *   ctx.org         id of the bootstrap organization
 *   ctx.user(role)  create a member of ctx.org: { user, token, email, api }
 *   ctx.newOrg()    bootstrap another organization: { organization, user, token, api, ... }
 * serverArgs are extra arguments of `quire serve`.
 */
export function suite(title, body, { serverArgs = [] } = {}) {
    for (const backend of backends()) {
        describe(`${title} [${backend}]`, { timeout: 10 * TIMEOUT }, () => {
            const ctx = { backend };
            before(async () => {
                ctx.server = await startServer(backend, { args: serverArgs });
                ctx.token = ctx.server.adminToken;
                ctx.api = client(ctx.server, ctx.token);
                ctx.me = (await expect('getAuthenticatedUser', 200, () => ctx.api.user.getAuthenticatedUser())).data;
                const { data } = await expect('listOrganizationsForAuthenticatedUser', 200, () =>
                    ctx.api.orgs.listOrganizationsForAuthenticatedUser(),
                );
                assert.ok(data.items.length >= 1, 'the bootstrap admin belongs to no organization');
                ctx.org = data.items[0].id;
                ctx.user = async (role = 'read', opts = {}) => {
                    const u = await createUser(ctx.server, { org: opts.org ?? ctx.org, role, ...opts });
                    return { ...u, api: client(ctx.server, u.token) };
                };
                ctx.newOrg = async (opts = {}) => {
                    const o = await bootstrapOrg(ctx.server, opts);
                    return { ...o, api: client(ctx.server, o.token) };
                };
            }, { timeout: TIMEOUT });
            after(async () => {
                if (ctx.server) await ctx.server.stop();
            }, { timeout: TIMEOUT });
            body(ctx);
        });
    }
    test(`${title}: every recorded response conforms to the document`, () => {
        const bad = nonConforming();
        assert.equal(bad.length, 0, `${bad.length} non-conforming responses:\n${bad.join('\n')}`);
    });
}

export { uniq };

/** A bad token, of plausible shape. */
export const BAD_TOKEN = 'qt_invalid_' + 'x'.repeat(32);

/** An id that matches nothing. */
export const UNKNOWN_ID = 'doesnotexist0000000000';
