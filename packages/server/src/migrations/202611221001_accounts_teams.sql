-- Accounts, sessions, teams, invites and personal access tokens of the management API.
-- Portable SQL (SQLite and PostgreSQL): ISO 8601 text timestamps, 0/1 integer booleans.
-- Every secret (session, token, link) is stored as a SHA-256 hash, never in plain text.

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  -- Lower-cased; one account per address.
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  -- Argon2id PHC string; NULL for accounts that only sign in through an identity provider.
  password_hash TEXT,
  email_verified INTEGER NOT NULL DEFAULT 0,
  -- Instance administrator (the first account): sets seat limits, owns the seeded projects.
  is_admin INTEGER NOT NULL DEFAULT 0,
  -- Seats across every team this account owns; NULL means DEFAULT_TEAM_SEATS.
  seat_limit INTEGER,
  created_at TEXT NOT NULL
);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);

-- Single-use links sent by e-mail: kind `verify-email` or `reset-password`.
CREATE TABLE account_links (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX account_links_by_account ON account_links (account_id, kind);

-- Sign-in through an OpenID Connect provider: one row per (issuer, subject).
CREATE TABLE account_identities (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (issuer, subject)
);

-- An authorization request in flight (state, PKCE verifier, nonce), kept until the callback.
CREATE TABLE oidc_requests (
  state TEXT PRIMARY KEY,
  code_verifier TEXT NOT NULL,
  nonce TEXT NOT NULL,
  return_to TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

CREATE TABLE teams (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  owner_account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);
CREATE INDEX teams_by_owner ON teams (owner_account_id);

CREATE TABLE team_members (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- owner, admin or member
  role TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (team_id, account_id)
);
CREATE INDEX team_members_by_account ON team_members (account_id);

CREATE TABLE team_invites (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  -- The address the invite was sent to, lower-cased.
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  invited_by TEXT REFERENCES accounts(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  accepted_by TEXT REFERENCES accounts(id) ON DELETE SET NULL,
  revoked_at TEXT
);
CREATE INDEX team_invites_by_team ON team_invites (team_id);
CREATE INDEX team_invites_by_email ON team_invites (email);

CREATE TABLE personal_access_tokens (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  -- The public part after the `sp_pat_` prefix, used to find the row; shown in listings.
  lookup TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX personal_access_tokens_by_account ON personal_access_tokens (account_id);

-- Projects belong to a team. NULL: not claimed yet (the seeded platform and demo projects
-- until the first account signs up).
ALTER TABLE projects ADD COLUMN team_id TEXT REFERENCES teams(id) ON DELETE SET NULL;
CREATE INDEX projects_by_team ON projects (team_id);
