// Transfers (specs/openapi/switchboard.yaml, "Transfers"): uploads in chunks of 1 MiB, usable once
// 'ready'; the commands that used one (kept while the command is: a purged command drops its use);
// and each account's limits (a row only once an operator set them; none: the defaults). The
// indexes serve retention: expired ready transfers, stale uploads, and a command's uses.
export default `
CREATE TABLE transfers (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  id TEXT NOT NULL,
  file_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  byte_size INTEGER NOT NULL DEFAULT 0,
  sha256 TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL CHECK (state IN ('uploading', 'ready')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX transfers_expiry ON transfers(state, expires_at);
CREATE INDEX transfers_created ON transfers(state, created_at);

CREATE TABLE transfer_chunks (
  account_id TEXT NOT NULL,
  transfer_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (account_id, transfer_id, seq),
  FOREIGN KEY (account_id, transfer_id) REFERENCES transfers(account_id, id) ON DELETE CASCADE
) STRICT;

CREATE TABLE transfer_uses (
  account_id TEXT NOT NULL,
  transfer_id TEXT NOT NULL,
  command_id TEXT NOT NULL REFERENCES commands(id) ON DELETE CASCADE,
  PRIMARY KEY (account_id, transfer_id, command_id),
  FOREIGN KEY (account_id, transfer_id) REFERENCES transfers(account_id, id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
CREATE INDEX transfer_uses_command ON transfer_uses(command_id);

CREATE TABLE transfer_limits (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  limits TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;
