/**
 * Writes that the server folds or groups together (log batches folded into one upsert, SQLite's
 * group commit) must not let one request's database failure fail the others. A trigger in the
 * test database refuses one marked value, so the database itself fails that request's write, as
 * it would for any value it cannot store; every other request must succeed and be stored, exactly.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, startServerProcess, type ServerProcess, type TestDatabase } from '../support/server.ts';
import { Api } from '../support/api.ts';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { insertFeature } from '../../src/resources/features/index.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { newId } from '../../src/kernel/ids.ts';

const VALID = 100;
const POISONED = 5;
const LINES = 60;

/** A trigger that refuses rows of `table` whose `column` is 'poison': ABORT (the statement) or ROLLBACK (the whole transaction, SQLite). */
async function installPoison(
  db: Database,
  table: string,
  column: string,
  sqliteAction: 'ABORT' | 'ROLLBACK',
): Promise<void> {
  if (db.dialect === 'sqlite') {
    for (const event of ['INSERT', 'UPDATE']) {
      await db.exec(`
        CREATE TRIGGER poison_${table}_${event.toLowerCase()} BEFORE ${event} ON ${table}
        WHEN NEW.${column} = 'poison' BEGIN SELECT RAISE(${sqliteAction}, 'poison'); END;`);
    }
    return;
  }
  // check_violation: the database refuses the value as a CHECK constraint would.
  await db.exec(`
    CREATE FUNCTION poison_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.${column} = 'poison' THEN RAISE EXCEPTION 'poison' USING ERRCODE = 'check_violation'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER poison_${table} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION poison_${table}();`);
}

/** Valid and poisoned requests, all at once and mixed, so that folding and grouping put them together. */
async function sendMixed(valid: () => Promise<Response>, poisoned: () => Promise<Response>) {
  // POISONED bad ones spread evenly through the stream.
  const step = Math.floor((VALID + POISONED) / POISONED);
  const kinds = Array.from({ length: VALID + POISONED }, (_, i) =>
    i % step === step >> 1 && i < step * POISONED ? 'poisoned' : 'valid',
  );
  const responses = await Promise.all(
    kinds.map(async (kind) => ({ kind, response: await (kind === 'valid' ? valid() : poisoned()) })),
  );
  const statuses = (kind: string) => responses.filter((r) => r.kind === kind).map((r) => r.response.status);
  return { valid: statuses('valid'), poisoned: statuses('poisoned') };
}

describe('one bad write among folded or grouped ones', () => {
  // The server runs as its own process: there its event loop receives the requests in bursts and
  // folds them, as under real load (in this process the test's own client spreads them out).
  let database: TestDatabase;
  let server: ServerProcess;
  let db: Database;
  let projectId: string;
  let liveKey: string;

  before(async () => {
    database = await createTestDatabase();
    server = await startServerProcess(database);
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    projectId = newId('proj');
    await createProject(db, { id: projectId, name: 'Folded writes', slug: projectId, monthlyQuota: null });
    liveKey = (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
    await installPoison(db, 'log_groups', 'message', 'ABORT');
    await installPoison(db, 'votes', 'voter_id', 'ROLLBACK');
  });
  after(async () => {
    await server?.stop('SIGTERM');
    await db?.close();
    await database?.drop();
  });

  it('POST /logs: every valid batch is stored and counted exactly; only the poisoned ones fail, with 400', async () => {
    const send = (logs: unknown[]) =>
      fetch(`${server.baseUrl}/logs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': liveKey },
        body: JSON.stringify({ logs }),
      });
    // Batches of many lines make each write take a while, so that many requests fold into the next.
    const lines = Array.from({ length: LINES }, (_, i) => ({
      level: 'info',
      message: `line ${String(i).padStart(2, '0')}`,
    }));
    const { valid, poisoned } = await sendMixed(
      () => send(lines),
      // The batch's valid lines must not be stored either: a batch is all or nothing.
      () => send([...lines.slice(1), { level: 'error', message: 'poison' }]),
    );
    assert.deepEqual(valid, Array(VALID).fill(200), 'every valid batch is acknowledged');
    assert.deepEqual(poisoned, Array(POISONED).fill(400), 'the poisoned batches are refused as bad input');
    const rows = await db.all<{ message: string; occurrences: number }>(
      'SELECT message, occurrences FROM log_groups WHERE project_id = ? ORDER BY message',
      [projectId],
    );
    assert.deepEqual(
      rows.map((row) => [row.message, Number(row.occurrences)]),
      lines.map((line) => [line.message, VALID]),
    );
  });

  /** VALID votes and POISONED votes of `poisonVoter` on a new feature, all at once; returns the poisoned answers. */
  async function voteMixed(title: string, poisonVoter: string): Promise<number[]> {
    const feature = await insertFeature(
      db,
      { projectId, environment: 'live' },
      {
        title,
        description: 'Votes that commit together',
        type: 'feature',
        status: 'open',
        internal: false,
      },
    );
    const vote = (voterId: string) =>
      fetch(`${server.baseUrl}/features/${feature.id}/votes/${voterId}`, {
        method: 'PUT',
        headers: { 'x-api-key': liveKey },
      });
    let voter = 0;
    const { valid, poisoned } = await sendMixed(
      () => vote(`voter-${voter++}`),
      () => vote(poisonVoter),
    );
    assert.deepEqual(valid, Array(VALID).fill(200), 'every valid vote is acknowledged');
    const read = await new Api(server.baseUrl, liveKey).get(`/features/${feature.id}`);
    assert.equal(read.body.voteCount, VALID);
    const stored = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM votes WHERE feature_id = ?', [feature.id]);
    assert.equal(Number(stored!.n), VALID);
    return poisoned;
  }

  it('votes (one transaction each, grouped on SQLite): a transaction the database rolls back fails only its own request', async () => {
    const poisoned = await voteMixed('Grouped votes', 'poison');
    // The database refused the value itself: no store expects that here, the error handler's last line makes it a 400.
    assert.deepEqual(poisoned, Array(POISONED).fill(400), 'the poisoned votes are refused as bad input');
  });

  it('votes: a COMMIT that fails (a deferred foreign key) fails only the transaction that broke it', async () => {
    // A vote of 'poison-commit' leaves a row pointing nowhere, checked only at COMMIT: on SQLite
    // that COMMIT is the one of the whole group.
    if (db.dialect === 'sqlite') {
      await db.exec(`
        CREATE TABLE poison_refs (feature_id TEXT REFERENCES features(id) DEFERRABLE INITIALLY DEFERRED);
        CREATE TRIGGER poison_commit AFTER INSERT ON votes WHEN NEW.voter_id = 'poison-commit'
        BEGIN INSERT INTO poison_refs VALUES ('no-such-feature'); END;`);
    } else {
      await db.exec(`
        CREATE TABLE poison_refs (feature_id TEXT REFERENCES features(id) DEFERRABLE INITIALLY DEFERRED);
        CREATE FUNCTION poison_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.voter_id = 'poison-commit' THEN INSERT INTO poison_refs VALUES ('no-such-feature'); END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER poison_commit AFTER INSERT ON votes FOR EACH ROW EXECUTE FUNCTION poison_commit();`);
    }
    const poisoned = await voteMixed('Votes behind a failing commit', 'poison-commit');
    // A row it refers to is not there: the error handler's last line makes that a 404.
    assert.deepEqual(poisoned, Array(POISONED).fill(404), 'the poisoned votes are refused');
    assert.equal(Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM poison_refs'))!.n), 0);
  });
});
