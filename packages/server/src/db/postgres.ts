import type pg from 'pg';
import { classifyDatabaseError, retryConflicts } from './failures.ts';
import {
  CUSTOM_PLAN,
  type Database,
  type Queryable,
  type Row,
  type SqlValue,
  type TransactionOptions,
} from './database.ts';
import { CHANGE_CHANNEL, ChangeListener } from './pg-listener.ts';
import { pgDriver } from './pg-driver.ts';
import { changesMemoisedData } from './memoised-writes.ts';

const converted = new Map<string, string>();

/** Rewrites `?` placeholders to `$1…$n`, skipping quoted text. Cached per statement text. */
export function toPostgresPlaceholders(sql: string): string {
  let result = converted.get(sql);
  if (result !== undefined) return result;
  let index = 0;
  let inString = false;
  result = '';
  for (const char of sql) {
    if (char === "'") inString = !inString;
    result += char === '?' && !inString ? `$${++index}` : char;
  }
  converted.set(sql, result);
  return result;
}

/** Statement names handed out so far, by statement text (see `statement`). */
const prepared = new Map<string, string>();
/** Distinct statements prepared per connection at most; rarer texts run unnamed. */
const MAX_PREPARED = 1000;

/**
 * The query config of a statement with parameters: named, so that each pooled connection parses
 * and plans it once and then only binds and executes (node-postgres prepares a named statement
 * on its first use per connection). Statements without parameters (DDL, scripts, transaction
 * control) run as simple queries: a script of several statements cannot be prepared.
 */
function statement(sql: string, params: readonly SqlValue[]): string | pg.QueryConfig {
  const text = toPostgresPlaceholders(sql);
  if (params.length === 0) return text;
  let name = prepared.get(sql);
  if (name === undefined) {
    // Unnamed: asked to be planned afresh (never put in `prepared`), or past the cap.
    if (sql.startsWith(CUSTOM_PLAN) || prepared.size >= MAX_PREPARED) return { text, values: params as unknown[] };
    name = `signpost_${prepared.size}`;
    prepared.set(sql, name);
  }
  return { name, text, values: params as unknown[] };
}

/** What one transaction did that others must hear of. */
interface TransactionChanges {
  memoised: boolean;
}

class PgQueryable implements Queryable {
  private readonly client: pg.Pool | pg.PoolClient;
  private readonly changes: TransactionChanges | undefined;
  constructor(client: pg.Pool | pg.PoolClient, changes?: TransactionChanges) {
    this.client = client;
    this.changes = changes;
  }
  async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const result = await this.query(sql, params);
    this.note(sql, result);
    return result.rows as T[];
  }
  async get<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    const result = await this.query(sql, params);
    this.note(sql, result);
    return { changes: result.rowCount ?? 0 };
  }
  private query(sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult> {
    const config = statement(sql, params);
    const running =
      typeof config === 'string'
        ? this.client.query(config, params as unknown[])
        : (this.client.query(config) as Promise<pg.QueryResult>);
    return running.catch((error: unknown) => {
      throw classifyDatabaseError(error);
    });
  }
  /**
   * A write that changed no row (a conditional UPDATE that lost its race, an upsert that did
   * nothing) changed nothing to hear of. A statement without a row count (DDL, a script) did.
   * (A statement that fails aborts the transaction, so it needs no note.)
   */
  private note(sql: string, result: pg.QueryResult | pg.QueryResult[]): void {
    if (!this.changes || this.changes.memoised) return;
    const rowCount = Array.isArray(result) ? null : result.rowCount;
    if (rowCount === 0 || !changesMemoisedData(sql)) return;
    this.changes.memoised = true;
  }
}

/**
 * PostgreSQL through a `pg` pool. Transactions that change what memos hold send a NOTIFY on
 * CHANGE_CHANNEL with their COMMIT; every process listens (pg-listener.ts) and moves its
 * change marker, so memoised reads work as on SQLite. memoised-writes.ts says which writes notify.
 */
export class PostgresDatabase extends PgQueryable implements Database {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly listener: ChangeListener;
  /** NOTIFY and COMMIT in one simple query: one round trip, as COMMIT alone. */
  private readonly notifyAndCommit: string;

  /** What a `durability: 'relaxed'` transaction begins with (see TransactionOptions). */
  private readonly relaxedBegin: string;

  constructor(connectionString: string, options: { poolSize?: number; ingestDurability?: 'full' | 'relaxed' } = {}) {
    const poolSize = options.poolSize ?? 10;
    const pool = new (pgDriver().Pool)({ connectionString, max: poolSize });
    super(pool);
    this.pool = pool;
    // An idle client that loses its connection must not take the process down.
    pool.on('error', () => {});
    this.listener = new ChangeListener(connectionString);
    this.notifyAndCommit = `NOTIFY ${CHANGE_CHANNEL}, '${this.listener.selfToken}'; COMMIT`;
    // One simple query, one round trip, as BEGIN alone. SET LOCAL ends with the transaction.
    this.relaxedBegin = options.ingestDurability === 'full' ? 'BEGIN' : 'BEGIN; SET LOCAL synchronous_commit = off';
  }

  /**
   * Moves with every commit that may change memoised data: this process's at once, other
   * processes' when their notification arrives (about a millisecond on one host). Never the
   * same twice while the listening connection is down. See pg-listener.ts.
   */
  changeMarker(): number {
    return this.listener.marker();
  }

  /** Whether the change listener is receiving notifications (false before the first marker read). */
  get listeningForChanges(): boolean {
    return this.listener.isListening;
  }

  /**
   * Runs `fn` in BEGIN … COMMIT. A deadlock or serialisation failure rolls the whole transaction
   * back and runs it again (bounded, with jitter: see failures.ts), so two writers crossing on
   * the same rows both succeed instead of one answering 500. `fn` must therefore touch nothing
   * but the database (the rule of db.transaction anyway).
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const begin = options.durability === 'relaxed' ? this.relaxedBegin : 'BEGIN';
    return retryConflicts(() => this.transactionOnce(fn, begin));
  }

  private async transactionOnce<T>(fn: (tx: Queryable) => Promise<T>, begin: string): Promise<T> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw classifyDatabaseError(error);
    });
    // A checked-out client has no listener of the pool's: a connection lost between two
    // statements would be an unhandled 'error' event, which ends the process. Noted instead, and
    // the client is then discarded on release, not handed to the next request.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
    };
    client.on('error', onLost);
    const changes: TransactionChanges = { memoised: false };
    try {
      await client.query(begin);
      const result = await fn(new PgQueryable(client, changes));
      await client.query(changes.memoised ? this.notifyAndCommit : 'COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw classifyDatabaseError(error);
    } finally {
      client.off('error', onLost);
      client.release(lost);
      // After COMMIT (never before: a read between would memoise old rows under the new marker),
      // and also after a failed one, which may have committed all the same (a lost connection).
      if (changes.memoised) this.listener.moved();
    }
  }

  // A statement on its own is its own transaction: after a deadlock it may run again as a whole.
  // (Inside transaction() a failed statement has aborted the transaction, so it retries there.)
  // One that changes memoised data runs in an explicit transaction, so its notification goes out
  // with its COMMIT: two more round trips, paid only off the hot paths (see memoised-writes.ts).
  override async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    if (changesMemoisedData(sql)) return this.transaction((tx) => tx.all<T>(sql, params));
    return retryConflicts(() => super.all<T>(sql, params));
  }

  override async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    if (changesMemoisedData(sql)) return this.transaction((tx) => tx.run(sql, params));
    return retryConflicts(() => super.run(sql, params));
  }

  /** A script (migrations, tools): always notifies, in the script's own (last) transaction. */
  async exec(sql: string): Promise<void> {
    try {
      await this.pool.query(`${sql}\n;NOTIFY ${CHANGE_CHANNEL}, '${this.listener.selfToken}'`);
    } finally {
      this.listener.moved();
    }
  }

  /** Closes the listening connection with the pool. */
  async close(): Promise<void> {
    await Promise.all([this.listener.close(), this.pool.end()]);
  }
}
