-- Rows whose only job is to be locked: upserting one inside a transaction serialises every
-- transaction that does the same, in one process or many (see db/named-lock.ts).
CREATE TABLE named_locks (
  name TEXT PRIMARY KEY,
  touched_at TEXT NOT NULL
);
