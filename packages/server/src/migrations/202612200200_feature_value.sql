-- Issue 30: an idea's "value" (the monthly revenue of its voters' companies, each company once)
-- stored on the idea, so the inbox sorted by value walks an index (features_project_value) instead
-- of summing every valued vote of the project per request. The features store keeps it: a vote
-- or unvote by a person of a valued company, merging and erasing people refresh the ideas they
-- touch. A change of a person's company or of a company's revenue (an SSO sign-in) bumps
-- company_value_versions (people store); the next inbox read sees feature_value_versions behind
-- and recomputes the project's values once (features store).
ALTER TABLE features ADD COLUMN value DOUBLE PRECISION NOT NULL DEFAULT 0;
UPDATE features SET value = COALESCE((
  SELECT SUM(cv.monthly_revenue) FROM (
    SELECT DISTINCT c.id, c.monthly_revenue FROM votes v
    JOIN person_aliases a ON a.project_id = features.project_id AND a.kind = 'voter_id' AND a.value = v.voter_id
    JOIN people p ON p.id = a.person_id
    JOIN companies c ON c.id = p.company_id
    WHERE v.feature_id = features.id AND c.monthly_revenue IS NOT NULL) cv), 0)
WHERE id IN (
  SELECT v.feature_id FROM votes v
  JOIN person_aliases a ON a.kind = 'voter_id' AND a.value = v.voter_id
  JOIN people p ON p.id = a.person_id
  JOIN companies c ON c.id = p.company_id
  WHERE c.monthly_revenue IS NOT NULL);
CREATE INDEX features_project_value ON features (project_id, value, vote_count, created_at, id);
CREATE TABLE company_value_versions (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  version INTEGER NOT NULL
);
CREATE TABLE feature_value_versions (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  version INTEGER NOT NULL
);
