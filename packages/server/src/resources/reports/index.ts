/** Bug and error reports: what other resources, the surfaces, seed and cli may use. */
export { triageRoutes, type TriageStore } from './management-routes.ts';
export { groupFields, Json } from './management-schemas.ts';
export { presentGroup } from './presenter.ts';
export { SEVERITIES, type ErrorReportBody } from './schemas.ts';
// The one write path of error reports, for other ways in (the Sentry-compatible ingest).
export { recordError } from './error-writer.ts';
export { prepareSentryEvent } from './error-event.ts';
// For the features resource (deleting and merging features), so bug_reports keeps one store.
export { moveBugsToFeature, unlinkBugsFromFeature } from './store.ts';
export {
  getTriage,
  listTriage,
  REPORT_STATUSES,
  setTriageStatus,
  triageStatusCounts,
  type ReportFilter,
  type ReportStatus,
  type TriageTable,
} from './store-triage.ts';
export { type AttentionGroupRow, listErrorGroupsNeedingAttention } from './attention-read-model.ts';
export { feedbackFromEvent, feedbackFromUserReport, recordSentryFeedback } from './feedback.ts';
// A report that names the error its user just hit (the widget's errorEventId) links to its group.
export { groupOfErrorRef } from './store-feedback.ts';
// Resolving a group in a release (resources/release-hub) sets its status as the group routes do.
export { setGroupStatus } from './store-groups.ts';
// The two retention paths of kept events (SQLite's by group, PostgreSQL's by time), for the bench.
export { pruneEventsBefore, pruneGroupEvents } from './store-groups.ts';
export { errorEventPartitions } from './partitions.ts';
// For site-config's flag history (issue 33): the error rate before and after each change.
export { errorRatesAround } from './store-error-rate.ts';
// A person's data (resources/people/service.ts): their error events and reports, listed and erased.
export { eraseErrorUser, errorDataOfPerson, errorUserKeys } from './store-erasure.ts';
// The MCP feedback tool links ideas to the group an error id names (a group's or a record's).
export { errorGroupIdOf } from './group-service.ts';
