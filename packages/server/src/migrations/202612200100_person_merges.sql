-- Issue 30: merging duplicate people. A merged person's row goes (their aliases, and with them
-- their votes, comments and ideas, move to the person kept); this row remembers where they went,
-- so a repeated merge answers the same and an old link to the person can be followed.
CREATE TABLE person_merges (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  from_id TEXT NOT NULL,
  into_id TEXT NOT NULL,
  merged_at TEXT NOT NULL,
  PRIMARY KEY (project_id, from_id)
);
CREATE INDEX person_merges_into ON person_merges (into_id);
