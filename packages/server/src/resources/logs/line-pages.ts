/**
 * Log lines as a page (issue 32): the filters of a query, a keyset page of lines, the lines around
 * one line. The management API's line routes and the MCP logs tool answer these.
 */
import type { Static } from 'typebox';
import type { Database } from '../../db/database.ts';
import { isoOrNull } from '../../db/query.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { parseFieldParam, parseLogSearch } from './field-filter.ts';
import type { AroundPage, LinePage } from './line-schemas.ts';
import { presentLine } from './presenter.ts';
import { parseLevels } from './query-params.ts';
import { linesAround, listLinePage, type LineCursor, type LineFilter } from './store-line-reads.ts';

export type Query = Record<string, string | number | undefined>;
type Row = Record<string, any> & { ts: string; id: string | number };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeLineCursor(row: { ts: string; id: string | number }): string {
  return Buffer.from(`${row.ts}|${row.id}`, 'utf8').toString('base64url');
}

function decodeLineCursor(raw: string | undefined): LineCursor | undefined {
  if (raw === undefined) return undefined;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const ts = text.slice(0, bar);
  const id = text.slice(bar + 1);
  if (bar < 0 || !ISO.test(ts) || !/^\d{1,18}$/.test(id)) {
    const message = 'must be the nextCursor of a previous page';
    throw new BadRequestError(`Invalid query parameter cursor: ${message}`, [{ field: 'cursor', message }]);
  }
  return { ts, id };
}

/** The line filters of a query string (list, tail, histogram). */
export function lineFilterOf(query: Query): LineFilter {
  const search = parseLogSearch(query['q'] as string | undefined);
  const fields = [...search.fields, ...parseFieldParam(query['fields'] as string | undefined)];
  return {
    environment: query['environment'] as 'live' | 'test' | undefined,
    status: query['status'] as LineFilter['status'],
    levels: parseLevels(query['level'] as string | undefined),
    category: query['category'] as string | undefined,
    source: query['source'] as string | undefined,
    appVersion: query['appVersion'] as string | undefined,
    userId: query['userId'] as string | undefined,
    groupId: query['groupId'] as string | undefined,
    q: search.text,
    fields,
    from: isoOrNull(query['from'] as string | undefined) ?? undefined,
    to: isoOrNull(query['to'] as string | undefined) ?? undefined,
  };
}

/** A page of lines, newest first; `cursor` and `limit` from the query. */
export async function linePage(db: Database, projectId: string, filter: LineFilter, query: Query) {
  const limit = (query['limit'] as number | undefined) ?? 100;
  const result = await listLinePage<Row>(db, projectId, filter, limit, decodeLineCursor(query['cursor'] as string));
  const last = result.rows.at(-1);
  return {
    lines: result.rows.map((row) => presentLine(row) as Static<typeof LinePage>['lines'][number]),
    hasMore: result.hasMore,
    // A search's window may end before its page fills: the next page searches on from there.
    nextCursor: result.next ? encodeLineCursor(result.next) : result.hasMore && last ? encodeLineCursor(last) : null,
  };
}

/** The lines of every group within `seconds` either side of one line; undefined for no such line. */
export async function linesAroundLine(db: Database, projectId: string, lineId: string, seconds: number, limit: number) {
  const found = await linesAround<Row>(db, projectId, lineId, seconds * 1000, limit);
  if (!found) return undefined;
  return {
    line: presentLine(found.line) as Static<typeof AroundPage>['line'],
    lines: found.rows.map((row) => presentLine(row) as Static<typeof AroundPage>['line']),
  };
}
