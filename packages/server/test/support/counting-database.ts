/**
 * The real database, with a count of the statements run through it (and their text, if asked):
 * for tests that hold the server to a fixed number of statements per request, or to what it
 * reads. Nothing is changed on the way through.
 */
import type { Database, Queryable } from '../../src/db/database.ts';

export interface StatementCount {
  statements: number;
}

/** `noted`, when given, receives the text of every statement as well. */
export function countStatements(
  db: Database,
  noted?: string[],
  count: StatementCount = { statements: 0 },
): { db: Database; count: StatementCount } {
  const wrapped = observeStatements(db, (sql) => {
    count.statements++;
    noted?.push(sql.trim());
  });
  return { db: wrapped, count };
}

/** The real database, calling `observe` with each statement's text as it is run (in a transaction too). */
export function observeStatements(db: Database, observe: (sql: string) => void): Database {
  const observed = (queryable: Queryable): Queryable => ({
    all: (sql, params) => {
      observe(sql);
      return queryable.all(sql, params);
    },
    get: (sql, params) => {
      observe(sql);
      return queryable.get(sql, params);
    },
    run: (sql, params) => {
      observe(sql);
      return queryable.run(sql, params);
    },
  });
  return {
    dialect: db.dialect,
    ...observed(db),
    transaction: (fn, options) => db.transaction((tx) => fn(observed(tx)), options),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    ...(db.changeMarker ? { changeMarker: () => db.changeMarker!() } : {}),
  };
}

/**
 * A server's settings for counting a request's statements: no background worker (outbox,
 * changelog schedule, webhooks, alerts, release sightings and health, release health's expiry,
 * log lines) and no quota flush, whose statements would be counted with the request's (on
 * PostgreSQL one did, at random; release health's first expiry, a second after the start, met a
 * list's request in a whole run on SQLite).
 */
export const NO_BACKGROUND_WRITES: Record<string, string> = {
  OUTBOX_POLL_MS: '0',
  CHANGELOG_SCHEDULE_INTERVAL_MS: '0',
  WEBHOOKS_POLL_MS: '0',
  ERROR_ALERT_POLL_MS: '0',
  RELEASE_SIGHTING_INTERVAL_MS: '0',
  RELEASE_HEALTH_CHECK_INTERVAL_MS: '0',
  SESSION_EXPIRY_INTERVAL_MS: '0',
  LOG_LINES_WORKER_MS: '0',
  QUOTA_FLUSH_INTERVAL_MS: '60000',
};

/**
 * startTestServer's options for a server whose statements are counted, with no background writes;
 * `count` moves with every statement the server runs.
 */
export function countingServerOptions(): {
  count: StatementCount;
  env: Record<string, string>;
  wrapDatabase: (db: Database) => Database;
} {
  const count: StatementCount = { statements: 0 };
  return { count, env: NO_BACKGROUND_WRITES, wrapDatabase: (db) => countStatements(db, undefined, count).db };
}
