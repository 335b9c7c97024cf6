/**
 * Error-group use cases that the management API and the MCP errors tool share (issue 31): a
 * group's events page, one event in full (source-mapped frames), merge and unmerge. Each answers
 * the presented shape or throws the error the API answers (404, 400).
 */
import type { Database } from '../../db/database.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { eventFlags } from './event-flags.ts';
import { presentEventSummary } from './group-presenter.ts';
import { getGroup, getGroupEvent, listGroupEvents } from './store-group-reads.ts';
import { mergeGroups, unmergeGroup } from './store-groups.ts';
import { groupOfRecord } from './store.ts';
import { symbolicatedEvent } from './symbolicate.ts';

/** A group's kept events, newest first, by cursor. */
export async function groupEventPage(
  db: Database,
  projectId: string,
  groupId: string,
  cursor: string | undefined,
  limit: number,
) {
  if (!(await getGroup(db, projectId, groupId))) throw new NotFoundError();
  const page = await listGroupEvents(db, groupId, cursor, limit);
  if (!page) {
    const message = 'not an events cursor';
    throw new BadRequestError(`Invalid query parameter cursor: ${message}`, [{ field: 'cursor', message }]);
  }
  return { events: page.rows.map(presentEventSummary), kept: page.kept, nextCursor: page.nextCursor };
}

/** One event of a group in full (`latest`, `oldest` or an id), its frames source-mapped. */
export async function groupEventDetail(db: Database, projectId: string, groupId: string, eventId: string) {
  if (!(await getGroup(db, projectId, groupId))) throw new NotFoundError();
  const found = await getGroupEvent(db, groupId, eventId);
  if (!found) throw new NotFoundError();
  const { row, event, position, kept, older, newer } = found;
  const shown = await symbolicatedEvent(db, projectId, event as Record<string, unknown>);
  return { ...presentEventSummary(row), position, kept, older, newer, flags: eventFlags(event), event: shown };
}

/** Merges groups into one: 404 for a group not of the project, 400 for itself or another key environment. */
export async function mergeErrorGroups(db: Database, projectId: string, groupId: string, groupIds: string[]) {
  const outcome = await db.transaction((tx) => mergeGroups(tx, projectId, groupId, [...new Set(groupIds)]));
  if (outcome === 'not-found') throw new NotFoundError();
  if (outcome !== 'merged') {
    const message =
      outcome === 'same-group'
        ? 'a group cannot be merged into itself'
        : 'groups of live and test keys cannot be merged';
    throw new BadRequestError(`Cannot merge: ${message}`, [{ field: 'groupIds', message }]);
  }
}

/** Takes a merged group out of the group it was merged into; 404 when it was not merged. */
export async function unmergeErrorGroup(db: Database, projectId: string, groupId: string) {
  if (!(await db.transaction((tx) => unmergeGroup(tx, projectId, groupId)))) throw new NotFoundError();
}

/**
 * The error group an id names in a key environment: a group's id, or the id of one of its error
 * records (what the MCP errors tool's search lists). Undefined when neither is of the project.
 */
export async function errorGroupIdOf(
  db: Database,
  projectId: string,
  environment: string,
  id: string,
): Promise<string | undefined> {
  const group = await getGroup(db, projectId, id);
  if (group) return group.environment === environment ? group.id : undefined;
  const record = await groupOfRecord(db, projectId, id);
  return record?.group_id && record.environment === environment ? record.group_id : undefined;
}
