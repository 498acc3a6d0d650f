// Organization export (a Quire extension, not in the published document):
// admins download the whole organization as one zip, or a tarball; other
// members are refused as the other admin-only routes refuse them, and an
// unknown format is a 400 naming the parameter.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suite, TIMEOUT } from '../lib/harness.js';

suite('orgexport', (ctx) => {
    const get = (token, query = '') =>
        fetch(`${ctx.server.url}/v1/orgs/${ctx.org}/export${query}`, {
            headers: { Authorization: `Bearer ${token}` },
        });

    it('streams a zip holding the manifest to admins, and a tarball on request', { timeout: TIMEOUT }, async () => {
        const res = await get(ctx.token);
        assert.equal(res.status, 200);
        const zip = Buffer.from(await res.arrayBuffer());
        assert.equal(zip.subarray(0, 2).toString('latin1'), 'PK');
        assert.ok(zip.includes('manifest.json'), 'the zip names no manifest.json');

        const tar = await get(ctx.token, '?format=tar.gz');
        assert.equal(tar.status, 200);
        const gz = Buffer.from(await tar.arrayBuffer());
        assert.deepEqual([...gz.subarray(0, 2)], [0x1f, 0x8b]);
    });

    it('is refused to members who are not admins (403) and to outsiders (404)', { timeout: TIMEOUT }, async () => {
        const member = await ctx.user('create');
        assert.equal((await get(member.token)).status, 403);
        const other = await ctx.newOrg();
        assert.equal((await get(other.token)).status, 404);
    });

    it('answers 400 naming format for a format it does not write', { timeout: TIMEOUT }, async () => {
        const res = await get(ctx.token, '?format=rar');
        assert.equal(res.status, 400);
        const body = await res.json();
        assert.equal(body.error.code, 400);
        assert.match(body.error.message, /format/);
    });
});
