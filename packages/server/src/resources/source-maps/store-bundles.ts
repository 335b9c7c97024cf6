/**
 * The only code that runs SQL on `source_map_chunks` and `source_map_bundles`: what sentry-cli's
 * chunk upload leaves between its requests, and the bundles already assembled.
 */
import { placeholders, type Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';

/** Chunks not assembled within this time are removed by the next assemble. */
export const CHUNK_TTL_MS = 24 * 60 * 60 * 1000;

export async function putChunk(db: Queryable, accountId: string, checksum: string, content: Uint8Array): Promise<void> {
  await db.run(
    `INSERT INTO source_map_chunks (account_id, checksum, content, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, checksum) DO NOTHING`,
    [accountId, checksum, content, nowIso()],
  );
}

/** Which of `checksums` the account has uploaded. */
export async function presentChunks(db: Queryable, accountId: string, checksums: string[]): Promise<Set<string>> {
  if (checksums.length === 0) return new Set();
  const rows = await db.all<{ checksum: string }>(
    `SELECT checksum FROM source_map_chunks WHERE account_id = ? AND checksum IN (${placeholders(checksums.length)})`,
    [accountId, ...checksums],
  );
  return new Set(rows.map((row) => row.checksum));
}

export async function chunkContents(
  db: Queryable,
  accountId: string,
  checksums: string[],
): Promise<Map<string, Uint8Array>> {
  if (checksums.length === 0) return new Map();
  const rows = await db.all<{ checksum: string; content: Uint8Array }>(
    `SELECT checksum, content FROM source_map_chunks WHERE account_id = ? AND checksum IN (${placeholders(checksums.length)})`,
    [accountId, ...checksums],
  );
  return new Map(rows.map((row) => [row.checksum, row.content]));
}

/** Removes the account's used chunks, and anyone's chunks older than CHUNK_TTL_MS. */
export async function dropChunks(db: Queryable, accountId: string, checksums: string[]): Promise<void> {
  if (checksums.length > 0) {
    await db.run(
      `DELETE FROM source_map_chunks WHERE account_id = ? AND checksum IN (${placeholders(checksums.length)})`,
      [accountId, ...checksums],
    );
  }
  await db.run('DELETE FROM source_map_chunks WHERE created_at < ?', [
    new Date(Date.now() - CHUNK_TTL_MS).toISOString(),
  ]);
}

export async function bundleAssembled(db: Queryable, projectId: string, checksum: string): Promise<boolean> {
  const rows = await db.all('SELECT 1 AS found FROM source_map_bundles WHERE project_id = ? AND checksum = ?', [
    projectId,
    checksum,
  ]);
  return rows.length > 0;
}

export async function markBundleAssembled(db: Queryable, projectId: string, checksum: string): Promise<void> {
  await db.run(
    `INSERT INTO source_map_bundles (project_id, checksum, created_at) VALUES (?, ?, ?)
     ON CONFLICT (project_id, checksum) DO NOTHING`,
    [projectId, checksum, nowIso()],
  );
}
