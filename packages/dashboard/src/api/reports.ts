/** Types, labels and formats of the error and bug report screens (from the management API's schema). */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type ErrorPage = Json<paths['/projects/{projectId}/errors']['get']['responses'][200]>;
export type ErrorSummary = ErrorPage['errors'][number];
export type ErrorRecord = Json<paths['/projects/{projectId}/errors/{reportId}']['get']['responses'][200]>;
export type ErrorStatus = ErrorSummary['status'];
export type ErrorHistory = Json<paths['/projects/{projectId}/errors/{reportId}/history']['get']['responses'][200]>;
export type BugPage = Json<paths['/projects/{projectId}/bugs']['get']['responses'][200]>;
export type BugSummary = BugPage['bugs'][number];
export type BugRecord = Json<paths['/projects/{projectId}/bugs/{reportId}']['get']['responses'][200]>;

export const SEVERITY_OPTIONS = [
  { value: 'critical', label: 'Critical' },
  { value: 'high', label: 'High' },
  { value: 'medium', label: 'Medium' },
  { value: 'low', label: 'Low' },
] as const;

export const ERROR_STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'regressed', label: 'Regressed' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'ignored', label: 'Ignored' },
] as const;

export const ENVIRONMENT_OPTIONS = [
  { value: 'live', label: 'Live' },
  { value: 'test', label: 'Test' },
] as const;

/** "Seen in the last …" filters on last seen. */
export const TIME_OPTIONS = [
  { value: '1h', label: 'Last hour', ms: 3600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 24 * 3600_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 24 * 3600_000 },
  { value: '14d', label: 'Last 14 days', ms: 14 * 24 * 3600_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 24 * 3600_000 },
] as const;

export const statusName = (status: string) =>
  ERROR_STATUS_OPTIONS.find((option) => option.value === status)?.label ?? status;
export const severityName = (severity: string) =>
  SEVERITY_OPTIONS.find((option) => option.value === severity)?.label ?? severity;

export const errorsKey = (projectId: string) => ['errors', projectId] as const;
export const bugsKey = (projectId: string) => ['bugs', projectId] as const;

// One way of showing a moment in every list (api/features.ts).
export { when } from './features.ts';

export type ErrorGroupPage = Json<paths['/projects/{projectId}/error-groups']['get']['responses'][200]>;
export type ErrorGroupSummary = ErrorGroupPage['groups'][number];
export type ErrorGroupQuery = NonNullable<paths['/projects/{projectId}/error-groups']['get']['parameters']['query']>;
export type ErrorGroupDetail = Json<paths['/projects/{projectId}/error-groups/{groupId}']['get']['responses'][200]>;
export type ErrorEventDetail = Json<
  paths['/projects/{projectId}/error-groups/{groupId}/events/{eventId}']['get']['responses'][200]
>;
export const errorGroupsKey = (projectId: string) => ['error-groups', projectId] as const;

export const LEVEL_OPTIONS = [
  { value: 'fatal', label: 'Fatal' },
  { value: 'error', label: 'Error' },
  { value: 'warning', label: 'Warning' },
  { value: 'info', label: 'Info' },
  { value: 'debug', label: 'Debug' },
] as const;

export const GROUP_SORT_OPTIONS = [
  { value: 'lastSeen', label: 'Last seen' },
  { value: 'count', label: 'Most events' },
  { value: 'users', label: 'Most users' },
] as const;
