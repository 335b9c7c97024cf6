/** Tag rows to API shapes. */
import type { TagRow } from './store.ts';

export function presentTag(row: TagRow) {
  return { id: row.id, projectId: row.project_id, name: row.name, color: row.color, createdAt: row.created_at };
}
