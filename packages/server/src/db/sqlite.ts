import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, Queryable, Row, SqlValue } from './database.ts';
import { Mutex } from './mutex.ts';

const READ_ONLY = /^\s*(select|with)\b/i;

/** A connection with a cache of prepared statements. */
class Connection {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  constructor(path: string, readOnly: boolean) {
    this.db = new DatabaseSync(path, { readOnly, timeout: 5000 });
  }

  prepare(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      statement.setReadBigInts(false);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // Rows are always read with `.all()`: a write with RETURNING read through `.get()` is never
  // stepped to completion, which keeps its write open and blocks WAL checkpoints for good.
  all<T>(sql: string, params: readonly SqlValue[]): T[] {
    return this.prepare(sql).all(...(params as SqlValue[])) as T[];
  }

  run(sql: string, params: readonly SqlValue[]): { changes: number } {
    const result = this.prepare(sql).run(...(params as SqlValue[]));
    return { changes: Number(result.changes) };
  }
}

class SqliteQueryable implements Queryable {
  private readonly connection: Connection;
  constructor(connection: Connection) {
    this.connection = connection;
  }
  async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.connection.all<T>(sql, params);
  }
  async get<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return this.connection.all<T>(sql, params)[0];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return this.connection.run(sql, params);
  }
}

/**
 * SQLite through node:sqlite. One writer connection, guarded by a mutex so that an async
 * transaction never interleaves with another request's statements, and one reader connection
 * that sees the last committed state (WAL lets it read while the writer writes).
 */
export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite' as const;
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly writeLock = new Mutex();
  private readonly writerQueryable: SqliteQueryable;

  readonly path: string;

  constructor(path: string) {
    this.path = path;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.writer = new Connection(path, false);
    this.writer.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA foreign_keys = ON;
      PRAGMA busy_timeout = 5000;
    `);
    this.reader = path === ':memory:' ? this.writer : new Connection(path, false);
    this.reader.db.exec('PRAGMA busy_timeout = 5000; PRAGMA query_only = ON;');
    this.writerQueryable = new SqliteQueryable(this.writer);
  }

  async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    if (READ_ONLY.test(sql) && !this.writeLock.locked) return this.reader.all<T>(sql, params);
    return this.writeLock.run(async () => this.writer.all<T>(sql, params));
  }

  async get<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return this.writeLock.run(async () => this.writer.run(sql, params));
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.writeLock.run(async () => {
      this.writer.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.writerQueryable);
        this.writer.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.writer.db.isTransaction) this.writer.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  async exec(sql: string): Promise<void> {
    await this.writeLock.run(async () => this.writer.db.exec(sql));
  }

  async close(): Promise<void> {
    await this.writeLock.run(async () => {
      if (this.reader !== this.writer) this.reader.db.close();
      this.writer.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      this.writer.db.close();
    });
  }
}
