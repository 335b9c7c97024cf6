-- Log line spans (issue 32, fourth round): a group's lines are found through one row per group and
-- write, not one index entry per line. A write's lines of one group are consecutive ids (SQLite has
-- one writer; store-lines.ts writes a group's lines together), so the span (first_id, last_id) with
-- the lines' time range and count stands for them; `log_lines_by_group` took an entry per line at
-- a hundred places per write, about 60 % of a repeated line's insert (packages/bench/README.md,
-- "Log lines, third round"). Every line of a group lies in one of its spans, and a span covers
-- only its group's lines (reads still check the line's group_id). Keyed by group and time, so a
-- group's page reads its spans newest first; project_id puts the spans in a project's archive.
CREATE TABLE log_line_spans (
  group_id TEXT NOT NULL,
  max_ts TEXT NOT NULL,
  first_id INTEGER NOT NULL,
  last_id INTEGER NOT NULL,
  min_ts TEXT NOT NULL,
  n INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  PRIMARY KEY (group_id, max_ts, first_id)
) WITHOUT ROWID;

-- The lines already kept: one span per run of consecutive ids of one group (id minus the line's
-- rank in its group is constant along a run).
INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id)
SELECT group_id, MAX(ts), MIN(id), MAX(id), MIN(ts), COUNT(*), MIN(project_id)
FROM (SELECT group_id, id, ts, project_id, id - ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY id) AS run
  FROM log_lines)
GROUP BY group_id, run;

DROP INDEX log_lines_by_group;
