-- Shipping (issue 30): a changelog entry links several ideas. The existing single link
-- (changelog_entries.feature_id) moves here as each entry's first link and stays, kept equal to
-- the first link by the changelog store, for the `featureId` the APIs already answer.
CREATE TABLE changelog_entry_features (
  entry_id TEXT NOT NULL REFERENCES changelog_entries(id) ON DELETE CASCADE,
  feature_id TEXT NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (entry_id, feature_id)
);
CREATE INDEX changelog_entry_features_by_feature ON changelog_entry_features (feature_id, entry_id);
INSERT INTO changelog_entry_features (entry_id, feature_id, position)
  SELECT id, feature_id, 0 FROM changelog_entries WHERE feature_id IS NOT NULL;
-- Publishing an entry moves its linked ideas to `done` (default on).
ALTER TABLE boards ADD COLUMN ship_on_publish INTEGER NOT NULL DEFAULT 1;
