// Retention drops events and platform records by time, a batch at a time, through these indexes
// (PostgreSQL has had them from the start); without them each round read every row of both. A
// command dropped checks that no idempotency key refers to it: through its own index, not a scan
// of every key.
export default `
CREATE INDEX events_time ON events(time);
CREATE INDEX platform_records_recorded ON platform_records(recorded_at);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
CREATE INDEX idempotency_keys_command ON idempotency_keys(command_id);
`;
