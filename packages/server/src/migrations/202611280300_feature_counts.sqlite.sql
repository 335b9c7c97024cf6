-- How many features a project has per environment, status, type and visibility, kept by triggers
-- in the same transaction as every change of them, so the board's and the management list's
-- totals are a sum of at most 128 rows instead of a count over every item (issue 16).
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
CREATE TRIGGER feature_counts_insert AFTER INSERT ON features BEGIN INSERT INTO feature_counts (project_id, environment, status, type, internal, held, n) VALUES (new.project_id, new.environment, new.status, new.type, new.internal, new.held, 1) ON CONFLICT (project_id, environment, status, type, internal, held) DO UPDATE SET n = n + 1; END;
CREATE TRIGGER feature_counts_delete AFTER DELETE ON features BEGIN UPDATE feature_counts SET n = n - 1 WHERE project_id = old.project_id AND environment = old.environment AND status = old.status AND type = old.type AND internal = old.internal AND held = old.held; END;
CREATE TRIGGER feature_counts_update AFTER UPDATE OF project_id, environment, status, type, internal, held ON features BEGIN UPDATE feature_counts SET n = n - 1 WHERE project_id = old.project_id AND environment = old.environment AND status = old.status AND type = old.type AND internal = old.internal AND held = old.held; INSERT INTO feature_counts (project_id, environment, status, type, internal, held, n) VALUES (new.project_id, new.environment, new.status, new.type, new.internal, new.held, 1) ON CONFLICT (project_id, environment, status, type, internal, held) DO UPDATE SET n = n + 1; END;
