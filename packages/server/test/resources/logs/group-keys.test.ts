/**
 * Log groups are found by an integer key (resources/logs/group-key.ts). Two fingerprints that
 * share a key must stay two groups: a row whose key is taken by another fingerprint is written
 * here directly (a real collision is too rare to find), then entries of the second fingerprint
 * arrive through POST /logs.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupKey } from '../../../src/resources/logs/group-key.ts';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

describe('log groups: integer keys and their collisions', () => {
  const p = managedProjectSuite();
  const path = (rest: string) => `/projects/${p.projectId}${rest}`;

  /** Writes a group holding `key` under another fingerprint, as a colliding group would. */
  async function occupy(key: number, fingerprint: string, occurrences: number, projectId = p.projectId): Promise<void> {
    const at = new Date(Date.now() - 60_000).toISOString();
    await p.server.db.run(
      `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message, occurrences,
         first_seen_at, last_seen_at)
       VALUES (?, ?, 'live', ?, ?, 'warn', 'The group that took the key first', ?, ?, ?)`,
      [`log_occupant_${fingerprint}`, projectId, fingerprint, key, occurrences, at, at],
    );
  }

  async function groups(fingerprintPrefix: string) {
    const rows = await p.server.db.all<{ fingerprint: string; fingerprint_key: number; occurrences: number }>(
      `SELECT fingerprint, fingerprint_key, occurrences FROM log_groups
       WHERE project_id = ? AND fingerprint LIKE ? ORDER BY fingerprint`,
      [p.projectId, `${fingerprintPrefix}%`],
    );
    return rows.map((row) => [row.fingerprint, Number(row.fingerprint_key), Number(row.occurrences)]);
  }

  it('keeps both groups of one key, each with its own count, batch after batch', async () => {
    await occupy(groupKey(p.projectId, 'live', 'collide-mine'), 'collide-theirs', 5);
    const mine = { level: 'error', message: 'Mine, not theirs', fingerprint: 'collide-mine' };
    // The colliding group among new ones, twice in one batch, then again in a later batch.
    const batch = [
      mine,
      ...Array.from({ length: 20 }, (_, i) => ({ level: 'info', message: `collide-new-${i}` })),
      mine,
    ];
    assert.equal((await p.live.post('/logs', { logs: batch })).status, 200);
    assert.equal((await p.live.post('/logs', { logs: [mine] })).status, 200);
    assert.deepEqual(await groups('collide-'), [
      ['collide-mine', groupKey(p.projectId, 'live', 'collide-mine', 1), 3],
      ['collide-theirs', groupKey(p.projectId, 'live', 'collide-mine'), 5],
    ]);
    const others = await p.server.db.get<{ n: number; total: number }>(
      `SELECT COUNT(*) AS n, SUM(occurrences) AS total FROM log_groups WHERE project_id = ? AND message LIKE 'collide-new-%'`,
      [p.projectId],
    );
    assert.deepEqual([Number(others!.n), Number(others!.total)], [20, 20]);
  });

  it('probes on when the next key is taken too', async () => {
    await occupy(groupKey(p.projectId, 'live', 'probe-mine'), 'probe-first', 1);
    await occupy(groupKey(p.projectId, 'live', 'probe-mine', 1), 'probe-second', 2);
    const mine = { level: 'error', message: 'Third in line', fingerprint: 'probe-mine' };
    assert.equal((await p.live.post('/logs', { logs: [mine] })).status, 200);
    assert.equal((await p.live.post('/logs', { logs: [mine] })).status, 200);
    assert.deepEqual(await groups('probe-'), [
      ['probe-first', groupKey(p.projectId, 'live', 'probe-mine'), 1],
      ['probe-mine', groupKey(p.projectId, 'live', 'probe-mine', 2), 2],
      ['probe-second', groupKey(p.projectId, 'live', 'probe-mine', 1), 2],
    ]);
  });

  it('keeps apart the same fingerprint of another project that holds the key', async () => {
    const other = (await p.server.createProject()).projectId;
    await occupy(groupKey(p.projectId, 'live', 'elsewhere'), 'elsewhere', 9, other);
    const sent = { level: 'info', message: 'Same fingerprint, another project', fingerprint: 'elsewhere' };
    assert.equal((await p.live.post('/logs', { logs: [sent] })).status, 200);
    const rows = await p.server.db.all<{ project_id: string; occurrences: number }>(
      "SELECT project_id, occurrences FROM log_groups WHERE fingerprint = 'elsewhere'",
    );
    assert.deepEqual(
      rows.map((row) => [row.project_id, Number(row.occurrences)]).sort(),
      [
        [other, 9],
        [p.projectId, 1],
      ].sort(),
    );
  });

  it('shows both groups in the explorer, each under its own fingerprint, and finds them by it', async () => {
    await occupy(groupKey(p.projectId, 'live', 'shown-mine'), 'shown-theirs', 4);
    const sent = { level: 'error', message: 'Shown beside the group of the same key', fingerprint: 'shown-mine' };
    assert.equal((await p.live.post('/logs', { logs: [sent, sent] })).status, 200);
    const listed = await p.member.get(path('/logs'), { query: { q: 'shown-' } });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.logs.map((group: any) => [group.fingerprint, group.occurrences]).sort(), [
      ['shown-mine', 2],
      ['shown-theirs', 4],
    ]);
    const mine = listed.body.logs.find((group: any) => group.fingerprint === 'shown-mine');
    assert.ok(!('fingerprintKey' in mine) && !('fingerprint_key' in mine), 'the key stays out of the API');
    const page = await p.member.get(path(`/logs/${mine.id}`));
    assert.equal(page.status, 200);
    assert.equal(page.body.fingerprint, 'shown-mine');
    assert.equal(page.body.message, sent.message);
  });
});
