/**
 * The audit log as pages: a query's filters, its keyset cursor, a page of presented entries. The
 * management API's list (and its export's filters) and the MCP audit tool answer these.
 */
import type { Database } from '../../db/database.ts';
import { isoOrNull } from '../../db/query.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { presentEntry } from './presenter.ts';
import { type AuditCursor, type AuditFilter, auditPage } from './service.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(cursor: AuditCursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(raw: string): AuditCursor {
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const at = text.slice(0, bar);
  const id = text.slice(bar + 1);
  if (bar < 0 || !ISO.test(at) || id.length === 0 || id.length > 100) {
    const message = 'must be the nextCursor of a previous page';
    throw new BadRequestError(`Invalid query parameter cursor: ${message}`, [{ field: 'cursor', message }]);
  }
  return { at, id };
}

export function filterOf(query: AuditFilter): AuditFilter {
  return {
    actor: query.actor,
    action: query.action,
    targetType: query.targetType,
    targetId: query.targetId,
    since: isoOrNull(query.since) ?? undefined,
    until: isoOrNull(query.until) ?? undefined,
  };
}

/** One page of a project's entries (its own and its team's), newest first. */
export async function auditPageOf(
  db: Database,
  scope: { projectId: string; teamId: string },
  query: AuditFilter & { cursor?: string; limit?: number },
) {
  const page = await auditPage(
    db,
    scope,
    filterOf(query),
    query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    query.limit ?? 50,
  );
  return { entries: page.rows.map(presentEntry), nextCursor: page.next ? encodeCursor(page.next) : null };
}
