-- Sentry-compatible ingest (issue 17): Sentry SDKs accept only a numeric project id in a DSN, so
-- every project gets a stable, unique ingest number: existing projects in creation order, each
-- new one the next number (a trigger, so every way of creating a project gets one).
ALTER TABLE projects ADD COLUMN ingest_number INTEGER;
UPDATE projects SET ingest_number = (SELECT COUNT(*) FROM projects p2 WHERE p2.created_at < projects.created_at OR (p2.created_at = projects.created_at AND p2.id <= projects.id));
CREATE UNIQUE INDEX projects_ingest_number ON projects (ingest_number);
CREATE TRIGGER projects_ingest_number_insert AFTER INSERT ON projects WHEN new.ingest_number IS NULL BEGIN UPDATE projects SET ingest_number = (SELECT COALESCE(MAX(ingest_number), 0) + 1 FROM projects) WHERE id = new.id; END;
