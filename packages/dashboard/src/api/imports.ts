/**
 * Imports (issue 36): the file goes to POST /projects/:id/imports as the one file of a
 * multipart/form-data form (the browser streams it and names it; the options stay in the query
 * string), so this call uses fetch itself rather than the JSON client.
 */
import { ApiError, type ApiErrorBody } from './client.ts';
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type ImportReport = Json<paths['/projects/{projectId}/imports']['post']['responses'][200]>;
export type ImportQuery = NonNullable<paths['/projects/{projectId}/imports']['post']['parameters']['query']>;
export type ImportSource = ImportQuery['source'];
export type StatusTarget = ImportReport['statuses'][number]['to'];

export const SOURCES: readonly { value: ImportSource; label: string }[] = [
  { value: 'canny', label: 'Canny: API dump (JSON, or zip of boards/users/posts/votes/comments/entries.json)' },
  { value: 'canny-csv', label: 'Canny: posts CSV export' },
  { value: 'uservoice', label: 'UserVoice: CSV export (or zip with comments CSV)' },
  { value: 'featurebase', label: 'Featurebase: posts JSON or CSV' },
  { value: 'fider', label: 'Fider: backup zip' },
  { value: 'csv', label: 'Any CSV, with a column mapping' },
];

export const STATUS_TARGETS: readonly StatusTarget[] = [
  'new',
  'open',
  'planned',
  'in-progress',
  'in-review',
  'accepted',
  'done',
  'declined',
  'skip',
];

export async function runImport(projectId: string, file: File, query: ImportQuery): Promise<ImportReport> {
  const url = new URL(`/api/v1/projects/${encodeURIComponent(projectId)}/imports`, window.location.origin);
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    // No content-type of our own: fetch sets multipart/form-data with the form's boundary.
    response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'X-Requested-With': 'signpost-dashboard' },
      body: form,
    });
  } catch {
    throw new Error('The server cannot be reached; check your connection and try again');
  }
  const text = await response.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) throw new ApiError(response.status, body as Partial<ApiErrorBody>);
  return body as ImportReport;
}
