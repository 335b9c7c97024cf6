/**
 * Small helpers the management stores share: text search conditions, time ranges, JSON columns.
 * (The page-plus-total statement is db/page.ts.)
 */
import type { SqlValue } from './database.ts';

/** A case-insensitive LIKE pattern for `text` anywhere, with `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `(LOWER(a) LIKE ? ESCAPE '\' OR LOWER(b) LIKE ? …)` over the given columns, for one search text.
 * On SQLite (`dialect`) the plain `a LIKE ?`: its LIKE already folds case as its LOWER does (ASCII
 * only, without ICU), and a NULL column fails the match as '' does, so the two select the same
 * rows, and each row costs one comparison instead of two function calls and one (about 40 % of a
 * text search's count over the log groups).
 */
export function searchClause(
  columns: readonly string[],
  text: string,
  dialect?: 'sqlite' | 'postgres',
): { sql: string; params: SqlValue[] } {
  const pattern = containsPattern(text);
  const match = (column: string) =>
    dialect === 'sqlite' ? `${column} LIKE ? ESCAPE '\\'` : `LOWER(COALESCE(${column}, '')) LIKE ? ESCAPE '\\'`;
  return {
    sql: `(${columns.map(match).join(' OR ')})`,
    params: columns.map(() => pattern),
  };
}

/** A WHERE clause built up condition by condition. */
export class Where {
  readonly conditions: string[] = [];
  readonly params: SqlValue[] = [];

  constructor(sql?: string, ...params: SqlValue[]) {
    if (sql) this.add(sql, ...params);
  }

  add(sql: string, ...params: SqlValue[]): this {
    this.conditions.push(sql);
    this.params.push(...params);
    return this;
  }

  /** Adds `sql` only when `value` is given. */
  when(value: SqlValue | boolean | undefined, sql: string, ...params: SqlValue[]): this {
    return value === undefined ? this : this.add(sql, ...params);
  }

  get sql(): string {
    return this.conditions.length > 0 ? this.conditions.join(' AND ') : '1 = 1';
  }
}

/** Normalises an ISO timestamp to the stored form (UTC, milliseconds, `Z`), so text comparison works. */
export function isoOrNull(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : new Date(value).toISOString();
}

export const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
