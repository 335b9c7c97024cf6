/**
 * A person's error events and reports (issue 36): what the export lists and what erasing them
 * changes, in the caller's transaction. Events are matched by their user key (the hash of the
 * Sentry user's id or e-mail, error-event.ts), reports by their metadata naming an address.
 * Erasing keeps every count: a group's affected users keep one (new, unlinked) key per erased
 * key, events stay without their `user`, reports stay without their metadata.
 */
import { createHash } from 'node:crypto';
import { placeholders, type Queryable } from '../../db/database.ts';
import { newId } from '../../kernel/ids.ts';
import { compressPayload, decompressPayload } from './error-event.ts';

/** The user keys an event of this person carries (as userKeyOf in error-event.ts makes them). */
export function errorUserKeys(ids: readonly string[], emails: readonly string[]): string[] {
  const hash = (identity: string) => createHash('sha256').update(identity).digest('hex').slice(0, 32);
  return [...new Set([...ids.map((id) => hash(`id:${id}`)), ...emails.map((email) => hash(`email:${email}`))])];
}

export interface PersonErrorEvent {
  group_id: string;
  event_id: string;
  received_at: string;
  release: string | null;
  payload: unknown;
}

export interface PersonReport {
  id: string;
  kind: 'bug' | 'error';
  title: string;
  message: string;
  metadata: string | null;
  first_seen_at: string;
}

const GROUPS_OF_PROJECT = 'SELECT id FROM error_groups WHERE project_id = ?';

function metadataMatch(emails: readonly string[]) {
  return {
    sql: `(${emails.map(() => "LOWER(COALESCE(metadata, '')) LIKE ? ESCAPE '\\'").join(' OR ')})`,
    params: emails.map((email) => `%${email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
  };
}

/** The person's stored error events (newest first, at most `limit`) and their reports. */
export async function errorDataOfPerson(
  db: Queryable,
  projectId: string,
  userKeys: readonly string[],
  emails: readonly string[],
  limit: number,
): Promise<{ events: PersonErrorEvent[]; reports: PersonReport[] }> {
  const events =
    userKeys.length === 0
      ? []
      : (
          await db.all<{
            group_id: string;
            event_id: string;
            received_at: string;
            release: string | null;
            payload: string;
          }>(
            `SELECT group_id, event_id, received_at, release, payload FROM error_events
             WHERE group_id IN (${GROUPS_OF_PROJECT}) AND user_key IN (${placeholders(userKeys.length)})
             ORDER BY received_at DESC LIMIT ?`,
            [projectId, ...userKeys, limit],
          )
        ).map((row) => ({ ...row, payload: decompressPayload(row.payload) }));
  if (emails.length === 0) return { events, reports: [] };
  const match = metadataMatch(emails);
  const reports = await db.all<PersonReport>(
    `SELECT id, 'bug' AS kind, title, message, metadata, first_seen_at FROM bug_reports WHERE project_id = ? AND ${match.sql}
     UNION ALL
     SELECT id, 'error' AS kind, title, message, metadata, first_seen_at FROM error_reports WHERE project_id = ? AND ${match.sql}
     ORDER BY first_seen_at DESC LIMIT ?`,
    [projectId, ...match.params, projectId, ...match.params, limit],
  );
  return { events, reports };
}

export async function eraseErrorUser(
  tx: Queryable,
  projectId: string,
  userKeys: readonly string[],
  emails: readonly string[],
): Promise<{ events: number; reports: number }> {
  let events = 0;
  for (const key of userKeys) {
    const replacement = newId('erased');
    const rows = await tx.all<{ group_id: string; ordinal: number; payload: string }>(
      `SELECT group_id, ordinal, payload FROM error_events WHERE group_id IN (${GROUPS_OF_PROJECT}) AND user_key = ?`,
      [projectId, key],
    );
    for (const row of rows) {
      const event = decompressPayload(row.payload);
      delete event['user'];
      await tx.run('UPDATE error_events SET user_key = ?, payload = ? WHERE group_id = ? AND ordinal = ?', [
        replacement,
        compressPayload(event),
        row.group_id,
        row.ordinal,
      ]);
    }
    events += rows.length;
    await tx.run(
      `UPDATE error_group_users SET user_key = ? WHERE group_id IN (${GROUPS_OF_PROJECT}) AND user_key = ?`,
      [replacement, projectId, key],
    );
  }
  let reports = 0;
  if (emails.length > 0) {
    const match = metadataMatch(emails);
    reports += (
      await tx.run(`UPDATE bug_reports SET metadata = NULL WHERE project_id = ? AND ${match.sql}`, [
        projectId,
        ...match.params,
      ])
    ).changes;
    reports += (
      await tx.run(`UPDATE error_reports SET metadata = NULL WHERE project_id = ? AND ${match.sql}`, [
        projectId,
        ...match.params,
      ])
    ).changes;
  }
  return { events, reports };
}
