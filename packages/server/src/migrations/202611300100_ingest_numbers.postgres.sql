-- Sentry-compatible ingest (issue 17): Sentry SDKs accept only a numeric project id in a DSN, so
-- every project gets a stable, unique ingest number: existing projects in creation order, each
-- new one the next number from a sequence (the column's default).
CREATE SEQUENCE projects_ingest_number_seq;
ALTER TABLE projects ADD COLUMN ingest_number INTEGER;
UPDATE projects SET ingest_number = o.n FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM projects) o WHERE o.id = projects.id;
SELECT setval('projects_ingest_number_seq', COALESCE((SELECT MAX(ingest_number) FROM projects), 0) + 1, false);
ALTER TABLE projects ALTER COLUMN ingest_number SET DEFAULT nextval('projects_ingest_number_seq');
ALTER TABLE projects ALTER COLUMN ingest_number SET NOT NULL;
ALTER SEQUENCE projects_ingest_number_seq OWNED BY projects.ingest_number;
CREATE UNIQUE INDEX projects_ingest_number ON projects (ingest_number);
