/**
 * The one statement builder of the data layer: a page of rows plus the total, for the management
 * lists. It names no table: the calling store passes its own `from` (the SQL ownership check
 * allows this file's dynamic statements, and dependency-cruiser lets only stores and read models
 * import it).
 */
import type { Queryable, SqlValue } from './database.ts';
import type { Where } from './query.ts';

/** A derived table: SQL with its own parameters, which come before the WHERE's. */
export interface From {
  sql: string;
  params: SqlValue[];
}

/** Rows of one page and the number of rows over all pages, with the same conditions. */
export async function page<T>(
  db: Queryable,
  source: string | From,
  where: Where,
  columns: string,
  orderBy: string,
  limit: number,
  offset: number,
): Promise<{ rows: T[]; total: number }> {
  const from = typeof source === 'string' ? source : source.sql;
  const params = typeof source === 'string' ? where.params : [...source.params, ...where.params];
  const [count, rows] = await Promise.all([
    db.get<{ total: number }>(`SELECT COUNT(*) AS total FROM ${from} WHERE ${where.sql}`, params),
    db.all<T>(`SELECT ${columns} FROM ${from} WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
      ...params,
      limit,
      offset,
    ]),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}
