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

describe('signpost import', { timeout: 120_000 }, () => {
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
