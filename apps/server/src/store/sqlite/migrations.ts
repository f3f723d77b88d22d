import type { DatabaseSync } from 'node:sqlite';

/** Append-only: a released migration is never edited, a change is a new entry. */
const migrations: string[] = [
  `
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
  `,
  `
  -- What the stream announced of the platform, by identity (a message's messageExternalId, or
  -- the command that made a group change), so a re-reported event is recorded once.
  CREATE TABLE platform_records (
    account_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    type TEXT NOT NULL,
    identity TEXT NOT NULL,
    recorded_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, conversation_id, type, identity)
  ) STRICT, WITHOUT ROWID;
  INSERT OR IGNORE INTO platform_records
    SELECT account_id, data ->> '$.conversationId', type, data ->> '$.messageExternalId', time
    FROM events WHERE type IN ('message.received', 'message.sent');
  INSERT OR IGNORE INTO platform_records
    SELECT account_id, data ->> '$.conversationId', type, 'command:' || (data ->> '$.commandId'), time
    FROM events WHERE type IN ('group.renamed', 'group.participants_changed') AND data ->> '$.commandId' IS NOT NULL;
  `,
  `
  -- Webhook endpoints: the stream's log is the outbox, each endpoint keeps a cursor into it.
  -- A claim (token, expiry) makes one worker at a time deliver to an endpoint.
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
  `,
  `
  -- Polls the account sent, recorded with their message.sent (id = the command's), and each
  -- voter's current choice (option_index NULL once withdrawn, kept so an older vote reported
  -- late cannot bring it back).
  CREATE TABLE polls (
    account_id TEXT NOT NULL,
    id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    message_external_id TEXT NOT NULL,
    question TEXT NOT NULL,
    options TEXT NOT NULL,
    sent_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, conversation_id, message_external_id)
  ) STRICT;

  CREATE TABLE poll_votes (
    account_id TEXT NOT NULL,
    poll_id TEXT NOT NULL,
    voter TEXT NOT NULL,
    option_index INTEGER,
    voted_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, poll_id, voter)
  ) STRICT, WITHOUT ROWID;
  `,
  `
  -- Why a command failed, for people: the connector host's message, bounded, and where in the
  -- request body (a JSON Pointer). Retention drops commands by settlement time and attachments
  -- by arrival, each through its own index.
  ALTER TABLE commands ADD COLUMN error_message TEXT;
  ALTER TABLE commands ADD COLUMN error_path TEXT;
  CREATE INDEX commands_settled ON commands(settled_at) WHERE settled_at IS NOT NULL;
  CREATE INDEX attachments_created ON attachments(created_at);
  `,
];

/**
 * Brings the schema up to date inside one transaction, recording progress in `user_version`. An
 * up-to-date file takes no lock, so the operator CLI opens beside a busy server at once. Otherwise
 * the version is read again inside the transaction: a server and the CLI opening a new file
 * together migrate it once, the second finding the first's work done.
 */
export function migrate(db: DatabaseSync): void {
  if (schemaVersion(db) === migrations.length) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = schemaVersion(db);
    for (let v = current; v < migrations.length; v++) db.exec(migrations[v]!);
    if (current < migrations.length) db.exec(`PRAGMA user_version = ${migrations.length}`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** The file's schema version; one newer than this build knows is refused. */
function schemaVersion(db: DatabaseSync): number {
  const { user_version: version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
  if (version > migrations.length) {
    throw new Error(`database schema version ${version} is newer than this build knows (${migrations.length})`);
  }
  return version;
}
