// Each message of a conversation with what became of it (sent, delivered, read, failed, edited,
// unsent), as the platform reported it; kept as long as the stream's events. The messages the
// stream still holds are recorded from it.
export default `
CREATE TABLE messages (
  account_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  message_external_id TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('outbound', 'inbound')),
  command_id TEXT,
  sender_external_id TEXT,
  text TEXT,
  attachments TEXT NOT NULL,
  sent_at INTEGER,
  delivered_at INTEGER,
  read_at INTEGER,
  failed_at INTEGER,
  failure_reason TEXT,
  failure_message TEXT,
  edited_at INTEGER,
  unsent_at INTEGER,
  recorded_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, conversation_id, message_external_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX messages_listed ON messages(account_id, conversation_id, recorded_at, message_external_id);
CREATE INDEX messages_command ON messages(account_id, command_id) WHERE command_id IS NOT NULL;
CREATE INDEX messages_recorded ON messages(recorded_at);
INSERT OR IGNORE INTO messages (account_id, conversation_id, message_external_id, direction, command_id, text, attachments, sent_at, recorded_at)
  SELECT e.account_id, e.data ->> '$.conversationId', e.data ->> '$.messageExternalId', 'outbound', e.data ->> '$.commandId',
    (SELECT c.payload ->> '$.text' FROM commands c WHERE c.id = e.data ->> '$.commandId'), '[]', e.time, e.time
  FROM events e WHERE e.type = 'message.sent';
INSERT OR IGNORE INTO messages (account_id, conversation_id, message_external_id, direction, sender_external_id, text, attachments, sent_at, recorded_at)
  SELECT account_id, data ->> '$.conversationId', data ->> '$.messageExternalId', 'inbound', data ->> '$.senderExternalId', data ->> '$.text',
    COALESCE(data ->> '$.attachments', '[]'), CAST(strftime('%s', data ->> '$.receivedAt') AS INTEGER) * 1000, time
  FROM events WHERE type = 'message.received';
`;
