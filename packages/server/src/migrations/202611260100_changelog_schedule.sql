-- Scheduled publishing: a draft with publish_at set is "scheduled"; the changelog's schedule
-- worker (resources/changelog/schedule-worker.ts) publishes it once publish_at has passed, through
-- the same conditional UPDATE as a manual publish (published = 0 → 1), so two workers never both
-- publish it. Publishing or unpublishing clears publish_at. ISO 8601 UTC text, like published_at.
ALTER TABLE changelog_entries ADD COLUMN publish_at TEXT;
-- The worker's one read per poll: due scheduled drafts across all projects.
CREATE INDEX changelog_scheduled ON changelog_entries (publish_at) WHERE publish_at IS NOT NULL;
