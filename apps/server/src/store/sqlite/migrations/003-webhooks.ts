// Webhook endpoints: the stream's log is the outbox, each endpoint keeps a cursor into it.
// A claim (token, expiry) makes one worker at a time deliver to an endpoint.
export default `
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  url TEXT NOT NULL,
  description TEXT,
  event_types TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at INTEGER,
  enabled INTEGER NOT NULL DEFAULT 1,
  disabled_reason TEXT,
  disabled_at INTEGER,
  cursor INTEGER NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  failing_since INTEGER,
  claim_owner TEXT,
  claim_token INTEGER NOT NULL DEFAULT 0,
  claim_expires_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, created_at);
CREATE INDEX webhook_endpoints_due ON webhook_endpoints(enabled, next_attempt_at);

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  at INTEGER NOT NULL,
  status INTEGER,
  error TEXT,
  latency_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);
CREATE INDEX webhook_deliveries_at ON webhook_deliveries(at);
`;
