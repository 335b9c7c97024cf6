-- The e-mail that tells a team its webhook endpoint was disabled, kept on the endpoint's row so it
-- survives a crash: `notice_due_at` is set in the transaction that disables the endpoint, and is
-- both when the notice is due and the lease of the worker sending it (a worker that claims it moves
-- it forward; one that dies leaves it due again when that passes). NULL: nothing to send.
ALTER TABLE webhook_endpoints ADD COLUMN notice_due_at TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN notice_attempts INTEGER NOT NULL DEFAULT 0;
CREATE INDEX webhook_endpoints_notice_due ON webhook_endpoints (notice_due_at) WHERE notice_due_at IS NOT NULL;
