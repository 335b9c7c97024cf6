/**
 * The team's views of a project's ideas: the inbox list (every item, internal, held and `new`
 * ones included, both key environments) with search, filters (tag: feature_tags, a table of
 * resources/tags, hence a read model), sorts including trending, and each item's tags; and the
 * ideas similar to one, the candidates for merging it (full-text search, board-read-model.ts).
 */
import { bool, type Database } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { searchClause, Where } from '../../db/query.ts';
import { tagsOfFeatures, type IdeaTag } from '../tags/index.ts';
import { searchWords, textCondition, textMatch, trendingSince } from './board-read-model.ts';
import { typoCorrections } from './store-search.ts';
import { featureCountQuery } from './store-counts.ts';
import { STOP_WORDS } from './stop-words.ts';
import { type ListStatements, readList } from './list-read.ts';
import { cappedSearchCount, matchesPage, SEARCH_COUNT_CAP, type SearchText } from './search-read-model.ts';
import { ensureValuesCurrent } from './store-value.ts';
import { TAGGED, taggedQueries } from './tagged-read-model.ts';
import type { FeatureRow } from './store.ts';

export type ManagedSort = 'newest' | 'oldest' | 'votes' | 'comments' | 'updated' | 'trending' | 'value';

export interface FeatureListFilter {
  environment?: KeyEnvironment | undefined;
  status?: string | undefined;
  type?: string | undefined;
  internal?: boolean | undefined;
  /** Only items carrying this tag (a tag id of the project). */
  tag?: string | undefined;
  /** Only items voted for or submitted by people of this company (a company id of the project). */
  company?: string | undefined;
  /** false: not triaged yet (and not held); true: triaged. */
  triaged?: boolean | undefined;
  /** Words searched in title and description (full-text, prefixes, typo corrections). */
  q?: string | undefined;
  sort: ManagedSort;
  limit: number;
  offset: number;
}

export type TaggedFeatureRow = FeatureRow & { tags: IdeaTag[] };

/**
 * Items of a company's people (resources/people): those its people voted for (their voter ids),
 * submitted on the board (their board users) or with their contact e-mail. The company is named
 * by the host app's id (a person's `company.externalId`) or Signpost's own. Each part is one set
 * read once from the company's people, not a check per item.
 */
const COMPANY_PEOPLE = `SELECT p.id FROM people p JOIN companies c ON c.id = p.company_id
  WHERE c.project_id = ? AND (c.external_id = ? OR c.id = ?)`;
const OF_COMPANY = `(f.id IN (SELECT v.feature_id FROM person_aliases a JOIN votes v ON v.voter_id = a.value
    WHERE a.kind = 'voter_id' AND a.person_id IN (${COMPANY_PEOPLE}))
  OR f.board_user_id IN (SELECT a.value FROM person_aliases a
    WHERE a.kind = 'board_user' AND a.person_id IN (${COMPANY_PEOPLE}))
  OR LOWER(f.contact_email) IN (SELECT a.value FROM person_aliases a
    WHERE a.kind = 'email' AND a.person_id IN (${COMPANY_PEOPLE})))`;

const TOP = 'f.vote_count DESC, f.created_at DESC, f.id DESC';
const ORDER: Record<Exclude<ManagedSort, 'trending'>, string> = {
  newest: 'f.created_at DESC, f.id DESC',
  oldest: 'f.created_at ASC, f.id ASC',
  votes: TOP,
  comments: 'f.comment_count DESC, f.created_at DESC, f.id DESC',
  updated: 'f.updated_at DESC, f.id DESC',
  value: `f.value DESC, ${TOP}`,
};

async function withTags(db: Database, rows: FeatureRow[]): Promise<TaggedFeatureRow[]> {
  const tags = await tagsOfFeatures(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, tags: tags.get(row.id) ?? [] }));
}

/**
 * One page of the project's items and the total over all pages (a search's total is exact up to
 * SEARCH_COUNT_CAP matches, then "more than": totalCapped); filters run in SQL before LIMIT.
 * trending: votes cast in the last 7 days, most first; ties by votes overall, then newest.
 */
export async function listManagedFeatures(
  db: Database,
  projectId: string,
  filter: FeatureListFilter,
): Promise<{ rows: (TaggedFeatureRow & { value: number })[]; total: number; totalCapped: boolean }> {
  // Stored values behind a company change are recomputed first (one read of two versions otherwise).
  await ensureValuesCurrent(db, projectId);
  // A search word that matches nothing may be a typo: the text also matches as corrected.
  const words = searchWords(filter.q);
  const corrections = words.length > 0 ? await typoCorrections(db, projectId, words) : new Map<string, string[]>();
  const { rows, total, totalCapped } = await readList<FeatureRow>(
    db,
    managedFeaturesQuery(db.dialect, projectId, filter, corrections),
    filter.limit,
    filter.offset,
  );
  const tagged = await withTags(db, rows);
  return { rows: tagged.map((row) => ({ ...row, value: Number(row.value ?? 0) })), total, totalCapped };
}

/**
 * The statements of listManagedFeatures, apart so tests can read their plans. Every sort but
 * trending walks its index of migration 202611280200 (features_project_newest, _votes,
 * _comments, _updated) and stops when the page is full; filters are checked along the way.
 * Trending is `trending` (store-trending.ts: the recently voted items ranked, then
 * features_project_votes walked), `page` then being unused. A search without a tag is bounded at
 * any size (search-read-model.ts): its count stops past the cap, and when the count is exact the
 * page is sorted from those matches (`matchesPage`) instead of walking the index to find them.
 */
export function managedFeaturesQuery(
  dialect: Database['dialect'],
  projectId: string,
  filter: FeatureListFilter,
  corrections: ReadonlyMap<string, readonly string[]> = new Map(),
): ListStatements {
  const words = searchWords(filter.q);
  // The full-text index (features_fts / the stored tsvector), as the board searches: every word
  // as a prefix, a word that matches nothing also as its typo corrections.
  const text: SearchText | undefined = words.length > 0 ? { projectId, words, corrections } : undefined;
  // Every filter but the search text and the tag.
  const plain = () => {
    const base = new Where('f.project_id = ?', projectId)
      .when(filter.environment, 'f.environment = ?', filter.environment ?? null)
      .when(filter.status, 'f.status = ?', filter.status ?? null)
      .when(filter.type, 'f.type = ?', filter.type ?? null)
      .when(filter.internal, 'f.internal = ?', bool(filter.internal ?? false));
    if (filter.company) {
      const ids = [projectId, filter.company, filter.company];
      base.add(OF_COMPANY, ...ids, ...ids, ...ids);
    }
    if (filter.triaged === false) base.add('f.triaged_at IS NULL AND f.held = 0');
    if (filter.triaged === true) base.add('f.triaged_at IS NOT NULL');
    if (filter.q && !text) {
      // Text without a word (punctuation only) is looked for as it is.
      const search = searchClause(['f.title', 'f.description', 'f.developer_notes'], filter.q);
      base.add(search.sql, ...search.params);
    }
    return base;
  };
  // Every filter but the tag; `where` adds the tag as a check per item (for walking an index).
  const filtered = () => {
    const base = plain();
    if (text) {
      const condition = textCondition(dialect, projectId, words, corrections);
      base.add(condition.sql, ...condition.params);
    }
    return base;
  };
  const untagged = filtered();
  // The value sort walks features_project_value (the stored value, store-value.ts).
  const where = filtered().when(filter.tag, TAGGED, filter.tag ?? null);
  const orderBy = ORDER[filter.sort === 'trending' ? 'votes' : filter.sort];
  const tagged =
    filter.tag === undefined
      ? undefined
      : taggedQueries(dialect, { columns: 'f.*', join: '', joinParams: [], where: untagged }, filter.tag);
  const searched = tagged ? undefined : text;
  // A search with no other filter: SQLite counts in features_fts alone (fts-scope.ts), reading no row.
  const onlyProject = [
    filter.environment,
    filter.status,
    filter.type,
    filter.internal,
    filter.company,
    filter.triaged,
  ].every((value) => value === undefined);
  return {
    // Kept counts answer the equality filters; a tag or other text counts the matching items.
    count:
      tagged?.count ??
      (searched
        ? cappedSearchCount(dialect, searched, plain(), onlyProject)
        : filter.q || filter.company || filter.triaged !== undefined
          ? { sql: `SELECT COUNT(*) AS total FROM features f WHERE ${where.sql}`, params: where.params }
          : featureCountQuery(projectId, {
              environment: filter.environment,
              status: filter.status,
              type: filter.type,
              internal: filter.internal === undefined ? undefined : filter.internal ? 1 : 0,
            })),
    cap: searched ? SEARCH_COUNT_CAP : undefined,
    page: {
      sql: `SELECT f.* FROM features f WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...where.params, filter.limit, filter.offset],
    },
    matchesPage:
      searched && filter.sort !== 'trending'
        ? matchesPage(dialect, searched, plain(), 'f.*', orderBy, filter.limit, filter.offset)
        : undefined,
    taggedPage: tagged?.page(orderBy, [], filter.limit, filter.offset),
    trending:
      filter.sort === 'trending'
        ? {
            source: { columns: 'f.*', join: '', joinParams: [], where: where.sql, whereParams: where.params },
            since: trendingSince(),
          }
        : undefined,
  };
}

/**
 * Items of the project like `feature` (any word of its title, as a prefix, best match first),
 * in its key environment (only those can be merged with it), itself excluded; internal and held
 * items included, as the team sees them.
 */
export async function similarFeatures(
  db: Database,
  feature: Pick<FeatureRow, 'id' | 'project_id' | 'environment' | 'title'>,
  limit: number,
): Promise<TaggedFeatureRow[]> {
  const all = searchWords(feature.title, 16);
  const long = all.filter((word) => word.length > 2 && !STOP_WORDS.has(word));
  const words = long.length > 0 ? long : all;
  if (words.length === 0 || limit <= 0) return [];
  const match = textMatch(db.dialect, feature.project_id, words, true);
  const where = new Where('f.project_id = ?', feature.project_id)
    .add('f.environment = ?', feature.environment)
    .add('f.id <> ?', feature.id);
  if (match.where) where.add(match.where, ...match.whereParams);
  const rows = await db.all<FeatureRow>(
    `SELECT f.* FROM features f ${match.join} WHERE ${where.sql}
      ORDER BY ${match.rank}, ${TOP} LIMIT ?`,
    [...match.joinParams, ...where.params, ...match.rankParams, limit],
  );
  return withTags(db, rows);
}
