// A command dropped by retention checks that no idempotency key refers to it (the foreign key):
// through this index, not a scan of every key kept.
export default `
CREATE INDEX idempotency_keys_command ON idempotency_keys(command_id);
`;
