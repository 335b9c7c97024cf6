/**
 * What notifications read of other resources' tables: the idea (features: title, visibility),
 * the recipient (board_users: address, language), the board's address and name (projects: slug
 * and name, boards: title). Never writes.
 */
import type { Queryable } from '../../db/database.ts';

export interface NoticeFeature {
  projectId: string;
  title: string;
  status: string;
  /** The official response given with the latest status change. */
  response: string | null;
  /** Not internal and not held for moderation: an idea a follower may hear about. */
  public: boolean;
}

export async function featureForNotice(db: Queryable, featureId: string): Promise<NoticeFeature | undefined> {
  const [row] = await db.all<{
    project_id: string;
    title: string;
    status: string;
    status_response: string | null;
    internal: number;
    held: number;
  }>('SELECT project_id, title, status, status_response, internal, held FROM features WHERE id = ?', [featureId]);
  if (!row) return undefined;
  return {
    projectId: row.project_id,
    title: row.title,
    status: row.status,
    response: row.status_response,
    public: Number(row.internal) === 0 && Number(row.held) === 0,
  };
}

export interface Recipient {
  email: string;
  locale: string;
  slug: string;
  /** The board's title, or the project's name when the board has none. */
  boardName: string;
  /** The idea is still there and public (not internal, not held). */
  featurePublic: boolean;
}

/** The recipient of a queued message as things are now; undefined when the user or project is gone. */
export async function recipientOf(
  db: Queryable,
  message: { project_id: string; user_id: string; feature_id: string | null },
): Promise<Recipient | undefined> {
  const [row] = await db.all<{
    email: string;
    locale: string;
    slug: string;
    name: string;
    board_title: string | null;
    internal: number | null;
    held: number | null;
  }>(
    `SELECT u.email, u.locale, p.slug, p.name, b.title AS board_title, f.internal, f.held
       FROM board_users u
       JOIN projects p ON p.id = u.project_id
       LEFT JOIN boards b ON b.project_id = p.id
       LEFT JOIN features f ON f.id = ? AND f.project_id = p.id
      WHERE u.id = ? AND u.project_id = ?`,
    [message.feature_id, message.user_id, message.project_id],
  );
  if (!row) return undefined;
  return {
    email: row.email,
    locale: row.locale,
    slug: row.slug,
    boardName: row.board_title || row.name,
    featurePublic: row.internal !== null && Number(row.internal) === 0 && Number(row.held) === 0,
  };
}

/** The project whose board lives at /b/<slug>. */
export async function projectIdBySlug(db: Queryable, slug: string): Promise<string | undefined> {
  const [row] = await db.all<{ id: string }>('SELECT id FROM projects WHERE slug = ?', [slug]);
  return row?.id;
}
