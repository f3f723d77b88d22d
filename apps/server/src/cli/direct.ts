import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin } from '../admin/audit.ts';
import type { Config } from '../config.ts';
import type { ApiError } from '../errors.ts';
import { systemClock } from '../clock.ts';
import { createIdSource } from '../ids.ts';
import type { Result } from '../result.ts';
import type { Store } from '../store/types.ts';
import { OperatorError, type Operator } from './operator.ts';

/** The value, or the domain's error as an OperatorError with its admin API code. */
async function value<T>(result: Promise<Result<T, ApiError>>): Promise<T> {
  const answer = await result;
  if (!answer.ok) throw new OperatorError(answer.error.code, answer.error.message);
  return answer.value;
}

// Each part of the admin domain is imported when a command needs it: one call loads its own (the
// webhook endpoints' part, with the delivery code and node:http, only for `webhooks`).
const accounts = () => import('../admin/accounts.ts');
const keys = () => import('../admin/keys.ts');
const policies = () => import('../admin/policies.ts');
const holds = () => import('../admin/holds.ts');
const webhooks = () => import('../admin/webhooks.ts');
const transfers = () => import('../admin/transfers.ts');

/**
 * The CLI where the store is: the admin domain (src/admin/) on the store, as the admin API's
 * routes call it, with no operator key (the audit log records such changes with none).
 */
export function directOperator(store: Store, config: Config): Operator {
  const deps: Admin = { store, clock: systemClock, ids: createIdSource(), config, operatorKeyId: null };
  return {
    createAccount: async (name) => value((await accounts()).createAccount(deps, name)),
    listAccounts: async () => (await (await accounts()).listAccounts(deps)).accounts,
    createKey: async (accountId, kind, label) => value((await keys()).createKey(deps, accountId, kind, label)),
    listKeys: async (accountId) => (await value((await keys()).listKeys(deps, accountId))).keys,
    revokeKey: async (keyId) => value((await keys()).revokeKey(deps, keyId)),
    createOperatorKey: async (label, role) => value((await keys()).createOperatorKey(deps, role, label)),
    listOperatorKeys: async () => (await (await keys()).listOperatorKeys(deps)).keys,
    revokeOperatorKey: async (keyId) => value((await keys()).revokeOperatorKey(deps, keyId)),
    async setPaused(accountId, paused) {
      const { setAccountPaused, setAllPaused } = await accounts();
      if (accountId === null) await value(setAllPaused(deps, paused));
      else await value(setAccountPaused(deps, accountId, paused));
    },
    listHosts: async () => (await (await import('../admin/hosts.ts')).listHosts(deps)).hosts,
    getPolicies: async (accountId) => value((await policies()).getPolicies(deps, accountId)),
    setPolicies: async (accountId, changed) => value((await policies()).setPolicies(deps, accountId, changed)),
    policyUsage: async (accountId, conversationId) => value((await holds()).policyUsage(deps, accountId, conversationId)),
    getTransferLimits: async (accountId) => value((await transfers()).getTransferLimits(deps, accountId)),
    setTransferLimits: async (accountId, limits) => value((await transfers()).setTransferLimits(deps, accountId, limits)),
    listCommands: async (accountId, status, cursor) => value((await import('../admin/commands.ts')).listCommands(deps, { accountId: accountId.toLowerCase(), status }, 200, cursor)),
    // No server runs here: the connector host finds a released command at its next poll.
    releaseCommand: async (commandId) => value((await holds()).releaseCommand(deps, commandId)),
    rejectCommand: async (commandId, reason) => value((await holds()).rejectCommand(deps, commandId, reason)),
    listEndpoints: async (accountId) => (await value((await webhooks()).listEndpoints(deps, accountId))).endpoints,
    setEndpointEnabled: async (accountId, endpointId, enabled) => value((await webhooks()).setEndpointEnabled(deps, accountId, endpointId, enabled)),
    newestEventId: async (accountId) => String(await store.newestEventId(accountId)),
    async *events(accountId, after, signal) {
      const { toEnvelope } = await import('../stream/envelope.ts');
      let cursor = Number(after);
      while (!signal.aborted) {
        for (const event of await store.readEvents(accountId, cursor, 500)) {
          cursor = event.id;
          yield toEnvelope(event);
        }
        await sleep(250, undefined, { signal }).catch(() => undefined);
      }
    },
    close: () => store.close(),
  };
}
