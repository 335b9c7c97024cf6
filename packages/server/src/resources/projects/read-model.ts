/** Projects as teams manage them. Creation goes through features/projects/store.ts. */
import type { Queryable, SqlValue } from '../../db/database.ts';
import type { ProjectAccess } from '../../management/access.ts';

export async function listProjectsOf(db: Queryable, accountId: string, teamId?: string): Promise<ProjectAccess[]> {
  const params: SqlValue[] = [accountId];
  let sql = `SELECT p.*, m.role AS role FROM projects p JOIN team_members m ON m.team_id = p.team_id
              WHERE m.account_id = ?`;
  if (teamId) {
    sql += ' AND p.team_id = ?';
    params.push(teamId);
  }
  return db.all<ProjectAccess>(`${sql} ORDER BY p.created_at, p.id`, params);
}

export async function slugTaken(db: Queryable, slug: string, exceptId = ''): Promise<boolean> {
  return (await db.get('SELECT 1 AS found FROM projects WHERE slug = ? AND id <> ?', [slug, exceptId])) !== undefined;
}

/** A slug from a name: lower-case ASCII letters and digits joined by dashes. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return slug || 'project';
}

export function presentProject(row: ProjectAccess) {
  return {
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    slug: row.slug,
    defaultLocale: row.default_locale,
    supportedLocales: JSON.parse(row.supported_locales) as string[],
    plan: row.plan,
    monthlyQuota: row.monthly_quota === null ? null : Number(row.monthly_quota),
    role: row.role,
    createdAt: row.created_at,
  };
}
