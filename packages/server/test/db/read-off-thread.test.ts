/**
 * A long read must not stop the public API. node:sqlite runs queries on the calling thread, so
 * reads marked `readOffThread` (every management request's) go to worker connections. Here one
 * read that takes seconds runs beside public HTTP requests to the same server: off the thread,
 * the public requests keep being answered while it runs; on the thread (the contrast that shows
 * the test can fail), none is answered until it ends.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readOffThread } from '../../src/db/read-context.ts';
import { testDbKind } from '../support/database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Counts to 8 million in one statement: a few seconds of one SQLite query.
const LONG_READ = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 8000000)
  SELECT COUNT(*) AS n FROM c`;

describe('a long read beside public requests', {
  skip: testDbKind() === 'postgres' && 'PostgreSQL reads never hold the event loop',
}, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  /** Public reads sent one after another until `done` settles: how many were answered meanwhile. */
  async function answeredDuring(done: Promise<unknown>): Promise<number> {
    let finished = false;
    void done.finally(() => {
      finished = true;
    });
    let answered = 0;
    while (!finished) {
      const response = await fetch(`${server.baseUrl}/features?limit=1`, { headers: { 'x-api-key': server.demoKey } });
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      if (!finished) answered++;
    }
    return answered;
  }

  it('off the event loop: public requests are answered while it runs', async () => {
    const read = readOffThread(() => server.db.get<{ n: number }>(LONG_READ));
    const answered = await answeredDuring(read);
    assert.equal((await read)?.n, 8_000_000);
    assert.ok(answered >= 5, `${answered} public requests answered during the long read`);
  });

  it('on the event loop (the contrast): none is answered until it ends', async () => {
    // Started on the next turn, so that the first public request is already on its way.
    const read = new Promise((resolve) => setImmediate(resolve)).then(() => server.db.get<{ n: number }>(LONG_READ));
    const answered = await answeredDuring(read);
    assert.equal((await read)?.n, 8_000_000);
    assert.ok(answered <= 1, `${answered} public requests answered during the long read`);
  });
});
