import pg from 'pg';
import { retryConflicts } from './failures.ts';
import type { Database, Queryable, Row, SqlValue } from './database.ts';

// COUNT(*) and BIGINT columns come back as strings by default; every count here fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

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

class PgQueryable implements Queryable {
  private readonly client: pg.Pool | pg.PoolClient;
  constructor(client: pg.Pool | pg.PoolClient) {
    this.client = client;
  }
  async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const result = await this.client.query(toPostgresPlaceholders(sql), params as unknown[]);
    return result.rows as T[];
  }
  async get<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    const result = await this.client.query(toPostgresPlaceholders(sql), params as unknown[]);
    return { changes: result.rowCount ?? 0 };
  }
}

export class PostgresDatabase extends PgQueryable implements Database {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;

  constructor(connectionString: string, poolSize = 10) {
    const pool = new pg.Pool({ connectionString, max: poolSize });
    super(pool);
    this.pool = pool;
    // An idle client that loses its connection must not take the process down.
    pool.on('error', () => {});
  }

  /**
   * Runs `fn` in BEGIN … COMMIT. A deadlock or serialisation failure rolls the whole transaction
   * back and runs it again (bounded, with jitter: see failures.ts), so two writers crossing on
   * the same rows both succeed instead of one answering 500. `fn` must therefore touch nothing
   * but the database (the rule of db.transaction anyway).
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return retryConflicts(() => this.transactionOnce(fn));
  }

  private async transactionOnce<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(new PgQueryable(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  // A statement on its own is its own transaction: after a deadlock it may run again as a whole.
  // (Inside transaction() a failed statement has aborted the transaction, so it retries there.)
  override async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return retryConflicts(() => super.all<T>(sql, params));
  }

  override async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return retryConflicts(() => super.run(sql, params));
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
