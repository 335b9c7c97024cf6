/**
 * The one database boundary. Stores speak SQL with `?` placeholders in the dialect both
 * SQLite and PostgreSQL understand; each adapter maps that onto its driver.
 */
/** Uint8Array binds a BLOB (SQLite) or BYTEA (PostgreSQL); both come back as bytes (a Buffer on PostgreSQL). */
export type SqlValue = string | number | bigint | null | Uint8Array;
export type Row = Record<string, unknown>;
export interface RunResult {
  changes: number;
  lastInsertRowid?: number;
}

export interface Queryable {
  /** Every row the statement returns (SELECT, or a write with RETURNING). */
  all<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row, or undefined. Implemented over `all` (see sqlite.ts on why). */
  get<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /**
   * A write without rows to read back; resolves to the number of changed rows, and on SQLite
   * the rowid of the last row inserted (what `last_insert_rowid()` reads).
   */
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
}

/**
 * `durability: 'relaxed'` marks a transaction of telemetry (error reports): its COMMIT may be
 * answered before it reaches the disk, as SQLite's WAL with synchronous=NORMAL always does. A
 * crash of the Signpost process loses nothing; a crash of the database server or its machine may
 * lose the last fraction of a second of such commits, whole (never half of one). PostgreSQL then
 * commits with `synchronous_commit = off` unless the operator chose `INGEST_DURABILITY=full`.
 */
export interface TransactionOptions {
  durability?: 'full' | 'relaxed';
}

export interface Database extends Queryable {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `fn` in one serialisable unit: SQLite BEGIN IMMEDIATE, PostgreSQL BEGIN. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs a script of several statements with no parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * A number that stays the same while nothing memoised reads was committed, by this process or
   * another; caches then skip their version queries. SQLite reads PRAGMA data_version;
   * PostgreSQL moves it on the change notifications of pg-listener.ts (and never repeats it
   * while it cannot listen). A database without it is read through on every request.
   */
  changeMarker?(): number;
  /**
   * Gives back memory kept for speed while the server rests (http/at-rest.ts): SQLite empties
   * its connections' page caches and ends its idle read workers. The next queries rebuild it.
   */
  rest?(): Promise<void>;
  /**
   * The first request after a rest has come. Until then SQLite runs the reads marked off the event
   * loop on it (a background job's: nothing waits for the loop), not in a worker it would start.
   */
  wake?(): void;
}

/** Booleans are stored as 0/1 integers so both dialects read them the same way. */
export const bool = (value: boolean): number => (value ? 1 : 0);
export const isTrue = (value: unknown): boolean => value === 1 || value === true || value === '1';

export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * Put first in a statement's text to have PostgreSQL plan it with its values on every run: such a
 * statement runs unnamed, never prepared. A prepared statement may switch to a generic plan after
 * five runs, made without the values; for the log explorer's GIN hits over day partitions that
 * plan ANDed the GIN index with the time index over every whole day (413 ms against 19 at
 * 1,000,000 lines: packages/bench README, "Log lines: PostgreSQL's rare field value"). SQLite
 * reads it as the comment it is.
 */
export const CUSTOM_PLAN = '/* custom plan */ ';
