/** Types, labels and time ranges of the log explorer (from the management API's schema). */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type LogPage = Json<paths['/projects/{projectId}/logs']['get']['responses'][200]>;
export type LogSummary = LogPage['logs'][number];
export type LogListQuery = NonNullable<paths['/projects/{projectId}/logs']['get']['parameters']['query']>;
export type LogHistogram = Json<paths['/projects/{projectId}/logs/histogram']['get']['responses'][200]>;
export type LogGroup = Json<paths['/projects/{projectId}/logs/{reportId}']['get']['responses'][200]>;

/** Most severe first; the histogram stacks them in this order from the bottom. */
export const LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export type Level = (typeof LEVELS)[number];
export const LEVEL_LABELS: Record<Level, string> = {
  error: 'Error',
  warn: 'Warning',
  info: 'Info',
  debug: 'Debug',
  trace: 'Trace',
};

export const RANGES = [
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
  { value: '90d', label: 'Last 90 days', ms: 90 * 86_400_000 },
  { value: 'custom', label: 'Custom range', ms: 0 },
] as const;
export type RangeValue = (typeof RANGES)[number]['value'];

export const logsKey = (projectId: string) => ['logs', projectId] as const;
export const logKey = (projectId: string, id: string) => ['log', projectId, id] as const;

export type LinePage = Json<paths['/projects/{projectId}/logs/lines']['get']['responses'][200]>;
export type LogLine = LinePage['lines'][number];
export type LineListQuery = NonNullable<paths['/projects/{projectId}/logs/lines']['get']['parameters']['query']>;
