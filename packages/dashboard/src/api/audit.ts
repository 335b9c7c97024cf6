/** Types of the audit log screen, from the generated management API types. */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type AuditEntry = Json<paths['/projects/{projectId}/audit']['get']['responses'][200]>['entries'][number];

export const auditKey = (projectId: string) => ['project', projectId, 'audit'] as const;

/** The API's export of the same filters, as a link the browser downloads with its session cookie. */
export function exportUrl(projectId: string, format: 'csv' | 'jsonl', filters: Record<string, string | undefined>) {
  const query = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return `/api/v1/projects/${encodeURIComponent(projectId)}/audit/export?${query}`;
}
