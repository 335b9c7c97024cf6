/**
 * Runs the statements of an idea list (the board's and the management API's): the count, and
 * the page by trending, from a tag's items, from a search's matches, or along the list's order
 * index, whichever the statements say (see tagged-read-model.ts, search-read-model.ts and
 * store-trending.ts for the choices).
 */
import type { Database } from '../../db/database.ts';
import type { ListQuery } from './store.ts';
import { trendingPage, type TrendingSource } from './store-trending.ts';
import { pageFor } from './tagged-read-model.ts';

export interface ListStatements {
  count: ListQuery;
  /** The count reads at most cap + 1 items (a search): more than `cap` is told by a total of cap + 1. */
  cap?: number | undefined;
  page: ListQuery;
  /** With a tag filter: the page from the tag's items, used when few match. */
  taggedPage?: ListQuery | undefined;
  /** With search text: the page sorted from the matches, used when the count is exact (few match). */
  matchesPage?: ListQuery | undefined;
  /** Sorted by trending: `page` is then unused. */
  trending?: { source: TrendingSource; since: string } | undefined;
}

export interface ListResult<Row> {
  rows: Row[];
  /** The matching items, counted up to cap + 1 (as the logs list counts): more than cap shows as cap + 1. */
  total: number;
  /** More than `cap` match: `total` is not exact. */
  totalCapped: boolean;
}

export async function readList<Row>(
  db: Database,
  { count, cap, page, taggedPage, matchesPage, trending }: ListStatements,
  limit: number,
  offset: number,
): Promise<ListResult<Row>> {
  const counted = db.get<{ total: number | string }>(count.sql, count.params).then((row) => Number(row?.total ?? 0));
  const exact = (n: number) => cap === undefined || n <= cap;
  const [total, rows] = await Promise.all([
    counted,
    trending
      ? trendingPage<Row>(db, trending.source, trending.since, limit, offset)
      : taggedPage
        ? counted.then((n) => db.all<Row>(...pageFor(page, taggedPage, n)))
        : matchesPage
          ? counted.then((n) =>
              exact(n) ? db.all<Row>(matchesPage.sql, matchesPage.params) : db.all<Row>(page.sql, page.params),
            )
          : db.all<Row>(page.sql, page.params),
  ]);
  return { rows, total, totalCapped: !exact(total) };
}
