/**
 * `signpost import` as users run it, against a real server: a dry run of a Canny dump prints what
 * would happen and stores nothing, the run stores it, a Fider backup folder is zipped and
 * imported, a malformed file fails with the row and column named, an unknown source is a usage
 * error.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useManageServer } from './manage-support.ts';

const FIXTURES = join(import.meta.dirname, '../../server/test/fixtures/imports');

describe('signpost import', { timeout: 600_000 }, () => {
  const env = useManageServer('signpost-import-');

  it('dry-runs, then imports a Canny dump and a Fider backup folder', async () => {
    const { projectId } = await env.signInWithProject('Moving in');
    const count = async () =>
      Number(
        (await env.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM features WHERE project_id = ?', [
          projectId,
        ]))!.n,
      );
    const dry = await env.ok(['import', 'canny', join(FIXTURES, 'canny/dump.json'), '--dry-run']);
    assert.match(dry.stdout, /Dry run: nothing was stored/);
    assert.match(dry.stdout, /ideas\s+3\s+0\s+0\s+-\s+0/);
    assert.match(dry.stdout, /under review\s+in-review\s+default\s+1/);
    assert.match(dry.stdout, /its idea p9 is not in the export/);
    assert.equal(await count(), 0);

    const run = await env.json(['import', 'canny', join(FIXTURES, 'canny/dump.json'), '--map', 'complete=accepted']);
    assert.equal(run.dryRun, false);
    assert.equal(run.ideas.created, 3);
    assert.deepEqual(
      run.statuses.find((row: any) => row.from === 'complete'),
      { from: 'complete', to: 'accepted', by: 'map', ideas: 1 },
    );
    assert.equal(await count(), 3);

    const fider = await env.json(['import', 'fider', join(FIXTURES, 'fider')]);
    assert.equal(fider.ideas.created, 2);
    assert.equal(fider.votes.created, 3);
    assert.equal(await count(), 5);
  });

  it('imports a Canny dump folder with boards and changelog; a second run changes nothing; a bad entry names its field', async () => {
    const { projectId } = await env.signInWithProject('Canny changelog');
    const count = async (table: 'tags' | 'changelog_entries') =>
      Number(
        (await env.server.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE project_id = ?`, [
          projectId,
        ]))!.n,
      );
    const folder = join(FIXTURES, 'canny/with-changelog');
    const dry = await env.ok(['import', 'canny', folder, '--dry-run']);
    assert.match(dry.stdout, /tags \(boards, categories, labels\)\s+3\s+-\s+-\s+0/);
    assert.match(dry.stdout, /changelog\s+4\s+0\s+0/);
    assert.match(dry.stdout, /its link to idea p9 is left out/);
    assert.equal(await count('changelog_entries'), 0);
    assert.equal(await count('tags'), 0);

    const run = await env.json(['import', 'canny', folder]);
    assert.deepEqual(run.tags, { created: 3, matched: 0 });
    assert.deepEqual(run.changelog, { created: 4, updated: 0, unchanged: 0 });
    assert.equal(await count('changelog_entries'), 4);
    const again = await env.json(['import', 'canny', folder]);
    assert.deepEqual(again.changelog, { created: 0, updated: 0, unchanged: 4 });
    assert.deepEqual(again.tags, { created: 0, matched: 3 });
    assert.equal(await count('changelog_entries'), 4);
    assert.equal(await count('tags'), 3);

    const bad = await env.signpost(['import', 'canny', join(FIXTURES, 'canny/bad-changelog.json')]);
    assert.equal(bad.status, 1, bad.stdout);
    assert.match(bad.stderr, /bad-changelog\.json row 2, column "posts\[0\]\.id": is missing/);
    assert.equal(await count('changelog_entries'), 4);
  });

  it('names the bad row of a malformed file and stores nothing; refuses an unknown source', async () => {
    await env.signInWithProject('Bad files');
    const bad = await env.signpost(['import', 'uservoice', join(FIXTURES, 'uservoice/bad.csv')]);
    assert.equal(bad.status, 1, bad.stdout);
    assert.match(bad.stderr, /bad\.csv row 3, column "ideaTitle": is missing or empty/);
    const unknown = await env.signpost(['import', 'trello', join(FIXTURES, 'csv/ideas.csv')]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /Unknown source "trello"/);
  });
});
