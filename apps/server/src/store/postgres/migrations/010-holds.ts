// Held commands (specs/openapi/switchboard.yaml, "Line policies"): the policy holding a command
// (a held command's status stays 'queued' and dispatch skips it), when a policy first held it, and
// when its hold was released. The partial index finds the few held ones without reading the rest.
export default `
ALTER TABLE commands ADD COLUMN held_by TEXT CHECK (held_by IN ('quietHours', 'firstContactApproval')),
  ADD COLUMN held_at BIGINT,
  ADD COLUMN released_at BIGINT;
CREATE INDEX commands_held ON commands(account_id, id) WHERE held_by IS NOT NULL;
`;
