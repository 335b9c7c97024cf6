/** One project's part of SQLite's full-text index of ideas (features_fts, migration 202612310100). */

/**
 * SQLite: the project's token in features_fts' `scope` column (migration 202612310100: 'p' and
 * the hex of the project id's UTF-8 bytes, as SQLite's hex() writes it, folded to lower case).
 */
export function ftsScope(projectId: string): string {
  return `p${Buffer.from(projectId, 'utf8').toString('hex')}`;
}

/**
 * An FTS5 expression over titles and descriptions, limited to one project's ideas inside the
 * index: FTS5 intersects the words' lists with the project's token's, so only the project's
 * matches come out and none of them needs its row read to be counted.
 */
export function ftsInProject(projectId: string, expression: string): string {
  return `scope : "${ftsScope(projectId)}" AND {title description} : (${expression})`;
}
