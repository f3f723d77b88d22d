// What the stream announced of the platform, by identity (a message's messageExternalId, or
// the command that made a group change), so a re-reported event is recorded once.
export default `
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
`;
