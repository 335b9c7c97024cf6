-- Search within one project without reading the others' ideas (issue 30: search at 100,000
-- ideas). features_fts becomes a contentless FTS5 index (contentless_delete) with a third column,
-- `scope`: one token per idea naming its project ('p' and the hex of the project id's bytes), so
-- a search is `scope : "p…" AND {title description} : (…)` and counts the project's matches from
-- the index alone, never walking the project's ideas. Kept by the same triggers (a project change
-- moves the idea's token too). After a VACUUM (which renumbers rowids) fill it anew:
-- DELETE FROM features_fts; then the INSERT … SELECT below.
DROP TABLE features_fts_vocab;
DROP TRIGGER features_fts_insert;
DROP TRIGGER features_fts_delete;
DROP TRIGGER features_fts_update;
DROP TABLE features_fts;
CREATE VIRTUAL TABLE features_fts USING fts5(title, description, scope, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='2 3');
INSERT INTO features_fts (rowid, title, description, scope) SELECT rowid, title, description, 'p' || hex(project_id) FROM features;
CREATE TRIGGER features_fts_insert AFTER INSERT ON features BEGIN INSERT INTO features_fts (rowid, title, description, scope) VALUES (new.rowid, new.title, new.description, 'p' || hex(new.project_id)); END;
CREATE TRIGGER features_fts_delete AFTER DELETE ON features BEGIN DELETE FROM features_fts WHERE rowid = old.rowid; END;
CREATE TRIGGER features_fts_update AFTER UPDATE OF title, description, project_id ON features BEGIN DELETE FROM features_fts WHERE rowid = old.rowid; INSERT INTO features_fts (rowid, title, description, scope) VALUES (new.rowid, new.title, new.description, 'p' || hex(new.project_id)); END;
-- The vocabulary per column (store-search.ts reads the title's and description's words only).
CREATE VIRTUAL TABLE features_fts_vocab USING fts5vocab(features_fts, 'col');
