/** The public GET /site-config body: what is live at a moment, and until when it stays so. */
import { createHash } from 'node:crypto';
import { isTrue, type Queryable } from '../../db/database.ts';
import {
  readPublicConfigRows,
  type EnvironmentRow,
  type FlagRow,
  type MaintenanceRow,
  type MessageRow,
} from './store.ts';

export interface SiteConfigSnapshot {
  body: ReturnType<typeof shape>;
  /** When a scheduled message starts or ends, the snapshot is stale; undefined: never. */
  staleAt: number | undefined;
}

function shape(
  project: { id: string; debug_mode: number; config_updated_at: string },
  maintenance: MaintenanceRow,
  messages: MessageRow[],
  flags: FlagRow[],
  environments: EnvironmentRow[],
) {
  const whitelist = JSON.parse(maintenance.whitelist ?? '{}') as Record<string, string[] | undefined>;
  return {
    maintenance: {
      enabled: isTrue(maintenance.enabled),
      type: maintenance.type ?? 'full',
      customHtml: maintenance.custom_html ?? null,
      expectedRestoration: maintenance.expected_restoration ?? null,
      showStatusLink: isTrue(maintenance.show_status_link),
      statusPageUrl: maintenance.status_page_url ?? null,
      whitelist: {
        localStorageKeys: whitelist['localStorageKeys'] ?? [],
        emails: whitelist['emails'] ?? [],
        ips: whitelist['ips'] ?? [],
      },
    },
    messages: messages.map((m) => ({
      id: m.id,
      projectId: m.project_id,
      type: m.type,
      text: m.text,
      isActive: isTrue(m.is_active),
      priority: Number(m.priority),
      startsAt: m.starts_at,
      expiresAt: m.expires_at,
    })),
    featureFlags: flags.map((f) => ({ id: f.id, projectId: f.project_id, key: f.key, enabled: isTrue(f.enabled) })),
    debugMode: isTrue(project.debug_mode),
    environments: environments.map((e) => ({
      id: e.id,
      name: e.name,
      slug: e.slug,
      url: e.url,
      color: e.color,
      debugEnabled: isTrue(e.debug_enabled),
    })),
    lastUpdated: project.config_updated_at,
  };
}

/** Reads a project's whole site configuration as the public API shows it at `now`. */
export async function readSiteConfig(
  db: Queryable,
  project: { id: string; debug_mode: number; config_updated_at: string },
  now: Date,
): Promise<SiteConfigSnapshot> {
  const at = now.toISOString();
  const { maintenance, messages, flags, environments } = await readPublicConfigRows(db, project.id);
  const active = messages.filter(
    (m) => (m.starts_at === null || m.starts_at <= at) && (m.expires_at === null || m.expires_at > at),
  );
  const changes = messages
    .flatMap((m) => [m.starts_at, m.expires_at])
    .filter((t): t is string => t !== null && t > at)
    .map((t) => Date.parse(t));
  return {
    body: shape(project, maintenance, active, flags, environments),
    staleAt: changes.length > 0 ? Math.min(...changes) : undefined,
  };
}

/** The public answer as sent: the body's exact JSON text and the content hash its ETag carries. */
export interface RenderedSiteConfig {
  snapshot: SiteConfigSnapshot;
  json: string;
  hash: string;
}

/**
 * Renders the public GET /site-config answer at `now`. The public route and the management
 * preview both answer with this, so the dashboard shows exactly what apps receive.
 */
export async function renderSiteConfig(
  db: Queryable,
  project: { id: string; debug_mode: number; config_updated_at: string },
  now: Date,
): Promise<RenderedSiteConfig> {
  const snapshot = await readSiteConfig(db, project, now);
  const json = JSON.stringify(snapshot.body);
  return { snapshot, json, hash: createHash('sha256').update(json).digest('hex').slice(0, 32) };
}
