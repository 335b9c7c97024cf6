/**
 * The store of `boards`: a project's public board settings. No row means the team never touched
 * them: the board is off (the demo project's is turned on by the seed).
 */
import { bool, type Queryable } from '../../db/database.ts';
import { Assignments } from '../../db/assignments.ts';
import { nowIso } from '../../kernel/ids.ts';
import { FILTER_STATUSES } from '../features/index.ts';

export type RoadmapStatus = (typeof FILTER_STATUSES)[number];
/** One column of the board's roadmap: a public status, with the team's label (null: the status's own). */
export interface RoadmapColumn {
  status: RoadmapStatus;
  label: string | null;
}
/** Every public status but Declined, in the workflow's order. */
export const DEFAULT_ROADMAP_COLUMNS: readonly RoadmapColumn[] = FILTER_STATUSES.filter(
  (status) => status !== 'declined',
).map((status) => ({ status, label: null }));

function roadmapColumnsOf(text: string | null | undefined): RoadmapColumn[] {
  if (!text) return [...DEFAULT_ROADMAP_COLUMNS];
  try {
    const parsed = JSON.parse(text) as RoadmapColumn[];
    const valid = parsed.filter((column) => (FILTER_STATUSES as readonly string[]).includes(column.status));
    return valid.length > 0 ? valid : [...DEFAULT_ROADMAP_COLUMNS];
  } catch {
    return [...DEFAULT_ROADMAP_COLUMNS];
  }
}

export interface BoardRow {
  project_id: string;
  enabled: number;
  private: number;
  title: string | null;
  logo_url: string | null;
  accent_color: string | null;
  custom_domain: string | null;
  anonymous_votes: number;
  moderation: number;
  ship_on_publish: number;
  roadmap_columns: string | null;
  sso_secret_id: string | null;
  sso_secret_hint: string | null;
  updated_at: string;
}

/** A board as the pages and the management API use it. */
export interface BoardSettings {
  projectId: string;
  enabled: boolean;
  private: boolean;
  title: string | null;
  logoUrl: string | null;
  accentColor: string | null;
  customDomain: string | null;
  anonymousVotes: boolean;
  moderation: boolean;
  /** Publishing a changelog entry moves the ideas it links to done (default on). */
  shipOnPublish: boolean;
  /** The board roadmap's columns, in order. */
  roadmapColumns: RoadmapColumn[];
  ssoSecretId: string | null;
  ssoSecretHint: string | null;
}

export type BoardChanges = Partial<
  Pick<
    BoardSettings,
    | 'enabled'
    | 'private'
    | 'title'
    | 'logoUrl'
    | 'accentColor'
    | 'customDomain'
    | 'anonymousVotes'
    | 'moderation'
    | 'shipOnPublish'
  >
> & { roadmapColumns?: RoadmapColumn[] | null | undefined };

/** Settings from a boards row (or the columns of one joined to its project); no row: all off. */
export function settingsOfRow(projectId: string, row: Partial<BoardRow> | undefined): BoardSettings {
  return {
    projectId,
    enabled: row?.enabled === 1,
    private: row?.private === 1,
    title: row?.title ?? null,
    logoUrl: row?.logo_url ?? null,
    accentColor: row?.accent_color ?? null,
    customDomain: row?.custom_domain ?? null,
    anonymousVotes: row?.anonymous_votes === 1,
    moderation: row?.moderation === 1,
    shipOnPublish:
      row?.ship_on_publish === undefined || row.ship_on_publish === null || Number(row.ship_on_publish) === 1,
    roadmapColumns: roadmapColumnsOf(row?.roadmap_columns),
    ssoSecretId: row?.sso_secret_id ?? null,
    ssoSecretHint: row?.sso_secret_hint ?? null,
  };
}

export async function readBoard(db: Queryable, projectId: string): Promise<BoardSettings> {
  return settingsOfRow(projectId, await db.get<BoardRow>('SELECT * FROM boards WHERE project_id = ?', [projectId]));
}

/** Whether the team (or the seed) ever wrote the project's board settings. */
export async function boardExists(db: Queryable, projectId: string): Promise<boolean> {
  return (await db.get('SELECT 1 AS found FROM boards WHERE project_id = ?', [projectId])) !== undefined;
}

/** Whether another project's board already answers at this host. */
export async function domainTaken(db: Queryable, host: string, projectId: string): Promise<boolean> {
  const row = await db.get('SELECT 1 AS found FROM boards WHERE custom_domain = ? AND project_id <> ?', [
    host,
    projectId,
  ]);
  return row !== undefined;
}

export async function updateBoard(tx: Queryable, projectId: string, changes: BoardChanges): Promise<BoardSettings> {
  const now = nowIso();
  await tx.run('INSERT INTO boards (project_id, updated_at) VALUES (?, ?) ON CONFLICT (project_id) DO NOTHING', [
    projectId,
    now,
  ]);
  const columns = new Assignments();
  columns.set('enabled', changes.enabled === undefined ? undefined : bool(changes.enabled));
  columns.set('private', changes.private === undefined ? undefined : bool(changes.private));
  columns.set('title', changes.title);
  columns.set('logo_url', changes.logoUrl);
  columns.set('accent_color', changes.accentColor);
  columns.set(
    'custom_domain',
    changes.customDomain === undefined ? undefined : (changes.customDomain?.toLowerCase() ?? null),
  );
  columns.set('anonymous_votes', changes.anonymousVotes === undefined ? undefined : bool(changes.anonymousVotes));
  columns.set('moderation', changes.moderation === undefined ? undefined : bool(changes.moderation));
  columns.set(
    'roadmap_columns',
    changes.roadmapColumns === undefined
      ? undefined
      : changes.roadmapColumns === null
        ? null
        : JSON.stringify(changes.roadmapColumns),
  );
  columns.set('ship_on_publish', changes.shipOnPublish === undefined ? undefined : bool(changes.shipOnPublish));
  columns.set('updated_at', now);
  await tx.run(`UPDATE boards SET ${columns.sql} WHERE project_id = ?`, [...columns.params, projectId]);
  return readBoard(tx, projectId);
}

/** Records a new SSO secret generation (its id and hint); the secret itself is derived, never stored. */
export async function setSsoSecret(tx: Queryable, projectId: string, secretId: string, hint: string): Promise<void> {
  await tx.run('INSERT INTO boards (project_id, updated_at) VALUES (?, ?) ON CONFLICT (project_id) DO NOTHING', [
    projectId,
    nowIso(),
  ]);
  await tx.run('UPDATE boards SET sso_secret_id = ?, sso_secret_hint = ?, updated_at = ? WHERE project_id = ?', [
    secretId,
    hint,
    nowIso(),
    projectId,
  ]);
}
