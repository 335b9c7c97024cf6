import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

describe('management: releases', () => {
  const p = managedProjectSuite();

  const path = (rest = '') => `/projects/${p.projectId}/releases${rest}`;
  const check = (currentVersion?: string) =>
    p.anonymous.get('/version-check', { query: { projectId: p.projectId, currentVersion } });

  it('adds releases that the public version check compares against', async () => {
    assert.equal((await check('1.0.0')).body.latestVersion, null);
    const first = await p.admin.post(path(), {
      version: '1.0.0',
      title: 'First',
      releaseNotes: 'Hello',
      downloadUrl: 'https://example.com/1.0.0',
      releaseDate: '2026-01-01T00:00:00Z',
      required: true,
      gitCommit: 'ABCDEF1234567',
    });
    assert.equal(first.status, 201);
    assert.equal(first.body.releaseDate, '2026-01-01T00:00:00.000Z');
    assert.equal(first.body.gitCommit, 'abcdef1234567');
    assert.equal(first.body.isBeta, false);
    const minor = await p.admin.post(path(), {
      version: 'v1.1.0',
      title: 'Dark mode',
      releaseNotes: 'Dark',
      downloadUrl: 'https://example.com/1.1.0',
    });
    assert.equal(minor.body.version, '1.1.0');
    const beta = await p.admin.post(path(), { version: '1.2.0-beta.1', title: 'Beta' });
    assert.equal(beta.body.isBeta, true, 'a prerelease is a beta unless told otherwise');

    const res = await check('1.0.0');
    assert.equal(res.body.updateAvailable, true);
    assert.equal(res.body.updateType, 'minor');
    assert.equal(res.body.updateRequired, false);
    assert.deepEqual(res.body.latestVersion, {
      version: '1.1.0',
      title: 'Dark mode',
      releaseNotes: 'Dark',
      downloadUrl: 'https://example.com/1.1.0',
      releaseDate: minor.body.releaseDate,
      isBeta: false,
    });
    assert.equal((await check('0.9.0')).body.updateRequired, true);
    assert.equal((await check('abcdef1')).body.updateType, 'minor', 'a known commit compares as its release');
    assert.equal((await check('1.1.0-rc.1')).body.latestVersion.version, '1.2.0-beta.1');

    const listed = await p.member.get(path());
    assert.deepEqual(
      listed.body.releases.map((r: any) => r.version),
      ['1.2.0-beta.1', '1.1.0', '1.0.0'],
    );
  });

  it('validates SemVer and refuses duplicate versions', async () => {
    const bad = await p.admin.post(path(), { version: '1.2' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].field, 'version');
    assert.equal((await p.admin.post(path(), { version: 'latest' })).status, 400);
    assert.equal((await p.admin.post(path(), { version: '1.1.0' })).status, 409);
    assert.equal((await p.admin.post(path(), { version: '2.0.0', gitCommit: 'xyz' })).status, 400);
    assert.equal((await p.admin.post(path(), { version: '2.0.0', downloadUrl: 'ftp://x' })).status, 400);
    assert.equal((await p.member.post(path(), { version: '2.0.0' })).status, 403);
  });

  it('edits (version included), marks required and deletes releases', async () => {
    const edited = await p.admin.patch(path('/1.1.0'), { required: true, title: 'Dark mode (security fix)' });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.required, true);
    assert.equal((await check('1.0.0')).body.updateRequired, true);

    assert.equal((await p.admin.patch(path('/1.1.0'), { version: '1.0.0' })).status, 409);
    assert.equal((await p.admin.patch(path('/1.1.0'), { version: 'one' })).status, 400);
    const renamed = await p.admin.patch(path('/1.2.0-beta.1'), { version: '1.2.0', isBeta: false });
    assert.equal(renamed.body.version, '1.2.0');
    assert.equal((await check('1.1.0')).body.latestVersion.version, '1.2.0');
    assert.equal((await p.member.get(path('/1.2.0-beta.1'))).status, 404);
    assert.equal((await p.member.get(path('/1.2.0'))).body.isBeta, false);

    assert.equal((await p.admin.delete(path('/1.2.0'))).status, 204);
    assert.equal((await check('1.1.0')).body.updateAvailable, false);
    assert.equal((await p.admin.delete(path('/1.2.0'))).status, 404);
    assert.equal((await p.admin.patch(path('/9.9.9'), { title: 'x' })).status, 404);
    assert.equal((await p.outsider.get(path())).status, 404);
    assert.equal((await p.outsider.delete(path('/1.1.0'))).status, 404);
  });

  it('previews the public version check with the same answer', async () => {
    await p.admin.post(path(), { version: '3.0.0', title: 'Three', required: true });
    await p.admin.post(path(), { version: '3.1.0', title: 'Three one' });
    await p.admin.post(path(), { version: '3.2.0-beta.1', title: 'Beta' });
    for (const currentVersion of ['2.9.0', '3.0.0', '3.1.0', '3.1.0-rc.1', 'not a version', undefined]) {
      const preview = await p.member.get(path('/check'), {
        query: currentVersion === undefined ? {} : { currentVersion },
      });
      assert.equal(preview.status, 200);
      assert.deepEqual(preview.body, (await check(currentVersion)).body, `same answer for ${currentVersion}`);
    }
    const old = await p.member.get(path('/check'), { query: { currentVersion: '2.9.0' } });
    assert.equal(old.body.updateRequired, true);
    assert.equal(old.body.updateType, 'major');
    assert.equal(old.body.latestVersion.version, '3.1.0');
    assert.equal((await p.member.get(path('/check'), { query: { currentVersion: 'x'.repeat(101) } })).status, 400);
    assert.equal((await p.outsider.get(path('/check'), { query: { currentVersion: '1.0.0' } })).status, 404);
  });
});
