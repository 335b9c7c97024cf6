/**
 * The import_sources table: which feature, comment or person an item of another tool became, per
 * project and source (resources/imports). The only code that runs SQL on it.
 */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';

export type SourceKind = 'idea' | 'comment' | 'user';

export async function importedTarget(
  tx: Queryable,
  projectId: string,
  source: string,
  kind: SourceKind,
  sourceId: string,
): Promise<string | undefined> {
  const row = await tx.get<{ target_id: string }>(
    'SELECT target_id FROM import_sources WHERE project_id = ? AND source = ? AND kind = ? AND source_id = ?',
    [projectId, source, kind, sourceId],
  );
  return row?.target_id;
}

export async function rememberImport(
  tx: Queryable,
  projectId: string,
  source: string,
  kind: SourceKind,
  sourceId: string,
  targetId: string,
): Promise<void> {
  await tx.run(
    `INSERT INTO import_sources (project_id, source, kind, source_id, target_id, imported_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, source, kind, source_id) DO UPDATE SET target_id = excluded.target_id, imported_at = excluded.imported_at`,
    [projectId, source, kind, sourceId, targetId, nowIso()],
  );
}
