/** Release health and adoption: what the Sentry ingest, the version check and app.ts use. */
export { normaliseRelease } from './parse.ts';
export { recordSessionItems, type SessionItem } from './service.ts';
export { countVersionCheck } from './tally.ts';
// A person's data (resources/people/service.ts): their sessions, listed and erased.
export { eraseSessionUser, sessionsOfUser } from './store.ts';
