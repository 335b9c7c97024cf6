-- One index over an error group's records instead of two. error_reports_dedup (the open record
-- of each fingerprint, unique: the upsert's conflict target) and error_reports_by_fingerprint
-- (every record of a fingerprint, for the group's history and status) were both keyed by the
-- fingerprint, a hash: each new group was an insert at a random place in each, and on SQLite each
-- such insert is a page written to the WAL and again at the checkpoint. Measured with the bench's
-- `npm run compare`, dropping one of them made POST /errors with a new group 1.21× as fast on
-- SQLite and 1.08× on PostgreSQL.
--
-- The one index is unique over (project, environment, fingerprint, dedup_slot): the open record's
-- slot is '' (so a second open record of the fingerprint conflicts, as before), and a record's
-- slot becomes its own id when it is closed (so closed records never conflict).
ALTER TABLE error_reports ADD COLUMN dedup_slot TEXT NOT NULL DEFAULT '';
UPDATE error_reports SET dedup_slot = id WHERE dedup_open = 0;
CREATE UNIQUE INDEX error_reports_group ON error_reports (project_id, environment, fingerprint, dedup_slot);
DROP INDEX error_reports_dedup;
DROP INDEX error_reports_by_fingerprint;
