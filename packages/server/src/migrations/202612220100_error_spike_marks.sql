-- Spikes counted from every event (issue 31): each tick of the alert worker marks, for the live
-- groups of projects with spike rules whose exact own count (error_groups.own_events) changed since
-- their last mark, that count and the time. A group's events in the last M minutes are its count
-- now less the count of its latest mark at or before M minutes ago (0 for a group first seen since),
-- exact to a tick, with nothing added to the ingest path. Marks older than the longest window are
-- pruned, keeping each group's latest such mark as the baseline.
CREATE TABLE error_group_event_marks (
  group_id TEXT NOT NULL REFERENCES error_groups(id) ON DELETE CASCADE,
  marked_at TEXT NOT NULL,
  events INTEGER NOT NULL,
  PRIMARY KEY (group_id, marked_at)
);
