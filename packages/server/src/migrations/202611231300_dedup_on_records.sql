-- Dedup moves from the dedup_heads table onto the report records themselves: each bug or error
-- record keeps its fingerprint, and the one record per fingerprint that still collects repeats is
-- marked open. A partial unique index over the open records lets one upsert either count a repeat
-- or add a record, where a head row and a second statement were needed. The open records are the
-- records the heads named, with the heads' fingerprints, so repeats go on being counted across
-- the upgrade.
ALTER TABLE bug_reports ADD COLUMN fingerprint TEXT;
ALTER TABLE bug_reports ADD COLUMN dedup_open INTEGER NOT NULL DEFAULT 0;
ALTER TABLE error_reports ADD COLUMN fingerprint TEXT;
ALTER TABLE error_reports ADD COLUMN dedup_open INTEGER NOT NULL DEFAULT 0;

UPDATE bug_reports
   SET fingerprint = (SELECT h.fingerprint FROM dedup_heads h WHERE h.kind = 'bug' AND h.record_id = bug_reports.id),
       dedup_open = 1
 WHERE id IN (SELECT record_id FROM dedup_heads WHERE kind = 'bug');
UPDATE error_reports
   SET fingerprint = (SELECT h.fingerprint FROM dedup_heads h WHERE h.kind = 'error' AND h.record_id = error_reports.id),
       dedup_open = 1
 WHERE id IN (SELECT record_id FROM dedup_heads WHERE kind = 'error');

CREATE UNIQUE INDEX bug_reports_dedup ON bug_reports (project_id, environment, fingerprint) WHERE dedup_open = 1;
CREATE UNIQUE INDEX error_reports_dedup ON error_reports (project_id, environment, fingerprint) WHERE dedup_open = 1;

DROP TABLE dedup_heads;
