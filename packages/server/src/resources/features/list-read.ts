/**
 * Runs the statements of an idea list (the board's and the management API's): the count, and
 * the page by trending, from a tag's items, or along the list's order index, whichever the
 * statements say (see tagged-read-model.ts and store-trending.ts for the choices).
 */
import type { Database } from '../../db/database.ts';
import type { ListQuery } from './store.ts';
import { trendingPage, type TrendingSource } from './store-trending.ts';
import { pageFor } from './tagged-read-model.ts';

export interface ListStatements {
  count: ListQuery;
  page: ListQuery;
  /** With a tag filter: the page from the tag's items, used when few match. */
  taggedPage?: ListQuery | undefined;
  /** Sorted by trending: `page` is then unused. */
  trending?: { source: TrendingSource; since: string } | undefined;
}

export async function readList<Row>(
  db: Database,
  { count, page, taggedPage, trending }: ListStatements,
  limit: number,
  offset: number,
): Promise<{ rows: Row[]; total: number }> {
  const counted = db.get<{ total: number | string }>(count.sql, count.params).then((row) => Number(row?.total ?? 0));
  const [total, rows] = await Promise.all([
    counted,
    trending
      ? trendingPage<Row>(db, trending.source, trending.since, limit, offset)
      : taggedPage
        ? counted.then((n) => db.all<Row>(...pageFor(page, taggedPage, n)))
        : db.all<Row>(page.sql, page.params),
  ]);
  return { rows, total };
}
