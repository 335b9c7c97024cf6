/** Error groups and events as the management API answers them. */
import type { EventRow, GroupRow } from './store-group-reads.ts';

export function presentGroupSummary(row: GroupRow) {
  return {
    id: row.id,
    projectId: row.project_id,
    environment: row.environment as 'live' | 'test',
    sdkEnvironment: row.sdk_environment,
    title: row.title,
    errorType: row.error_type,
    culprit: row.culprit,
    level: row.level,
    status: row.status as 'open' | 'resolved' | 'ignored' | 'regressed',
    unhandled: Number(row.unhandled) === 1,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    firstRelease: row.first_release,
    lastRelease: row.last_release,
    resolvedInRelease: row.resolved_in_release,
    regressedInRelease: row.regressed_in_release,
    events: Number(row.events),
    users: Number(row.users),
    mergedInto: row.merged_into,
  };
}

export function presentEventSummary(row: EventRow) {
  return {
    eventId: row.event_id,
    groupId: row.group_id,
    receivedAt: row.received_at,
    release: row.release,
    sdkEnvironment: row.sdk_environment,
    handled: row.handled === null ? null : Number(row.handled) === 1,
  };
}
