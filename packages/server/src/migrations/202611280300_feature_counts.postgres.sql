-- How many features a project has per environment, status, type and visibility, kept by a trigger
-- in the same transaction as every change of them, so the board's and the management list's
-- totals are a sum of at most 128 rows instead of a count over every item (issue 16). Two
-- transactions that move several items each may lock two counter rows in opposite orders: the
-- deadlock that can follow is retried as a whole by the database layer (db/failures.ts).
CREATE TABLE feature_counts (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  status TEXT NOT NULL,
  type TEXT NOT NULL,
  internal INTEGER NOT NULL,
  held INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (project_id, environment, status, type, internal, held)
);
INSERT INTO feature_counts (project_id, environment, status, type, internal, held, n)
  SELECT project_id, environment, status, type, internal, held, COUNT(*) FROM features
  GROUP BY project_id, environment, status, type, internal, held;
-- The body stays on one line: migrations are split into statements at a `;` ending a line.
CREATE FUNCTION feature_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP IN ('UPDATE', 'DELETE') THEN UPDATE feature_counts SET n = n - 1 WHERE project_id = OLD.project_id AND environment = OLD.environment AND status = OLD.status AND type = OLD.type AND internal = OLD.internal AND held = OLD.held; END IF; IF TG_OP IN ('INSERT', 'UPDATE') THEN INSERT INTO feature_counts (project_id, environment, status, type, internal, held, n) VALUES (NEW.project_id, NEW.environment, NEW.status, NEW.type, NEW.internal, NEW.held, 1) ON CONFLICT (project_id, environment, status, type, internal, held) DO UPDATE SET n = feature_counts.n + 1; END IF; RETURN NULL; END $$;
CREATE TRIGGER feature_counts_move AFTER INSERT OR DELETE OR UPDATE OF project_id, environment, status, type, internal, held ON features FOR EACH ROW EXECUTE FUNCTION feature_counts_move();
