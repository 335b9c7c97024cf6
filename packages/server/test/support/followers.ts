/**
 * Board users and their follows for tests that need followers before the board's own pages make
 * them (sign-in, voting, commenting). Writes straight through the database and the notifications
 * store.
 */
import type { Database } from '../../src/db/database.ts';
import { newId, nowIso } from '../../src/kernel/ids.ts';
import { follow } from '../../src/resources/notifications/index.ts';

export interface TestBoardUser {
  id: string;
  email: string;
}

/** A board user of the project with the given address (lower-cased) and language. */
export async function createBoardUser(
  db: Database,
  projectId: string,
  options: { email?: string; locale?: string; name?: string } = {},
): Promise<TestBoardUser> {
  const id = newId('bu');
  const email = (options.email ?? `${id}@example.test`).toLowerCase();
  await db.run('INSERT INTO board_users (id, project_id, email, name, locale, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
    id,
    projectId,
    email,
    options.name ?? null,
    options.locale ?? 'en',
    nowIso(),
  ]);
  return { id, email };
}

/** A board user who follows each of the given ideas. */
export async function createFollower(
  db: Database,
  projectId: string,
  featureIds: string[],
  options: { email?: string; locale?: string } = {},
): Promise<TestBoardUser> {
  const user = await createBoardUser(db, projectId, options);
  for (const featureId of featureIds) await follow(db, featureId, user.id);
  return user;
}
