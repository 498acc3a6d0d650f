// Sites: a site with two sections in a group and three site spaces, a
// default, sortSiteStructure, a visitor schema and a condition that names
// it, publishing, the published profile with and without a share key, and
// deletion; malformed bodies, bad conditions and bad schemas get 400.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const visitorSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
        isBeta: { type: 'boolean', description: 'In the beta program' },
        unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: { lang: { type: 'string', enum: ['en', 'fr'], description: 'Language' } },
            additionalProperties: false,
        },
    },
    additionalProperties: false,
};

/** The titles of a sections structure, groups holding their children. */
function outline(structure) {
    return structure.map((n) =>
        n.object === 'site-section-group'
            ? { group: n.title, children: outline(n.children) }
            : { section: n.title, default: n.default === true, spaces: n.siteSpaces.map((s) => s.path + (s.default ? '*' : '')) },
    );
}

suite('sites', (ctx) => {
    it('builds, sorts, adapts, publishes, shares and deletes a site', { timeout: TIMEOUT }, async () => {
        const orgs = ctx.api.orgs;
        const [guides, api, blog] = [await createSpace(ctx.api, ctx.org, { title: 'Guides' }),
            await createSpace(ctx.api, ctx.org, { title: 'API' }), await createSpace(ctx.api, ctx.org, { title: 'Blog' })];

        const { data: site } = await expect('createSite', 201, () => orgs.createSite(ctx.org, { title: `Docs ${uniq()}`.slice(0, 128) }));
        assert.equal(site.object, 'site');
        assert.equal(site.type, 'basic');
        assert.equal(site.published, false);
        assert.equal(site.siteSpaces, 0);
        const { data: empty } = await expect('getSiteStructure', 200, () => orgs.getSiteStructure(ctx.org, site.id));
        assert.deepEqual(empty, { type: 'siteSpaces', structure: [] });

        // Two sections, the first with two site spaces.
        const { data: first } = await expect('addSectionToSite', 201, () =>
            orgs.addSectionToSite(ctx.org, site.id, { spaceId: guides.id, title: 'Guides' }));
        assert.equal(first.path, 'guides');
        assert.equal(first.siteSpaces.length, 1);
        assert.equal(first.siteSpaces[0].space.id, guides.id);
        const { data: apiSS } = await expect('addSpaceToSite', 201, () =>
            orgs.addSpaceToSite(ctx.org, site.id, { spaceId: api.id, sectionId: first.id }));
        assert.equal(apiSS.section, first.id);
        assert.equal(apiSS.default, false);
        const { data: second } = await expect('addSectionToSite', 201, () =>
            orgs.addSectionToSite(ctx.org, site.id, { spaceId: blog.id, title: 'Blog', icon: 'newspaper' }));
        assert.equal(second.icon, 'newspaper');

        // Both in a group.
        const { data: group } = await expect('addSectionGroupToSite', 201, () =>
            orgs.addSectionGroupToSite(ctx.org, site.id, { title: 'Everything', sections: [first.id, second.id] }));
        assert.deepEqual(group.children.map((c) => c.id), [first.id, second.id]);
        const { data: groups } = await expect('listSiteSectionGroups', 200, () => orgs.listSiteSectionGroups(ctx.org, site.id));
        assert.deepEqual(groups.items.map((g) => g.id), [group.id]);

        // A default, and a sort.
        await expect('updateSiteSectionById', 200, () =>
            orgs.updateSiteSectionById(ctx.org, site.id, first.id, { defaultSiteSpace: apiSS.id }));
        const { data: sorted } = await expect('sortSiteStructure', 200, () =>
            orgs.sortSiteStructure(ctx.org, site.id, {
                item: { type: 'site-section', id: second.id },
                position: { before: { type: 'site-section', id: first.id } },
            }));
        assert.equal(sorted.object, 'site-section');
        assert.equal(sorted.sectionGroup, group.id);
        await expectError('sortSiteStructure', 400, () =>
            orgs.sortSiteStructure(ctx.org, site.id, {
                item: { type: 'site-section', id: second.id },
                position: { before: { type: 'site-section', id: UNKNOWN_ID } },
            }));
        await expectError('sortSiteStructure', 404, () =>
            orgs.sortSiteStructure(ctx.org, site.id, { item: { type: 'site-space', id: UNKNOWN_ID }, position: {} }));
        const { data: structure } = await expect('getSiteStructure', 200, () => orgs.getSiteStructure(ctx.org, site.id));
        assert.equal(structure.type, 'sections');
        assert.deepEqual(outline(structure.structure), [{
            group: 'Everything',
            children: [
                { section: 'Blog', default: false, spaces: ['blog*'] },
                { section: 'Guides', default: true, spaces: ['guides', 'api*'] },
            ],
        }]);
        const { data: defaults } = await expect('listSiteSpaces', 200, () => orgs.listSiteSpaces(ctx.org, site.id, { default: true }));
        assert.deepEqual(defaults.items.map((s) => s.id), [apiSS.id]);
        const { data: sections } = await expect('listSiteSections', 200, () => orgs.listSiteSections(ctx.org, site.id));
        assert.deepEqual(sections.items.map((s) => s.id), [second.id, first.id]);

        // The visitor schema, and a condition that names it.
        await expectError('getSiteAdaptiveSchema', 404, () => orgs.getSiteAdaptiveSchema(ctx.org, site.id));
        // The published shape allows an enum with a repeated value; draft-07
        // does not.
        const repeated = { ...visitorSchema, properties: { ...visitorSchema.properties,
            plan: { type: 'string', enum: ['free', 'free'], description: 'Plan' } } };
        const bad = await expectError('updateSiteAdaptiveSchema', 400, () =>
            orgs.updateSiteAdaptiveSchema(ctx.org, site.id, { jsonSchema: repeated }));
        assert.match(bad.error.message, /jsonSchema/);
        const { data: schema } = await expect('updateSiteAdaptiveSchema', 200, () =>
            orgs.updateSiteAdaptiveSchema(ctx.org, site.id, { jsonSchema: visitorSchema }));
        assert.deepEqual(schema.jsonSchema, visitorSchema);
        const { data: templates } = await expect('listSiteAdaptiveTemplateConditions', 200, () =>
            orgs.listSiteAdaptiveTemplateConditions(ctx.org, site.id));
        assert.ok(templates.items.some((c) => c.condition === 'visitor.claims.isBeta'));
        const { data: conditioned } = await expect('updateSiteSectionById', 200, () =>
            orgs.updateSiteSectionById(ctx.org, site.id, second.id, { condition: 'visitor.claims.isBeta' }));
        assert.equal(conditioned.condition, 'visitor.claims.isBeta');
        const badCond = await expectError('updateSiteSpaceById', 400, () =>
            orgs.updateSiteSpaceById(ctx.org, site.id, apiSS.id, { condition: 'visitor.claims.isGamma' }));
        assert.match(badCond.error.message, /condition/);
        assert.match(badCond.error.message, /column/);

        // Publishing, and the published profile with and without a key.
        await expect('updateSiteById', 200, () => orgs.updateSiteById(ctx.org, site.id, { visibility: 'share-link' }));
        const { data: published } = await expect('publishSite', 200, () => orgs.publishSite(ctx.org, site.id));
        assert.equal(published.published, true);
        assert.ok(published.urls.published.endsWith(`/sites/${site.id}/`));
        const { data: profile } = await expect('getPublishedContentSite', 200, () => orgs.getPublishedContentSite(ctx.org, site.id));
        assert.equal(profile.object, 'published-content-site');
        assert.equal(profile.site.id, site.id);
        assert.equal(profile.structure.type, 'sections');
        assert.equal(Object.keys(profile.customizations.siteSpaces).length, 3);
        const { data: link } = await expect('createSiteShareLink', 201, () =>
            orgs.createSiteShareLink(ctx.org, site.id, { name: 'Reviewers' }));
        const key = link.urls.published.split('/~share/')[1].replace(/\/$/, '');
        const { data: shared } = await expect('getPublishedContentSite', 200, () =>
            orgs.getPublishedContentSite(ctx.org, site.id, { shareKey: key }));
        assert.ok(shared.site.urls.published.endsWith(`/sites/${site.id}/`));
        assert.ok(shared.structure.structure[0].children[0].urls.published.includes(`/~share/${key}/`));
        await expect('deleteSiteShareLinkById', 205, () => orgs.deleteSiteShareLinkById(ctx.org, site.id, link.id));
        await expectError('getPublishedContentSite', 404, () =>
            orgs.getPublishedContentSite(ctx.org, site.id, { shareKey: key }));
        const { data: off } = await expect('unpublishSite', 200, () => orgs.unpublishSite(ctx.org, site.id));
        assert.equal(off.published, false);

        // Counters and the list.
        const { data: got } = await expect('getSiteById', 200, () => orgs.getSiteById(ctx.org, site.id));
        assert.equal(got.siteSpaces, 3);
        const { data: bySpace } = await expect('listSites', 200, () => orgs.listSites(ctx.org, { space: blog.id }));
        assert.deepEqual(bySpace.items.map((s) => s.id), [site.id]);

        // Deletion leaves the spaces.
        await expect('deleteSiteById', 205, () => orgs.deleteSiteById(ctx.org, site.id));
        await expect('deleteSiteById', 204, () => orgs.deleteSiteById(ctx.org, site.id));
        await expectError('getSiteById', 404, () => orgs.getSiteById(ctx.org, site.id));
        await expect('getSpaceById', 200, () => ctx.api.spaces.getSpaceById(guides.id));
    });

    it('root site spaces, share links, customization and access', { timeout: TIMEOUT }, async () => {
        const orgs = ctx.api.orgs;
        const space = await createSpace(ctx.api, ctx.org);
        const { data: site } = await expect('createSite', 201, () =>
            orgs.createSite(ctx.org, { title: 'Handbook', type: 'premium', visibility: 'unlisted', spaces: [space.id] }));
        assert.equal(site.siteSpaces, 1);
        const { data: spaces } = await expect('listSiteSpaces', 200, () => orgs.listSiteSpaces(ctx.org, site.id));
        assert.equal(spaces.items.length, 1);
        assert.equal(spaces.items[0].default, true);
        const { data: patched } = await expect('updateSiteById', 200, () =>
            orgs.updateSiteById(ctx.org, site.id, { basename: `hb-${uniq()}`, proxy: 'example.com/docs', agentsContext: 'excluded', adaptiveContent: { enabled: true } }));
        assert.equal(patched.proxy.origin, 'example.com/docs');
        assert.equal(patched.agentsContext, 'excluded');
        const { data: cleared } = await expect('updateSiteById', 200, () => orgs.updateSiteById(ctx.org, site.id, { proxy: null }));
        assert.equal(cleared.proxy, undefined);

        const { data: c } = await expect('getSiteCustomizationById', 200, () => orgs.getSiteCustomizationById(ctx.org, site.id));
        const { data: c2 } = await expect('updateSiteCustomizationById', 200, () =>
            orgs.updateSiteCustomizationById(ctx.org, site.id, { ...c, title: 'Handbook portal' }));
        assert.equal(c2.title, 'Handbook portal');
        const badLink = await expectError('updateSiteCustomizationById', 400, () =>
            orgs.updateSiteCustomizationById(ctx.org, site.id, { ...c, header: { ...c.header,
                links: [{ title: 'Beta', to: null, links: [], condition: 'visitor.claims.isBeta' }] } }));
        assert.match(badLink.error.message, /header\.links\[0\]\.condition/);

        const { data: link } = await expect('createSiteShareLink', 201, () => orgs.createSiteShareLink(ctx.org, site.id, { name: 'One' }));
        const { data: off } = await expect('updateSiteShareLinkById', 200, () =>
            orgs.updateSiteShareLinkById(ctx.org, site.id, link.id, { active: false }));
        assert.equal(off.active, false);
        const { data: links } = await expect('listSiteShareLinks', 200, () => orgs.listSiteShareLinks(ctx.org, site.id));
        assert.deepEqual(links.items.map((l) => l.id), [link.id]);

        // Deprecated moves and the root structure.
        const { data: second } = await expect('addSpaceToSite', 201, () => orgs.addSpaceToSite(ctx.org, site.id, { spaceId: space.id }));
        const { data: moved } = await expect('moveSiteSpace', 200, () =>
            orgs.moveSiteSpace(ctx.org, site.id, second.id, { position: { before: { type: 'site-space', siteSpace: spaces.items[0].id } } }));
        assert.equal(moved.default, false);
        const { data: st } = await expect('getSiteStructure', 200, () => orgs.getSiteStructure(ctx.org, site.id));
        assert.deepEqual(st.structure.map((s) => s.id), [second.id, spaces.items[0].id]);

        const reader = await ctx.user('read');
        await expect('getSiteById', 200, () => reader.api.orgs.getSiteById(ctx.org, site.id));
        await expectError('updateSiteById', 403, () => reader.api.orgs.updateSiteById(ctx.org, site.id, { title: 'No' }));
        const other = await ctx.newOrg();
        await expectError('getSiteById', 404, () => other.api.orgs.getSiteById(ctx.org, site.id));
        const badSpace = await expectError('createSite', 400, () => orgs.createSite(ctx.org, { title: 'Nope', spaces: [UNKNOWN_ID] }));
        assert.match(badSpace.error.message, /spaces\[0\]/);
        await expect('deleteSiteById', 205, () => orgs.deleteSiteById(ctx.org, site.id));
    });
});
