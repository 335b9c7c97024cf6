/**
 * A 10,000-idea Canny dump (generated here: 2,000 users, 10,000 posts, 30,000 votes, 5,000
 * comments, 9.3 MB) imported in one run, then run again, through the use case the API route
 * calls (runImport on the file, as the route does with its upload): an HTTP client's 300-second
 * header timeout must not decide the test on a loaded machine. No timed assertion:
 * the durations and the server's peak memory growth go to the test's diagnostics (the issue asks
 * for under a minute; see the package README for measured numbers). Asserts the counts are exact,
 * and the statements each run sends the database: every kind is written in batches, so the
 * count stays in the hundreds (one statement per person, per idea's value or per second-run
 * comparison was about 28,000 and 25,000, each a round trip on PostgreSQL).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject } from '../../support/manage-fixtures.ts';
import { openInput, runImport } from '../../../src/resources/imports/index.ts';
import { countStatements } from '../../support/counting-database.ts';

const USERS = 2_000;
const POSTS = 10_000;
const VOTES_PER_POST = 3;
const COMMENT_EVERY = 2;
const STATUSES = ['open', 'under review', 'planned', 'in progress', 'complete', 'closed'];

function cannyDump(): string {
  const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 3_600_000).toISOString();
  const user = (i: number) => ({ id: `u${i}`, email: `user${i}@scale.example`, name: `User ${i}` });
  const users = Array.from({ length: USERS }, (_, i) => ({ ...user(i), created: day(i) }));
  const posts = Array.from({ length: POSTS }, (_, i) => ({
    id: `p${i}`,
    title: `Idea number ${i}: make the product ${i % 7 === 0 ? 'faster' : 'friendlier'}`,
    details: `Details of idea ${i}. `.repeat(5),
    status: STATUSES[i % STATUSES.length],
    created: day(i),
    author: user(i % USERS),
    board: { id: 'b1', name: 'Feature Requests' },
  }));
  const votes = posts.flatMap((post, i) =>
    Array.from({ length: VOTES_PER_POST }, (_, k) => ({
      id: `v${i}-${k}`,
      post: { id: post.id },
      voter: user((i + k * 97) % USERS),
      created: day(i + k + 1),
    })),
  );
  const comments = posts
    .filter((_, i) => i % COMMENT_EVERY === 0)
    .map((post, i) => ({
      id: `c${i}`,
      post: { id: post.id },
      value: `Comment on ${post.id}`,
      author: user((i * 13) % USERS),
      internal: false,
      created: day(i + 2),
    }));
  return JSON.stringify({ users, posts, votes, comments });
}

describe('imports at scale', { timeout: 900_000 }, () => {
  let server: TestServer;
  let dir: string;

  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'signpost-import-scale-'));
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Its own ten minutes (a test's default is two): on PostgreSQL beside npm test's other lanes the
  // two runs took longer than two minutes.
  it('imports 10,000 Canny ideas with their votes and comments, and a second run changes nothing', {
    timeout: 600_000,
  }, async (t) => {
    const project = await managedProject(server);
    const file = join(dir, 'canny.json');
    writeFileSync(file, cannyDump());
    const size = statSync(file).size;
    let peak = 0;
    let peakHeap = 0;
    const baseline = process.memoryUsage();
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss - baseline.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 50);
    const counted = countStatements(server.db);
    const post = async () => {
      counted.count.statements = 0;
      const body = await runImport(counted.db, project.projectId, await openInput(file), {
        source: 'canny',
        dryRun: false,
      });
      return { body, statements: counted.count.statements };
    };
    try {
      const started = performance.now();
      const run = await post();
      const firstMs = performance.now() - started;
      assert.equal(run.body.ideas.created, POSTS);
      assert.equal(run.body.votes.created + run.body.votes.unchanged, POSTS * VOTES_PER_POST);
      assert.equal(run.body.comments.created, POSTS / COMMENT_EVERY);
      assert.equal(run.body.people.created, USERS);
      assert.deepEqual(run.body.tags, { created: 1, matched: 0 });
      const again = performance.now();
      const second = await post();
      const secondMs = performance.now() - again;
      assert.equal(second.body.ideas.unchanged, POSTS);
      assert.equal(second.body.ideas.created, 0);
      assert.equal(second.body.votes.created, 0);
      assert.equal(second.body.comments.unchanged, POSTS / COMMENT_EVERY);
      t.diagnostic(
        `${server.db.dialect}: ${(size / 1e6).toFixed(1)} MB dump; first run ${(firstMs / 1000).toFixed(1)} s (${run.statements} statements), second run ${(secondMs / 1000).toFixed(1)} s (${second.statements} statements); peak RSS growth ${(peak / 1e6).toFixed(0)} MB, peak heap ${(peakHeap / 1e6).toFixed(0)} MB (${(baseline.heapUsed / 1e6).toFixed(0)} MB before)`,
      );
      // Batches, not rows: a statement per person, idea value or comparison would be thousands.
      assert.ok(run.statements < 1_000, `first run: ${run.statements} statements`);
      assert.ok(second.statements < 500, `second run: ${second.statements} statements`);
    } finally {
      clearInterval(sampler);
    }
    // Counters exact.
    const counts = await server.db.get<{ comments: number }>(
      'SELECT SUM(comment_count) AS comments FROM features WHERE project_id = ?',
      [project.projectId],
    );
    assert.equal(Number(counts!.comments), POSTS / COMMENT_EVERY);
    const total = await server.db.get<{ n: number; votes: number }>(
      'SELECT COUNT(*) AS n, SUM(vote_count) AS votes FROM features WHERE project_id = ?',
      [project.projectId],
    );
    assert.equal(Number(total!.n), POSTS);
  });
});
