// Line policies (specs/openapi/switchboard.yaml, "Line policies"): an account's policies (a row
// only once set; none: every policy off), and the first contacts its new-contact budget counted
// (kept, so an address is new once). Indexes for what intake counts under them: a conversation's
// sends by time (pacing, the loop breaker) and its newest inbound message (the loop breaker).
export default `
CREATE TABLE line_policies (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  policies TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE first_contacts (
  account_id TEXT NOT NULL,
  address TEXT NOT NULL,
  at INTEGER NOT NULL,
  command_id TEXT NOT NULL,
  PRIMARY KEY (account_id, address)
) STRICT, WITHOUT ROWID;
CREATE INDEX first_contacts_at ON first_contacts(account_id, at);

CREATE INDEX commands_conversation ON commands(conversation_id, created_at) WHERE conversation_id IS NOT NULL;
CREATE INDEX messages_inbound ON messages(account_id, conversation_id, recorded_at) WHERE direction = 'inbound';
`;
