/** The pure version decision (src/resources/releases/decide.ts), without a server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideVersion, type Release, resolveClientVersion } from '../../../src/resources/releases/decide.ts';

const release = (version: string, over: Partial<Release> = {}): Release => ({
  version,
  title: `Version ${version}`,
  releaseNotes: '',
  downloadUrl: `https://example.com/${version}`,
  releaseDate: '2026-11-01T00:00:00.000Z',
  isBeta: false,
  gitCommit: null,
  required: false,
  ...over,
});

const releases = [
  release('1.0.0', { gitCommit: 'abc1234def5678' }),
  release('1.1.0'),
  release('1.1.1', { required: true }),
  release('2.0.0-beta.1', { isBeta: true }),
];

describe('version decisions', () => {
  it('reads the client version as SemVer, or as a release’s commit', () => {
    assert.equal(resolveClientVersion('v1.1.0', releases), '1.1.0');
    assert.equal(resolveClientVersion('ABC1234', releases), '1.0.0');
    assert.equal(resolveClientVersion('fffffff', releases), undefined);
    assert.equal(resolveClientVersion('latest', releases), undefined);
    assert.equal(resolveClientVersion(undefined, releases), undefined);
  });

  it('offers the newest stable release, with its update type, required when a newer release is', () => {
    const info = decideVersion('1.0.0', releases);
    assert.equal(info.latestVersion?.version, '1.1.1');
    assert.equal(info.updateAvailable, true);
    assert.equal(info.updateType, 'minor');
    assert.equal(info.updateRequired, true);
    assert.equal(info.updateRecommended, true);
    const patch = decideVersion('1.1.0', releases);
    assert.equal(patch.updateType, 'patch');
    assert.equal(patch.updateRequired, true);
  });

  it('says nothing is due for the latest release, and nothing required once past it', () => {
    assert.deepEqual(
      { ...decideVersion('1.1.1', releases), latestVersion: undefined },
      {
        updateAvailable: false,
        updateRequired: false,
        updateRecommended: false,
        updateType: 'none',
        latestVersion: undefined,
      },
    );
  });

  it('counts beta releases only for a client already on a prerelease', () => {
    assert.equal(decideVersion('1.1.1', releases).latestVersion?.version, '1.1.1');
    const beta = decideVersion('1.2.0-rc.1', releases);
    assert.equal(beta.latestVersion?.version, '2.0.0-beta.1');
    assert.equal(beta.updateType, 'major');
    assert.equal(beta.updateRecommended, true);
  });

  it('tells an unknown or missing client the latest release but offers no update', () => {
    for (const current of [undefined, 'nonsense']) {
      const info = decideVersion(current, releases);
      assert.equal(info.latestVersion?.version, '1.1.1');
      assert.equal(info.updateAvailable, false);
      assert.equal(info.updateRequired, false);
    }
    assert.equal(decideVersion('1.0.0', []).latestVersion, null);
  });
});
