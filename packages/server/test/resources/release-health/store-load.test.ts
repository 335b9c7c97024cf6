/**
 * loadSessionAggregates (the bench's seed of a million sessions) writes, in multi-row statements,
 * exactly the rows that applySessionAggregate (the intake) writes one aggregate at a time: two
 * projects get the same aggregates of new users, one each way, and every release-health table and
 * the management API's release health read the same for both. A load that names a user the
 * release already has fails and changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SessionAggregate } from '../../../src/resources/release-health/parse.ts';
import { applySessionAggregate } from '../../../src/resources/release-health/store.ts';
import { loadSessionAggregates } from '../../../src/resources/release-health/store-load.ts';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const HOUR = 3600_000;
const TABLES = [
  ['release_session_hours', 'release, sdk_environment, hour'],
  ['release_session_users', 'release, sdk_environment, hour, distinct_id'],
  ['release_users', 'release, sdk_environment, distinct_id'],
  ['release_health_totals', 'release, sdk_environment'],
] as const;

/** 3 releases × 2 SDK environments × 30 hours, two users in some hours, anonymous and empty ones too. */
function aggregates(): SessionAggregate[] {
  const nowHour = Math.floor(Date.now() / HOUR) * HOUR;
  const list: SessionAggregate[] = [];
  let user = 0;
  for (const release of ['2.0.0', '2.1.0', '2.2.0']) {
    for (const sdkEnvironment of ['production', 'staging']) {
      for (let h = 0; h < 30; h++) {
        const hour = new Date(nowHour - (30 - h) * HOUR).toISOString();
        const counts = {
          healthy: 5 + (h % 4),
          errored: h % 3,
          unhandled: h % 5 === 0 ? 1 : 0,
          abnormal: h % 7 === 0 ? 1 : 0,
        };
        list.push({ did: `user-${user++}`, hour, release, sdkEnvironment, ...counts, crashed: h % 4 === 0 ? 2 : 0 });
        if (h % 3 === 0) list.push({ did: `user-${user++}`, hour, release, sdkEnvironment, ...counts, crashed: 0 });
        if (h % 5 === 0) list.push({ did: null, hour, release, sdkEnvironment, ...counts, crashed: 1 });
        if (h === 7)
          list.push({
            did: null,
            hour,
            release,
            sdkEnvironment,
            healthy: 0,
            errored: 0,
            unhandled: 0,
            abnormal: 0,
            crashed: 0,
          });
      }
    }
  }
  return list;
}

describe('loadSessionAggregates writes what applySessionAggregate writes', () => {
  let server: TestServer;
  let oneByOne: ManagedProject;
  let loaded: ManagedProject;
  const written = aggregates();

  before(async () => {
    server = await startTestServer();
    oneByOne = await managedProject(server);
    loaded = await managedProject(server);
    const scope = (p: ManagedProject) => ({ projectId: p.projectId, environment: 'live' as const });
    await server.db.transaction(async (tx) => {
      for (const aggregate of written) await applySessionAggregate(tx, scope(oneByOne), aggregate);
    });
    await server.db.transaction((tx) => loadSessionAggregates(tx, scope(loaded), written));
  });
  after(() => server.close());

  const rowsOf = (table: string, order: string, projectId: string) =>
    server.db.all<Record<string, unknown>>(`SELECT * FROM ${table} WHERE project_id = ? ORDER BY ${order}`, [
      projectId,
    ]);

  for (const [table, order] of TABLES) {
    it(`${table}: the same rows`, async () => {
      const [expected, actual] = await Promise.all([
        rowsOf(table, order, oneByOne.projectId),
        rowsOf(table, order, loaded.projectId),
      ]);
      assert.ok(expected.length > 0);
      const strip = (rows: Record<string, unknown>[]) =>
        rows.map(({ project_id: _, ...row }) =>
          Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)])),
        );
      assert.deepEqual(strip(actual), strip(expected));
    });
  }

  it('the management API reads the same release health for both', async () => {
    for (const query of [{ days: '14' }, { days: '1' }, { days: '14', sdkEnvironment: 'staging' }]) {
      const [expected, actual] = await Promise.all(
        [oneByOne, loaded].map((p) => p.member.get(`/projects/${p.projectId}/release-health`, { query })),
      );
      assert.equal(expected!.status, 200, expected!.text);
      assert.equal(actual!.status, 200, actual!.text);
      assert.ok(expected!.body.releases[0].sessions.total > 0);
      assert.deepEqual(actual!.body, expected!.body);
    }
  });

  it('a load that names a user the release already has fails and writes nothing', async () => {
    const before = await rowsOf('release_health_totals', 'release, sdk_environment', loaded.projectId);
    const again = { ...written[0]!, hour: new Date(Math.floor(Date.now() / HOUR) * HOUR).toISOString() };
    const fresh = { ...again, did: 'someone-new', release: '2.3.0' };
    await assert.rejects(
      server.db.transaction((tx) =>
        loadSessionAggregates(tx, { projectId: loaded.projectId, environment: 'live' }, [fresh, again]),
      ),
    );
    assert.deepEqual(await rowsOf('release_health_totals', 'release, sdk_environment', loaded.projectId), before);
  });
});
