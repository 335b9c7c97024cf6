-- Attachments of a feature or bug (issue 35): the widget's screenshot of a bug report. Bytes are
-- kept in the database (one small image per report, size-capped by resources/features), read back
-- only through the management API.
CREATE TABLE feature_attachments (
  id TEXT PRIMARY KEY,
  feature_id TEXT NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  content BLOB NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX feature_attachments_by_feature ON feature_attachments (feature_id, created_at);
