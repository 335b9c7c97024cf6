-- Sentry user feedback (issue 31): the `feedback` and `user_report` envelope items become bug
-- reports linked to the error group of their associated event. The event is found by its id
-- (error_events.event_id): one more index on kept events, a page written per event.
ALTER TABLE bug_reports ADD COLUMN error_group_id TEXT;
CREATE INDEX bug_reports_by_error_group ON bug_reports (error_group_id, first_seen_at);
CREATE INDEX error_events_by_event_id ON error_events (event_id);
