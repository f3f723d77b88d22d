/**
 * One JSON line per record on stderr (stdout belongs to the stdio transport). Callers pass only
 * what they chose to log; the configuration, and with it the API key, is never passed.
 */
export function log(msg: string, fields: Record<string, unknown> = {}): void {
  if (process.env.SWITCHBOARD_LOG_LEVEL === 'silent') return;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), msg, ...fields })}\n`);
}
