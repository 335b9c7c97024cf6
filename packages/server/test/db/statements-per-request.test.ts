/**
 * List endpoints read with a fixed, small number of statements per request, never one per item:
 * every public list is read for a project that has one item of each kind and for one that has
 * sixty (features with votes and comments, comments, changelog entries linked to features, status
 * messages, flags, environments, translation keys), and the statements the server runs for the
 * two requests are counted: the counts must be the same, and small.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestProject, type TestServer } from '../support/server.ts';
import { Api } from '../support/api.ts';
import { countingServerOptions, type StatementCount } from '../support/counting-database.ts';
import { insertFeature } from '../../src/resources/features/store.ts';
import { insertComment } from '../../src/resources/features/store-comments.ts';
import { insertEntry } from '../../src/resources/changelog/index.ts';
import { insertKey } from '../../src/resources/translations/index.ts';
import { touchProjectConfig, touchProjectTranslations } from '../../src/resources/projects/index.ts';
import { insertEnvironment, insertMessage, putFlag } from '../../src/resources/site-config/index.ts';
import { addVote } from '../../src/resources/features/store-votes.ts';
import type { Database } from '../../src/db/database.ts';
import {
  errorFingerprint,
  writeErrorGroups,
  type ErrorReport,
} from '../../src/resources/reports/store-error-writes.ts';
import { insertEndpoint } from '../../src/resources/webhooks/store.ts';
import { prepareReportBody } from '../../src/resources/reports/error-event.ts';

/** The most statements a list read may take: key and project, the rows, a version or two. */
const MOST = 6;

async function seed(db: Database, projectId: string, items: number): Promise<string> {
  const scope = { projectId, environment: 'live' as const };
  const featureIds: string[] = [];
  for (let i = 0; i < items; i++) {
    const feature = await insertFeature(db, scope, {
      title: `Feature number ${i}`,
      description: 'A feature to list in the statement count test.',
      type: i % 3 === 0 ? 'bug' : 'feature',
      status: i % 2 === 0 ? 'open' : 'planned',
      internal: false,
    });
    featureIds.push(feature.id);
    await addVote(db, scope, feature.id, `voter-${i}`);
    await insertEntry(db, projectId, {
      summary: `Shipped number ${i}`,
      description: '<p>Shipped.</p>',
      featureId: feature.id,
      statusKey: 'new',
      published: true,
    });
  }
  for (let i = 0; i < items; i++) await insertComment(db, scope, featureIds[0]!, { body: `Comment number ${i}` });
  await db.transaction(async (tx) => {
    for (let i = 0; i < items; i++) {
      await insertMessage(tx, projectId, { type: 'info', text: `Message number ${i}`, priority: i });
      await putFlag(tx, projectId, `flag-${i}`, i % 2 === 0);
      await insertEnvironment(tx, projectId, { name: `Environment ${i}`, slug: `env-${i}` });
      await insertKey(tx, projectId, {
        key: `key.${i}`,
        defaultText: `Text ${i}`,
        values: { de: `Text ${i} auf Deutsch` },
      });
    }
    await touchProjectConfig(tx, projectId);
    await touchProjectTranslations(tx, projectId);
  });
  return featureIds[0]!;
}

describe('statements per request: a fixed number for every list, whatever its length', () => {
  let server: TestServer;
  let count: StatementCount;
  const projects: { project: TestProject; featureId: string; api: Api }[] = [];

  before(async () => {
    const counting = countingServerOptions();
    count = counting.count;
    server = await startTestServer(counting);
    for (const items of [1, 60]) {
      const project = await server.createProject();
      const featureId = await seed(server.db, project.projectId, items);
      projects.push({ project, featureId, api: new Api(server.baseUrl, project.liveKey) });
    }
  });
  after(() => server.close());

  const lists: [
    string,
    (featureId: string, projectId: string) => { path: string; query?: Record<string, string>; key?: null },
  ][] = [
    ['GET /features', () => ({ path: '/features', query: { limit: '100' } })],
    ['GET /roadmap', () => ({ path: '/roadmap' })],
    ['GET /changelog', () => ({ path: '/changelog', query: { limit: '100' } })],
    [
      'GET /features/{id}/comments',
      (featureId) => ({ path: `/features/${featureId}/comments`, query: { limit: '100' } }),
    ],
    ['GET /site-config', (_featureId, projectId) => ({ path: '/site-config', query: { projectId }, key: null })],
    ['GET /translations', () => ({ path: '/translations', query: { locale: 'de' } })],
  ];

  // The error writer's gathered write (error-writer.ts): its statements do not grow with the
  // number of new groups it holds, the webhook endpoints the new-group events need included.
  it('a write of 12 new error groups runs the statements of a write of 1 besides the webhook messages it queues', async () => {
    const { project } = projects[0]!;
    const scope = { projectId: project.projectId, environment: 'live' as const };
    await insertEndpoint(server.db, project.projectId, {
      url: 'https://hooks.example.com/errors',
      description: null,
      events: ['error.new_group'],
      format: 'standard',
      enabled: true,
      secretId: 'statements-test',
      secretHint: 'test',
    });
    const reports = (tag: string, n: number): ErrorReport[][] =>
      Array.from({ length: n }, (_, i) => {
        // Titles that group apart (grouping normalises numbers in a message).
        const body = { title: `Statements ${tag} ${'x'.repeat(i + 1)}`, message: 'Counted', errorType: 'TypeError' };
        const now = new Date();
        return [{ scope, body, now, fingerprint: errorFingerprint(body), event: prepareReportBody(body, now) }];
      });
    // A write first: the history's hourly prune (one statement at most every few minutes) is done.
    await writeErrorGroups(server.db, reports('first', 1), 30);
    const counts: number[] = [];
    for (const [tag, n] of [
      ['one', 1],
      ['twelve', 12],
    ] as const) {
      count.statements = 0;
      const written = await writeErrorGroups(server.db, reports(tag, n), 30);
      counts.push(count.statements);
      assert.equal(written.length, n);
      assert.ok(written.every(([occurrence]) => occurrence!.duplicate === false));
    }
    // One INSERT per queued message, which is the outbox's row; everything else once per write.
    assert.equal(counts[1]! - 12, counts[0]! - 1, `statements for 1 new group and for 12: ${counts.join(' and ')}`);
    assert.ok(counts[0]! <= 6, `${counts[0]} statements for one new group`);
    const queued = await server.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE project_id = ? AND event = 'error.new_group'`,
      [project.projectId],
    );
    assert.equal(Number(queued!.n), 14);
  });

  for (const [name, request] of lists) {
    it(`${name} reads 1 item and 60 items with the same statements`, async () => {
      const counts: number[] = [];
      const sizes: number[] = [];
      for (const { project, featureId, api } of projects) {
        // A commit first, so that nothing memoised on SQLite answers instead of the database.
        await server.db.run('UPDATE projects SET name = name WHERE id = ?', [project.projectId]);
        const { path, query, key } = request(featureId, project.projectId);
        count.statements = 0;
        const response = await api.get(path, { ...(query ? { query } : {}), ...(key === null ? { key: null } : {}) });
        counts.push(count.statements);
        assert.equal(response.status, 200, response.text);
        sizes.push(response.text.length);
      }
      assert.ok(sizes[1]! > sizes[0]! * 10, `the long list is long: ${sizes.join(' and ')} bytes`);
      assert.equal(counts[1], counts[0], `statements for 1 item and for 60: ${counts.join(' and ')}`);
      assert.ok(counts[0]! >= 1 && counts[0]! <= MOST, `${counts[0]} statements`);
    });
  }
});
