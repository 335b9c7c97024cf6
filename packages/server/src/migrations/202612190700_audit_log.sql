-- Audit log of team actions (issue 36): who (account, key or system, and through which surface),
-- when, what (action, target) and the target's state before and after, secrets redacted. Written
-- by use cases in the transaction of the change (resources/audit). A project's entries go with the
-- project; team-wide actions (members, invites) have no project and are shown with every project
-- of their team.
CREATE TABLE audit_entries (
  id TEXT PRIMARY KEY,
  team_id TEXT,
  project_id TEXT REFERENCES projects(id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  -- account, api_key, oauth or system; the id of that account, key or grant; what people read.
  actor_type TEXT NOT NULL,
  actor_id TEXT,
  actor_label TEXT NOT NULL,
  -- session, token, cli, public-api, mcp or system.
  via TEXT NOT NULL,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT,
  -- JSON, or null (nothing before a creation, nothing after a deletion).
  before_state TEXT,
  after_state TEXT
);
-- Newest first per project and per team (keyset paging on (at, id)); retention deletes by age.
CREATE INDEX audit_entries_project ON audit_entries (project_id, at, id);
CREATE INDEX audit_entries_team ON audit_entries (team_id, at, id);
CREATE INDEX audit_entries_age ON audit_entries (at);

-- A project's retention of its audit entries, in days (no row: the default, 365).
CREATE TABLE audit_settings (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  retention_days INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
