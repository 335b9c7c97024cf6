-- Webhooks (issue 17): a project's endpoints and the durable outbox of their deliveries, which
-- is also the delivery log. Rows are written by domain-event subscribers in the transaction of
-- the change (resources/webhooks/events.ts) and sent by the delivery worker.

CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  description TEXT,
  -- JSON array of event types, e.g. ["feature.created","comment.created"].
  events TEXT NOT NULL,
  -- standard (Standard Webhooks JSON) or slack (incoming-webhook payload).
  format TEXT NOT NULL DEFAULT 'standard',
  enabled INTEGER NOT NULL DEFAULT 1,
  -- The signing secret is derived from the server's key and this id (resources/webhooks/secret.ts):
  -- nothing secret is stored; rotating picks a new id. `secret_hint` is its last characters.
  secret_id TEXT NOT NULL,
  secret_hint TEXT NOT NULL,
  -- Deliveries given up in a row; reset by a delivered one. The worker disables the endpoint at
  -- WEBHOOKS_DISABLE_AFTER.
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  disabled_reason TEXT,
  disabled_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_by_project ON webhook_endpoints (project_id, enabled);

-- One message to one endpoint. seq orders an item's messages to an endpoint (an item's later
-- event waits for its earlier one). state: pending, sending, delivered, failed (given up), skipped.
CREATE TABLE webhook_deliveries (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  -- The Standard Webhooks message id (webhook-id): kept by retries and by a redelivery.
  message_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  event TEXT NOT NULL,
  -- The item the event is about (e.g. feature:feat_…), for ordering.
  item_key TEXT NOT NULL,
  -- The Standard Webhooks body {type, timestamp, data}, as captured at the change.
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_status INTEGER,
  last_response_ms INTEGER,
  last_error TEXT,
  last_attempt_at TEXT,
  created_at TEXT NOT NULL,
  delivered_at TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_item ON webhook_deliveries (endpoint_id, item_key, seq);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, seq);
