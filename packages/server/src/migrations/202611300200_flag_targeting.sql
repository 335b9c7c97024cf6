-- Flags for OpenFeature (issue 17): a typed value, per key environment, a percentage rollout sticky
-- per targetingKey and ordered rules on context attributes. `targeting` holds them as JSON
-- (resources/site-config/flag-targeting.ts reads and checks it); the defaults keep every existing
-- flag what it was, a boolean that is `enabled`.
ALTER TABLE feature_flags ADD COLUMN value_type TEXT NOT NULL DEFAULT 'boolean';
ALTER TABLE feature_flags ADD COLUMN targeting TEXT NOT NULL DEFAULT '{}';
