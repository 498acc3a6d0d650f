// Site publishing auth: the private key a site signs its visitor tokens
// with, made with the site; the fallback URL set, kept and removed; the
// key regenerated, after which a token signed with the old key no longer
// opens the published site and one signed with the new key does; admins
// only; an integration backend with no integration installed gets 400.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

/** A compact JWT signed with HS256 under key. */
function sign(key, claims) {
    const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
    return `${unsigned}.${createHmac('sha256', key).update(unsigned).digest('base64url')}`;
}

suite('site publishing auth', (ctx) => {
    it('reads, updates and regenerates the key visitor tokens are signed with', { timeout: TIMEOUT }, async () => {
        const orgs = ctx.api.orgs;
        const space = await createSpace(ctx.api, ctx.org, { title: 'Guides' });
        const basename = `va-${uniq()}`;
        const { data: site } = await expect('createSite', 201, () =>
            orgs.createSite(ctx.org, { title: 'Members only', visibility: 'visitor-auth', spaces: [space.id] }));
        await expect('updateSiteById', 200, () => orgs.updateSiteById(ctx.org, site.id, { basename }));
        await expect('publishSite', 200, () => orgs.publishSite(ctx.org, site.id));

        const { data: auth } = await expect('getSitePublishingAuthById', 200, () => orgs.getSitePublishingAuthById(ctx.org, site.id));
        assert.equal(auth.object, 'publishing-auth');
        assert.equal(auth.backend, 'custom');
        assert.equal(auth.fallbackURL, undefined);
        assert.ok(auth.privateKey.length >= 40);
        const { data: again } = await expect('getSitePublishingAuthById', 200, () => orgs.getSitePublishingAuthById(ctx.org, site.id));
        assert.equal(again.privateKey, auth.privateKey);

        const { data: withFallback } = await expect('updateSitePublishingAuthById', 200, () =>
            orgs.updateSitePublishingAuthById(ctx.org, site.id, { backend: 'custom', fallbackURL: 'https://example.com/sign-in' }));
        assert.equal(withFallback.fallbackURL, 'https://example.com/sign-in');
        assert.equal(withFallback.privateKey, auth.privateKey);
        const { data: kept } = await expect('updateSitePublishingAuthById', 200, () =>
            orgs.updateSitePublishingAuthById(ctx.org, site.id, { backend: 'custom' }));
        assert.equal(kept.fallbackURL, 'https://example.com/sign-in');
        const { data: removed } = await expect('updateSitePublishingAuthById', 200, () =>
            orgs.updateSitePublishingAuthById(ctx.org, site.id, { backend: 'custom', fallbackURL: null }));
        assert.equal(removed.fallbackURL, undefined);

        // The published site opens to a token signed with the key (its
        // robots.txt: the space has no page yet).
        const page = (token) => fetch(`${ctx.server.url}/sites/${basename}/robots.txt${token ? `?jwt_token=${token}` : ''}`, { redirect: 'manual' });
        assert.equal((await page()).status, 401);
        const old = sign(auth.privateKey, { sub: 'reader' });
        assert.equal((await page(old)).status, 200);

        const { data: regenerated } = await expect('regenerateSitePublishingAuthById', 200, () =>
            orgs.regenerateSitePublishingAuthById(ctx.org, site.id));
        assert.equal(regenerated.object, 'publishing-auth');
        assert.notEqual(regenerated.privateKey, auth.privateKey);
        assert.equal((await page(old)).status, 401);
        assert.equal((await page(sign(regenerated.privateKey, { sub: 'reader' }))).status, 200);

        // An integration backend, with no integration installed on the
        // site. (Bodies the document refuses are tested in the Go suite.)
        const integration = await expectError('updateSitePublishingAuthById', 400, () =>
            orgs.updateSitePublishingAuthById(ctx.org, site.id, { backend: 'integration' }));
        assert.match(integration.error.message, /backend/);

        // Admins only.
        const editor = await ctx.user('edit');
        await expectError('getSitePublishingAuthById', 403, () => editor.api.orgs.getSitePublishingAuthById(ctx.org, site.id));
        await expectError('regenerateSitePublishingAuthById', 403, () => editor.api.orgs.regenerateSitePublishingAuthById(ctx.org, site.id));
        await expectError('updateSitePublishingAuthById', 403, () =>
            editor.api.orgs.updateSitePublishingAuthById(ctx.org, site.id, { backend: 'custom' }));
        const other = await ctx.newOrg();
        await expectError('getSitePublishingAuthById', 404, () => other.api.orgs.getSitePublishingAuthById(ctx.org, site.id));
        await expectError('getSitePublishingAuthById', 404, () => orgs.getSitePublishingAuthById(ctx.org, UNKNOWN_ID));
        const { data: still } = await expect('getSitePublishingAuthById', 200, () => orgs.getSitePublishingAuthById(ctx.org, site.id));
        assert.equal(still.privateKey, regenerated.privateKey);

        await expect('deleteSiteById', 205, () => orgs.deleteSiteById(ctx.org, site.id));
    });
});
