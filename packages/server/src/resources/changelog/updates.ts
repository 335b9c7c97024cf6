/**
 * "What's new" in the host app (issue 35), the use cases of the public /updates routes: the
 * newest published entries with the reader's unread count, and marking them seen. A reader
 * identified by the host app's signed token (the board's SSO format) has a marker kept here, the
 * same in every browser; an anonymous one sends the marker its browser keeps (`since`).
 */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { boardUrl, readBoard, verifyIdentityToken } from '../board/index.ts';
import { presentUpdate } from './presenter.ts';
import { markSeenThrough, readSeenThrough } from './readers-store.ts';
import { countPublishedAfter, listNewestPublished, newestPublishedAt } from './updates-read-model.ts';

/** Unread counts stop here: a badge shows "99+" long before. */
export const UNREAD_CAP = 100;

export interface UpdatesDeps {
  db: Database;
  config: Pick<Config, 'secretKey' | 'publicUrl'>;
}

export interface UpdatesProject {
  id: string;
  slug: string;
}

/**
 * A time as the database keeps publication times (ISO 8601 UTC with milliseconds). The schema
 * checked the format; a time it lets through that no clock has (a leap second) is a 400.
 */
function iso(time: string, field: string): string {
  const parsed = Date.parse(time);
  if (Number.isNaN(parsed)) {
    throw new BadRequestError(`Invalid field ${field}: not a time`, [{ field, message: 'not a time' }]);
  }
  return new Date(parsed).toISOString();
}

export async function listUpdates(
  { db, config }: UpdatesDeps,
  project: UpdatesProject,
  query: { since?: string | undefined; limit: number; userToken?: string | undefined },
) {
  const subject = query.userToken
    ? (await verifyIdentityToken(db, config, project.id, query.userToken)).externalId
    : undefined;
  const seenThrough =
    subject === undefined
      ? query.since
        ? iso(query.since, 'since')
        : null
      : await readSeenThrough(db, project.id, subject);
  const [rows, unread, board] = [
    await listNewestPublished(db, project.id, query.limit),
    await countPublishedAfter(db, project.id, seenThrough, UNREAD_CAP),
    boardUrl(await readBoard(db, project.id), config.publicUrl, project.slug).replace(/\/+$/, ''),
  ];
  return {
    entries: rows.map((row) => presentUpdate(row, board, seenThrough)),
    unread,
    seenThrough,
    identified: subject !== undefined,
  };
}

/**
 * Marks the identified reader's changelog seen through `through` (default: the newest entry), never
 * past the newest published entry, so a clock ahead cannot hide entries published later.
 */
export async function markUpdatesSeen(
  { db, config }: UpdatesDeps,
  project: UpdatesProject,
  userToken: string,
  through?: string | undefined,
): Promise<{ seenThrough: string | null }> {
  const subject = (await verifyIdentityToken(db, config, project.id, userToken)).externalId;
  const newest = await newestPublishedAt(db, project.id);
  if (newest === null) return { seenThrough: await readSeenThrough(db, project.id, subject) };
  const wanted = through === undefined ? newest : iso(through, 'through');
  // ISO times in UTC order as text: the earlier of the two.
  const [earlier] = [wanted, newest].sort();
  return { seenThrough: await markSeenThrough(db, project.id, subject, earlier!) };
}
