import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../../../src/kernel/ids.ts';
import type { TestProject, TestServer } from '../../support/server.ts';
import type { Api } from '../../support/api.ts';
import { startPublicProject } from '../../support/public-project.ts';

describe('version check', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;

  const release = async (version: string, extra: { beta?: boolean; required?: boolean; commit?: string } = {}) =>
    server.db.run(
      `INSERT INTO releases (id, project_id, version, title, release_notes, download_url, release_date, is_beta, git_commit, required, created_at)
       VALUES (?, ?, ?, ?, 'Notes', 'https://example.com/dl', ?, ?, ?, ?, ?)`,
      [
        newId('rel'),
        project.projectId,
        version,
        `Release ${version}`,
        new Date().toISOString(),
        extra.beta ? 1 : 0,
        extra.commit ?? null,
        extra.required ? 1 : 0,
        new Date().toISOString(),
      ],
    );
  const check = async (currentVersion?: string) =>
    (await api.get('/version-check', { query: { projectId: project.projectId, currentVersion } })).body;

  before(async () => {
    ({ server, project, api } = await startPublicProject({ key: null }));
  });
  after(() => server.close());

  it('gives latestVersion null with no releases, and 400/404 for a missing/unknown project', async () => {
    assert.deepEqual(await check('1.0.0'), {
      updateAvailable: false,
      updateRequired: false,
      updateRecommended: false,
      updateType: 'none',
      latestVersion: null,
    });
    assert.equal((await api.get('/version-check')).status, 400);
    assert.equal((await api.get('/version-check', { query: { projectId: 'missing' } })).status, 404);
  });

  it('computes update type, required and recommended', async () => {
    await release('1.0.0', { required: true, commit: 'abc1234def5678' });
    await release('1.1.0');
    await release('1.1.1', { commit: 'fedcba9876543210' });
    await release('2.0.0-beta.1', { beta: true });
    const fromOld = await check('0.9.0');
    assert.equal(fromOld.updateAvailable, true);
    assert.equal(fromOld.updateRequired, true);
    assert.equal(fromOld.updateRecommended, true);
    assert.equal(fromOld.updateType, 'major');
    assert.equal(fromOld.latestVersion.version, '1.1.1');
    assert.equal(fromOld.latestVersion.isBeta, false);
    assert.deepEqual(Object.keys(fromOld.latestVersion).sort(), [
      'downloadUrl',
      'isBeta',
      'releaseDate',
      'releaseNotes',
      'title',
      'version',
    ]);
    const minor = await check('1.0.0');
    assert.deepEqual([minor.updateType, minor.updateRequired, minor.updateRecommended], ['minor', false, true]);
    const patch = await check('1.1.0');
    assert.deepEqual([patch.updateAvailable, patch.updateType, patch.updateRecommended], [true, 'patch', false]);
    const current = await check('1.1.1');
    assert.deepEqual([current.updateAvailable, current.updateType], [false, 'none']);
    assert.equal(current.latestVersion.version, '1.1.1');
  });

  it('offers betas only to clients on a prerelease', async () => {
    const beta = await check('2.0.0-alpha.3');
    assert.equal(beta.latestVersion.version, '2.0.0-beta.1');
    assert.equal(beta.updateType, 'prerelease');
    assert.equal((await check('1.1.1')).updateAvailable, false);
    await release('3.0.0');
    const major = await check('1.1.1');
    assert.deepEqual(
      [major.updateType, major.updateRecommended, major.latestVersion.version],
      ['major', true, '3.0.0'],
    );
  });

  it('compares a known git hash as its release; an unknown hash or no version gets no update', async () => {
    const byHash = await check('abc1234');
    assert.equal(byHash.updateAvailable, true);
    assert.equal(byHash.updateType, 'major');
    const unknown = await check('0123456789abcdef');
    assert.equal(unknown.updateAvailable, false);
    assert.equal(unknown.latestVersion.version, '3.0.0');
    const none = await check();
    assert.equal(none.updateAvailable, false);
    assert.equal(none.latestVersion.version, '3.0.0');
  });
});
