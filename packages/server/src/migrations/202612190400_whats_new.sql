-- "What's new" in the host app (issue 35): an entry the team marks as an announcement may open
-- once as a popup; and how far each identified reader (the `sub` of the host app's signed token)
-- has read the project's published changelog. Anonymous readers keep that in their browser.
ALTER TABLE changelog_entries ADD COLUMN announcement INTEGER NOT NULL DEFAULT 0;

CREATE TABLE changelog_readers (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  subject TEXT NOT NULL,
  seen_through TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (project_id, subject)
);
