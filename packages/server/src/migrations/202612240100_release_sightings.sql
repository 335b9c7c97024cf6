-- Releases first seen (issue 33, resources/releases): a version the project's live events or
-- sessions report before anyone created it. Its first sighting makes it go live (what was
-- resolved in it ships) once; the release list shows it as "seen, not created" until a release
-- of that version is created. Written by the releases resource's sightings worker only.
CREATE TABLE release_sightings (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  version TEXT NOT NULL,
  source TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  PRIMARY KEY (project_id, version)
);
