/**
 * What a person did in their project (the People page): their ideas (submitted on the board or
 * with their contact e-mail), the ideas they voted for and their comments. Reads the features
 * resource's tables by the person's aliases.
 */
import type { Queryable } from '../../db/database.ts';
import { placeholders } from '../../db/database.ts';

export interface PersonIdeaRow {
  id: string;
  title: string;
  status: string;
  vote_count: number;
  created_at: string;
}

export interface PersonCommentRow {
  id: string;
  feature_id: string;
  feature_title: string;
  body: string;
  created_at: string;
}

const LIMIT = 100;

async function aliases(db: Queryable, personId: string) {
  const rows = await db.all<{ kind: string; value: string }>(
    'SELECT kind, value FROM person_aliases WHERE person_id = ?',
    [personId],
  );
  const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.value);
  return { voterIds: of('voter_id'), boardUsers: of('board_user'), emails: of('email') };
}

export async function activityOfPerson(db: Queryable, projectId: string, personId: string) {
  const { voterIds, boardUsers, emails } = await aliases(db, personId);
  const ideaWhere: string[] = [];
  const ideaParams: string[] = [];
  if (boardUsers.length > 0) {
    ideaWhere.push(`board_user_id IN (${placeholders(boardUsers.length)})`);
    ideaParams.push(...boardUsers);
  }
  if (emails.length > 0) {
    ideaWhere.push(`LOWER(contact_email) IN (${placeholders(emails.length)})`);
    ideaParams.push(...emails);
  }
  const ideas =
    ideaWhere.length === 0
      ? []
      : await db.all<PersonIdeaRow>(
          `SELECT id, title, status, vote_count, created_at FROM features
           WHERE project_id = ? AND (${ideaWhere.join(' OR ')}) ORDER BY created_at DESC, id DESC LIMIT ?`,
          [projectId, ...ideaParams, LIMIT],
        );
  const votes =
    voterIds.length === 0
      ? []
      : await db.all<PersonIdeaRow & { voted_at: string }>(
          `SELECT f.id, f.title, f.status, f.vote_count, f.created_at, v.created_at AS voted_at
           FROM votes v JOIN features f ON f.id = v.feature_id
           WHERE f.project_id = ? AND v.voter_id IN (${placeholders(voterIds.length)})
           ORDER BY v.created_at DESC, f.id DESC LIMIT ?`,
          [projectId, ...voterIds, LIMIT],
        );
  const comments =
    boardUsers.length === 0
      ? []
      : await db.all<PersonCommentRow>(
          `SELECT c.id, c.feature_id, f.title AS feature_title, c.body, c.created_at
           FROM comments c JOIN features f ON f.id = c.feature_id
           WHERE f.project_id = ? AND c.board_user_id IN (${placeholders(boardUsers.length)})
           ORDER BY c.created_at DESC, c.id DESC LIMIT ?`,
          [projectId, ...boardUsers, LIMIT],
        );
  return { ideas, votes, comments };
}

/**
 * Everything a person wrote and voted for (issue 36's export, GDPR article 15): every idea, vote
 * and comment, not capped as the People page is (one person holds few).
 */
export async function allActivityOfPerson(
  db: Queryable,
  projectId: string,
  keys: { voterIds: readonly string[]; boardUserIds: readonly string[]; emails: readonly string[] },
) {
  const ideaWhere: string[] = [];
  const ideaParams: string[] = [];
  if (keys.boardUserIds.length > 0) {
    ideaWhere.push(`board_user_id IN (${placeholders(keys.boardUserIds.length)})`);
    ideaParams.push(...keys.boardUserIds);
  }
  if (keys.emails.length > 0) {
    ideaWhere.push(`LOWER(contact_email) IN (${placeholders(keys.emails.length)})`);
    ideaParams.push(...keys.emails);
  }
  const ideas =
    ideaWhere.length === 0
      ? []
      : await db.all<{
          id: string;
          title: string;
          description: string;
          type: string;
          status: string;
          contact_email: string | null;
          vote_count: number;
          comment_count: number;
          created_at: string;
        }>(
          `SELECT id, title, description, type, status, contact_email, vote_count, comment_count, created_at FROM features
           WHERE project_id = ? AND (${ideaWhere.join(' OR ')}) ORDER BY created_at, id`,
          [projectId, ...ideaParams],
        );
  const votes =
    keys.voterIds.length === 0
      ? []
      : await db.all<{ feature_id: string; title: string; voter_id: string; created_at: string }>(
          `SELECT v.feature_id, f.title, v.voter_id, v.created_at FROM votes v JOIN features f ON f.id = v.feature_id
           WHERE f.project_id = ? AND v.voter_id IN (${placeholders(keys.voterIds.length)}) ORDER BY v.created_at, f.id`,
          [projectId, ...keys.voterIds],
        );
  const comments =
    keys.boardUserIds.length === 0
      ? []
      : await db.all<{ id: string; feature_id: string; body: string; author_name: string | null; created_at: string }>(
          `SELECT c.id, c.feature_id, c.body, c.author_name, c.created_at FROM comments c JOIN features f ON f.id = c.feature_id
           WHERE f.project_id = ? AND c.board_user_id IN (${placeholders(keys.boardUserIds.length)}) ORDER BY c.created_at, c.id`,
          [projectId, ...keys.boardUserIds],
        );
  const boardUsers =
    keys.boardUserIds.length === 0
      ? []
      : await db.all<{ id: string; email: string; name: string | null; locale: string; created_at: string }>(
          `SELECT id, email, name, locale, created_at FROM board_users
           WHERE project_id = ? AND id IN (${placeholders(keys.boardUserIds.length)}) ORDER BY id`,
          [projectId, ...keys.boardUserIds],
        );
  return { ideas, votes, comments, boardUsers };
}
