// The admin API: operator keys (hash only, as credentials), the audit log of operators' changes
// (kept), which host acquired each lease epoch (written with the acquisition; the epochs of the
// leases held now are recorded from them), when a command was dispatched, and what a webhook
// receiver answered (and which attempts an operator resent). Indexes for the operators' search
// across accounts: by account and id, by acceptance time (settlement time has commands_settled).
export default `
CREATE TABLE operator_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  hash BYTEA NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  label TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('full', 'read-only')),
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);

CREATE TABLE audit_log (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at BIGINT NOT NULL,
  operator_key_id TEXT,
  action TEXT NOT NULL,
  account_id TEXT,
  subject TEXT,
  detail JSONB NOT NULL
);

CREATE TABLE lease_epochs (
  account_id TEXT NOT NULL,
  epoch BIGINT NOT NULL,
  host_id TEXT NOT NULL,
  acquired_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, epoch)
);
INSERT INTO lease_epochs (account_id, epoch, host_id, acquired_at) SELECT account_id, epoch, host_id, acquired_at FROM leases WHERE epoch > 0;

ALTER TABLE commands ADD COLUMN dispatched_at BIGINT;
CREATE INDEX commands_account ON commands(account_id, id);
CREATE INDEX commands_created ON commands(created_at);

ALTER TABLE webhook_deliveries ADD COLUMN response_body TEXT, ADD COLUMN resend INTEGER NOT NULL DEFAULT 0;
`;
