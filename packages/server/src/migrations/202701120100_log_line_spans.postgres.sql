-- Log line spans (issue 32, fourth round): a group's lines are found through one row per group and
-- write, not one index entry per line. store-lines.ts inserts a write's lines and, in the same
-- statement, their spans: one per run of consecutive ids of one group (one per group and write
-- unless another process's write took ids in between), with the lines' time range and count.
-- `log_lines_by_group` took an entry per line at a hundred places per write
-- (packages/bench/README.md, "Log lines, third round"). Spans do not overlap and cover only their
-- group's lines; reads still check the line's group_id. Keyed by group and time, so a group's page
-- reads its spans newest first; project_id puts the spans in a project's archive.
CREATE TABLE log_line_spans (
  group_id TEXT NOT NULL,
  max_ts TEXT NOT NULL,
  first_id BIGINT NOT NULL,
  last_id BIGINT NOT NULL,
  min_ts TEXT NOT NULL,
  n BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  PRIMARY KEY (group_id, max_ts, first_id)
);

-- The lines already kept: one span per run of consecutive ids of one group.
INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id)
SELECT group_id, MAX(ts), MIN(id), MAX(id), MIN(ts), COUNT(*), MIN(project_id)
FROM (SELECT group_id, id, ts, project_id, id - ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY id) AS run
  FROM log_lines) lines
GROUP BY group_id, run;

DROP INDEX log_lines_by_group;
