-- Log lines (issue 32): every accepted entry is kept as a line of its group (log_groups stays the
-- spec's row with its exact count). Lines are capped per group (the newest LOG_LINES_PER_GROUP
-- plus the first) and expired after LOG_LINE_RETENTION_DAYS by the log-lines worker
-- (resources/logs/lines-worker.ts). `ts` is the entry's own time; `severity` keeps what the
-- spec's five levels cannot (`fatal`); `data` is the entry's JSON object. No foreign key: on
-- PostgreSQL its per-row check cost about half of a line's insert, and every read of lines names
-- its project (a project's lines are reachable only through it; projects are not deleted today).
CREATE TABLE log_lines (
  id INTEGER PRIMARY KEY,
  group_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  ts TEXT NOT NULL,
  level TEXT NOT NULL,
  severity TEXT,
  source TEXT,
  app_version TEXT,
  user_id TEXT,
  data TEXT,
  trace_id TEXT,
  span_id TEXT
);
CREATE INDEX log_lines_by_time ON log_lines (project_id, ts, id);
CREATE INDEX log_lines_by_group ON log_lines (group_id, ts, id);

-- Lines per group per hour (unit 'h', bucket 'YYYY-MM-DDTHH') and per minute (unit 'm', bucket
-- 'YYYY-MM-DDTHH:MM', kept MINUTE_VOLUME_HOURS of resources/logs/histogram.ts), and the project's
-- totals per environment and level (units 'H' and 'M', group_id '*<environment>*<level>'), which
-- answer the explorer's unfiltered histogram in rows per bucket, not per group and bucket.
-- Upserted once per written batch.
CREATE TABLE log_volume (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  unit TEXT NOT NULL,
  bucket TEXT NOT NULL,
  group_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  level TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (project_id, unit, bucket, group_id)
) WITHOUT ROWID;
CREATE INDEX log_volume_by_group ON log_volume (group_id, unit, bucket);

-- Every source, app version and user that sent a group, with counts (kind: source, app_version, user_id).
CREATE TABLE log_group_attributes (
  group_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  n INTEGER NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (group_id, kind, value)
) WITHOUT ROWID;
