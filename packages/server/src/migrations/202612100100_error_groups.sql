-- Error groups (issue 31): what error events collect, by their grouping key (resources/reports/
-- grouping.ts: the SDK's fingerprint, else the exception type and in-app frames, else the
-- normalised message) within a project, key environment (live/test) and SDK environment
-- (the event's `environment`, or POST /errors' app.environment; 'production' when none is sent,
-- as Sentry's SDKs default to). error_reports stay the spec's dedup records (title + errorType
-- within an hour) and point to the group of their first event (group_id).
--
-- A merged group keeps its row and key (merged_into: the group now shown in its place), so its
-- next events still find it and an unmerge gives back exactly its own counts: own_events,
-- own users (error_group_users) and tags (error_group_tags) stay the group's own; `events` and
-- `users` of a group shown with merged ones are its whole family's.
CREATE TABLE error_groups (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  sdk_environment TEXT NOT NULL,
  group_key TEXT NOT NULL,
  title TEXT NOT NULL,
  error_type TEXT,
  culprit TEXT,
  level TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open',
  resolved_in_release TEXT,
  regressed_in_release TEXT,
  unhandled INTEGER NOT NULL DEFAULT 0,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  first_release TEXT,
  last_release TEXT,
  own_events INTEGER NOT NULL DEFAULT 0,
  events INTEGER NOT NULL DEFAULT 0,
  users INTEGER NOT NULL DEFAULT 0,
  merged_into TEXT,
  UNIQUE (project_id, environment, sdk_environment, group_key)
);
CREATE INDEX error_groups_by_project ON error_groups (project_id, environment, last_seen_at);
CREATE INDEX error_groups_merged ON error_groups (merged_into);

-- The events a group keeps: its first, its latest (ERROR_EVENTS_PER_GROUP, default 100) and a
-- sample in between (ordinals that are powers of two); `ordinal` numbers the group's own events
-- from 1. The payload is the event as sent (compressed, base64: the database layer binds text).
CREATE TABLE error_events (
  group_id TEXT NOT NULL REFERENCES error_groups(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  received_at TEXT NOT NULL,
  release TEXT,
  sdk_environment TEXT NOT NULL,
  user_key TEXT,
  handled INTEGER,
  payload TEXT NOT NULL,
  PRIMARY KEY (group_id, ordinal)
);
-- No other index: each one is another page written per event (the commit's cost on SQLite). An event
-- is found by id among its group's few kept rows (the primary key's range of the group).

-- Distinct users of a group (a hash of the user's id, else e-mail, else IP address).
CREATE TABLE error_group_users (
  group_id TEXT NOT NULL REFERENCES error_groups(id) ON DELETE CASCADE,
  user_key TEXT NOT NULL,
  PRIMARY KEY (group_id, user_key)
);

-- Tag values of a group's events, counted: the facets of its page and the list's tag filter.
CREATE TABLE error_group_tags (
  group_id TEXT NOT NULL REFERENCES error_groups(id) ON DELETE CASCADE,
  tag_key TEXT NOT NULL,
  tag_value TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (group_id, tag_key, tag_value)
);
CREATE INDEX error_group_tags_by_value ON error_group_tags (tag_key, tag_value);

ALTER TABLE error_reports ADD COLUMN group_id TEXT;
CREATE INDEX error_reports_by_group ON error_reports (group_id, last_seen_at);
