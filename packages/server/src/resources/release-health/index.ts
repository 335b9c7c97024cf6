/** Release health and adoption: what the Sentry ingest, the version check and app.ts use. */
export { normaliseRelease } from './parse.ts';
export { recordSessionItems, type SessionItem } from './service.ts';
export { countVersionCheck } from './tally.ts';
// A release's page (resources/release-hub) shows its health next to what broke and shipped.
export { projectHealth } from './health.ts';
export { ReleaseHealthSummary } from './schemas.ts';
// A person's data (resources/people/service.ts): their sessions, listed and erased.
export { eraseSessionUser, sessionsOfUser } from './store-erasure.ts';
// The bench seeds a million sessions as Sentry's `sessions` aggregates of new users, in multi-row
// statements that write the rows the intake's applySessionAggregate would.
export { applySessionAggregate } from './store.ts';
export { loadSessionAggregates } from './store-load.ts';
