-- Occurrence history of error groups: reports per hour per fingerprint (the group across its
-- dedup records), incremented by an upsert in the transaction that records the report, so the
-- counts are exact under concurrency and across processes. Rows older than
-- ERROR_HISTORY_RETENTION_DAYS are pruned (resources/reports/store-history.ts).
CREATE TABLE error_occurrences_hourly (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  hour TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (project_id, environment, fingerprint, hour)
);
CREATE INDEX error_occurrences_hourly_by_hour ON error_occurrences_hourly (hour);

-- The release (app.version) of the last report, for the release filter, and the release a group
-- was resolved in when resolved "in the next release": a later report from a newer release
-- marks it regressed.
ALTER TABLE error_reports ADD COLUMN app_version TEXT;
ALTER TABLE error_reports ADD COLUMN resolved_in_release TEXT;
CREATE INDEX error_reports_by_fingerprint ON error_reports (project_id, environment, fingerprint, first_seen_at);
