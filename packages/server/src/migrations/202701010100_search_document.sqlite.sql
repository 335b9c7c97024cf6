-- The PostgreSQL half of this id stores a per-project search document for its GIN index (issue 30).
-- SQLite needs no change for it: features_fts already limits a search to the project through its
-- `scope` column (202612310100_search_scope). This half keeps the schema's id the same on both
-- engines (an export from one restores on the other).
SELECT 1;
