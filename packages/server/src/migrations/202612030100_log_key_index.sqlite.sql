-- SQLite finds a log group by its key without a random index write per new group
-- (resources/logs/store-sqlite-keys.ts): a new group's row is only appended, its key kept in memory,
-- and keys move to log_group_keys in large sorted sweeps. PostgreSQL keeps its unique index on
-- the key (no pair: this migration is SQLite's alone).
DROP INDEX log_groups_key;
-- Key to row. A key is one group's (the store probes onward on a collision, group-key.ts).
-- It points at log_groups' rowid, which only VACUUM renumbers: the store notices a pointer to
-- another row and rebuilds this table from log_groups.
CREATE TABLE log_group_keys (key INTEGER PRIMARY KEY, group_rowid INTEGER NOT NULL);
INSERT INTO log_group_keys (key, group_rowid) SELECT fingerprint_key, rowid FROM log_groups ORDER BY fingerprint_key;
-- Every row up to this rowid has its key in log_group_keys; rows after it may not yet.
CREATE TABLE log_group_key_sweeps (merged_through INTEGER NOT NULL);
INSERT INTO log_group_key_sweeps (merged_through) SELECT coalesce(max(rowid), 0) FROM log_groups;
-- A deleted group (its project's deletion cascades here) frees its key.
CREATE TRIGGER log_group_keys_forget AFTER DELETE ON log_groups BEGIN DELETE FROM log_group_keys WHERE key = old.fingerprint_key AND group_rowid = old.rowid; END;
