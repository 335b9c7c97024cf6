/**
 * Finding people (issue 30): the project's people, most recently seen first, whose name, e-mail
 * or company holds the words, by cursor. The one use case behind the management API's people
 * list (the dashboard's People screen) and the MCP feedback tool's person action.
 */
import type { Queryable } from '../../db/database.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { presentPerson } from './presenter.ts';
import { listPeople } from './store.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function encodeCursor(row: { last_seen_at: string; id: string }): string {
  return Buffer.from(`${row.last_seen_at}|${row.id}`, 'utf8').toString('base64url');
}

function decodeCursor(raw: string): { seen: string; id: string } {
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const seen = text.slice(0, bar);
  const id = text.slice(bar + 1);
  if (bar < 0 || !ISO.test(seen) || id.length === 0 || id.length > 100) {
    const message = 'must be the nextCursor of a previous page';
    throw new BadRequestError(`Invalid query parameter cursor: ${message}`, [{ field: 'cursor', message }]);
  }
  return { seen, id };
}

/** A page of people; a cursor that is not a nextCursor is a 400. */
export async function searchPeople(
  db: Queryable,
  projectId: string,
  query: { q?: string | undefined; limit: number; cursor?: string | undefined },
) {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await listPeople(db, projectId, { q: query.q?.trim() || undefined, limit: query.limit + 1, after });
  const page = rows.slice(0, query.limit);
  return {
    people: page.map(presentPerson),
    nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}
