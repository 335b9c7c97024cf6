-- Releases as the hub (issue 33, resources/release-hub).
--
-- error_links: an idea or bug (features) tied to an error group, by the team (source 'manual')
-- or by itself when user feedback on an event of the group carries the bug's idea ('feedback').
CREATE TABLE error_links (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  feature_id TEXT NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  group_id TEXT NOT NULL REFERENCES error_groups(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (feature_id, group_id)
);
CREATE INDEX error_links_by_group ON error_links (group_id, feature_id);

-- An idea, bug or error group resolved "in X" (target_release) or "in the next release"
-- (target_release NULL: any release newer than after_release, the newest one when it was
-- resolved; NULL when the project had none). resolved_release is set when that release goes
-- live, once; a row is the item's latest resolution.
CREATE TABLE release_resolutions (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  item_type TEXT NOT NULL,
  item_id TEXT NOT NULL,
  target_release TEXT,
  after_release TEXT,
  notify INTEGER NOT NULL DEFAULT 1,
  resolved_release TEXT,
  created_at TEXT NOT NULL,
  resolved_at TEXT,
  UNIQUE (item_type, item_id)
);
-- Pending ones of a project (resolved_release NULL) and what a release shipped.
CREATE INDEX release_resolutions_by_release ON release_resolutions (project_id, resolved_release);

-- The changelog entry drafted for a release when it went live, for the team to edit and publish.
CREATE TABLE release_drafts (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  version TEXT NOT NULL,
  entry_id TEXT NOT NULL REFERENCES changelog_entries(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, version)
);

-- What broke in a release: its new and regressed groups, read by release (flat at any size).
CREATE INDEX error_groups_by_first_release ON error_groups (project_id, environment, first_release);
CREATE INDEX error_groups_by_regressed_release ON error_groups (project_id, environment, regressed_in_release);
