// Organization audit log (a Quire extension, not in the published
// document): admins list who did what, filtered and paged, or export it
// as JSON lines; others are refused as the other admin-only routes refuse
// them; bad filters are a 400 naming the parameter.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, TIMEOUT } from '../lib/harness.js';
import { expect } from '../lib/client.js';

suite('audit', (ctx) => {
    const get = (token, query = '', headers = {}) =>
        fetch(`${ctx.server.url}/v1/orgs/${ctx.org}/audit-events${query}`, {
            headers: { Authorization: `Bearer ${token}`, ...headers },
        });

    it('lists a role change for admins, filtered by action, and exports JSON lines', { timeout: TIMEOUT }, async () => {
        const u = await ctx.user('read');
        await expect('updateMemberInOrganizationById', 200, () =>
            ctx.api.orgs.updateMemberInOrganizationById(ctx.org, u.user, { role: 'edit' }),
        );
        const res = await get(ctx.token, '?action=member.role_changed');
        assert.equal(res.status, 200);
        const body = await res.json();
        const ev = body.items.find((e) => e.target.id === u.user);
        assert.ok(ev, `no role change of ${u.user} in ${JSON.stringify(body.items)}`);
        assert.equal(ev.object, 'audit-event');
        assert.equal(ev.action, 'member.role_changed');
        assert.equal(ev.actor, ctx.me.id);
        assert.ok(body.items.every((e) => e.action === 'member.role_changed'));

        const lines = await get(ctx.token, '', { Accept: 'application/x-ndjson' });
        assert.equal(lines.status, 200);
        const events = (await lines.text()).trim().split('\n').map((l) => JSON.parse(l));
        assert.ok(events.some((e) => e.id === ev.id));
    });

    it('records a change of an organization setting, filtered by its action', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        await expect('updateOrganizationById', 200, () =>
            o.api.orgs.updateOrganizationById(o.organization, { title: 'Renamed in the audit case', defaultRole: 'comment' }),
        );
        const res = await fetch(`${ctx.server.url}/v1/orgs/${o.organization}/audit-events?action=organization.title_changed`, {
            headers: { Authorization: `Bearer ${o.token}` },
        });
        assert.equal(res.status, 200);
        const body = await res.json();
        assert.equal(body.items.length, 1, JSON.stringify(body.items));
        const [ev] = body.items;
        assert.equal(ev.action, 'organization.title_changed');
        assert.deepEqual(ev.target, { kind: 'organization', id: o.organization });
        assert.equal(ev.details.to, 'Renamed in the audit case');
        assert.ok(ev.details.from && ev.details.from !== ev.details.to);
    });

    it('is refused to members who are not admins (403) and to outsiders (404)', { timeout: TIMEOUT }, async () => {
        const member = await ctx.user('create');
        assert.equal((await get(member.token)).status, 403);
        const other = await ctx.newOrg();
        assert.equal((await get(other.token)).status, 404);
    });

    it('answers a bad filter with a 400 naming it', { timeout: TIMEOUT }, async () => {
        for (const [query, name] of [['?action=nope', 'action'], ['?since=yesterday', 'since']]) {
            const res = await get(ctx.token, query);
            assert.equal(res.status, 400, query);
            const body = await res.json();
            assert.equal(body.error.code, 400);
            assert.match(body.error.message, new RegExp(name), query);
        }
    });
});
