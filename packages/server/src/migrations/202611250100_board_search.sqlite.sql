-- Full-text search over ideas with SQLite's FTS5: an external-content index on features kept in
-- step by triggers (so merges, deletes and every writer are covered). Prefix queries are cheap.
-- It keys on features' rowid, which only VACUUM renumbers: after a VACUUM, rebuild the index with
-- INSERT INTO features_fts (features_fts) VALUES ('rebuild').
CREATE VIRTUAL TABLE features_fts USING fts5(title, description, content='features', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
INSERT INTO features_fts (rowid, title, description) SELECT rowid, title, description FROM features;
CREATE TRIGGER features_fts_insert AFTER INSERT ON features BEGIN INSERT INTO features_fts (rowid, title, description) VALUES (new.rowid, new.title, new.description); END;
CREATE TRIGGER features_fts_delete AFTER DELETE ON features BEGIN INSERT INTO features_fts (features_fts, rowid, title, description) VALUES ('delete', old.rowid, old.title, old.description); END;
CREATE TRIGGER features_fts_update AFTER UPDATE OF title, description ON features BEGIN INSERT INTO features_fts (features_fts, rowid, title, description) VALUES ('delete', old.rowid, old.title, old.description); INSERT INTO features_fts (rowid, title, description) VALUES (new.rowid, new.title, new.description); END;
