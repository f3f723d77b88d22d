import { ApiError } from '../errors.ts';
import type { PolicyRefusal } from '../store/rules/policies.ts';

/**
 * A line policy's refusal as the client gets it (specs/openapi/switchboard.yaml, "Line
 * policies"): nothing was written, and the message says so, so an agent never believes it sent.
 */
export function policyError(refusal: PolicyRefusal): ApiError {
  const { code, policy, limit } = refusal;
  if (code === 'loop_breaker') {
    const message = `nothing was sent: ${limit} sends in a row to this conversation with no reply (the account's loop breaker). `
      + 'Waiting does not help: an inbound message in the conversation lifts it';
    return new ApiError(code, message, { policy, limit });
  }
  // At least a second: a Retry-After of 0 would invite a retry that is refused again.
  const seconds = Math.max(1, Math.ceil((refusal.retryAfterMs ?? 0) / 1000));
  const message = code === 'new_contact_limit'
    ? `nothing was sent: ${refusal.newAddresses === 1 ? 'the new contact' : `${refusal.newAddresses} new contacts`} this command names would exceed the account's budget of ${limit} new contacts per ${refusal.window}; retry after ${seconds} s`
    : `nothing was sent: this conversation had ${limit} sends in the last minute (the account's pacing); retry after ${seconds} s`;
  return new ApiError(code, message, { policy, limit, retryAfterSeconds: seconds }, { 'retry-after': String(seconds) });
}
