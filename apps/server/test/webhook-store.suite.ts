import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdSource } from '../src/ids.ts';
import type { Store } from '../src/store/types.ts';
import type { DeliveryAttempt, WebhookStore } from '../src/store/webhooks.ts';

const newId = createIdSource().next;
const T0 = Date.UTC(2026, 0, 1);
const TTL = 15_000;

/** The webhook rules of src/store/webhooks.ts, for every store that keeps webhooks (part of the store suite). */
export function webhookStoreSuite(name: string, factory: () => Promise<Store>, replica?: (store: Store) => Promise<Store>): void {
  describe(`WebhookStore contract: ${name}`, () => {
    let store: Store;
    let hooks: WebhookStore;
    beforeEach(async () => {
      store = await factory();
      hooks = store.webhooks!;
    });
    afterEach(async () => {
      await store.close();
    });

    async function setup(events = 0) {
      const account = await store.createAccount({ id: newId(), name: `acct-${newId()}`, createdAt: T0 });
      const before = await store.appendEvents(account.id, Array.from({ length: events }, () => ({ type: 'webhook.test', time: T0, data: {} })));
      const endpoint = (await hooks.createEndpoint({ id: newId(), accountId: account.id, url: 'https://example.com/hook', description: null, eventTypes: null, secret: 'whsec_AAAA', createdAt: T0 }, 20))!;
      return { account, endpoint, before };
    }

    const append = (accountId: string, n = 1) => store.appendEvents(accountId, Array.from({ length: n }, () => ({ type: 'webhook.test', time: T0, data: {} })));
    const attempt = (eventId: number, status: number | null = 200): DeliveryAttempt => ({
      eventId, attempt: 1, at: T0, status, error: status === null ? 'timeout' : null, latencyMs: 3, responseBody: status === null ? null : 'ok', resend: false,
    });

    it('a new endpoint starts at the account\'s newest event, and has nothing due until a later one commits', async () => {
      const { account, endpoint, before } = await setup(3);
      expect(endpoint.cursor).toBe(before.at(-1)!.id);
      expect(await hooks.claimDue('w', T0, TTL, 10)).toEqual([]);
      await append(account.id);
      expect((await hooks.claimDue('w', T0, TTL, 10)).map((c) => c.endpoint.id)).toEqual([endpoint.id]);
    });

    it('an account has at most maxPerAccount endpoints; another account cannot see them', async () => {
      const { account, endpoint } = await setup();
      const input = { id: newId(), accountId: account.id, url: 'https://example.com/2', description: null, eventTypes: ['message.received'], secret: 'whsec_BBBB', createdAt: T0 };
      expect(await hooks.createEndpoint(input, 1)).toBeNull();
      expect((await hooks.createEndpoint(input, 2))!.eventTypes).toEqual(['message.received']);
      const other = await store.createAccount({ id: newId(), name: `other-${newId()}`, createdAt: T0 });
      expect(await hooks.getEndpoint(other.id, endpoint.id)).toBeNull();
      expect(await hooks.deleteEndpoint(other.id, endpoint.id)).toBe(false);
      expect(await hooks.replayEndpoint(other.id, endpoint.id, 0)).toBeNull();
      expect((await hooks.listEndpoints(account.id)).map((e) => e.id)).toEqual([endpoint.id, input.id]);
    });

    it('one claim at a time: a held claim is not handed out again until it expires, and then under a new token', async () => {
      const { account, endpoint } = await setup();
      await append(account.id);
      const [first] = await hooks.claimDue('a', T0, TTL, 10);
      expect(await hooks.claimDue('b', T0 + TTL - 1, TTL, 10)).toEqual([]);
      const [second] = await hooks.claimDue('b', T0 + TTL, TTL, 10);
      expect(second!.endpoint.id).toBe(endpoint.id);
      expect(second!.token).toBeGreaterThan(first!.token);
      // The old holder is fenced out of every write.
      expect(await hooks.renewClaim(endpoint.id, first!.token, T0 + TTL, TTL)).toBe(false);
      expect(await hooks.skipTo(endpoint.id, first!.token, endpoint.cursor, endpoint.cursor + 1)).toBe(false);
      const stale = await hooks.recordAttempt({ endpointId: endpoint.id, token: first!.token, cursor: endpoint.cursor, delivery: attempt(endpoint.cursor + 1), outcome: { kind: 'delivered', claimUntil: T0 + TTL } });
      expect(stale.endpoint).toBeNull();
      expect((await hooks.getEndpoint(account.id, endpoint.id))!.cursor).toBe(endpoint.cursor);
    });

    it('a 2xx moves the cursor; a failure schedules the retry, releases the claim and keeps the cursor', async () => {
      const { account, endpoint } = await setup();
      const [e1, e2] = await append(account.id, 2);
      const [claim] = await hooks.claimDue('a', T0, TTL, 10);
      const delivered = await hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: endpoint.cursor, delivery: attempt(e1!.id), outcome: { kind: 'delivered', claimUntil: T0 + TTL } });
      expect(delivered.endpoint).toMatchObject({ cursor: e1!.id, attempt: 0, failingSince: null });
      const failed = await hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: e1!.id, delivery: { ...attempt(e2!.id, 500), attempt: 1 }, outcome: { kind: 'retry', at: T0 + 5_000, failingSince: T0 } });
      expect(failed.endpoint).toMatchObject({ cursor: e1!.id, attempt: 1, nextAttemptAt: T0 + 5_000, failingSince: T0 });
      expect(await hooks.claimDue('b', T0 + 4_999, TTL, 10)).toEqual([]);
      const [retry] = await hooks.claimDue('b', T0 + 5_000, TTL, 10);
      expect(retry!.endpoint.attempt).toBe(1);
      const log = await hooks.listDeliveries(account.id, endpoint.id, 1, null);
      expect(log.items.map((d) => [d.eventId, d.status])).toEqual([[e2!.id, 500]]);
      const rest = await hooks.listDeliveries(account.id, endpoint.id, 10, Number(log.nextCursor));
      expect(rest).toEqual({ items: [attempt(e1!.id)], nextCursor: null });
    });

    it('a replay under a worker wins: the attempt is logged, its outcome is not applied', async () => {
      const { account, endpoint } = await setup(2);
      const [e1] = await append(account.id);
      const [claim] = await hooks.claimDue('a', T0, TTL, 10);
      await hooks.replayEndpoint(account.id, endpoint.id, 0);
      const result = await hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: endpoint.cursor, delivery: attempt(e1!.id), outcome: { kind: 'delivered', claimUntil: T0 + TTL } });
      expect(result.endpoint).toBeNull();
      expect((await hooks.getEndpoint(account.id, endpoint.id))!.cursor).toBe(0);
      expect((await hooks.listDeliveries(account.id, endpoint.id, 10, null)).items).toHaveLength(1);
    });

    it('disabling for failure appends its stream event in the same transaction; enabling clears the retry state', async () => {
      const { account, endpoint } = await setup();
      const [e1] = await append(account.id);
      const [claim] = await hooks.claimDue('a', T0, TTL, 10);
      const result = await hooks.recordAttempt({
        endpointId: endpoint.id, token: claim!.token, cursor: endpoint.cursor, delivery: attempt(e1!.id, 500),
        outcome: { kind: 'disable', failingSince: T0 - 1, event: (e) => ({ type: 'webhook.endpoint_disabled', time: T0, data: { endpointId: e.id } }) },
      });
      expect(result.endpoint).toMatchObject({ enabled: false, disabledReason: 'failing', disabledAt: T0 });
      expect(result.events.map((e) => e.type)).toEqual(['webhook.endpoint_disabled']);
      expect((await store.readEvents(account.id, e1!.id, 10)).map((e) => e.data)).toEqual([{ endpointId: endpoint.id }]);
      expect(await hooks.claimDue('b', T0 + TTL, TTL, 10)).toEqual([]);
      const enabled = await hooks.updateEndpoint(account.id, endpoint.id, { enabled: true }, T0);
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null, attempt: 0, failingSince: null, nextAttemptAt: 0, cursor: endpoint.cursor });
    });

    it('delivery bookkeeping and stream writes issued together all commit, in the order issued', async () => {
      // The bookkeeping skips the fsync (SQLite: a NORMAL group of its own; PostgreSQL: no wait for
      // the WAL flush); a stream write issued right after it must neither join nor undo it.
      const { account, endpoint } = await setup();
      const [e1, e2] = await append(account.id, 2);
      const [claim] = await hooks.claimDue('a', T0, TTL, 10);
      // The worker records an endpoint's attempts one at a time (a pool's connections would
      // commit two at once in either order), while stream writes come at any moment.
      const delivering = hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: endpoint.cursor, delivery: attempt(e1!.id), outcome: { kind: 'delivered', claimUntil: T0 + TTL } });
      const [delivered, appended, failed] = await Promise.all([
        delivering,
        append(account.id),
        delivering.then(() => hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: e1!.id, delivery: attempt(e2!.id, 500), outcome: { kind: 'retry', at: T0 + 5_000, failingSince: T0 } })),
      ]);
      expect(delivered.endpoint!.cursor).toBe(e1!.id);
      expect(failed.endpoint).toMatchObject({ cursor: e1!.id, attempt: 1 });
      expect(await store.readEvents(account.id, e2!.id, 10)).toEqual(appended);
      expect((await hooks.listDeliveries(account.id, endpoint.id, 10, null)).items.map((d) => [d.eventId, d.status])).toEqual([[e2!.id, 500], [e1!.id, 200]]);
      await hooks.releaseClaim(endpoint.id, claim!.token);
      expect(await hooks.getEndpoint(account.id, endpoint.id)).toMatchObject({ cursor: e1!.id, nextAttemptAt: T0 + 5_000 });
    });

    it('rotation keeps the old secret as the previous one until the overlap ends', async () => {
      const { account, endpoint } = await setup();
      const rotated = await hooks.rotateSecret(account.id, endpoint.id, 'whsec_CCCC', T0, 1_000);
      expect(rotated).toMatchObject({ secret: 'whsec_CCCC', previousSecret: 'whsec_AAAA', previousSecretExpiresAt: T0 + 1_000 });
    });

    it('the delivery log is purged by age, and goes with its endpoint', async () => {
      const { account, endpoint } = await setup();
      const [e1] = await append(account.id);
      const [claim] = await hooks.claimDue('a', T0, TTL, 10);
      await hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: endpoint.cursor, delivery: attempt(e1!.id), outcome: { kind: 'delivered', claimUntil: T0 + TTL } });
      expect(await hooks.purgeDeliveries(T0)).toBe(0);
      expect(await hooks.purgeDeliveries(T0 + 1)).toBe(1);
      expect((await hooks.backlogs(account.id)).get(endpoint.id)).toBe(0);
      await append(account.id, 2);
      expect((await hooks.backlogs(null)).get(endpoint.id)).toBe(2);
      expect(await hooks.deleteEndpoint(account.id, endpoint.id)).toBe(true);
      expect(await hooks.listEndpoints(account.id)).toEqual([]);
    });

    it('each attempt keeps what the receiver answered (its first KiB of body); none answered, none kept', async () => {
      const { account, endpoint } = await setup();
      const [e1, e2] = await append(account.id, 2);
      const [claim] = await hooks.claimDue('a', T0, TTL, 10);
      await hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: endpoint.cursor, delivery: { ...attempt(e1!.id), responseBody: 'ünïcode ✓' }, outcome: { kind: 'delivered', claimUntil: T0 + TTL } });
      await hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: e1!.id, delivery: attempt(e2!.id, null), outcome: { kind: 'retry', at: T0 + 5_000, failingSince: T0 } });
      const log = await hooks.listDeliveries(account.id, endpoint.id, 10, null);
      expect(log.items.map((d) => [d.status, d.responseBody, d.resend])).toEqual([[null, null, false], [200, 'ünïcode ✓', false]]);
    });

    it('a resend is logged as one, and leaves the cursor and the retry state as they were; only for the account\'s own endpoint', async () => {
      const { account, endpoint } = await setup();
      const [e1, e2] = await append(account.id, 2);
      const [claim] = await hooks.claimDue('a', T0, TTL, 10);
      await hooks.recordAttempt({ endpointId: endpoint.id, token: claim!.token, cursor: endpoint.cursor, delivery: attempt(e1!.id, 500), outcome: { kind: 'retry', at: T0 + 5_000, failingSince: T0 } });
      const before = await hooks.getEndpoint(account.id, endpoint.id);
      const resend = { ...attempt(e2!.id, 202), at: T0 + 100, attempt: 0, responseBody: 'queued', resend: true };
      expect(await hooks.logResend(account.id, endpoint.id, resend)).toBe(true);
      expect(await hooks.getEndpoint(account.id, endpoint.id)).toEqual(before);
      expect(before).toMatchObject({ cursor: endpoint.cursor, attempt: 1, nextAttemptAt: T0 + 5_000, failingSince: T0 });
      const log = await hooks.listDeliveries(account.id, endpoint.id, 10, null);
      expect(log.items).toEqual([resend, { ...attempt(e1!.id, 500) }]);
      const other = await store.createAccount({ id: newId(), name: `other-${newId()}`, createdAt: T0 });
      expect(await hooks.logResend(other.id, endpoint.id, resend)).toBe(false);
      expect(await hooks.logResend(account.id, 'no-such-endpoint', resend)).toBe(false);
      expect((await hooks.listDeliveries(account.id, endpoint.id, 10, null)).items).toHaveLength(2);
    });

    it('every account\'s endpoints are listed by state: all, failing (enabled, retrying), disabled (either reason)', async () => {
      const healthy = await setup();
      const failing = await setup();
      const byFailure = await setup();
      const byOperator = await setup();
      const [f1] = await append(failing.account.id);
      const [d1] = await append(byFailure.account.id);
      const claims = await hooks.claimDue('a', T0, TTL, 10);
      const token = (id: string) => claims.find((c) => c.endpoint.id === id)!.token;
      await hooks.recordAttempt({ endpointId: failing.endpoint.id, token: token(failing.endpoint.id), cursor: failing.endpoint.cursor, delivery: attempt(f1!.id, 500), outcome: { kind: 'retry', at: T0 + 5_000, failingSince: T0 } });
      await hooks.recordAttempt({
        endpointId: byFailure.endpoint.id, token: token(byFailure.endpoint.id), cursor: byFailure.endpoint.cursor, delivery: attempt(d1!.id, 500),
        outcome: { kind: 'disable', failingSince: T0, event: () => ({ type: 'webhook.endpoint_disabled', time: T0, data: {} }) },
      });
      await hooks.updateEndpoint(byOperator.account.id, byOperator.endpoint.id, { enabled: false }, T0);
      const ids = async (state: 'all' | 'failing' | 'disabled') => (await hooks.listAllEndpoints(state)).map((e) => e.id).sort();
      expect(await ids('all')).toEqual([healthy, failing, byFailure, byOperator].map((s) => s.endpoint.id).sort());
      expect(await ids('failing')).toEqual([failing.endpoint.id]);
      expect(await ids('disabled')).toEqual([byFailure, byOperator].map((s) => s.endpoint.id).sort());
      // A replay clears the retry state: no longer failing.
      await hooks.replayEndpoint(failing.account.id, failing.endpoint.id, 0);
      expect(await ids('failing')).toEqual([]);
    });

    // Only a store that serves several replicas has this rule.
    if (replica) it('replicas claiming at once share the due endpoints: each is claimed by exactly one', async () => {
      const replicas = [store, await replica(store), await replica(store)];
      try {
        const endpoints = [];
        for (let i = 0; i < 12; i++) {
          const { account, endpoint } = await setup();
          await append(account.id);
          endpoints.push(endpoint.id);
        }
        const claims = (await Promise.all(Array.from({ length: 9 }, (_, i) => replicas[i % 3]!.webhooks!.claimDue(`w${i}`, T0, TTL, 4)))).flat();
        const claimed = claims.map((c) => c.endpoint.id);
        expect(new Set(claimed).size).toBe(claimed.length);
        expect(new Set(claimed)).toEqual(new Set(endpoints));
        expect(await hooks.claimDue('late', T0, TTL, 20)).toEqual([]);
      } finally {
        for (const r of replicas.slice(1)) await r.close();
      }
    });
  });
}
