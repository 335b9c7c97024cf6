-- The public board (issue 13): a project's board settings, the people who sign in to it, their
-- sessions and sign-in links, tags on ideas, follows, moderation and the notification outbox.

-- One row a project once its team touches the board settings; no row: the board is off.
CREATE TABLE boards (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL DEFAULT 0,
  -- A private board shows only to people signed in through the host app (SSO).
  private INTEGER NOT NULL DEFAULT 0,
  title TEXT,
  logo_url TEXT,
  accent_color TEXT,
  -- Lower-case host name; the board answers at `/` of that Host.
  custom_domain TEXT UNIQUE,
  anonymous_votes INTEGER NOT NULL DEFAULT 0,
  -- New ideas and comments wait for the team's approval before they are public.
  moderation INTEGER NOT NULL DEFAULT 0,
  -- The SSO signing secret is derived from the server's key and this id (kernel/derived-secrets.ts):
  -- nothing secret is stored; rotating picks a new id. `sso_secret_hint` is its last characters.
  sso_secret_id TEXT,
  sso_secret_hint TEXT,
  updated_at TEXT NOT NULL
);

-- People of a board: signed in by an e-mailed link or by the host app's signed token.
CREATE TABLE board_users (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  -- Lower case; verified by the link or vouched for by the host app's signature.
  email TEXT NOT NULL,
  name TEXT,
  -- The host app's `sub` for people who came through SSO.
  external_id TEXT,
  locale TEXT NOT NULL DEFAULT 'en',
  created_at TEXT NOT NULL,
  UNIQUE (project_id, email),
  UNIQUE (project_id, external_id)
);

CREATE TABLE board_sessions (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES board_users(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX board_sessions_by_user ON board_sessions (user_id);

CREATE TABLE board_sign_in_links (
  token_hash TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  locale TEXT NOT NULL,
  -- The name typed with the address: stored on the user only once the link proves the address.
  name TEXT,
  -- Where to return after signing in (a path on the board).
  return_to TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);

-- Team-defined tags on ideas.
CREATE TABLE tags (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);

CREATE TABLE feature_tags (
  feature_id TEXT NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (feature_id, tag_id)
);
CREATE INDEX feature_tags_by_tag ON feature_tags (tag_id);

-- Moderation: a held idea or comment is not public (like an internal one) until approved.
ALTER TABLE features ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
-- The board user who submitted an idea or wrote a comment (they follow it, and see it while held).
ALTER TABLE features ADD COLUMN board_user_id TEXT REFERENCES board_users(id) ON DELETE SET NULL;
ALTER TABLE comments ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comments ADD COLUMN board_user_id TEXT REFERENCES board_users(id) ON DELETE SET NULL;

-- Who follows an idea: its author, voters and commenters, until they unfollow.
CREATE TABLE follows (
  feature_id TEXT NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES board_users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (feature_id, user_id)
);
CREATE INDEX follows_by_user ON follows (user_id);

-- E-mails queued in the transaction of the change that causes them (an outbox), rendered and sent
-- by the outbox worker in the recipient's language.
CREATE TABLE notification_outbox (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES board_users(id) ON DELETE CASCADE,
  feature_id TEXT,
  -- status-changed, shipped
  kind TEXT NOT NULL,
  -- What caused it (e.g. the status change or the entry published), so one change never queues
  -- the same follower twice.
  event_key TEXT NOT NULL,
  -- JSON: what the message says, captured at the change (title, statuses, entry summary).
  payload TEXT NOT NULL,
  -- The Message-ID header, fixed at queueing so every attempt sends the same message.
  message_id TEXT NOT NULL,
  -- pending, sending, sent, failed, skipped (the reader unfollowed or the idea left public view before sending)
  state TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT,
  UNIQUE (event_key, user_id)
);
CREATE INDEX notification_outbox_due ON notification_outbox (state, next_attempt_at);

-- The server's own key, from which per-project secrets (the board's SSO secret) are derived,
-- when SECRET_KEY is not set: made once, shared by every process on this database.
CREATE TABLE instance_keys (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL
);
