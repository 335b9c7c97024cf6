-- Source maps (issue 31): uploaded artifacts per project, found by release (+ dist) and file name,
-- or by debug ID. Contents are stored once per project and checksum, gzip-compressed
-- (resources/source-maps/).

-- One file's content, deduplicated per project by the SHA-256 of its uncompressed bytes.
CREATE TABLE source_map_blobs (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  checksum TEXT NOT NULL,
  -- gzip of the file's UTF-8 bytes.
  content BLOB NOT NULL,
  size INTEGER NOT NULL,
  stored_size INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, checksum)
);

-- An uploaded file: a source map or the minified file it maps. release and dist are '' when not
-- given (an artifact found only by its debug ID).
CREATE TABLE source_map_artifacts (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  release TEXT NOT NULL,
  dist TEXT NOT NULL,
  -- The file's URL as frames name it: ~/assets/app.js.map, app:///main.js, https://…
  name TEXT NOT NULL,
  -- source_map or minified_source.
  kind TEXT NOT NULL,
  debug_id TEXT,
  -- A minified file's sourceMappingURL comment, as written.
  source_map_url TEXT,
  checksum TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX source_map_artifacts_by_name ON source_map_artifacts (project_id, release, dist, name);
CREATE INDEX source_map_artifacts_by_debug_id ON source_map_artifacts (project_id, debug_id, kind);
CREATE INDEX source_map_artifacts_by_checksum ON source_map_artifacts (project_id, checksum);

-- sentry-cli's chunk upload (resources/source-maps/sentry-cli-routes.ts): chunks wait here, per
-- uploading account and SHA-1, until an assemble request joins them into an artifact bundle.
CREATE TABLE source_map_chunks (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  checksum TEXT NOT NULL,
  content BLOB NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (account_id, checksum)
);
CREATE INDEX source_map_chunks_by_age ON source_map_chunks (created_at);

-- Artifact bundles assembled into a project, by SHA-1: sentry-cli asking again is told "ok".
CREATE TABLE source_map_bundles (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  checksum TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, checksum)
);
