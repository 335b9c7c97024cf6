import { parseJson } from '../../db/query.ts';

type Row = Record<string, any>;

/** The fields every grouped report has (bugs, errors, log groups). */
export const presentGroup = (row: Row) => ({
  id: row.id as string,
  projectId: row.project_id as string,
  environment: row.environment as 'live' | 'test',
  status: row.status as string,
  occurrences: Number(row.occurrences),
  firstSeenAt: row.first_seen_at as string,
  lastSeenAt: row.last_seen_at as string,
});

export function presentBugSummary(row: Row) {
  return {
    ...presentGroup(row),
    title: row.title,
    message: row.message,
    bugType: row.bug_type,
    severity: row.severity,
    channel: row.channel,
    featureId: row.feature_id,
  };
}
export function presentBug(row: Row) {
  return { ...presentBugSummary(row), stackTrace: row.stack_trace, metadata: parseJson(row.metadata) };
}

export function presentErrorSummary(row: Row) {
  return {
    ...presentGroup(row),
    title: row.title,
    message: row.message,
    errorType: row.error_type,
    severity: row.severity,
    url: row.url,
    release: row.app_version ?? null,
    group: {
      occurrences: Number(row.group_occurrences ?? row.occurrences),
      firstSeenAt: (row.group_first_seen_at ?? row.first_seen_at) as string,
      records: Number(row.group_records ?? 1),
    },
  };
}
export function presentError(row: Row) {
  return {
    ...presentErrorSummary(row),
    stackTrace: row.stack_trace,
    breadcrumbs: parseJson(row.breadcrumbs),
    device: parseJson(row.device),
    network: parseJson(row.network),
    app: parseJson(row.app),
    referrer: row.referrer,
    occurredAt: row.occurred_at,
    metadata: parseJson(row.metadata),
    resolvedInRelease: row.resolved_in_release ?? null,
    groupId: (row.group_id as string | null) ?? null,
  };
}
