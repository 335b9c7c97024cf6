/**
 * The store of the board's people: board_users, their sessions, and the e-mailed sign-in links.
 * Session and link tokens are kept only as their SHA-256 (kernel/secrets.ts).
 */
import type { Database, Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { hashSecret, newSecret } from '../../kernel/secrets.ts';
import { identifyBoardUser, type PersonFacts } from '../people/index.ts';

export interface BoardUserRow {
  id: string;
  project_id: string;
  email: string;
  name: string | null;
  external_id: string | null;
  locale: string;
  /** 1: marked as spam by the team; what this person posts next is held. */
  spam: number;
  created_at: string;
}

export const SESSION_DAYS = 30;
export const LINK_MINUTES = 30;

/**
 * The user with this address (made on first sign-in), with name and language brought up to date
 * when given. An SSO sign-in also binds the host app's `sub`. The user is a person of the project
 * (resources/people), filled with what the sign-in tells (`profile`: SSO avatar and company).
 */
export async function upsertBoardUser(
  db: Database,
  projectId: string,
  input: { email: string; name?: string | undefined; locale: string; externalId?: string | undefined },
  profile: Pick<PersonFacts, 'avatarUrl' | 'company'> = {},
): Promise<BoardUserRow> {
  const email = input.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    await tx.run(
      `INSERT INTO board_users (id, project_id, email, name, external_id, locale, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, email) DO NOTHING`,
      [newId('bu'), projectId, email, input.name ?? null, null, input.locale, nowIso()],
    );
    const user = (await tx.get<BoardUserRow>('SELECT * FROM board_users WHERE project_id = ? AND email = ?', [
      projectId,
      email,
    ]))!;
    if (input.externalId !== undefined && user.external_id !== input.externalId) {
      // The app's `sub` moves to this address: an account that changed its e-mail keeps one board user.
      await tx.run('UPDATE board_users SET external_id = NULL WHERE project_id = ? AND external_id = ?', [
        projectId,
        input.externalId,
      ]);
      await tx.run('UPDATE board_users SET external_id = ? WHERE id = ?', [input.externalId, user.id]);
    }
    if ((input.name && input.name !== user.name) || input.locale !== user.locale) {
      await tx.run('UPDATE board_users SET name = ?, locale = ? WHERE id = ?', [
        input.name || user.name,
        input.locale,
        user.id,
      ]);
    }
    const current = (await tx.get<BoardUserRow>('SELECT * FROM board_users WHERE id = ?', [user.id]))!;
    await identifyBoardUser(
      tx,
      projectId,
      { id: current.id, email: current.email, name: current.name, externalId: current.external_id ?? undefined },
      profile,
    );
    return current;
  });
}

export async function createBoardSession(
  db: Queryable,
  user: BoardUserRow,
): Promise<{ token: string; expiresAt: string }> {
  const token = newSecret();
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000).toISOString();
  await db.run(
    'INSERT INTO board_sessions (token_hash, user_id, project_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    [hashSecret(token), user.id, user.project_id, nowIso(), expiresAt],
  );
  return { token, expiresAt };
}

/** The signed-in user of this project for a session token, if the session is live. */
export async function findSessionUser(
  db: Queryable,
  projectId: string,
  token: string,
): Promise<BoardUserRow | undefined> {
  return db.get<BoardUserRow>(
    `SELECT u.* FROM board_sessions s JOIN board_users u ON u.id = s.user_id
     WHERE s.token_hash = ? AND s.project_id = ? AND s.expires_at > ?`,
    [hashSecret(token), projectId, nowIso()],
  );
}

export async function endBoardSession(db: Queryable, token: string): Promise<void> {
  await db.run('DELETE FROM board_sessions WHERE token_hash = ?', [hashSecret(token)]);
}

/** A one-use sign-in link's token for this address. */
export async function createSignInLink(
  db: Queryable,
  projectId: string,
  input: { email: string; name: string | undefined; locale: string; returnTo: string },
): Promise<string> {
  const token = newSecret();
  await db.run(
    `INSERT INTO board_sign_in_links (token_hash, project_id, email, name, locale, return_to, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      hashSecret(token),
      projectId,
      input.email.trim().toLowerCase(),
      input.name ?? null,
      input.locale,
      input.returnTo,
      nowIso(),
      new Date(Date.now() + LINK_MINUTES * 60_000).toISOString(),
    ],
  );
  return token;
}

/**
 * Uses a sign-in link: marks it used (once, even with two clicks at the same moment) and answers
 * its address, language and return path; undefined when unknown, used, expired or another board's.
 */
export async function useSignInLink(
  db: Queryable,
  projectId: string,
  token: string,
): Promise<{ email: string; name: string | null; locale: string; returnTo: string | null } | undefined> {
  const now = nowIso();
  const [row] = await db.all<{ email: string; name: string | null; locale: string; return_to: string | null }>(
    `UPDATE board_sign_in_links SET used_at = ?
     WHERE token_hash = ? AND project_id = ? AND used_at IS NULL AND expires_at > ?
     RETURNING email, name, locale, return_to`,
    [now, hashSecret(token), projectId, now],
  );
  return row ? { email: row.email, name: row.name, locale: row.locale, returnTo: row.return_to } : undefined;
}

/**
 * Marks a board user of the project as spam (or clears the mark): while marked, their new ideas
 * and comments are held for moderation. False when the project has no such user.
 */
export async function setBoardUserSpam(
  db: Queryable,
  projectId: string,
  userId: string,
  spam: boolean,
): Promise<boolean> {
  const { changes } = await db.run('UPDATE board_users SET spam = ? WHERE id = ? AND project_id = ?', [
    spam ? 1 : 0,
    userId,
    projectId,
  ]);
  return changes === 1;
}

/** The board user of this project with this address (read only: the widget's reads). */
export async function findBoardUserByEmail(
  db: Queryable,
  projectId: string,
  email: string,
): Promise<BoardUserRow | undefined> {
  return db.get<BoardUserRow>('SELECT * FROM board_users WHERE project_id = ? AND email = ?', [
    projectId,
    email.trim().toLowerCase(),
  ]);
}

/**
 * Erasing a person (issue 36): their board users go with their sessions (and, through the
 * foreign keys, their follows and queued e-mails, which the notifications resource removes first
 * by itself), and every sign-in link sent to one of their addresses. In the caller's transaction.
 */
export async function eraseBoardUsers(
  tx: Queryable,
  projectId: string,
  userIds: readonly string[],
  emails: readonly string[],
): Promise<number> {
  if (emails.length > 0) {
    await tx.run(
      `DELETE FROM board_sign_in_links WHERE project_id = ? AND LOWER(email) IN (${emails.map(() => '?').join(', ')})`,
      [projectId, ...emails],
    );
  }
  if (userIds.length === 0) return 0;
  const list = userIds.map(() => '?').join(', ');
  await tx.run(`DELETE FROM board_sessions WHERE project_id = ? AND user_id IN (${list})`, [projectId, ...userIds]);
  const { changes } = await tx.run(`DELETE FROM board_users WHERE project_id = ? AND id IN (${list})`, [
    projectId,
    ...userIds,
  ]);
  return changes;
}
