/**
 * Prepared statements of one SQLite connection, kept by their SQL and bounded by the memory they
 * hold (issue 37). The writes that batch rows build one statement text per row count (`VALUES
 * (?, …), (?, …)` for 1 to 64 reports, 1 to 100 log lines), and each count is a statement of its
 * own, compiled and kept by SQLite: unbounded, a connection kept every count of every batch ever
 * written. Measured with node:sqlite, a prepared statement holds about 4 KB plus 60 bytes per
 * character of its SQL (100 upserts of 1 to 100 rows of 10 columns: 7.2 MB; 2,000 small selects:
 * 5.8 KB each), so a statement is counted as `BASE + PER_CHARACTER × sql.length`.
 *
 * Past the bound, the oldest statement not used since it was last passed over is dropped (a clock:
 * a hit only sets a flag, so the hot path pays no reordering), and SQLite finalises it when V8
 * collects it. A dropped statement is prepared again on its next use.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

const BASE_BYTES = 4096;
const BYTES_PER_CHARACTER = 64;
/** Per connection (the writer, the reader, each read worker): room for a few hundred batch statements. */
export const DEFAULT_STATEMENT_CACHE_BYTES = 8 * 1024 * 1024;

interface Kept {
  statement: StatementSync;
  bytes: number;
  used: boolean;
}

export function statementBytes(sql: string): number {
  return BASE_BYTES + BYTES_PER_CHARACTER * sql.length;
}

export class StatementCache {
  private readonly db: DatabaseSync;
  private readonly maxBytes: number;
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(db: DatabaseSync, maxBytes = DEFAULT_STATEMENT_CACHE_BYTES) {
    this.db = db;
    this.maxBytes = maxBytes;
  }

  /** How many statements and (estimated) bytes are kept; read by tests. */
  get size(): { statements: number; bytes: number } {
    return { statements: this.kept.size, bytes: this.bytes };
  }

  prepare(sql: string): StatementSync {
    const hit = this.kept.get(sql);
    if (hit) {
      hit.used = true;
      return hit.statement;
    }
    const statement = this.db.prepare(sql);
    statement.setReadBigInts(false);
    const bytes = statementBytes(sql);
    // A statement larger than the whole bound runs once, unkept, rather than emptying the cache.
    if (bytes > this.maxBytes) return statement;
    this.makeRoom(bytes);
    this.kept.set(sql, { statement, bytes, used: false });
    this.bytes += bytes;
    return statement;
  }

  /** Drops statements, oldest first, until `bytes` more fit; one used since it was last passed over gets another turn. */
  private makeRoom(bytes: number): void {
    // Every entry is passed over at most twice (its flag is cleared the first time), so this ends.
    while (this.bytes + bytes > this.maxBytes) {
      const oldest = this.kept.entries().next().value;
      if (!oldest) return;
      const [sql, entry] = oldest;
      this.kept.delete(sql);
      if (entry.used) {
        entry.used = false;
        this.kept.set(sql, entry);
        continue;
      }
      this.bytes -= entry.bytes;
    }
  }
}
