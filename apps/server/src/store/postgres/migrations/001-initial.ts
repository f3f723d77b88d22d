// The first schema: the SQLite store's tables, with PostgreSQL's own guarantees where replicas race.
export default `
CREATE TABLE accounts (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  outbound_paused INTEGER NOT NULL DEFAULT 0,
  events_purged_through BIGINT NOT NULL DEFAULT 0,
  -- The largest stream id the account took; its row lock orders the account's appends (store.ts).
  last_event_id BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE credentials (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  kind TEXT NOT NULL CHECK (kind IN ('account', 'connector')),
  hash BYTEA NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  label TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX credentials_account ON credentials(account_id);

CREATE TABLE conversations (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  external_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('direct', 'group')),
  name TEXT,
  participants TEXT NOT NULL,
  membership_version INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  UNIQUE (account_id, external_id)
);
CREATE INDEX conversations_account ON conversations(account_id, id);

CREATE TABLE commands (
  id TEXT COLLATE "C" PRIMARY KEY,
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
  created_at BIGINT NOT NULL,
  settled_at BIGINT,
  dispatch_epoch BIGINT
);
CREATE INDEX commands_queue ON commands(account_id, status, id);

-- The key is claimed before its command is written, so the command's foreign key waits for COMMIT.
CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL,
  key TEXT NOT NULL,
  command_id TEXT NOT NULL REFERENCES commands(id) DEFERRABLE INITIALLY DEFERRED,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

-- Stream ids, shared by all accounts (as in SQLite): a cursor of one account is past another's log.
CREATE SEQUENCE event_ids;

CREATE TABLE events (
  account_id TEXT NOT NULL,
  id BIGINT NOT NULL,
  type TEXT NOT NULL,
  time BIGINT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX events_time ON events(time);

CREATE TABLE leases (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  host_id TEXT NOT NULL,
  epoch BIGINT NOT NULL,
  os_major_version INTEGER NOT NULL,
  capabilities TEXT NOT NULL,
  acquired_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);

CREATE TABLE attachments (
  id TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  file_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  bytes BYTEA NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, id)
);

-- What the stream announced of the platform, by identity, so a re-reported event is recorded once.
CREATE TABLE platform_records (
  account_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  type TEXT NOT NULL,
  identity TEXT NOT NULL,
  recorded_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, conversation_id, type, identity)
);
CREATE INDEX platform_records_recorded ON platform_records(recorded_at);

-- The rate limits' sliding logs per key, shared by every replica: the arrival times counted in
-- the window, oldest first.
CREATE TABLE rate_windows (
  key TEXT PRIMARY KEY,
  times BIGINT[] NOT NULL
);

-- Counts an arrival at p_now when fewer than p_limit were counted in (p_now - p_window, p_now];
-- the key's row lock orders racing replicas. A refused arrival is not counted.
CREATE FUNCTION switchboard_rate_take(p_key TEXT, p_now BIGINT, p_window BIGINT, p_limit INTEGER,
  OUT allowed BOOLEAN, OUT counted INTEGER, OUT oldest BIGINT) AS $$
DECLARE kept BIGINT[];
BEGIN
  -- A count need not survive a crash: commit without waiting for the WAL flush, so requests of one
  -- credential, which queue on its row lock, do not each wait for a disk sync.
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO rate_windows (key, times) VALUES (p_key, '{}') ON CONFLICT DO NOTHING;
  SELECT ARRAY(SELECT t FROM unnest(w.times) AS t WHERE t > p_now - p_window ORDER BY t) INTO kept
    FROM rate_windows w WHERE w.key = p_key FOR UPDATE;
  allowed := cardinality(kept) < p_limit;
  IF allowed THEN kept := kept || p_now; END IF;
  UPDATE rate_windows SET times = kept WHERE key = p_key;
  counted := cardinality(kept);
  oldest := kept[1];
END $$ LANGUAGE plpgsql;
`;
