-- Every list of ideas reads only its page (issue 16): each order a list offers has an index in
-- that order behind the list's equality filters, so a page walks the index and stops (no sort,
-- no scan of the project). The public lists (GET /features, GET /roadmap, the board) see public
-- items only, so theirs are partial on `internal = 0 AND held = 0`, the literal condition those
-- queries carry. The management list sees every item of a project, both environments.
CREATE INDEX features_public_newest ON features (project_id, environment, created_at, id) WHERE internal = 0 AND held = 0;
CREATE INDEX features_public_status_newest ON features (project_id, environment, status, created_at, id) WHERE internal = 0 AND held = 0;
CREATE INDEX features_public_type_newest ON features (project_id, environment, type, created_at, id) WHERE internal = 0 AND held = 0;
CREATE INDEX features_public_top ON features (project_id, environment, vote_count, created_at, id) WHERE internal = 0 AND held = 0;
-- The roadmap's columns (one ordered range per status, merged) and the board's "top" in a status.
CREATE INDEX features_public_status_top ON features (project_id, environment, status, vote_count, created_at, id) WHERE internal = 0 AND held = 0;
CREATE INDEX features_project_newest ON features (project_id, created_at, id);
CREATE INDEX features_project_votes ON features (project_id, vote_count, created_at, id);
CREATE INDEX features_project_comments ON features (project_id, comment_count, created_at, id);
CREATE INDEX features_project_updated ON features (project_id, updated_at, id);
-- Superseded by features_public_newest (public) and features_project_newest (management).
DROP INDEX features_listing;
-- The changelog list's whole order, so its ties (same published_at) need no sort either.
CREATE INDEX changelog_listing ON changelog_entries (project_id, published, published_at, created_at, id);
-- Trending (board and management): the votes cast since a moment, and whether one idea has any.
CREATE INDEX votes_recent ON votes (created_at, feature_id);
CREATE INDEX votes_feature_recent ON votes (feature_id, created_at);
-- The dashboard's attention lists, per project and status (new ideas newest first, ideas in play
-- most voted first), and the management list filtered by status in those orders.
CREATE INDEX features_project_status_newest ON features (project_id, status, created_at, id);
CREATE INDEX features_project_status_votes ON features (project_id, status, vote_count, created_at, id);
