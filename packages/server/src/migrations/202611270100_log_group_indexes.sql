-- The log explorer's reads (resources/logs): every list is one project's groups, most recently
-- seen first, paged by (last_seen_at, id); the filters that narrow it most have their own index
-- in the same order, so a page reads its rows in index order and stops (no sort, no full scan).
-- `level` last: the histogram (last seen and level over a range) reads this index alone.
CREATE INDEX log_groups_project_seen ON log_groups (project_id, last_seen_at, id, level);
CREATE INDEX log_groups_project_level_seen ON log_groups (project_id, level, last_seen_at, id);
CREATE INDEX log_groups_project_category_seen ON log_groups (project_id, category, last_seen_at, id);
CREATE INDEX log_groups_project_source_seen ON log_groups (project_id, source, last_seen_at, id);
-- The status counts of the list header, capped per status.
CREATE INDEX log_groups_project_status ON log_groups (project_id, status);
