/** Projects and API keys as the management API shows them. */
import { isTrue } from '../../db/database.ts';
import { KEY_PREFIX } from '../../kernel/api-keys.ts';
import type { ProjectAccess } from '../../routing/management/access.ts';
import type { KeyRow } from './store-keys.ts';

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

export function presentApiKey(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    prefix: KEY_PREFIX[row.environment] + row.lookup,
    scopes: JSON.parse(row.scopes) as string[],
    publishable: isTrue(row.publishable),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}
