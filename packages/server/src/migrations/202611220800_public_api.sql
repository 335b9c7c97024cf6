-- Core schema of the public API. Portable SQL: runs unchanged on SQLite and PostgreSQL.
-- Timestamps are ISO 8601 text in UTC (they sort as text); booleans are 0/1 integers;
-- JSON documents are text.

CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  default_locale TEXT NOT NULL DEFAULT 'en',
  supported_locales TEXT NOT NULL DEFAULT '["en"]',
  plan TEXT NOT NULL DEFAULT 'self-hosted',
  monthly_quota BIGINT,
  debug_mode INTEGER NOT NULL DEFAULT 0,
  config_version BIGINT NOT NULL DEFAULT 1,
  config_updated_at TEXT NOT NULL,
  translations_version BIGINT NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  lookup TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  scopes TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE features (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  internal INTEGER NOT NULL DEFAULT 0,
  channel TEXT,
  contact_email TEXT,
  metadata TEXT,
  developer_notes TEXT,
  vote_count INTEGER NOT NULL DEFAULT 0,
  comment_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX features_listing ON features (project_id, environment, created_at);

CREATE TABLE votes (
  feature_id TEXT NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  voter_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (feature_id, voter_id)
);

CREATE TABLE comments (
  id TEXT PRIMARY KEY,
  feature_id TEXT NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  body TEXT NOT NULL,
  author_name TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX comments_by_feature ON comments (feature_id, created_at);

CREATE TABLE changelog_entries (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  feature_id TEXT REFERENCES features(id) ON DELETE SET NULL,
  summary TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status_key TEXT NOT NULL DEFAULT '',
  status_label TEXT NOT NULL DEFAULT '',
  published INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  published_at TEXT
);
CREATE INDEX changelog_by_project ON changelog_entries (project_id, published, published_at);

-- Bug and error reports. A report repeated inside the dedup window only bumps `occurrences`.
CREATE TABLE bug_reports (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  title TEXT NOT NULL,
  message TEXT NOT NULL,
  stack_trace TEXT,
  bug_type TEXT,
  severity TEXT NOT NULL,
  channel TEXT,
  metadata TEXT,
  feature_id TEXT REFERENCES features(id) ON DELETE SET NULL,
  status TEXT NOT NULL DEFAULT 'open',
  occurrences INTEGER NOT NULL DEFAULT 1,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX bug_reports_by_project ON bug_reports (project_id, environment, last_seen_at);

CREATE TABLE error_reports (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  title TEXT NOT NULL,
  message TEXT NOT NULL,
  stack_trace TEXT,
  error_type TEXT,
  severity TEXT NOT NULL,
  breadcrumbs TEXT,
  device TEXT,
  network TEXT,
  app TEXT,
  url TEXT,
  referrer TEXT,
  occurred_at TEXT,
  metadata TEXT,
  status TEXT NOT NULL DEFAULT 'open',
  occurrences INTEGER NOT NULL DEFAULT 1,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX error_reports_by_project ON error_reports (project_id, environment, last_seen_at);

-- The record currently collecting repeats of one fingerprint. Upserting this row is what
-- serialises concurrent identical reports, in one process or many.
CREATE TABLE dedup_heads (
  project_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  kind TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  record_id TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  PRIMARY KEY (project_id, environment, kind, fingerprint)
);

CREATE TABLE log_groups (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  level TEXT NOT NULL,
  category TEXT,
  source TEXT,
  message TEXT NOT NULL,
  data TEXT,
  user_id TEXT,
  app_version TEXT,
  status TEXT NOT NULL DEFAULT 'open',
  occurrences INTEGER NOT NULL DEFAULT 1,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  UNIQUE (project_id, environment, fingerprint)
);

-- Site configuration.
CREATE TABLE maintenance_settings (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL DEFAULT 0,
  type TEXT NOT NULL DEFAULT 'full',
  custom_html TEXT,
  expected_restoration TEXT,
  show_status_link INTEGER NOT NULL DEFAULT 0,
  status_page_url TEXT,
  whitelist TEXT NOT NULL DEFAULT '{"localStorageKeys":[],"emails":[],"ips":[]}'
);

CREATE TABLE status_messages (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  text TEXT NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1,
  priority INTEGER NOT NULL DEFAULT 0,
  starts_at TEXT,
  expires_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE feature_flags (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  UNIQUE (project_id, key)
);

CREATE TABLE environments (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  url TEXT NOT NULL DEFAULT '',
  color TEXT NOT NULL DEFAULT '#6b7280',
  debug_enabled INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  UNIQUE (project_id, slug)
);

-- Translations.
CREATE TABLE translation_keys (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  namespace TEXT,
  category TEXT,
  default_text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, key)
);

CREATE TABLE translation_values (
  key_id TEXT NOT NULL REFERENCES translation_keys(id) ON DELETE CASCADE,
  locale TEXT NOT NULL,
  text TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (key_id, locale)
);

CREATE TABLE missing_translations (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  locale TEXT NOT NULL,
  key TEXT NOT NULL,
  occurrences INTEGER NOT NULL DEFAULT 1,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (project_id, environment, locale, key)
);

-- Releases for the version check.
CREATE TABLE releases (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  version TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  release_notes TEXT NOT NULL DEFAULT '',
  download_url TEXT NOT NULL DEFAULT '',
  release_date TEXT NOT NULL,
  is_beta INTEGER NOT NULL DEFAULT 0,
  git_commit TEXT,
  required INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  UNIQUE (project_id, version)
);

-- Limits. A sliding-window limiter keeps one row per admitted request; its head row is
-- upserted first so that concurrent requests for one bucket queue behind each other.
CREATE TABLE rate_limit_heads (
  bucket TEXT PRIMARY KEY,
  touched_at TEXT NOT NULL
);
CREATE TABLE rate_limit_hits (
  id TEXT PRIMARY KEY,
  bucket TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX rate_limit_hits_by_bucket ON rate_limit_hits (bucket, at);

CREATE TABLE quota_usage (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  period TEXT NOT NULL,
  used BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, period)
);
