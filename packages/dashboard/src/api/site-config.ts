/** Site configuration through the management API: types, the public-answer preview, time helpers. */
import { api, ApiError, type ApiErrorBody } from './client.ts';
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Body<T> = T extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type ManagedSiteConfig = Json<paths['/projects/{projectId}/site-config']['get']['responses'][200]>;
export type Maintenance = ManagedSiteConfig['maintenance'];
export type MaintenanceUpdate = Body<paths['/projects/{projectId}/site-config/maintenance']['patch']>;
export type StatusMessage = ManagedSiteConfig['messages'][number];
export type MessageInput = Body<paths['/projects/{projectId}/site-config/messages']['post']>;
export type FeatureFlag = ManagedSiteConfig['featureFlags'][number];
export type FlagInput = Body<paths['/projects/{projectId}/site-config/flags/{flagKey}']['put']>;
export type Environment = ManagedSiteConfig['environments'][number];
export type FlagChange = Json<
  paths['/projects/{projectId}/site-config/flags/{flagKey}/history']['get']['responses'][200]
>['changes'][number];
export type EnvironmentInput = Body<paths['/projects/{projectId}/site-config/environments']['post']>;

export const MAINTENANCE_TYPES = [
  { value: 'full', label: 'Full: the app is blocked' },
  { value: 'banner', label: 'Banner: the app works, a notice shows' },
  { value: 'custom', label: 'Custom: the app is blocked and shows your HTML' },
] as const satisfies readonly { value: Maintenance['type']; label: string }[];

export const MESSAGE_TYPES = [
  { value: 'info', label: 'Info' },
  { value: 'success', label: 'Success' },
  { value: 'warning', label: 'Warning' },
  { value: 'error', label: 'Error' },
] as const satisfies readonly { value: StatusMessage['type']; label: string }[];

/** Everything under this key is refreshed after a save: the configuration and the public answer. */
export const siteConfigKey = (projectId: string) => ['project', projectId, 'site-config'] as const;
export const flagHistoryKey = (projectId: string, flagKey: string) =>
  ['project', projectId, 'site-config', 'flag-history', flagKey] as const;
export const previewKey = (projectId: string) => ['project', projectId, 'site-config', 'preview'] as const;

export interface PublicAnswer {
  /** The body exactly as GET /api/public/v1/site-config sends it. */
  text: string;
  etag: string;
  lastUpdated: string;
}

/** What the public endpoint answers now (GET /projects/{id}/site-config/preview: same bytes, same ETag). */
export async function fetchPublicAnswer(projectId: string): Promise<PublicAnswer> {
  let result: Awaited<ReturnType<typeof callPreview>>;
  try {
    result = await callPreview(projectId);
  } catch {
    throw new Error('The server cannot be reached; check your connection and try again');
  }
  if (!result.response.ok) throw new ApiError(result.response.status, result.error as Partial<ApiErrorBody>);
  const text = result.data as unknown as string;
  const parsed = JSON.parse(text) as { lastUpdated: string };
  return { text, etag: result.response.headers.get('etag') ?? '', lastUpdated: parsed.lastUpdated };
}

function callPreview(projectId: string) {
  return api.GET('/projects/{projectId}/site-config/preview', { params: { path: { projectId } }, parseAs: 'text' });
}

/** When a message shows, from its schedule and switch at `now`. */
export type MessageState = 'upcoming' | 'live' | 'paused' | 'expired';

export function messageState(message: Pick<StatusMessage, 'isActive' | 'startsAt' | 'expiresAt'>, now: number) {
  if (message.expiresAt !== null && Date.parse(message.expiresAt) <= now) return 'expired';
  if (message.startsAt !== null && Date.parse(message.startsAt) > now) return 'upcoming';
  return message.isActive ? 'live' : 'paused';
}

export const MESSAGE_STATE_LABELS: Record<MessageState, string> = {
  upcoming: 'Upcoming',
  live: 'Live',
  paused: 'Off',
  expired: 'Expired',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a `datetime-local` value in the reader's time zone; '' for none. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (reader's time zone) as ISO; null for empty; 'invalid' when unreadable. */
export function fromLocalInput(value: string): string | null | 'invalid' {
  if (value.trim() === '') return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? 'invalid' : new Date(time).toISOString();
}

export function formatWhen(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

/** One entry a line, blanks dropped. */
export const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
