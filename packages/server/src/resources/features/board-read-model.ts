/**
 * The public board's idea list and "similar ideas" suggestions: public ideas only (the live
 * environment, not internal, not held), filtered by status, type and tag (feature_tags, a table
 * of resources/tags: hence a read model), sorted top / new / trending, with full-text search
 * through the database's own engine: SQLite FTS5 (features_fts, bm25) or PostgreSQL's stored
 * search_document over its GIN index (migration 202701010100_search_document, ts_rank).
 *
 * User text never reaches the search syntax: it is cut into words of letters and digits, every
 * other character dropped, and each word is quoted (FTS5 "word"*, tsquery 'word':*), so quotes,
 * `*`, parentheses, `NEAR`, `-`, `:` or `&` are ordinary separators, never operators.
 */
import type { Database, SqlValue } from '../../db/database.ts';
import { Where } from '../../db/query.ts';
import { tagsOfFeatures, type IdeaTag } from '../tags/index.ts';
import { featureCountQuery } from './store-counts.ts';
import { type ListStatements, readList } from './list-read.ts';
import { TAGGED, taggedQueries } from './tagged-read-model.ts';
import type { ListQuery } from './store.ts';
import { typoCorrections } from './store-search.ts';
import { STOP_WORDS } from './stop-words.ts';
import { folded } from './typo.ts';
import {
  cappedSearchCount,
  ftsExpression,
  matchesPage,
  pgTsQuery,
  relevancePage,
  SEARCH_COUNT_CAP,
  type SearchText,
} from './search-read-model.ts';

/** The longest search text looked at, and the most words taken from it. */
export const SEARCH_TEXT_MAX = 200;
export const SEARCH_WORDS_MAX = 8;
const WORD_MAX = 40;
const EXCERPT_LENGTH = 200;
/** Trending: votes cast in the last this many days (the board's sort and the management list's). */
export const TRENDING_DAYS = 7;

/** The moment trending counts votes from. */
export function trendingSince(): string {
  return new Date(Date.now() - TRENDING_DAYS * 24 * 3600 * 1000).toISOString();
}

export type BoardSort = 'top' | 'new' | 'trending' | 'relevance';

export interface BoardIdeaQuery {
  /** Search text; empty or without any letter or digit: no search. */
  q?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  tagId?: string | undefined;
  /** Default: relevance when searching, else top. Relevance without search text is top. */
  sort?: BoardSort | undefined;
  limit: number;
  offset: number;
}

export interface BoardIdea {
  id: string;
  title: string;
  /** The description's start, whitespace collapsed, at most 200 characters plus an ellipsis. */
  excerpt: string;
  status: string;
  type: string;
  voteCount: number;
  commentCount: number;
  createdAt: string;
  tags: IdeaTag[];
  /** The release it shipped in (issue 33), while it is done. */
  releasedIn: string | null;
}

interface IdeaRow {
  id: string;
  title: string;
  excerpt: string;
  status: string;
  type: string;
  vote_count: number | string;
  comment_count: number | string;
  created_at: string;
  released_in: string | null;
}

/** The words of a search text: runs of letters, marks and digits, lower case, bounded in number and length. */
export function searchWords(text: string | undefined, max = SEARCH_WORDS_MAX): string[] {
  if (!text) return [];
  const words =
    text
      .slice(0, SEARCH_TEXT_MAX)
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  return [...new Set(words.map((word) => word.slice(0, WORD_MAX)))].slice(0, max);
}

/** A full-text condition over `f` for the given words (all of them, or any), and how to rank by it. */
export interface TextMatch {
  /** Joined after `features f` (may be empty). */
  join: string;
  joinParams: SqlValue[];
  /** A condition for WHERE (may be empty when the join filters). */
  where: string;
  whereParams: SqlValue[];
  /** The ORDER BY term, best first. */
  rank: string;
  rankParams: SqlValue[];
}

/**
 * `corrections`: for a word that matches nothing, the indexed words it may be a typo of
 * (store-search.ts); the word then matches any of them, whole.
 */
export function textMatch(
  dialect: Database['dialect'],
  projectId: string,
  words: string[],
  any: boolean,
  corrections: ReadonlyMap<string, readonly string[]> = new Map(),
): TextMatch {
  const text = { projectId, words, corrections };
  if (dialect === 'sqlite') {
    return {
      // The scope column (the project's token) weighs nothing in the rank.
      join: `JOIN (SELECT rowid AS fts_rowid, bm25(features_fts, 4.0, 1.0, 0.0) AS fts_rank FROM features_fts
              WHERE features_fts MATCH ?) fts ON fts.fts_rowid = f.rowid`,
      joinParams: [ftsExpression(text, any)],
      where: '',
      whereParams: [],
      rank: 'fts.fts_rank ASC',
      rankParams: [],
    };
  }
  const query = pgTsQuery(text, any);
  return {
    join: '',
    joinParams: [],
    where: 'f.search_document @@ ?::tsquery',
    whereParams: [query],
    // Title words weigh A, description words D in the stored document.
    rank: 'ts_rank(f.search_document, ?::tsquery) DESC',
    rankParams: [query],
  };
}

/** The same match as a condition on `f` alone (all words, corrections allowed), for OR-ing with others. */
export function textCondition(
  dialect: Database['dialect'],
  projectId: string,
  words: string[],
  corrections: ReadonlyMap<string, readonly string[]>,
): { sql: string; params: SqlValue[] } {
  const match = textMatch(dialect, projectId, words, false, corrections);
  if (dialect === 'sqlite') {
    // `+`: the matches' rowids never drive the statement (SQLite would otherwise look up every
    // match and sort them all: 67 ms for 10,000 against 24 ms walking the list's order index).
    return {
      sql: '+f.rowid IN (SELECT rowid FROM features_fts WHERE features_fts MATCH ?)',
      params: match.joinParams,
    };
  }
  return { sql: match.where, params: match.whereParams };
}

function publicIdeas(projectId: string, environment = 'live'): Where {
  // The board's statements keep the literal 'live' (their plans are tested); a test key's widget asks for 'test'.
  if (environment !== 'live') {
    return new Where(
      'f.project_id = ? AND f.environment = ? AND f.internal = 0 AND f.held = 0',
      projectId,
      environment,
    );
  }
  return new Where("f.project_id = ? AND f.environment = 'live' AND f.internal = 0 AND f.held = 0", projectId);
}

const COLUMNS = `f.id, f.title, SUBSTR(f.description, 1, ${EXCERPT_LENGTH * 2}) AS excerpt, f.status, f.type,
  f.vote_count, f.comment_count, f.created_at, f.released_in`;

function excerpt(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > EXCERPT_LENGTH ? `${collapsed.slice(0, EXCERPT_LENGTH).trimEnd()}…` : collapsed;
}

async function present(db: Database, rows: IdeaRow[]): Promise<BoardIdea[]> {
  const tags = await tagsOfFeatures(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    excerpt: excerpt(row.excerpt),
    status: row.status,
    type: row.type,
    releasedIn: row.status === 'done' ? row.released_in : null,
    voteCount: Number(row.vote_count),
    commentCount: Number(row.comment_count),
    createdAt: row.created_at,
    tags: tags.get(row.id) ?? [],
  }));
}

/**
 * One page of a project's public ideas for the board, and how many match over all pages (a
 * search's count is exact up to SEARCH_COUNT_CAP, then "at least": totalCapped false).
 * Filters and search run in SQL before LIMIT and OFFSET.
 *
 *   top:       vote_count desc, then newest
 *   new:       newest first
 *   trending:  votes of the last 7 days desc, then vote_count, then newest
 *   relevance: best full-text match first (bm25 / ts_rank), then top; over at most
 *              RELEVANCE_CANDIDATES matches (search-read-model.ts)
 */
export async function listBoardIdeas(
  db: Database,
  projectId: string,
  query: BoardIdeaQuery,
): Promise<{ rows: BoardIdea[]; total: number; totalCapped: boolean }> {
  const words = searchWords(query.q);
  const corrections = words.length > 0 ? await typoCorrections(db, projectId, words) : new Map<string, string[]>();
  const { rows, total, totalCapped } = await readList<IdeaRow>(
    db,
    boardIdeasQuery(db.dialect, projectId, query, corrections),
    query.limit,
    query.offset,
  );
  return { rows: await present(db, rows), total, totalCapped };
}

/**
 * The statements of listBoardIdeas, apart so tests can read their plans. Without search, the
 * page walks an index in its order (migration 202611280200: features_public_top, or
 * features_public_status_top with a status; features_public_newest or its status and type
 * variants for `new`) and stops; trending ranks every public idea by its recent votes, so it
 * sorts (only votes of the last 7 days are read, through the votes primary key). The count is
 * index-only over the public ideas it counts. A search without a tag is bounded at any size
 * (search-read-model.ts): a capped count, relevance over a bounded candidate set, and for top and
 * new the matches sorted when few match, else the same walk along the order index.
 */
export function boardIdeasQuery(
  dialect: Database['dialect'],
  projectId: string,
  query: BoardIdeaQuery,
  corrections: ReadonlyMap<string, readonly string[]> = new Map(),
): ListStatements {
  const words = searchWords(query.q);
  const sort = query.sort ?? (words.length > 0 ? 'relevance' : 'top');
  if (words.length > 0 && query.tagId !== undefined) {
    return taggedSearchQuery(dialect, projectId, { ...query, tagId: query.tagId }, words, sort, corrections);
  }
  const text: SearchText | undefined = words.length > 0 ? { projectId, words, corrections } : undefined;
  // The filters but the search text and the tag (the search statements add the text their own way).
  const plain = () =>
    publicIdeas(projectId)
      .when(query.status, 'f.status = ?', query.status ?? null)
      .when(query.type, 'f.type = ?', query.type ?? null);
  // For walking an index: the text and the tag as checks per idea.
  const where = plain().when(query.tagId, TAGGED, query.tagId ?? null);
  if (text) {
    const condition = textCondition(dialect, projectId, words, corrections);
    where.add(condition.sql, ...condition.params);
  }
  // Relevance without search text is top; trending's page is its own (store-trending.ts).
  const orderBy = sort === 'new' ? NEWEST : TOP;
  const tagged =
    query.tagId === undefined
      ? undefined
      : taggedQueries(dialect, { columns: COLUMNS, join: '', joinParams: [], where: plain() }, query.tagId);
  const walk: ListQuery = {
    sql: `SELECT ${COLUMNS} FROM features f WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
    params: [...where.params, query.limit, query.offset],
  };
  return {
    // Kept counts answer the equality filters; a tag counts from the tag's items; a search counts
    // its matches up to the cap.
    count:
      tagged?.count ??
      (text
        ? cappedSearchCount(dialect, text, plain(), false)
        : featureCountQuery(projectId, {
            environment: 'live',
            internal: 0,
            held: 0,
            status: query.status,
            type: query.type,
          })),
    cap: text ? SEARCH_COUNT_CAP : undefined,
    page:
      text && sort === 'relevance'
        ? relevancePage(dialect, text, plain(), COLUMNS, TOP, query.limit, query.offset)
        : walk,
    matchesPage:
      text && (sort === 'top' || sort === 'new')
        ? matchesPage(dialect, text, plain(), COLUMNS, orderBy, query.limit, query.offset)
        : undefined,
    taggedPage: tagged?.page(orderBy, [], query.limit, query.offset),
    trending:
      sort === 'trending'
        ? {
            source: { columns: COLUMNS, join: '', joinParams: [], where: where.sql, whereParams: where.params },
            since: trendingSince(),
          }
        : undefined,
  };
}

/**
 * A search within a tag: the tag's items are read first when few carry it (tagged-read-model.ts),
 * so the tag bounds the work; the count is the tag's matching ideas, exact.
 */
function taggedSearchQuery(
  dialect: Database['dialect'],
  projectId: string,
  query: BoardIdeaQuery & { tagId: string },
  words: string[],
  sort: BoardSort,
  corrections: ReadonlyMap<string, readonly string[]>,
): ListStatements {
  const match = textMatch(dialect, projectId, words, false, corrections);
  const filtered = () => {
    const base = publicIdeas(projectId)
      .when(query.status, 'f.status = ?', query.status ?? null)
      .when(query.type, 'f.type = ?', query.type ?? null);
    if (match.where) base.add(match.where, ...match.whereParams);
    return base;
  };
  const where = filtered().add(TAGGED, query.tagId);
  let orderBy = TOP;
  const orderParams: SqlValue[] = [];
  if (sort === 'new') orderBy = NEWEST;
  else if (sort === 'relevance') {
    orderBy = `${match.rank}, ${TOP}`;
    orderParams.push(...match.rankParams);
  }
  const source = { columns: COLUMNS, join: match.join, joinParams: match.joinParams };
  const tagged = taggedQueries(dialect, { ...source, where: filtered() }, query.tagId);
  return {
    count: tagged.count,
    page: {
      sql: `SELECT ${COLUMNS} FROM features f ${match.join} WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...match.joinParams, ...where.params, ...orderParams, query.limit, query.offset],
    },
    taggedPage: tagged.page(orderBy, orderParams, query.limit, query.offset),
    trending:
      sort === 'trending'
        ? { source: { ...source, where: where.sql, whereParams: where.params }, since: trendingSince() }
        : undefined,
  };
}

const TOP = 'f.vote_count DESC, f.created_at DESC, f.id DESC';
const NEWEST = 'f.created_at DESC, f.id DESC';

/** Of the meaningful words of a suggestion's text, at least this share must match an idea. */
const SUGGESTION_FLOOR = 0.5;

/**
 * Public ideas like the text being typed (a new idea's title), best first. Stop-words ("for",
 * "the", "app") are left out; a word that matches nothing may match as a typo (store-search.ts).
 * A relevance floor keeps only ideas that match at least half of the remaining words, one of them
 * in the title. Nothing meaningful typed: [].
 */
export async function suggestSimilarIdeas(
  db: Database,
  projectId: string,
  text: string,
  limit: number,
  /** The board's ideas are the live ones; the widget asks in its key's environment. */
  environment = 'live',
): Promise<BoardIdea[]> {
  const words = searchWords(text, 16).filter((word) => word.length > 2 && !STOP_WORDS.has(word));
  if (words.length === 0 || limit <= 0) return [];
  const corrections = await typoCorrections(db, projectId, words);
  const match = textMatch(db.dialect, projectId, words, true, corrections);
  const where = publicIdeas(projectId, environment);
  if (match.where) where.add(match.where, ...match.whereParams);
  const rows = await db.all<IdeaRow>(
    `SELECT ${COLUMNS} FROM features f ${match.join} WHERE ${where.sql}
      ORDER BY ${match.rank}, f.vote_count DESC, f.created_at DESC, f.id DESC LIMIT ?`,
    [...match.joinParams, ...where.params, ...match.rankParams, limit * 4],
  );
  const relevant = rows.filter((row) => {
    const title = new Set(searchWords(row.title, 64).map(folded));
    const body = new Set(searchWords(row.excerpt, 64).map(folded));
    const matches = (set: Set<string>, word: string) => {
      const forms = [folded(word), ...(corrections.get(word) ?? [])];
      for (const known of set) if (forms.some((form) => known.startsWith(form))) return true;
      return false;
    };
    const inTitle = words.filter((word) => matches(title, word)).length;
    const anywhere = words.filter((word) => matches(title, word) || matches(body, word)).length;
    return inTitle > 0 && anywhere / words.length >= SUGGESTION_FLOOR;
  });
  return present(db, relevant.slice(0, limit));
}
