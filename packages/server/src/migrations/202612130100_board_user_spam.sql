-- Moderation (issue 30): "mark as spam" flags the board user who wrote a held idea or comment;
-- while flagged, everything that person posts on the board is held for the team, whatever the
-- board's moderation setting.
ALTER TABLE board_users ADD COLUMN spam INTEGER NOT NULL DEFAULT 0;
-- The moderation queue and its counts (dashboard Home, the navigation's badge) read held items only.
CREATE INDEX features_held ON features (project_id, created_at) WHERE held = 1;
CREATE INDEX comments_held ON comments (created_at) WHERE held = 1;
