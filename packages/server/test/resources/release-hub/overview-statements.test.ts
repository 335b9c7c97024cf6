/**
 * The release page's API (GET /projects/{id}/releases/{version}/overview) reads with a fixed,
 * small number of statements, whatever the number of releases, sessions and hours: a project with
 * 2 releases of one session hour each and one with 40 releases of 48 session hours each (from
 * Sentry's `sessions` aggregates, written through the release-health store) give the same count,
 * and the page's figures at the larger size are the sums of what was written.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applySessionAggregate } from '../../../src/resources/release-health/store.ts';
import { countingServerOptions, type StatementCount } from '../../support/counting-database.ts';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

/** Two for the token and the project access, one for health, one per section of the page (broke: lists and counts). */
const MOST = 6;
const HOUR = 3600_000;

describe('the release page reads with the same few statements at any size', () => {
  let server: TestServer;
  let count: StatementCount;
  const projects: { p: ManagedProject; releases: number; hours: number }[] = [];

  before(async () => {
    const counting = countingServerOptions();
    count = counting.count;
    server = await startTestServer(counting);
    const nowHour = Math.floor(Date.now() / HOUR) * HOUR;
    for (const [releases, hours] of [
      [2, 1],
      [40, 48],
    ] as const) {
      const p = await managedProject(server);
      const scope = { projectId: p.projectId, environment: 'live' as const };
      await server.db.transaction(async (tx) => {
        for (let r = 0; r < releases; r++) {
          for (let h = 0; h < hours; h++) {
            await applySessionAggregate(tx, scope, {
              did: `user-${r}-${h}`,
              hour: new Date(nowHour - (hours - h) * HOUR).toISOString(),
              release: `1.${r}.0`,
              sdkEnvironment: h % 2 === 0 ? 'production' : 'staging',
              healthy: 8,
              errored: 1,
              unhandled: 0,
              abnormal: 0,
              crashed: 1,
            });
          }
        }
      });
      projects.push({ p, releases, hours });
    }
  });
  after(() => server.close());

  it('counts the same statements for 2 releases of 1 hour and 40 releases of 48 hours', async () => {
    const counts: number[] = [];
    for (const { p, hours } of projects) {
      const path = `/projects/${p.projectId}/releases/1.1.0/overview`;
      // The first request fills the token's memo; the second is the one counted.
      assert.equal((await p.member.get(path)).status, 200);
      count.statements = 0;
      const page = await p.member.get(path, { query: { days: '14' } });
      counts.push(count.statements);
      assert.equal(page.status, 200, page.text);
      assert.equal(page.body.health.sessions.total, hours * 10);
      assert.equal(page.body.health.sessions.crashed, hours);
      assert.equal(page.body.health.users.total, hours);
      assert.equal(page.body.health.crashFreeSessions, 0.9);
      assert.equal(page.body.comparison.previous, '1.0.0');
      assert.equal(page.body.comparison.usersChange, 0);
      assert.equal(page.body.comparison.newGroupsChange, 0);
    }
    assert.equal(counts[1], counts[0], `statements for the small and the large project: ${counts.join(' and ')}`);
    assert.ok(counts[0]! >= 1 && counts[0]! <= MOST, `${counts[0]} statements`);
  });

  it('an SDK environment filters the figures, not the releases: the list of releases reads the same statements', async () => {
    const { p, hours } = projects[1]!;
    count.statements = 0;
    const health = await p.member.get(`/projects/${p.projectId}/release-health`, {
      query: { days: '14', sdkEnvironment: 'production' },
    });
    assert.equal(health.status, 200, health.text);
    const release = health.body.releases.find((r: { version: string }) => r.version === '1.1.0');
    assert.equal(release.sessions.total, (hours / 2) * 10);
    assert.equal(health.body.releases.length, 40);
    assert.ok(count.statements <= MOST - 3, `${count.statements} statements`);
  });
});
