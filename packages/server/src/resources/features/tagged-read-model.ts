/**
 * Lists of ideas filtered by a tag (feature_tags, a table of resources/tags, hence a read model).
 * Two ways to read a page, chosen by how many ideas match (the count the list returns anyway):
 *
 *   few (≤ TAG_DRIVEN_MAX): start from the tag's items (feature_tags_by_tag), look each idea up
 *     by its key and sort those: the work is the tag's size, not the project's (a rare tag on a
 *     project of 100,000 ideas would otherwise walk every idea checking the tag: ~90 ms on SQLite);
 *   many: walk the list's order index and check the tag per idea (`TAGGED`): with at least
 *     TAG_DRIVEN_MAX matches, a page is found after a bounded walk and needs no sort.
 *
 * The count also starts from the tag's items.
 */
import type { Database, SqlValue } from '../../db/database.ts';
import type { Where } from '../../db/query.ts';
import type { ListQuery } from './store.ts';

export const TAG_DRIVEN_MAX = 5000;

/** The tag as a check per idea, for a walk along an index (one parameter: the tag id). */
export const TAGGED = 'EXISTS (SELECT 1 FROM feature_tags ft WHERE ft.feature_id = f.id AND ft.tag_id = ?)';

export interface TaggedSource {
  columns: string;
  /** Joined after `features f` (full-text search), may be empty. */
  join: string;
  joinParams: SqlValue[];
  /** Every filter of the list but the tag. */
  where: Where;
}

export function taggedQueries(dialect: Database['dialect'], source: TaggedSource, tagId: string) {
  // SQLite takes CROSS JOIN as "this order": otherwise it would rather walk the list's order index
  // (no sort) and check the tag per idea, the very walk this form is for avoiding.
  const join = dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const from = `feature_tags ft ${join} features f ON f.id = ft.feature_id ${source.join} WHERE ft.tag_id = ? AND ${source.where.sql}`;
  const params = [...source.joinParams, tagId, ...source.where.params];
  return {
    count: { sql: `SELECT COUNT(*) AS total FROM ${from}`, params } satisfies ListQuery,
    page: (orderBy: string, orderParams: SqlValue[], limit: number, offset: number): ListQuery => ({
      sql: `SELECT ${source.columns} FROM ${from} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...params, ...orderParams, limit, offset],
    }),
  };
}

/** The statement for a page: from the tag's items when few match, else along the index. */
export function pageFor(page: ListQuery, taggedPage: ListQuery | undefined, total: number): [string, SqlValue[]] {
  const chosen = taggedPage && total <= TAG_DRIVEN_MAX ? taggedPage : page;
  return [chosen.sql, chosen.params];
}
