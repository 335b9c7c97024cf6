-- The SQLite half of this id gives its full-text index a column naming each idea's project
-- (issue 30). PostgreSQL needs no change for it: its search is a condition on the features row
-- (project_id beside the GIN index of 202611250100_board_search), so this half only keeps the
-- schema's id the same on both engines (an export from one restores on the other).
SELECT 1;
