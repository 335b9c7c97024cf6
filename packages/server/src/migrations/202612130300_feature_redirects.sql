-- Merge keeps links (issue 30): a merged idea's id answers with a permanent redirect to the idea
-- it was merged into, on the board (e-mails and bookmarks keep working). A chain is kept flat: a
-- merge re-points the redirects to the duplicate at the target. The target's deletion removes them.
CREATE TABLE feature_redirects (
  from_id TEXT PRIMARY KEY,
  to_id TEXT NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);
CREATE INDEX feature_redirects_to ON feature_redirects (to_id);
