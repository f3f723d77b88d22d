export default `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  outbound_paused INTEGER NOT NULL DEFAULT 0,
  events_purged_through INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE credentials (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  kind TEXT NOT NULL CHECK (kind IN ('account', 'connector')),
  hash BLOB NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  label TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE INDEX credentials_account ON credentials(account_id);

CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  external_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('direct', 'group')),
  name TEXT,
  participants TEXT NOT NULL,
  membership_version INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  UNIQUE (account_id, external_id)
) STRICT;
CREATE INDEX conversations_account ON conversations(account_id, id);

CREATE TABLE commands (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  type TEXT NOT NULL,
  routing_path TEXT NOT NULL CHECK (routing_path IN ('agent-turn', 'admin')),
  status TEXT NOT NULL CHECK (status IN ('queued', 'succeeded', 'failed')),
  target TEXT NOT NULL,
  payload TEXT NOT NULL,
  logical_action_id TEXT NOT NULL,
  idempotency_key TEXT,
  conversation_id TEXT,
  error_code TEXT,
  detail TEXT,
  created_at INTEGER NOT NULL,
  settled_at INTEGER,
  dispatch_epoch INTEGER
) STRICT;
CREATE INDEX commands_queue ON commands(account_id, status, id);

CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL,
  key TEXT NOT NULL,
  command_id TEXT NOT NULL REFERENCES commands(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
) STRICT, WITHOUT ROWID;

CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  type TEXT NOT NULL,
  time INTEGER NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX events_account ON events(account_id, id);

CREATE TABLE leases (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  host_id TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  os_major_version INTEGER NOT NULL,
  capabilities TEXT NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;

CREATE TABLE attachments (
  id TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  file_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  bytes BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, id)
) STRICT;
`;
