import type { ArtifactRow } from './store.ts';

export function presentArtifact(row: ArtifactRow) {
  return {
    id: row.id,
    release: row.release === '' ? null : row.release,
    dist: row.dist === '' ? null : row.dist,
    name: row.name,
    kind: row.kind,
    debugId: row.debug_id,
    sourceMappingUrl: row.source_map_url,
    size: Number(row.size),
    checksum: row.checksum,
    createdAt: row.created_at,
  };
}
