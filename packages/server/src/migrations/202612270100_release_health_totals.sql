-- Running totals of release health (issue 33, resources/release-health), so that the releases
-- list and a release's page read one row per release, not one per release and hour.
--
-- release_health_totals: per project, key environment, release and SDK environment, the sums of
-- that key's rows in release_session_hours (sessions by counted status, `last_users`,
-- `last_crashed_users`), moved in the same transaction as every write of those rows (the session
-- intake) and of their expiry (the worker). first_hour and last_hour bound the hours of those
-- rows: when a range holds both, the totals are the range's figures.
CREATE TABLE release_health_totals (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  release TEXT NOT NULL,
  sdk_environment TEXT NOT NULL,
  first_hour TEXT NOT NULL,
  last_hour TEXT NOT NULL,
  healthy INTEGER NOT NULL DEFAULT 0,
  errored INTEGER NOT NULL DEFAULT 0,
  abnormal INTEGER NOT NULL DEFAULT 0,
  unhandled INTEGER NOT NULL DEFAULT 0,
  crashed INTEGER NOT NULL DEFAULT 0,
  users INTEGER NOT NULL DEFAULT 0,
  crashed_users INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, environment, release, sdk_environment)
);

INSERT INTO release_health_totals (project_id, environment, release, sdk_environment, first_hour, last_hour,
  healthy, errored, abnormal, unhandled, crashed, users, crashed_users)
SELECT project_id, environment, release, sdk_environment, MIN(hour), MAX(hour), SUM(healthy), SUM(errored),
  SUM(abnormal), SUM(unhandled), SUM(crashed), SUM(last_users), SUM(last_crashed_users)
FROM release_session_hours GROUP BY project_id, environment, release, sdk_environment;

-- The same for version checks (release_checks, written by the worker's flush): per project and
-- release, the sum of its hours' checks and the first and last of those hours.
CREATE TABLE release_check_totals (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  release TEXT NOT NULL,
  first_hour TEXT NOT NULL,
  last_hour TEXT NOT NULL,
  checks INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, release)
);

INSERT INTO release_check_totals (project_id, release, first_hour, last_hour, checks)
SELECT project_id, release, MIN(hour), MAX(hour), SUM(checks) FROM release_checks GROUP BY project_id, release;
