-- Error records from before groups (202612100100) become groups: one per fingerprint, as the
-- lists grouped them (key 'legacy:<fingerprint>', a record without one is a group alone), with
-- the status, title and release of the group's newest record and the sum of its counts. They keep
-- no events (none were kept). New events group by the new keys, so an old error that occurs again
-- starts a new group.
INSERT INTO error_groups (id, project_id, environment, sdk_environment, group_key, title, error_type, level,
  status, resolved_in_release, first_seen_at, last_seen_at, first_release, last_release, own_events, events, users)
SELECT 'eg_' || r.id, r.project_id, r.environment, COALESCE((r.app::json ->> 'environment'), 'production'),
  'legacy:' || COALESCE(r.fingerprint, r.id), r.title, r.error_type,
  CASE r.severity WHEN 'critical' THEN 'fatal' WHEN 'high' THEN 'error' WHEN 'medium' THEN 'warning' ELSE 'info' END,
  r.status, r.resolved_in_release, r.group_first, r.group_last, r.app_version, r.app_version, r.group_total, r.group_total, 0
FROM (
  SELECT e.*,
    ROW_NUMBER() OVER (PARTITION BY e.project_id, e.environment, COALESCE(e.fingerprint, e.id) ORDER BY e.first_seen_at DESC, e.id DESC) AS rn,
    SUM(e.occurrences) OVER (PARTITION BY e.project_id, e.environment, COALESCE(e.fingerprint, e.id)) AS group_total,
    MIN(e.first_seen_at) OVER (PARTITION BY e.project_id, e.environment, COALESCE(e.fingerprint, e.id)) AS group_first,
    MAX(e.last_seen_at) OVER (PARTITION BY e.project_id, e.environment, COALESCE(e.fingerprint, e.id)) AS group_last
  FROM error_reports e
) r
WHERE r.rn = 1;

UPDATE error_reports SET group_id = (
  SELECT g.id FROM error_groups g
  WHERE g.project_id = error_reports.project_id AND g.environment = error_reports.environment
    AND g.group_key = 'legacy:' || COALESCE(error_reports.fingerprint, error_reports.id)
);
