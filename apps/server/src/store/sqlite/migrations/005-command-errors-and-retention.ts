// Why a command failed, for people: the connector host's message, bounded, and where in the
// request body (a JSON Pointer). Retention drops commands by settlement time and attachments
// by arrival, each through its own index.
export default `
ALTER TABLE commands ADD COLUMN error_message TEXT;
ALTER TABLE commands ADD COLUMN error_path TEXT;
CREATE INDEX commands_settled ON commands(settled_at) WHERE settled_at IS NOT NULL;
CREATE INDEX attachments_created ON attachments(created_at);
`;
