-- Release health drops (issue 33, resources/release-health): a project's thresholds, and which
-- releases are in a drop now, so that `release.health_dropped` is told once per release per drop.
--
-- Thresholds in basis points of a rate (9900 = 99.00 %): crash-free sessions below
-- crash_free_threshold_bp, or more than max_drop_bp below the previous release's; a release with
-- fewer than min_sessions sessions is not judged. No row: the defaults (99 %, 5 points, 10).
CREATE TABLE release_health_settings (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  crash_free_threshold_bp INTEGER NOT NULL,
  max_drop_bp INTEGER NOT NULL,
  min_sessions INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);

-- One row per release and reason ('threshold' or 'previous') while it is, or last was, dropped:
-- active 1 from the pass that told the drop until a pass finds it recovered (then 0, so a new
-- drop is told again).
CREATE TABLE release_health_drops (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  release TEXT NOT NULL,
  reason TEXT NOT NULL,
  active INTEGER NOT NULL,
  changed_at TEXT NOT NULL,
  PRIMARY KEY (project_id, environment, release, reason)
);
