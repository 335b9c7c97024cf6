/**
 * A search's list at any size (issue 30: a first search at 100,000 ideas costs what it costs at
 * 100): the statements read a bounded number of matches, never every match of the project.
 *
 *   count:     exact up to SEARCH_COUNT_CAP matches; past it the list says "more than" that many
 *              (`totalCapped`, a total of cap + 1, as the logs list counts), as GitHub, Linear
 *              and Canny show "1,000+";
 *   relevance: ranks at most RELEVANCE_CANDIDATES matches, the first ones in the index's own order
 *              (SQLite: features_fts newest rowid first; PostgreSQL: as the GIN bitmap yields them),
 *              so every match of a rarer word is ranked and a common word's ranking reads a bounded
 *              share of it (bm25 / ts_rank over 10,000 matches was most of a first board search);
 *   newest, votes, …: when the count is exact (few matches), the page sorts those matches
 *              (`matchesPage`, SQLite; PostgreSQL's planner makes that choice itself); when many
 *              match, the list's order index is walked and the walk stops at the page.
 *
 * The expressions: SQLite's FTS5 text for features_fts (fts-scope.ts), PostgreSQL's tsquery over
 * the project's lexemes of features.search_document (migration 202701010100). User text never
 * reaches either syntax: words are searchWords() output (letters, marks and digits only), quoted.
 */
import type { Database, SqlValue } from '../../db/database.ts';
import type { Where } from '../../db/query.ts';
import { ftsInProject } from './fts-scope.ts';
import type { ListQuery } from './store.ts';

/** Matches counted exactly up to this many; more show as this plus one, `totalCapped`. */
export const SEARCH_COUNT_CAP = 1000;
/** The most matches relevance ranks (the same bound: a total not capped means every match was ranked). */
export const RELEVANCE_CANDIDATES = SEARCH_COUNT_CAP;

/** The words of a search in one project, each that matches nothing with its typo corrections (store-search.ts). */
export interface SearchText {
  projectId: string;
  words: string[];
  corrections: ReadonlyMap<string, readonly string[]>;
}

/**
 * SQLite: the FTS5 expression of the words (all, or any) within the project. Every word is a
 * prefix; a corrected word also matches its corrections, whole.
 */
export function ftsExpression(text: SearchText, any: boolean): string {
  // Words hold only letters, marks and digits, so a quoted word is always one FTS5 string.
  const term = (word: string) => {
    const near = text.corrections.get(word);
    return near ? `("${word}"* OR ${near.map((w) => `"${w}"`).join(' OR ')})` : `"${word}"*`;
  };
  return ftsInProject(text.projectId, text.words.map(term).join(any ? ' OR ' : ' AND '));
}

/**
 * PostgreSQL: a tsquery lexeme of the project's search_document: the project id, a space, the
 * word; quoted as tsquery text (a quote doubled, a backslash escaped). Given as `?::tsquery`, not
 * to_tsquery(): the parser would cut the project id apart.
 */
function pgLexeme(projectId: string, word: string): string {
  return `'${`${projectId} ${word}`.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** PostgreSQL: the tsquery text of the words (all, or any) within the project. */
export function pgTsQuery(text: SearchText, any: boolean): string {
  // Every lexeme carries the project, so the GIN index answers with this project's matches only.
  const lexeme = (word: string) => pgLexeme(text.projectId, word);
  const term = (word: string) => {
    const near = text.corrections.get(word);
    return near ? `(${lexeme(word)}:* | ${near.map(lexeme).join(' | ')})` : `${lexeme(word)}:*`;
  };
  return text.words.map(term).join(any ? ' | ' : ' & ');
}

/**
 * The ideas matching every word and `where` (conditions on `f`, the text not among them), as a
 * FROM clause with its WHERE. SQLite starts from features_fts (CROSS JOIN: in this order), so the
 * matches come in the index's rowid order and a LIMIT stops the reading; PostgreSQL adds the
 * stored document's condition and lets its planner choose (GIN bitmap or an order index).
 */
function matching(dialect: Database['dialect'], text: SearchText, where: Where): { sql: string; params: SqlValue[] } {
  if (dialect === 'sqlite') {
    return {
      sql: `features_fts CROSS JOIN features f ON f.rowid = features_fts.rowid
        WHERE features_fts MATCH ? AND ${where.sql}`,
      params: [ftsExpression(text, false), ...where.params],
    };
  }
  return {
    sql: `features f WHERE ${where.sql} AND f.search_document @@ ?::tsquery`,
    params: [...where.params, pgTsQuery(text, false)],
  };
}

/**
 * How many ideas match, read up to SEARCH_COUNT_CAP + 1 of them (readList tells exact from "more
 * than"). `onlyProject`: `where` is the project alone; SQLite then counts in features_fts,
 * whose scope column is the project, reading no idea row.
 */
export function cappedSearchCount(
  dialect: Database['dialect'],
  text: SearchText,
  where: Where,
  onlyProject: boolean,
): ListQuery {
  const limit = SEARCH_COUNT_CAP + 1;
  if (dialect === 'sqlite' && onlyProject) {
    return {
      sql: 'SELECT COUNT(*) AS total FROM (SELECT rowid FROM features_fts WHERE features_fts MATCH ? LIMIT ?) capped',
      params: [ftsExpression(text, false), limit],
    };
  }
  const from = matching(dialect, text, where);
  return {
    sql: `SELECT COUNT(*) AS total FROM (SELECT 1 FROM ${from.sql} LIMIT ?) capped`,
    params: [...from.params, limit],
  };
}

/**
 * SQLite: a page read from the matches and sorted, for a search whose count was exact (at most
 * SEARCH_COUNT_CAP matches: walking the list's order index could read the whole project to find
 * them). PostgreSQL plans its one statement itself: undefined.
 */
export function matchesPage(
  dialect: Database['dialect'],
  text: SearchText,
  where: Where,
  columns: string,
  orderBy: string,
  limit: number,
  offset: number,
): ListQuery | undefined {
  if (dialect !== 'sqlite') return undefined;
  const from = matching(dialect, text, where);
  return {
    sql: `SELECT ${columns} FROM ${from.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
    params: [...from.params, limit, offset],
  };
}

/**
 * Best match first (bm25 with the title weighing 4, the description 1; ts_rank with title words
 * weighted A), then `tieBreak`, over at most RELEVANCE_CANDIDATES matches: `columns` and
 * `tieBreak` name `f`, the candidates.
 */
export function relevancePage(
  dialect: Database['dialect'],
  text: SearchText,
  where: Where,
  columns: string,
  tieBreak: string,
  limit: number,
  offset: number,
): ListQuery {
  const from = matching(dialect, text, where);
  if (dialect === 'sqlite') {
    // The scope column (the project's token) weighs nothing in the rank. Newest rowids first: the
    // order FTS5 reads itself, so the LIMIT ends the reading.
    return {
      sql: `SELECT ${columns} FROM (SELECT f.*, bm25(features_fts, 4.0, 1.0, 0.0) AS fts_rank FROM ${from.sql}
          ORDER BY features_fts.rowid DESC LIMIT ?) f
        ORDER BY f.fts_rank ASC, ${tieBreak} LIMIT ? OFFSET ?`,
      params: [...from.params, RELEVANCE_CANDIDATES, limit, offset],
    };
  }
  return {
    sql: `SELECT ${columns} FROM (SELECT f.* FROM ${from.sql} LIMIT ?) f
      ORDER BY ts_rank(f.search_document, ?::tsquery) DESC, ${tieBreak} LIMIT ? OFFSET ?`,
    params: [...from.params, RELEVANCE_CANDIDATES, pgTsQuery(text, false), limit, offset],
  };
}
