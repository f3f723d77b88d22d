// Each message of a conversation with what became of it (sent, delivered, read, failed, edited,
// unsent), as the platform reported it; kept as long as the stream's events. The messages the
// stream still holds are recorded from it.
export default `
CREATE TABLE messages (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  conversation_id TEXT NOT NULL,
  message_external_id TEXT COLLATE "C" NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('outbound', 'inbound')),
  command_id TEXT,
  sender_external_id TEXT,
  text TEXT,
  attachments TEXT NOT NULL,
  sent_at BIGINT,
  delivered_at BIGINT,
  read_at BIGINT,
  failed_at BIGINT,
  failure_reason TEXT,
  failure_message TEXT,
  edited_at BIGINT,
  unsent_at BIGINT,
  recorded_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, conversation_id, message_external_id)
);
CREATE INDEX messages_listed ON messages(account_id, conversation_id, recorded_at, message_external_id);
CREATE INDEX messages_command ON messages(account_id, command_id) WHERE command_id IS NOT NULL;
CREATE INDEX messages_recorded ON messages(recorded_at);
INSERT INTO messages (account_id, conversation_id, message_external_id, direction, command_id, text, attachments, sent_at, recorded_at)
  SELECT e.account_id, e.data::jsonb ->> 'conversationId', e.data::jsonb ->> 'messageExternalId', 'outbound', e.data::jsonb ->> 'commandId',
    (SELECT c.payload::jsonb ->> 'text' FROM commands c WHERE c.id = e.data::jsonb ->> 'commandId'), '[]', e.time, e.time
  FROM events e WHERE e.type = 'message.sent'
  ON CONFLICT DO NOTHING;
INSERT INTO messages (account_id, conversation_id, message_external_id, direction, sender_external_id, text, attachments, sent_at, recorded_at)
  SELECT account_id, data::jsonb ->> 'conversationId', data::jsonb ->> 'messageExternalId', 'inbound', data::jsonb ->> 'senderExternalId', data::jsonb ->> 'text',
    COALESCE(data::jsonb ->> 'attachments', '[]'), (extract(epoch FROM (data::jsonb ->> 'receivedAt')::timestamptz) * 1000)::bigint, time
  FROM events WHERE type = 'message.received'
  ON CONFLICT DO NOTHING;
`;
