/**
 * A project's archive (issue 36): its rows of every table, as the full export writes them
 * (src/db/archive.ts), streamed to `out` page by page.
 */
import type { Writable } from 'node:stream';
import { exportArchive, type Manifest } from '../../db/archive.ts';
import type { Database } from '../../db/database.ts';
import { schemaVersion } from '../../db/migrate.ts';

export async function exportProject(db: Database, projectId: string, out: Writable): Promise<Manifest> {
  return exportArchive(db, out, await schemaVersion(db), { projectId });
}
