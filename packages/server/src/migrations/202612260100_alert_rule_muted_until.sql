-- A timed mute of an error alert rule (issue 31): the rule fires for nothing until this time
-- (ISO 8601, UTC), then fires again by itself. NULL: not muted for a time (`enabled = 0` is the
-- mute until unmuted).
ALTER TABLE error_alert_rules ADD COLUMN muted_until TEXT;
