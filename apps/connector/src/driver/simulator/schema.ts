import type { DatabaseSync } from 'node:sqlite';

/**
 * The simulated platform's tables. Every row belongs to one account (`account`, the Switchboard
 * account id), so one file serves every account and every host on the machine.
 */
const MIGRATIONS = [
  `
  CREATE TABLE conversations (
    account TEXT NOT NULL,
    external_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('direct', 'group')),
    name TEXT,
    participants TEXT NOT NULL,
    membership_version INTEGER NOT NULL DEFAULT 0,
    stale INTEGER NOT NULL DEFAULT 0,
    left_at INTEGER,
    photo_sha256 TEXT,
    created_by_command TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account, external_id)
  ) STRICT;

  CREATE TABLE messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account TEXT NOT NULL,
    external_id TEXT NOT NULL,
    conversation TEXT NOT NULL,
    direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
    sender TEXT,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    associated_message TEXT,
    logical_action_id TEXT,
    command_id TEXT,
    at INTEGER NOT NULL,
    UNIQUE (account, external_id)
  ) STRICT;
  CREATE INDEX messages_by_conversation ON messages (account, conversation, seq);
  CREATE INDEX messages_by_action ON messages (account, logical_action_id);

  CREATE TABLE executions (
    account TEXT NOT NULL,
    logical_action_id TEXT NOT NULL,
    command_id TEXT NOT NULL,
    host_id TEXT NOT NULL,
    outcome TEXT NOT NULL,
    executed_at INTEGER NOT NULL,
    PRIMARY KEY (account, logical_action_id)
  ) STRICT;

  CREATE TABLE attachments (
    account TEXT NOT NULL,
    attachment_id TEXT NOT NULL,
    file_name TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY (account, attachment_id)
  ) STRICT;

  CREATE TABLE feed (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account TEXT NOT NULL,
    event TEXT NOT NULL
  ) STRICT;
  CREATE INDEX feed_by_account ON feed (account, seq);

  CREATE TABLE feed_cursor (
    account TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
  ) STRICT;
  `,
  // Switchboard's ids of conversations, as the server resolved them in dispatched commands, so
  // `inject --conversation` takes the id a client knows as well as the platform's.
  `
  CREATE TABLE switchboard_ids (
    account TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    external_id TEXT NOT NULL,
    PRIMARY KEY (account, conversation_id)
  ) STRICT;
  `,
  // A message's life: what became of the account's messages after their echo, what other people
  // did to theirs, and what the platform will do, each with its due time. A state is applied and
  // put on the feed in one transaction once due, so a host's death loses none.
  `
  ALTER TABLE messages ADD COLUMN delivered_at INTEGER;
  ALTER TABLE messages ADD COLUMN read_at INTEGER;
  ALTER TABLE messages ADD COLUMN failed_at INTEGER;
  ALTER TABLE messages ADD COLUMN failure TEXT;
  ALTER TABLE messages ADD COLUMN edited_at INTEGER;
  ALTER TABLE messages ADD COLUMN unsent_at INTEGER;

  CREATE TABLE scheduled (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account TEXT NOT NULL,
    message TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    change TEXT NOT NULL
  ) STRICT;
  CREATE INDEX scheduled_by_due ON scheduled (account, due_at, seq);

  -- Inbound messages whose life a host drew: drawn once, whichever host reads them first.
  CREATE TABLE planned (
    account TEXT NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (account, message)
  ) STRICT;
  `,
  // Media the account sends (attachments, stickers, group photos) is kept in \`attachments\` like
  // what it receives; a group's photo names its file there.
  `
  ALTER TABLE conversations ADD COLUMN photo_attachment TEXT;
  `,
];

/** Brings the file's schema up to date in one transaction; safe when several processes open it at once. */
export function migrate(db: DatabaseSync): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
    for (let version = row.user_version; version < MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version]!);
      db.exec(`PRAGMA user_version = ${version + 1}`);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
