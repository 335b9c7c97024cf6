/**
 * PLACEHOLDER until the search branch lands: the board's idea list without full-text search.
 */
import type { Queryable, SqlValue } from '../../db/database.ts';

export interface BoardIdeaQuery {
  q?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  tagId?: string | undefined;
  sort: 'top' | 'new' | 'trending';
  limit: number;
  offset: number;
}

export interface BoardIdeaRow {
  id: string;
  title: string;
  description: string;
  status: string;
  type: string;
  vote_count: number;
  comment_count: number;
  created_at: string;
}

export async function listBoardIdeas(
  db: Queryable,
  projectId: string,
  query: BoardIdeaQuery,
): Promise<{ rows: BoardIdeaRow[]; total: number }> {
  const where = ['project_id = ?', "environment = 'live'", 'internal = 0', 'held = 0'];
  const params: SqlValue[] = [projectId];
  if (query.status) {
    where.push('status = ?');
    params.push(query.status);
  }
  if (query.type) {
    where.push('type = ?');
    params.push(query.type);
  }
  const order = query.sort === 'new' ? 'created_at DESC, id DESC' : 'vote_count DESC, created_at DESC, id DESC';
  const rows = await db.all<BoardIdeaRow>(
    `SELECT id, title, description, status, type, vote_count, comment_count, created_at FROM features
      WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`,
    [...params, query.limit, query.offset],
  );
  const count = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM features WHERE ${where.join(' AND ')}`, params);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function suggestSimilarIdeas(
  _db: Queryable,
  _projectId: string,
  _text: string,
  _limit: number,
): Promise<BoardIdeaRow[]> {
  return [];
}
