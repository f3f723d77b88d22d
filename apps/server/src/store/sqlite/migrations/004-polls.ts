// Polls the account sent, recorded with their message.sent (id = the command's), and each
// voter's current choice (option_index NULL once withdrawn, kept so an older vote reported
// late cannot bring it back).
export default `
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
`;
