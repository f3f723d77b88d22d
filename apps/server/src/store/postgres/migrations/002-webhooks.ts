// Webhooks: the stream's log is the outbox, each endpoint keeps a cursor into it. A claim
// (token, expiry) makes one replica at a time deliver to an endpoint (postgres/webhooks.ts).
export default `
CREATE TABLE webhook_endpoints (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  url TEXT NOT NULL,
  description TEXT,
  event_types TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at BIGINT,
  enabled INTEGER NOT NULL DEFAULT 1,
  disabled_reason TEXT CHECK (disabled_reason IN ('failing', 'operator')),
  disabled_at BIGINT,
  cursor BIGINT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL DEFAULT 0,
  failing_since BIGINT,
  claim_owner TEXT,
  claim_token BIGINT NOT NULL DEFAULT 0,
  claim_expires_at BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, created_at);
CREATE INDEX webhook_endpoints_due ON webhook_endpoints(enabled, next_attempt_at);

CREATE TABLE webhook_deliveries (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  event_id BIGINT NOT NULL,
  attempt INTEGER NOT NULL,
  at BIGINT NOT NULL,
  status INTEGER,
  error TEXT,
  latency_ms INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);
CREATE INDEX webhook_deliveries_at ON webhook_deliveries(at);
`;
