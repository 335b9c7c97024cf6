-- Importers (issue 36): which row of Signpost an item of another tool (Canny, UserVoice, Fider,
-- Featurebase, a CSV) became, so a second run of the same export updates instead of duplicating.
-- kind: idea, comment or user; target_id: the feature, comment or person.
CREATE TABLE import_sources (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  kind TEXT NOT NULL,
  source_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  imported_at TEXT NOT NULL,
  PRIMARY KEY (project_id, source, kind, source_id)
);
