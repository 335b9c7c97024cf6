-- Triage (issue 30): an item the team has not looked at yet has no `triaged_at`, whatever its
-- status (board and API submissions are created `open` by the spec's rule). Any team action on it
-- (a status change, an edit, "mark triaged") sets it. Items already changed since their creation
-- count as triaged; items untouched since they arrived wait in the "needs triage" view.
ALTER TABLE features ADD COLUMN triaged_at TEXT;
UPDATE features SET triaged_at = updated_at WHERE updated_at <> created_at;
-- The "needs triage" view and Home's list: newest first, held items left to moderation.
CREATE INDEX features_untriaged ON features (project_id, created_at, id) WHERE triaged_at IS NULL AND held = 0;
