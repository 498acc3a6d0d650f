// Git Sync and content import: a space filled by importing Markdown from a
// URL, exported to a bare repository, imported back into another space,
// its Git info read and its installation removed. The servers may fetch
// from 127.0.0.1, where the test serves its files and repository.

import assert from 'node:assert/strict';
import { it, before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite, TIMEOUT, UNKNOWN_ID } from '../lib/harness.js';
import { expect, expectError } from '../lib/client.js';
import { createSpace } from '../lib/fixtures.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Titles and paths of a page tree, children indented. */
function outline(pages, depth = 0) {
    return pages.flatMap((p) => [`${'  '.repeat(depth)}${p.type} ${p.path} ${p.title}`, ...outline(p.pages || [], depth + 1)]);
}

suite('git sync and content import', (ctx) => {
    let files;
    let filesURL;
    let dir;
    before(async () => {
        dir = mkdtempSync(join(tmpdir(), 'quire-git-'));
        files = createServer((req, res) => {
            const pages = {
                '/guide.md': '# Guide\n\nRead **this** first.\n\n- one\n- two\n',
                '/faq.md': '# FAQ\n\nAsk away.\n',
            };
            const body = pages[req.url];
            if (!body) {
                res.writeHead(404).end();
                return;
            }
            res.writeHead(200, { 'Content-Type': 'text/markdown' }).end(body);
        });
        await new Promise((r) => files.listen(0, '127.0.0.1', r));
        filesURL = `http://127.0.0.1:${files.address().port}`;
    });
    after(() => {
        files?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
    });

    function bareRepo() {
        const repo = join(dir, `repo-${Math.random().toString(36).slice(2)}.git`);
        execFileSync('git', ['init', '--quiet', '--bare', repo]);
        return `file://${repo}`;
    }

    async function waitGit(spaceId) {
        const deadline = Date.now() + TIMEOUT;
        for (;;) {
            const { data } = await expect('getSpaceGitInfo', 200, () => ctx.api.spaces.getSpaceGitInfo(spaceId));
            if (data.operation?.state !== 'running') return data;
            assert.ok(Date.now() < deadline, `Git Sync still running: ${JSON.stringify(data)}`);
            await sleep(50);
        }
    }

    it('imports Markdown from a URL into a space and a change request', { timeout: TIMEOUT }, async () => {
        const space = await createSpace(ctx.api, ctx.org);
        const { data } = await expect('importContent', 201, () =>
            ctx.api.spaces.importContent(space.id, { url: `${filesURL}/guide.md`, source: 'markdown' }),
        );
        assert.equal(data.importedResources, 1);
        const current = (await expect('getCurrentRevision', 200, () => ctx.api.spaces.getCurrentRevision(space.id))).data;
        assert.equal(current.id, data.revision);
        assert.deepEqual(current.pages.map((p) => p.title), ['Guide']);

        const cr = (await expect('createChangeRequest', 201, () => ctx.api.spaces.createChangeRequest(space.id, {}))).data;
        const inCR = (await expect('importContentInChangeRequest', 201, () =>
            ctx.api.spaces.importContentInChangeRequest(space.id, cr.id, { url: `${filesURL}/faq.md`, source: 'markdown' }),
        )).data;
        const crNow = (await expect('getChangeRequestById', 200, () => ctx.api.spaces.getChangeRequestById(space.id, cr.id))).data;
        assert.equal(crNow.revision, inCR.revision);

        const err = await expectError('importContent', 400, () =>
            ctx.api.spaces.importContent(space.id, { url: `${filesURL}/guide.md`, source: 'notion' }),
        );
        assert.match(err.error.message, /source/);
        await expectError('importContent', 404, () =>
            ctx.api.spaces.importContent(UNKNOWN_ID, { url: `${filesURL}/guide.md`, source: 'markdown' }),
        );
    });

    it('exports a space to Git and imports it back', { timeout: 3 * TIMEOUT }, async () => {
        const space = await createSpace(ctx.api, ctx.org);
        for (const page of ['guide', 'faq']) {
            await expect('importContent', 201, () =>
                ctx.api.spaces.importContent(space.id, { url: `${filesURL}/${page}.md`, source: 'markdown' }),
            );
        }
        await expectError('getSpaceGitInfo', 404, () => ctx.api.spaces.getSpaceGitInfo(space.id));
        const repo = bareRepo();
        await expect('exportToGitRepository', 204, () =>
            ctx.api.spaces.exportToGitRepository(space.id, {
                url: repo,
                ref: 'refs/heads/main',
                commitMessage: 'Export',
                gitInfo: { provider: 'github', url: 'https://github.com/acme/docs/tree/main' },
            }),
        );
        const info = await waitGit(space.id);
        assert.equal(info.operation.state, 'success', JSON.stringify(info));
        assert.equal(info.installationProvider, 'github');

        const copy = await createSpace(ctx.api, ctx.org);
        await expect('importGitRepository', 204, () =>
            ctx.api.spaces.importGitRepository(copy.id, { url: repo, ref: 'refs/heads/main' }),
        );
        assert.equal((await waitGit(copy.id)).operation.state, 'success');
        const a = (await expect('listPages', 200, () => ctx.api.spaces.listPages(space.id))).data;
        const b = (await expect('listPages', 200, () => ctx.api.spaces.listPages(copy.id))).data;
        assert.deepEqual(outline(b.pages), outline(a.pages));
        const rev = (await expect('getCurrentRevision', 200, () => ctx.api.spaces.getCurrentRevision(copy.id))).data;
        assert.equal(rev.git?.oid, info.operation.commit);

        await expectError('importGitRepository', 400, () =>
            ctx.api.spaces.importGitRepository(copy.id, { url: repo, ref: 'main' }),
        );
        await expect('deleteLegacyGitInstallation', 205, () => ctx.api.spaces.deleteLegacyGitInstallation(space.id));
        await expect('deleteLegacyGitInstallation', 204, () => ctx.api.spaces.deleteLegacyGitInstallation(space.id));
        await expectError('getSpaceGitInfo', 404, () => ctx.api.spaces.getSpaceGitInfo(space.id));
    });
}, { serverArgs: ['--allow-local-fetch'] });
