-- OAuth 2.1 authorization server of the hosted MCP server (/mcp). Portable SQL: ISO 8601 text
-- timestamps, space-separated scope lists. Every secret (client secret, code, token, consent
-- request handle) is stored as a SHA-256 hash, never in plain text.

-- Clients registered dynamically (RFC 7591). `secret_hash` is NULL for public clients.
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  secret_hash TEXT,
  -- The registered client metadata, JSON.
  metadata TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- An authorization request between the consent page and the user's decision. It belongs to
-- the account that saw the page; the form carries its handle.
CREATE TABLE oauth_consent_requests (
  id TEXT PRIMARY KEY,
  handle_hash TEXT NOT NULL UNIQUE,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  state TEXT,
  code_challenge TEXT NOT NULL,
  resource TEXT NOT NULL,
  requested_scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  decided_at TEXT
);

-- What a user granted a client: one project and the scopes of the access chosen. Tokens never
-- carry a scope their grant lacks, so a scope added later needs a new consent.
CREATE TABLE oauth_grants (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  scopes TEXT NOT NULL,
  -- The audience of the grant's tokens: <PUBLIC_URL>/mcp.
  resource TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX oauth_grants_by_account ON oauth_grants (account_id);

CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);

-- Access and refresh tokens. A refresh token is rotated on use (`rotated_at`); presenting a
-- rotated one again revokes the whole grant.
CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  grant_id TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  rotated_at TEXT,
  revoked_at TEXT
);
CREATE INDEX oauth_tokens_by_grant ON oauth_tokens (grant_id);
