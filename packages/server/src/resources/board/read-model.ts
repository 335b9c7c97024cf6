/** Reads of projects (owned by resources/projects) that the board joins to its settings. */
import type { Queryable } from '../../db/database.ts';
import type { BoardRow } from './store.ts';

export interface BoardProjectRow extends Partial<Omit<BoardRow, 'project_id'>> {
  id: string;
  slug: string;
  name: string;
}

/** A project by its slug, with its board's settings row when there is one. */
export async function findProjectForBoard(db: Queryable, slug: string): Promise<BoardProjectRow | undefined> {
  return db.get<BoardProjectRow>(
    `SELECT b.*, p.id, p.slug, p.name FROM projects p LEFT JOIN boards b ON b.project_id = p.id WHERE p.slug = ?`,
    [slug],
  );
}

/** The slug of the project whose board answers at this host. */
export async function slugForDomain(db: Queryable, host: string): Promise<string | undefined> {
  const row = await db.get<{ slug: string }>(
    'SELECT p.slug FROM boards b JOIN projects p ON p.id = b.project_id WHERE b.custom_domain = ? AND b.enabled = 1',
    [host],
  );
  return row?.slug;
}
