/** The Sentry-compatible ingest: what tests and other resources may use. */
export { type IngestCounts, ingestCounts } from './counters.ts';
export { sentryDsn, sentryDsnTemplate } from './dsn.ts';
