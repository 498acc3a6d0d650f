// SAML providers: create (pending with a label alone, active once fully
// configured), list with paging, get, update, delete (205, then 204),
// certificates checked on the way in, admins only; the active ones are
// offered for sign-in, and the service provider metadata is served.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, UNKNOWN_ID, TIMEOUT, uniq } from '../lib/harness.js';
import { expect, expectError, walk } from '../lib/client.js';
import { createTeam } from '../lib/fixtures.js';

// A self-signed certificate valid from 2025 to 2125, and one that expired
// in 2001: fixed test data, no key is kept.
const VALID_CERT = `-----BEGIN CERTIFICATE-----
MIIBIjCByaADAgECAgEBMAoGCCqGSM49BAMCMBoxGDAWBgNVBAMTD2NvbmZvcm1h
bmNlIElkUDAgFw0yNTAxMDEwMDAwMDBaGA8yMTI1MDEwMTAwMDAwMFowGjEYMBYG
A1UEAxMPY29uZm9ybWFuY2UgSWRQMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
5fVQyH7T1wMcURf7KBsPfrbl1uytUpBUN7QEW1/5RDYmZYIfUwwhld073CC7+J5p
C6OLa3LIalkxKhGulkFLdzAKBggqhkjOPQQDAgNIADBFAiAGI3B28w8sBpmH8eGS
/Fsxgdx/Rn4WMgtl3Xyz78ezAgIhAMCDk33/fhpQnLHd/ANCWsWkKLOj3McRRGZ/
57sWzDgt
-----END CERTIFICATE-----
`;
const EXPIRED_CERT = `-----BEGIN CERTIFICATE-----
MIIBHzCBx6ADAgECAgEBMAoGCCqGSM49BAMCMBoxGDAWBgNVBAMTD2NvbmZvcm1h
bmNlIElkUDAeFw0wMDAxMDEwMDAwMDBaFw0wMTAxMDEwMDAwMDBaMBoxGDAWBgNV
BAMTD2NvbmZvcm1hbmNlIElkUDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABBPa
jHT7pZ7uCR5xTRjPDOrukw3S8q+Bcm0tIcgiJadfLrA+W+01OaKdsQH7WxVYb6sH
7UCPNWBVHOWDAnTMqNUwCgYIKoZIzj0EAwIDRwAwRAIgeeQE3PpLVcMpXRjjHKWk
tLwh8Hf76z+U0ljANh36sAECICf6fDj+P6eGofqphnCJGp4A3gZM1vAIUJTiwftS
Yd0c
-----END CERTIFICATE-----
`;

suite('saml', (ctx) => {
    it('createOrganizationSamlProvider: a label alone makes a pending provider', { timeout: TIMEOUT }, async () => {
        const label = `Okta ${uniq()}`.slice(0, 30);
        const { data } = await expect('createOrganizationSAMLProvider', 201, () =>
            ctx.api.orgs.createOrganizationSamlProvider(ctx.org, { label }),
        );
        assert.equal(data.object, 'saml-provider');
        assert.equal(data.label, label);
        assert.equal(data.status, 'pending');
        assert.equal(data.defaultRole, null);
        assert.equal(data.defaultTeam, undefined);
        assert.equal(data.service.acsURL, `${ctx.server.url}/sso/saml/${data.id}/acs`);
        assert.equal(data.service.startURL, `${ctx.server.url}/sso/saml/${data.id}/login`);
        assert.equal(data.service.entityID, `${ctx.server.url}/sso/saml/${data.id}/metadata`);
        assert.equal(data.urls.location, `${ctx.server.url}/v1/orgs/${ctx.org}/saml/${data.id}`);
        const { data: logins } = await expect('listSSOProviderLoginsInOrganization', 200, () =>
            ctx.api.orgs.listSsoProviderLoginsInOrganization(ctx.org),
        );
        assert.ok(!logins.items.some((l) => l.id === data.id), 'a pending provider is offered for sign-in');
    });

    it('a fully configured provider is active, with its default team and role, and offered for sign-in', { timeout: TIMEOUT }, async () => {
        const team = await createTeam(ctx.api, ctx.org);
        const { data } = await expect('createOrganizationSAMLProvider', 201, () =>
            ctx.api.orgs.createOrganizationSamlProvider(ctx.org, {
                label: 'Corporate IdP',
                entityID: 'https://idp.example/metadata',
                certificate: VALID_CERT,
                ssoURL: 'https://idp.example/sso',
                defaultRole: 'edit',
                defaultTeam: team.id,
            }),
        );
        assert.equal(data.status, 'active');
        assert.equal(data.defaultRole, 'edit');
        assert.equal(data.defaultTeam.id, team.id);
        assert.equal(data.certificate, VALID_CERT);

        const { data: got } = await expect('getOrganizationSAMLProviderById', 200, () =>
            ctx.api.orgs.getOrganizationSamlProviderById(ctx.org, data.id),
        );
        assert.deepEqual(got, data);

        const { data: logins } = await expect('listSSOProviderLoginsInOrganization', 200, () =>
            ctx.api.orgs.listSsoProviderLoginsInOrganization(ctx.org),
        );
        assert.deepEqual(logins.items.find((l) => l.id === data.id), { id: data.id, label: 'Corporate IdP', startURL: data.service.startURL });

        // The service provider's metadata, for the identity provider.
        const md = await fetch(data.service.entityID);
        assert.equal(md.status, 200);
        const xml = await md.text();
        assert.ok(xml.includes(data.service.acsURL), xml);
        assert.ok(xml.includes('X509Certificate'), xml);
        // The sign-in link sends the browser to the identity provider.
        const start = await fetch(data.service.startURL, { redirect: 'manual' });
        assert.equal(start.status, 303);
        assert.ok(start.headers.get('location').startsWith('https://idp.example/sso?SAMLRequest='));
    });

    it('updateOrganizationSamlProvider changes what is sent; deleteOrganizationSamlProvider answers 205 then 204', { timeout: TIMEOUT }, async () => {
        const { data } = await expect('createOrganizationSAMLProvider', 201, () =>
            ctx.api.orgs.createOrganizationSamlProvider(ctx.org, { label: 'Before' }),
        );
        const { data: upd } = await expect('updateOrganizationSAMLProvider', 200, () =>
            ctx.api.orgs.updateOrganizationSamlProvider(ctx.org, data.id, {
                label: 'After', entityID: 'urn:idp', certificate: VALID_CERT, ssoURL: 'https://idp.example/sso', defaultRole: 'read',
            }),
        );
        assert.equal(upd.label, 'After');
        assert.equal(upd.status, 'active');
        assert.equal(upd.defaultRole, 'read');
        const { data: back } = await expect('updateOrganizationSAMLProvider', 200, () =>
            ctx.api.orgs.updateOrganizationSamlProvider(ctx.org, data.id, { defaultRole: null }),
        );
        assert.equal(back.defaultRole, null);
        assert.equal(back.label, 'After');

        await expect('deleteOrganizationSAMLProvider', 205, () => ctx.api.orgs.deleteOrganizationSamlProvider(ctx.org, data.id));
        await expect('deleteOrganizationSAMLProvider', 204, () => ctx.api.orgs.deleteOrganizationSamlProvider(ctx.org, data.id));
        await expectError('getOrganizationSAMLProviderById', 404, () => ctx.api.orgs.getOrganizationSamlProviderById(ctx.org, data.id));
        await expectError('getOrganizationSAMLProviderById', 404, () => ctx.api.orgs.getOrganizationSamlProviderById(ctx.org, UNKNOWN_ID));
    });

    it('listSamlProvidersInOrganizationById pages through all providers', { timeout: TIMEOUT }, async () => {
        const o = await ctx.newOrg();
        const created = [];
        for (let i = 0; i < 5; i++) {
            const { data } = await expect('createOrganizationSAMLProvider', 201, () =>
                o.api.orgs.createOrganizationSamlProvider(o.organization, { label: `IdP ${i}` }),
            );
            created.push(data.id);
        }
        const { items } = await walk(
            'listSAMLProvidersInOrganizationById',
            (page) => o.api.orgs.listSamlProvidersInOrganizationById(o.organization, { page, limit: 2 }),
            { limit: 2 },
        );
        assert.deepEqual(items.map((p) => p.id), created);
    });

    it('bad certificates, URLs, teams and blank labels answer 400 saying why', { timeout: TIMEOUT }, async () => {
        const cases = [
            [{ label: 'L', certificate: 'not a certificate' }, 'certificate'],
            [{ label: 'L', certificate: EXPIRED_CERT }, 'expired'],
            [{ label: 'L', certificate: '-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n' }, 'X.509'],
            [{ label: 'L', ssoURL: 'ftp://idp.example/sso' }, 'ssoURL'],
            [{ label: 'L', defaultTeam: UNKNOWN_ID }, 'defaultTeam'],
            [{ label: ' ' }, 'label'],
        ];
        for (const [body, word] of cases) {
            const err = await expectError('createOrganizationSAMLProvider', 400, () =>
                ctx.api.orgs.createOrganizationSamlProvider(ctx.org, body),
            );
            assert.ok(err.error.message.includes(word), `${JSON.stringify(body)}: ${err.error.message}`);
        }
    });

    it('only organization admins manage providers; other organizations see none', { timeout: TIMEOUT }, async () => {
        const { data } = await expect('createOrganizationSAMLProvider', 201, () =>
            ctx.api.orgs.createOrganizationSamlProvider(ctx.org, { label: 'Admins only' }),
        );
        const editor = await ctx.user('edit');
        await expectError('listSAMLProvidersInOrganizationById', 403, () => editor.api.orgs.listSamlProvidersInOrganizationById(ctx.org));
        await expectError('createOrganizationSAMLProvider', 403, () => editor.api.orgs.createOrganizationSamlProvider(ctx.org, { label: 'No' }));
        await expectError('getOrganizationSAMLProviderById', 403, () => editor.api.orgs.getOrganizationSamlProviderById(ctx.org, data.id));
        await expectError('updateOrganizationSAMLProvider', 403, () =>
            editor.api.orgs.updateOrganizationSamlProvider(ctx.org, data.id, { label: 'No' }),
        );
        await expectError('deleteOrganizationSAMLProvider', 403, () => editor.api.orgs.deleteOrganizationSamlProvider(ctx.org, data.id));
        const other = await ctx.newOrg();
        await expectError('getOrganizationSAMLProviderById', 404, () => other.api.orgs.getOrganizationSamlProviderById(ctx.org, data.id));
        await expectError('getOrganizationSAMLProviderById', 404, () =>
            ctx.api.orgs.getOrganizationSamlProviderById(other.organization, data.id),
        );
        const { data: still } = await expect('getOrganizationSAMLProviderById', 200, () =>
            ctx.api.orgs.getOrganizationSamlProviderById(ctx.org, data.id),
        );
        assert.equal(still.label, 'Admins only');
    });
});
