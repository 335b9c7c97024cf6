-- Error alerts (issue 31): per-project rules that tell chosen team members by e-mail, and the
-- project's webhooks (event error.alert), of a new error group, a regression, or a spike
-- (N events of one group in M minutes). Rules apply to the live key environment.
CREATE TABLE error_alert_rules (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- new_group, regression, spike
  kind TEXT NOT NULL,
  -- The SDK environment the rule watches (production, staging, …); NULL: every one.
  sdk_environment TEXT,
  -- JSON array of levels (fatal, error, warning, info, debug); NULL: every level.
  levels TEXT,
  spike_events INTEGER,
  spike_minutes INTEGER,
  quiet_minutes INTEGER NOT NULL,
  -- JSON array of account ids (members of the project's team) to e-mail.
  recipients TEXT NOT NULL,
  webhooks INTEGER NOT NULL,
  enabled INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX error_alert_rules_by_project ON error_alert_rules (project_id, kind);

-- When a rule last fired for a group: at most once per rule and group per quiet period.
CREATE TABLE error_alert_firings (
  rule_id TEXT NOT NULL REFERENCES error_alert_rules(id) ON DELETE CASCADE,
  group_id TEXT NOT NULL,
  fired_at TEXT NOT NULL,
  PRIMARY KEY (rule_id, group_id)
);

-- Alert e-mails, queued in the transaction that fired the rule and sent by the alert worker
-- (the durable outbox pattern of notification_outbox: lease, retries, one Message-ID).
CREATE TABLE error_alert_outbox (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  rule_id TEXT NOT NULL,
  group_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  -- JSON: what the message says, captured when the rule fired.
  payload TEXT NOT NULL,
  message_id TEXT NOT NULL,
  -- pending, sending, sent, failed, skipped (the recipient left the team before sending)
  state TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE INDEX error_alert_outbox_due ON error_alert_outbox (state, next_attempt_at);
