import { setTimeout as sleep } from 'node:timers/promises';
import * as admin from '../admin/index.ts';
import type { Config } from '../config.ts';
import type { ApiError } from '../errors.ts';
import { systemClock } from '../clock.ts';
import { createIdSource } from '../ids.ts';
import type { Result } from '../result.ts';
import type { Store } from '../store/types.ts';
import { toEnvelope } from '../stream/envelope.ts';
import { OperatorError, type Operator } from './operator.ts';

/** The value, or the domain's error as an OperatorError with its admin API code. */
async function value<T>(result: Promise<Result<T, ApiError>>): Promise<T> {
  const answer = await result;
  if (!answer.ok) throw new OperatorError(answer.error.code, answer.error.message);
  return answer.value;
}

/**
 * The CLI where the store is: the admin domain (src/admin/) on the store, as the admin API's
 * routes call it, with no operator key (the audit log records such changes with none).
 */
export function directOperator(store: Store, config: Config): Operator {
  const deps: admin.Admin = { store, clock: systemClock, ids: createIdSource(), config, operatorKeyId: null };
  return {
    createAccount: (name) => value(admin.createAccount(deps, name)),
    listAccounts: async () => (await admin.listAccounts(deps)).accounts,
    createKey: (accountId, kind, label) => value(admin.createKey(deps, accountId, kind, label)),
    listKeys: async (accountId) => (await value(admin.listKeys(deps, accountId))).keys,
    revokeKey: (keyId) => value(admin.revokeKey(deps, keyId)),
    createOperatorKey: (label, role) => value(admin.createOperatorKey(deps, role, label)),
    listOperatorKeys: async () => (await admin.listOperatorKeys(deps)).keys,
    revokeOperatorKey: (keyId) => value(admin.revokeOperatorKey(deps, keyId)),
    async setPaused(accountId, paused) {
      if (accountId === null) await value(admin.setAllPaused(deps, paused));
      else await value(admin.setAccountPaused(deps, accountId, paused));
    },
    listHosts: async () => (await admin.listHosts(deps)).hosts,
    getPolicies: (accountId) => value(admin.getPolicies(deps, accountId)),
    setPolicies: (accountId, policies) => value(admin.setPolicies(deps, accountId, policies)),
    policyUsage: (accountId, conversationId) => value(admin.policyUsage(deps, accountId, conversationId)),
    listCommands: (accountId, status, cursor) => value(admin.listCommands(deps, { accountId: accountId.toLowerCase(), status }, 200, cursor)),
    // No server runs here: the connector host finds a released command at its next poll.
    releaseCommand: (commandId) => value(admin.releaseCommand(deps, commandId)),
    rejectCommand: (commandId, reason) => value(admin.rejectCommand(deps, commandId, reason)),
    listEndpoints: async (accountId) => (await value(admin.listEndpoints(deps, accountId))).endpoints,
    setEndpointEnabled: (accountId, endpointId, enabled) => value(admin.setEndpointEnabled(deps, accountId, endpointId, enabled)),
    newestEventId: async (accountId) => String(await store.newestEventId(accountId)),
    async *events(accountId, after, signal) {
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
