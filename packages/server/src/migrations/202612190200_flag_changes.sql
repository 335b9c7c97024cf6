-- Flag change history (issue 33): every change of a feature flag through any surface (the
-- site-config use cases: management API, CLI, dashboard, MCP), written in the change's own
-- transaction. Keyed by the flag's key, not its id: a deleted flag keeps its history, and a
-- flag made again under the same key continues it. Values are the flag as the API presents it
-- (JSON), NULL before a create and after a delete. `environment` is the key environment
-- (live/test) when only that environment's value changed, NULL when the change holds for both.
-- Ids are time-ordered (newId), so a flag's page walks (project_id, flag_key, id) and the
-- suspect-flags read of a group walks (project_id, created_at).
CREATE TABLE flag_changes (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  flag_key TEXT NOT NULL,
  action TEXT NOT NULL,
  environment TEXT,
  old_value TEXT,
  new_value TEXT,
  -- member (session), token (personal access token), api-key or oauth (MCP)
  actor_type TEXT NOT NULL,
  -- the account (member, token, oauth) or the API key
  actor_id TEXT,
  actor_name TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX flag_changes_by_flag ON flag_changes (project_id, flag_key, id);
CREATE INDEX flag_changes_by_time ON flag_changes (project_id, created_at);

-- When a resolved group last regressed: the start its suspect flags are looked up from.
ALTER TABLE error_groups ADD COLUMN regressed_at TEXT;
