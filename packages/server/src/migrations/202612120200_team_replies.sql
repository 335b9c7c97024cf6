-- Team replies (issue 30): a comment written by a team member from the dashboard or the
-- management API carries `team` (a "Team" badge on the board and in e-mails) and the account that
-- wrote it; an `internal` one is a note for the team only (never on the board, the public API,
-- feeds or e-mails, and not counted in comment_count). `edited_at`: changed by its author.
ALTER TABLE comments ADD COLUMN team INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comments ADD COLUMN internal INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comments ADD COLUMN account_id TEXT REFERENCES accounts(id) ON DELETE SET NULL;
ALTER TABLE comments ADD COLUMN edited_at TEXT;

-- The official response given with the latest status change, shown on the idea and told to its
-- followers with that change.
ALTER TABLE features ADD COLUMN status_response TEXT;
ALTER TABLE features ADD COLUMN status_response_at TEXT;
