-- Follower notifications under the team's control (issue 30): a project's undo window, the
-- seconds a status-change e-mail waits (and collapses with further changes) before it goes out.
-- No row, or NULL: the instance default (NOTIFY_UNDO_SECONDS, 60).
CREATE TABLE notification_settings (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  undo_window_seconds INTEGER,
  updated_at TEXT NOT NULL
);
-- The pending status-change message of a follower for an idea, found when the next change comes.
CREATE INDEX notification_outbox_pending ON notification_outbox (feature_id, user_id, kind, state);
