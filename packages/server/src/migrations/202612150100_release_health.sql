-- Release health and adoption (issue 33, resources/release-health).
--
-- release_sessions: one row per Sentry session (`sid`) while updates for it are accepted (5
-- days after it started, Sentry's rule), so a later update moves its count from one status to
-- another and a session counts once, by its worst status (crashed > abnormal > unhandled >
-- errored > healthy): an `exited` after `crashed` does not un-crash. Rows past that window are deleted in
-- bounded batches by the release-health worker; the counts below stay.
CREATE TABLE release_sessions (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  sid TEXT NOT NULL,
  release TEXT NOT NULL,
  sdk_environment TEXT NOT NULL,
  distinct_id TEXT,
  hour TEXT NOT NULL,
  started TEXT NOT NULL,
  status TEXT NOT NULL,
  PRIMARY KEY (project_id, environment, sid)
);
CREATE INDEX release_sessions_started ON release_sessions (started);

-- Sessions by the hour they started in and by counted status (`unhandled`: an unhandled error that
-- did not crash the app, what browser SDKs since v11 send; not a crash), per project, key environment,
-- release (normalised: no `<package>@` prefix) and the SDK's environment.
CREATE TABLE release_session_hours (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  release TEXT NOT NULL,
  sdk_environment TEXT NOT NULL,
  hour TEXT NOT NULL,
  healthy INTEGER NOT NULL DEFAULT 0,
  errored INTEGER NOT NULL DEFAULT 0,
  abnormal INTEGER NOT NULL DEFAULT 0,
  unhandled INTEGER NOT NULL DEFAULT 0,
  crashed INTEGER NOT NULL DEFAULT 0,
  -- Users whose latest session (and latest crashed session) of this release started in this hour:
  -- the sum over the hours since a time is the exact number of users seen (with a crash) since then.
  last_users INTEGER NOT NULL DEFAULT 0,
  last_crashed_users INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, environment, release, sdk_environment, hour)
);
CREATE INDEX release_session_hours_hour ON release_session_hours (hour);

-- One row per user (the session's `did`) and hour and release: a release's users per hour for its
-- series (crashed = 1 once any of the user's sessions in that hour crashed).
CREATE TABLE release_session_users (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  release TEXT NOT NULL,
  sdk_environment TEXT NOT NULL,
  hour TEXT NOT NULL,
  distinct_id TEXT NOT NULL,
  crashed INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, environment, release, sdk_environment, hour, distinct_id)
);
CREATE INDEX release_session_users_hour ON release_session_users (hour);

-- One row per user (the session's `did`) and release: the hour of the user's latest session and
-- latest crashed session, whose counters in release_session_hours move when these do.
CREATE TABLE release_users (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  release TEXT NOT NULL,
  sdk_environment TEXT NOT NULL,
  distinct_id TEXT NOT NULL,
  last_hour TEXT NOT NULL,
  crash_hour TEXT,
  PRIMARY KEY (project_id, environment, release, sdk_environment, distinct_id)
);
CREATE INDEX release_users_last_hour ON release_users (last_hour);

-- Public version checks per hour and release the client said it runs (a known release only).
CREATE TABLE release_checks (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  release TEXT NOT NULL,
  hour TEXT NOT NULL,
  checks INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, release, hour)
);
CREATE INDEX release_checks_hour ON release_checks (hour);
