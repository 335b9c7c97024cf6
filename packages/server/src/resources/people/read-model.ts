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
