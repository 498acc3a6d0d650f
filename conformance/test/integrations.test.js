// Integrations: published by an organization's admin, listed with their
// filters, installed in the organization and on its spaces and sites,
// configured against the schemas their manifest declares, with
// installation tokens limited to what the installation covers, events
// recorded for each setup and removal and delivered to the script, and
// development mode set and cleared.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { client, expect, expectError } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A publication of an integration by an organization. */
function publication(org, changes = {}) {
    return {
        organization: org,
        title: 'Acme Sync',
        description: 'Keeps content in sync',
        script: 'export default { async fetch() { return new Response("ok"); } }',
        scopes: ['space:content:read'],
        runtime: 'v2',
        visibility: 'public',
        ...changes,
    };
}

suite('integrations', (ctx) => {
    it('publishes, lists, republishes and unpublishes', { timeout: TIMEOUT }, async () => {
        const ints = ctx.api.integrations;
        const name = `acme-${uniq()}`.toLowerCase();
        const published = (await expect('publishIntegration', 200, () =>
            ints.publishIntegration(name, publication(ctx.org, {
                categories: ['content'],
                blocks: [{ id: 'card', title: 'Card', urlUnfurl: ['https://cards.example.com/x'] }],
                externalLinks: [{ url: 'https://example.com', label: 'Home' }],
                secrets: { API_KEY: 'x' },
                contentSecurityPolicy: { 'script-src': "'self'" },
                configurations: { account: { properties: { key: { type: 'string', title: 'Key' } }, required: ['key'] } },
            })),
        )).data;
        assert.equal(published.name, name);
        assert.equal(published.version, 1);
        assert.equal(published.owner.id, ctx.org);
        assert.equal(published.permissions.admin, true);
        const again = (await expect('publishIntegration', 200, () =>
            ints.publishIntegration(name, publication(ctx.org, { title: 'Acme Sync 2', categories: ['content'] })),
        )).data;
        assert.equal(again.version, 2);
        const got = (await expect('getIntegrationByName', 200, () => ints.getIntegrationByName(name))).data;
        assert.equal(got.title, 'Acme Sync 2');

        const listed = (await expect('listIntegrations', 200, () => ints.listIntegrations({ category: 'content' }))).data;
        assert.ok(listed.items.some((i) => i.name === name), 'the category filter misses the integration');
        const none = (await expect('listIntegrations', 200, () => ints.listIntegrations({ scope: 'openapi:write', search: name }))).data;
        assert.equal(none.items.length, 0);

        const reader = await ctx.user('read');
        await expectError('publishIntegration', 403, () => reader.api.integrations.publishIntegration(name, publication(ctx.org)));
        await expectError('publishIntegration', 404, () => ints.publishIntegration(`${name}-x`, publication(UNKNOWN_ID)));
        await expectError('publishIntegration', 400, () => ints.publishIntegration(name, publication(ctx.org, {
            configurations: { account: { properties: { key: { type: 'string' } }, required: ['missing'] } },
        })));
        await expectError('getIntegrationByName', 404, () => ints.getIntegrationByName(`${name}-missing`));

        await expect('unpublishIntegration', 205, () => ints.unpublishIntegration(name));
        await expect('unpublishIntegration', 204, () => ints.unpublishIntegration(name));
    });

    it('installs on the organization, a space and a site, with tokens and events', { timeout: TIMEOUT }, async () => {
        const ints = ctx.api.integrations;
        const name = `inst-${uniq()}`.toLowerCase();
        await expect('publishIntegration', 200, () => ints.publishIntegration(name, publication(ctx.org, {
            configurations: {
                account: { properties: { key: { type: 'string' } }, required: ['key'] },
                space: { properties: { path: { type: 'string' } } },
                site: { properties: { theme: { type: 'string', enum: ['dark', 'light'] } } },
            },
        })));
        const inst = (await expect('installIntegration', 201, () => ints.installIntegration(name, { organization: ctx.org }))).data;
        assert.equal(inst.status, 'pending');
        assert.equal(inst.target.organization, ctx.org);
        await expectError('installIntegration', 409, () => ints.installIntegration(name, { organization: ctx.org }));
        await expectError('installIntegration', 404, () => ints.installIntegration(`${name}-x`, { organization: ctx.org }));

        await expectError('updateIntegrationInstallation', 400, () =>
            ints.updateIntegrationInstallation(name, inst.id, { configuration: { key: 5 } }));
        const updated = (await expect('updateIntegrationInstallation', 200, () =>
            ints.updateIntegrationInstallation(name, inst.id, { configuration: { key: 'k' }, externalIds: ['ext-1'] }))).data;
        assert.equal(updated.status, 'active');
        const byId = (await expect('getIntegrationInstallationById', 200, () => ints.getIntegrationInstallationById(name, inst.id))).data;
        assert.deepEqual(byId.externalIds, ['ext-1']);
        const found = (await expect('listIntegrationInstallations', 200, () =>
            ints.listIntegrationInstallations(name, { externalId: 'ext-1' }))).data;
        assert.deepEqual(found.items.map((i) => i.id), [inst.id]);

        const space = await createSpace(ctx.api, ctx.org);
        const other = await createSpace(ctx.api, ctx.org);
        const onSpace = (await expect('installIntegrationOnSpace', 201, () =>
            ints.installIntegrationOnSpace(name, inst.id, { space: space.id }))).data;
        assert.equal(onSpace.space, space.id);
        await expectError('installIntegrationOnSpace', 404, () => ints.installIntegrationOnSpace(name, inst.id, { space: UNKNOWN_ID }));
        await expect('updateIntegrationSpaceInstallation', 200, () =>
            ints.updateIntegrationSpaceInstallation(name, inst.id, space.id, { configuration: { path: 'docs/' }, externalIds: ['repo'] }));
        const spaceInst = (await expect('getIntegrationSpaceInstallation', 200, () =>
            ints.getIntegrationSpaceInstallation(name, inst.id, space.id, { extended: true }))).data;
        assert.equal(spaceInst.space.id, space.id);
        const spaces = (await expect('listIntegrationSpaceInstallations', 200, () =>
            ints.listIntegrationSpaceInstallations(name, { externalId: 'repo', extended: true }))).data;
        assert.deepEqual(spaces.items.map((s) => s.space.id), [space.id]);
        const onThisSpace = (await expect('listSpaceIntegrations', 200, () => ctx.api.spaces.listSpaceIntegrations(space.id))).data;
        assert.deepEqual(onThisSpace.items.map((i) => i.name), [name]);

        const { data: site } = await expect('createSite', 201, () => ctx.api.orgs.createSite(ctx.org, { title: `Docs ${uniq()}`.slice(0, 128) }));
        await expect('installIntegrationOnSite', 201, () => ints.installIntegrationOnSite(name, inst.id, { siteId: site.id }));
        await expectError('updateIntegrationSiteInstallation', 400, () =>
            ints.updateIntegrationSiteInstallation(name, inst.id, site.id, { configuration: { theme: 'pink' } }));
        await expect('updateIntegrationSiteInstallation', 200, () =>
            ints.updateIntegrationSiteInstallation(name, inst.id, site.id, { configuration: { theme: 'dark' } }));
        const siteInst = (await expect('getIntegrationSiteInstallation', 200, () =>
            ints.getIntegrationSiteInstallation(name, inst.id, site.id))).data;
        assert.equal(siteInst.site, site.id);
        const sites = (await expect('listIntegrationSiteInstallations', 200, () =>
            ints.listIntegrationSiteInstallations(name, { extended: true }))).data;
        assert.deepEqual(sites.items.map((s) => s.site.id), [site.id]);

        // The installation token reads the covered space, not the other,
        // and writes nothing with a read scope.
        const { token } = (await expect('createIntegrationInstallationToken', 200, () =>
            ints.createIntegrationInstallationToken(name, inst.id))).data;
        const asIntegration = client(ctx.server, token);
        await expect('getSpaceById', 200, () => asIntegration.spaces.getSpaceById(space.id));
        await expectError('getSpaceById', 404, () => asIntegration.spaces.getSpaceById(other.id));
        await expectError('postCommentInSpace', 403, () =>
            asIntegration.spaces.postCommentInSpace(space.id, { body: { markdown: 'Hi' } }));

        // Every setup was an event, delivered to the script, which
        // answered OK.
        let events;
        const deadline = Date.now() + TIMEOUT;
        for (;;) {
            events = (await expect('listIntegrationEvents', 200, () => ints.listIntegrationEvents(name))).data;
            if (events.items.length >= 5) break;
            assert.ok(Date.now() < deadline, `events: ${JSON.stringify(events)}`);
            await sleep(50);
        }
        const types = new Set(events.items.map((e) => e.payload.type));
        for (const t of ['installation_setup', 'space_installation_setup', 'site_installation_setup']) {
            assert.ok(types.has(t), `no ${t} event in ${[...types]}`);
        }
        const one = (await expect('getIntegrationEvent', 200, () => ints.getIntegrationEvent(name, events.items[0].id))).data;
        assert.equal(one.event.status, 'success', JSON.stringify(one));
        assert.ok(Array.isArray(one.trace.logs), JSON.stringify(one.trace));
        await expectError('getIntegrationEvent', 404, () => ints.getIntegrationEvent(name, UNKNOWN_ID));

        await expect('uninstallIntegrationFromSite', 205, () => ints.uninstallIntegrationFromSite(name, inst.id, site.id));
        await expect('uninstallIntegrationFromSite', 204, () => ints.uninstallIntegrationFromSite(name, inst.id, site.id));
        await expect('uninstallIntegrationFromSpace', 205, () => ints.uninstallIntegrationFromSpace(name, inst.id, space.id));
        await expect('uninstallIntegrationFromSpace', 204, () => ints.uninstallIntegrationFromSpace(name, inst.id, space.id));
        await expect('uninstallIntegration', 205, () => ints.uninstallIntegration(name, inst.id));
        await expect('uninstallIntegration', 204, () => ints.uninstallIntegration(name, inst.id));
        await expectError('getSpaceById', 401, () => asIntegration.spaces.getSpaceById(space.id));
    });

    it('sets and clears development mode', { timeout: TIMEOUT }, async () => {
        const ints = ctx.api.integrations;
        const name = `dev-${uniq()}`.toLowerCase();
        await expect('publishIntegration', 200, () => ints.publishIntegration(name, publication(ctx.org)));
        await expect('setIntegrationDevelopmentMode', 204, () =>
            ints.setIntegrationDevelopmentMode(name, { tunnelUrl: 'https://tunnel.example.com', all: true }));
        await expectError('setIntegrationDevelopmentMode', 404, () =>
            ints.setIntegrationDevelopmentMode(`${name}-x`, { tunnelUrl: 'https://tunnel.example.com' }));
        await expect('disableIntegrationDevelopmentMode', 205, () => ints.disableIntegrationDevelopmentMode(name));
    });
});
