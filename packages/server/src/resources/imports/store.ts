/**
 * The import_sources table: which feature, comment, changelog entry or person an item of another tool became, per
 * project and source (resources/imports). The only code that runs SQL on it.
 */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';

export type SourceKind = 'idea' | 'comment' | 'user' | 'entry';

/**
 * Every target a project's import from `source` already made of one kind, by source id: one read
 * per run instead of one per record (an import of 10,000 ideas read 15,000 rows one by one).
 */
export async function importedTargets(
  tx: Queryable,
  projectId: string,
  source: string,
  kind: SourceKind,
): Promise<Map<string, string>> {
  const rows = await tx.all<{ source_id: string; target_id: string }>(
    'SELECT source_id, target_id FROM import_sources WHERE project_id = ? AND source = ? AND kind = ?',
    [projectId, source, kind],
  );
  return new Map(rows.map((row) => [row.source_id, row.target_id]));
}

export interface RememberedImport {
  kind: SourceKind;
  sourceId: string;
  targetId: string;
}

/** Remembers several targets, up to 200 rows per statement (a second run updates them). */
export async function rememberImports(
  tx: Queryable,
  projectId: string,
  source: string,
  items: readonly RememberedImport[],
): Promise<void> {
  const at = nowIso();
  for (let start = 0; start < items.length; start += 200) {
    const chunk = items.slice(start, start + 200);
    await tx.run(
      `INSERT INTO import_sources (project_id, source, kind, source_id, target_id, imported_at) VALUES
       ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}
       ON CONFLICT (project_id, source, kind, source_id) DO UPDATE SET target_id = excluded.target_id, imported_at = excluded.imported_at`,
      chunk.flatMap((item) => [projectId, source, item.kind, item.sourceId, item.targetId, at]),
    );
  }
}
