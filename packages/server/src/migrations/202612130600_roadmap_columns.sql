-- The board's roadmap columns (issue 30): which statuses the team shows, in its order, with its
-- labels, as JSON ([{"status":"planned","label":"Next up"}, …]); NULL: the default (every public
-- status but Declined). The public REST roadmap keeps the spec's columns and rules.
ALTER TABLE boards ADD COLUMN roadmap_columns TEXT;
