import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { createIdSource } from '../src/ids.ts';
import type { PlatformEvent } from '@switchboard/contracts';
import { webhookStoreSuite } from './webhook-store.suite.ts';
import { transferStoreSuite } from './transfer-store.suite.ts';
import { StoreError, type AcceptResult, type CommandRecord, type Dispatched, type LinePolicies, type NewCommand, type QuietHours, type SettleResult, type Settlement, type Store } from '../src/store/types.ts';

const newId = createIdSource().next;

/**
 * What a store implementation offers the suite besides a fresh store. Every hook is optional; the
 * tests that need a missing one are skipped for that implementation.
 */
export interface StoreSuiteHooks {
  /** A second, independent connection to the same database: it sees only what was committed. */
  peer?(store: Store): Promise<Store>;
  /** Makes every transaction fail to begin until the returned function is called. */
  blockWrites?(store: Store): (() => void | Promise<void>) | Promise<() => void | Promise<void>>;
  /**
   * Issues, in the transaction of the current group (a write was already issued this turn), a
   * write that makes the COMMIT fail; returns that write's promise.
   */
  failCommit?(store: Store): Promise<unknown>;
  /** Writes issued in one event-loop turn share one transaction (the SQLite store's group commit). */
  groupCommit?: boolean;
  /** Another server replica on the same database (the PostgreSQL store): races between replicas. */
  replica?(store: Store): Promise<Store>;
}

const T0 = Date.UTC(2026, 0, 1);

/** A settlement's result in one word: `settled`, `repeated` (nothing written), or why it was refused. */
function outcome(result: SettleResult): string {
  return result.ok ? (result.value.event ? 'settled' : 'repeated') : result.error.reason;
}

let sequence = 0;
/**
 * Strictly increasing UUIDv7-shaped ids. The store orders commands and conversations by id; the
 * suite checks that ordering, not how the id source orders ids made within one millisecond.
 */
function orderedId(): string {
  return `01900000-0000-7000-8000-${(++sequence).toString(16).padStart(12, '0')}`;
}
const HOUR = 3_600_000;
/** The lease TTL of the suite's leases, which a dispatch renews them by. */
const TTL = 15_000;
/** What a dispatch handed out: its commands, or null when the epoch was not live. */
const handed = async (read: Promise<Dispatched | null>) => (await read)?.commands ?? null;
const hash = (text: string) => createHash('sha256').update(text).digest();
/** The command an acceptance queued or adopted (a refusal fails the test). */
function commandOf(result: AcceptResult): CommandRecord {
  if (result.disposition === 'refused') throw new Error(`refused: ${result.refusal.code}`);
  return result.command;
}

/**
 * The one suite every Store implementation passes (each store's test file runs it with its own
 * hooks): each rule of src/store/types.ts as a named test.
 */
export function storeSuite(name: string, factory: () => Promise<Store>, hooks: StoreSuiteHooks = {}): void {
  // A store that keeps webhooks passes their rules too.
  webhookStoreSuite(name, factory, hooks.replica);
  transferStoreSuite(name, factory, hooks.replica);
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    const opened: Store[] = [];

    beforeEach(async () => {
      store = await factory();
      opened.push(store);
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => undefined);
    });

    const peer = async () => {
      const p = await hooks.peer!(store);
      opened.push(p);
      return p;
    };

    async function account(name = `acct-${newId()}`) {
      return store.createAccount({ id: newId(), name, createdAt: T0 });
    }

    function newCommand(accountId: string, overrides: Partial<NewCommand> = {}): NewCommand {
      const id = orderedId();
      return {
        id,
        accountId,
        type: 'message.send',
        routingPath: 'agent-turn',
        target: { kind: 'conversation', conversationId: newId() },
        payload: { text: 'hello' },
        logicalActionId: overrides.idempotencyKey ?? id,
        idempotencyKey: null,
        conversationId: null,
        createdAt: T0,
        ...overrides,
      };
    }

    async function lease(accountId: string, hostId = 'host-a', now = T0, ttlMs = TTL) {
      const result = await store.acquireLease({ accountId, hostId, osMajorVersion: 15, capabilities: [] }, now, ttlMs);
      if (!result.ok) throw new Error(`lease held by ${result.error.holder.hostId}`);
      return result.value;
    }

    function settlement(accountId: string, commandId: string, epoch: number, overrides: Partial<Settlement> = {}): Settlement {
      return {
        accountId,
        commandId,
        epoch,
        status: 'succeeded',
        errorCode: null,
        errorMessage: null,
        errorPath: null,
        detail: null,
        at: T0 + 1_000,
        eventData: (c) => ({ commandId: c.id, status: c.status, errorCode: c.errorCode }),
        ...overrides,
      };
    }

    /** Reports platform events; each implied stream event carries the event's type and the conversation after it. */
    function report(accountId: string, events: PlatformEvent[], at = T0, id: () => string = newId) {
      return store.recordPlatformEvents(accountId, events, at, id, (event, c) => ({ type: event.type, time: at, data: { conversationId: c.id, membershipVersion: c.membershipVersion } }));
    }

    function appeared(externalId: string, overrides: Partial<Extract<PlatformEvent, { type: 'conversation.appeared' }>> = {}): PlatformEvent {
      return { type: 'conversation.appeared', externalId, conversationKind: 'group', name: 'Team', participants: ['+14155550123'], ...overrides };
    }

    describe('accounts', () => {
      it('creates, gets, finds by id or name and lists accounts in creation order', async () => {
        const a = await store.createAccount({ id: newId(), name: 'alpha', createdAt: T0 });
        const b = await store.createAccount({ id: newId(), name: 'beta', createdAt: T0 + 1 });
        expect(a).toEqual({ id: a.id, name: 'alpha', outboundPaused: false, createdAt: T0 });
        expect(await store.getAccount(a.id)).toEqual(a);
        expect(await store.getAccount('alpha')).toBeNull();
        expect(await store.findAccount('beta')).toEqual(b);
        expect(await store.findAccount(b.id)).toEqual(b);
        expect(await store.findAccount('gamma')).toBeNull();
        expect(await store.listAccounts()).toEqual([a, b]);
      });

      it('rejects a second account with the same name and keeps the first', async () => {
        const a = await account('same');
        await expect(store.createAccount({ id: newId(), name: 'same', createdAt: T0 })).rejects.toThrow();
        expect(await store.listAccounts()).toEqual([a]);
      });

      it('pauses outbound per account and for every account', async () => {
        const a = await account();
        const b = await account();
        expect(await store.isOutboundPaused(a.id)).toBe(false);
        await store.setOutboundPaused(a.id, true);
        expect(await store.isOutboundPaused(a.id)).toBe(true);
        expect(await store.isOutboundPaused(b.id)).toBe(false);
        expect((await store.getAccount(a.id))!.outboundPaused).toBe(true);
        await store.setOutboundPaused(null, true);
        expect(await store.isOutboundPaused(b.id)).toBe(true);
        await store.setOutboundPaused(a.id, false);
        expect(await store.isOutboundPaused(a.id)).toBe(true);
        await store.setOutboundPaused(null, false);
        expect(await store.isOutboundPaused(a.id)).toBe(false);
        expect(await store.isOutboundPaused(b.id)).toBe(false);
      });
    });

    describe('line policies', () => {
      const OFF: LinePolicies = { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false };
      const SOME: LinePolicies = { newContacts: { perHour: 5, perDay: null }, pacing: { perMinute: 3 }, loopBreaker: null, quietHours: null, firstContactApproval: false };

      it('every policy is off until set; a set replaces them all, per account', async () => {
        const a = await account();
        const b = await account();
        expect(await store.getPolicies(a.id)).toEqual(OFF);
        await store.setPolicies(a.id, SOME, T0);
        expect(await store.getPolicies(a.id)).toEqual(SOME);
        expect(await store.getPolicies(b.id)).toEqual(OFF);
        const next: LinePolicies = { newContacts: null, pacing: null, loopBreaker: { maxUnanswered: 4 }, quietHours: null, firstContactApproval: false };
        await store.setPolicies(a.id, next, T0 + 1);
        expect(await store.getPolicies(a.id)).toEqual(next);
        await store.setPolicies(a.id, OFF, T0 + 2);
        expect(await store.getPolicies(a.id)).toEqual(OFF);
      });

      it('a change made through another connection is seen at once, though "none" was read (and cached) before', async () => {
        if (!hooks.peer) return;
        const a = await account();
        const other = await peer();
        expect(await store.getPolicies(a.id)).toEqual(OFF);
        expect(await store.getPolicies(a.id)).toEqual(OFF);
        await other.setPolicies(a.id, SOME, T0);
        expect(await store.getPolicies(a.id)).toEqual(SOME);
        await other.setPolicies(a.id, OFF, T0 + 1);
        expect(await store.getPolicies(a.id)).toEqual(OFF);
      });
    });

    describe('line policies at acceptance', () => {
      /** An account with a direct conversation (+14155550123 in it) and `policies`. */
      async function policed(policies: Partial<LinePolicies>) {
        const a = await account();
        const reported = await report(a.id, [appeared('dm', { conversationKind: 'direct', name: null, participants: ['+1 415 555 0123'] })]);
        if (!reported.ok) throw new Error('refused');
        const conversationId = (reported.value.events[0]!.data as { conversationId: string }).conversationId;
        await store.setPolicies(a.id, { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false, ...policies }, T0);
        return { a, conversationId };
      }
      const sendTo = (accountId: string, conversationId: string, createdAt: number, overrides: Partial<NewCommand> = {}) =>
        newCommand(accountId, { target: { kind: 'conversation', conversationId }, conversationId, createdAt, ...overrides });
      const toRecipient = (accountId: string, address: string, createdAt = T0) =>
        newCommand(accountId, { routingPath: 'admin', target: { kind: 'recipient', recipientExternalId: address }, createdAt });

      it('pacing: the send past the limit is refused and nothing of it written; once the oldest leaves the minute, one more goes in', async () => {
        const { a, conversationId } = await policed({ pacing: { perMinute: 2 } });
        expect((await store.acceptCommand(sendTo(a.id, conversationId, T0), 0, true)).disposition).toBe('queued');
        expect((await store.acceptCommand(sendTo(a.id, conversationId, T0 + 10_000, { idempotencyKey: 'k2' }), 0, true)).disposition).toBe('queued');
        const third = sendTo(a.id, conversationId, T0 + 20_000, { idempotencyKey: 'k3' });
        expect(await store.acceptCommand(third, 0, true)).toEqual({
          disposition: 'refused', refusal: { code: 'pacing_limit', policy: 'pacing', limit: 2, window: 'minute', retryAfterMs: 40_000, newAddresses: 0 },
        });
        expect(await store.getCommand(a.id, third.id)).toBeNull();
        expect(await store.findIdempotentCommand(a.id, 'k3', 0)).toBeNull();
        expect((await store.acceptCommand(sendTo(a.id, conversationId, T0 + 60_000, { idempotencyKey: 'k3' }), 0, true)).disposition).toBe('queued');
      });

      it('an idempotent retry of an accepted command adopts it, spending nothing, though the limit is reached', async () => {
        const { a, conversationId } = await policed({ pacing: { perMinute: 1 } });
        const original = sendTo(a.id, conversationId, T0, { idempotencyKey: 'same' });
        expect((await store.acceptCommand(original, 0, true)).disposition).toBe('queued');
        const retry = await store.acceptCommand(sendTo(a.id, conversationId, T0 + 1, { idempotencyKey: 'same' }), 0, true);
        expect(retry.disposition).toBe('adopted');
        expect(commandOf(retry).id).toBe(original.id);
      });

      it('loop breaker: refused after the limit in a row; an inbound message in the conversation starts the count again', async () => {
        const { a, conversationId } = await policed({ loopBreaker: { maxUnanswered: 2 } });
        for (const at of [T0, T0 + 1]) expect((await store.acceptCommand(sendTo(a.id, conversationId, at), 0, true)).disposition).toBe('queued');
        expect(await store.acceptCommand(sendTo(a.id, conversationId, T0 + 2), 0, true)).toEqual({
          disposition: 'refused', refusal: { code: 'loop_breaker', policy: 'loopBreaker', limit: 2, window: null, retryAfterMs: null, newAddresses: 0 },
        });
        await report(a.id, [{ type: 'message.received', conversationExternalId: 'dm', messageExternalId: 'in-1', senderExternalId: '+14155550123', text: 'hi', attachments: [], receivedAt: new Date(T0 + 3).toISOString() }], T0 + 3);
        for (const at of [T0 + 4, T0 + 5]) expect((await store.acceptCommand(sendTo(a.id, conversationId, at), 0, true)).disposition).toBe('queued');
        expect((await store.acceptCommand(sendTo(a.id, conversationId, T0 + 6), 0, true)).disposition).toBe('refused');
      });

      it('new contacts: counted once per address, known participants never; the budget refuses the next new one', async () => {
        const { a } = await policed({ newContacts: { perHour: 1, perDay: null } });
        expect((await store.acceptCommand(toRecipient(a.id, '+14155550123'), 0, true)).disposition).toBe('queued');
        expect((await store.acceptCommand(toRecipient(a.id, '+14155550100'), 0, true)).disposition).toBe('queued');
        expect((await store.acceptCommand(toRecipient(a.id, '+14155550100', T0 + 1), 0, true)).disposition).toBe('queued');
        const refused = await store.acceptCommand(toRecipient(a.id, '+14155550101', T0 + 2), 0, true);
        expect(refused).toEqual({
          disposition: 'refused', refusal: { code: 'new_contact_limit', policy: 'newContacts', limit: 1, window: 'hour', retryAfterMs: HOUR - 2, newAddresses: 1 },
        });
        expect((await store.acceptCommand(toRecipient(a.id, '+14155550101', T0 + HOUR), 0, true)).disposition).toBe('queued');
      });

      it('concurrent new contacts with one unit left: exactly one is queued', async () => {
        const { a } = await policed({ newContacts: { perHour: 1, perDay: null } });
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
          store.acceptCommand(toRecipient(a.id, `+1415555020${i}`), 0, true)));
        expect(results.filter((r) => r.disposition === 'queued')).toHaveLength(1);
        expect(results.filter((r) => r.disposition === 'refused')).toHaveLength(9);
      });
    });

    describe('line policies: held commands', () => {
      /** Quiet from midnight until 06:00 UTC: quiet at T0 (midnight UTC), open from OPENS on. */
      const QUIET: QuietHours = { from: '00:00', until: '06:00', timeZone: 'UTC', conversationTimeZones: {} };
      const OPENS = T0 + 6 * HOUR;
      async function withPolicies(policies: Partial<LinePolicies>) {
        const a = await account();
        await store.setPolicies(a.id, { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false, ...policies }, T0);
        return a;
      }
      const toRecipient = (accountId: string, address: string, createdAt = T0) =>
        newCommand(accountId, { routingPath: 'admin', target: { kind: 'recipient', recipientExternalId: address }, createdAt });
      const settledData = (c: CommandRecord) => ({ commandId: c.id, status: c.status, errorCode: c.errorCode, errorMessage: c.errorMessage });
      const stream = async (accountId: string) => (await store.readEvents(accountId, 0, 100)).map((e) => ({ type: e.type, data: e.data }));
      const released = (results: Array<{ accountId: string; released: number }>, accountId: string) =>
        results.filter((r) => r.accountId === accountId).reduce((n, r) => n + r.released, 0);
      const ids = (commands: { id: string }[] | null) => commands!.map((c) => c.id);

      it('quiet hours: a command accepted in the window is held (queued underneath), with its command.held event; no poll hands it out; a retry adopts it held', async () => {
        const a = await withPolicies({ quietHours: QUIET });
        const l = await lease(a.id, 'host-a', T0, HOUR);
        const conversationId = newId();
        const c = newCommand(a.id, { target: { kind: 'conversation', conversationId }, conversationId, idempotencyKey: 'held-key', createdAt: T0 + 1_000 });
        const result = await store.acceptCommand(c, 0, true);
        const held = { id: c.id, status: 'held', heldBy: 'quietHours', heldAt: T0 + 1_000, releasedAt: null, settledAt: null };
        expect(result).toMatchObject({ disposition: 'queued', command: held });
        expect(await store.getCommand(a.id, c.id)).toMatchObject(held);
        expect(await stream(a.id)).toEqual([{ type: 'command.held', data: {
          commandId: c.id, commandType: 'message.send', policy: 'quietHours', conversationId, releasesAt: new Date(OPENS).toISOString(), reason: expect.any(String),
        } }]);
        expect(await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0 + 2_000, HOUR))).toEqual([]);
        expect(await store.commandHistory(c.id)).toEqual([{ status: 'held', at: T0 + 1_000 }]);
        const retry = await store.acceptCommand(newCommand(a.id, { target: { kind: 'conversation', conversationId }, conversationId, idempotencyKey: 'held-key', createdAt: T0 + 3_000 }), 0, true);
        expect(retry).toMatchObject({ disposition: 'adopted', command: held });
        expect(await store.policyCounts(a.id, conversationId, T0 + 3_000)).toEqual({
          firstContactsLastHour: 0, firstContactsLastDay: 0, held: { quietHours: 1, firstContactApproval: 0 }, conversation: { sendsLastMinute: 1, unanswered: 1 },
        });
      });

      it('quiet hours: once the window ends, releaseDueHolds releases each held command once, in order, with command.released; then it is dispatched and settles', async () => {
        const a = await withPolicies({ quietHours: QUIET });
        const other = await withPolicies({ quietHours: QUIET });
        const first = newCommand(a.id, { createdAt: T0 + 1 });
        const second = newCommand(a.id, { type: 'group.create', target: { kind: 'participants', participantExternalIds: ['+14155550100'] }, payload: {}, createdAt: T0 + 2 });
        for (const c of [first, second]) expect(commandOf(await store.acceptCommand(c, 0, true)).heldBy).toBe('quietHours');
        expect(await store.releaseDueHolds(OPENS - 1)).toEqual([]);
        expect((await store.getCommand(a.id, first.id))!.status).toBe('held');
        expect(await store.releaseDueHolds(OPENS)).toEqual([{ accountId: a.id, released: 2 }]);
        expect(await store.releaseDueHolds(OPENS + 1)).toEqual([]);
        expect(await store.getCommand(a.id, first.id)).toMatchObject({ status: 'queued', heldBy: null, heldAt: T0 + 1, releasedAt: OPENS });
        expect((await stream(a.id)).map((e) => [e.type, (e.data as { commandId: string }).commandId])).toEqual([
          ['command.held', first.id], ['command.held', second.id], ['command.released', first.id], ['command.released', second.id],
        ]);
        expect((await stream(a.id))[3]!.data).toEqual({ commandId: second.id, commandType: 'group.create', policy: 'quietHours', by: 'window' });
        expect(await stream(other.id)).toEqual([]);
        const l = await lease(a.id, 'host-a', OPENS);
        expect(ids(await handed(store.dispatchCommands(a.id, l.epoch, 10, [], OPENS, TTL)))).toEqual([first.id, second.id]);
        expect(outcome(await store.settleCommand(settlement(a.id, first.id, l.epoch, { at: OPENS + 1_000 })))).toBe('settled');
        expect(await store.commandHistory(first.id)).toEqual([{ status: 'held', at: T0 + 1 }, { status: 'queued', at: OPENS }, { status: 'succeeded', at: OPENS + 1_000 }]);
        expect(await store.commandHistory(second.id)).toEqual([{ status: 'held', at: T0 + 2 }, { status: 'queued', at: OPENS }]);
      });

      it('quiet hours: concurrent releases of one account release each command once', async () => {
        const a = await withPolicies({ quietHours: QUIET });
        for (let i = 0; i < 5; i++) await store.acceptCommand(newCommand(a.id, { createdAt: T0 + i }), 0, true);
        const results = await Promise.all(Array.from({ length: 4 }, () => store.releaseDueHolds(OPENS)));
        expect(released(results.flat(), a.id)).toBe(5);
        expect((await stream(a.id)).filter((e) => e.type === 'command.released')).toHaveLength(5);
      });

      it('quiet hours: intake releases the due holds first, so a command accepted after the window goes out after them', async () => {
        const a = await withPolicies({ quietHours: QUIET });
        const held = newCommand(a.id, { createdAt: T0 });
        await store.acceptCommand(held, 0, true);
        const after = newCommand(a.id, { createdAt: OPENS + 5 });
        const result = await store.acceptCommand(after, 0, true);
        expect(result).toMatchObject({ disposition: 'queued', released: 1, command: { status: 'queued', heldBy: null, heldAt: null } });
        expect((await stream(a.id)).map((e) => [e.type, (e.data as { commandId: string }).commandId])).toEqual([['command.held', held.id], ['command.released', held.id]]);
        expect(await store.getCommand(a.id, held.id)).toMatchObject({ status: 'queued', releasedAt: OPENS + 5 });
        expect(await store.releaseDueHolds(OPENS + 10)).toEqual([]);
        const l = await lease(a.id, 'host-a', OPENS + 10);
        expect(ids(await handed(store.dispatchCommands(a.id, l.epoch, 10, [], OPENS + 10, TTL)))).toEqual([held.id, after.id]);
      });

      it('quiet hours turned off release what they hold (by policy_change) with the change itself', async () => {
        const a = await withPolicies({ quietHours: QUIET });
        const c = newCommand(a.id, { createdAt: T0 });
        await store.acceptCommand(c, 0, true);
        // Changed but still quiet: nothing goes.
        expect(await store.setPolicies(a.id, { newContacts: null, pacing: { perMinute: 5 }, loopBreaker: null, quietHours: QUIET, firstContactApproval: false }, T0 + 5)).toBe(0);
        expect(await store.setPolicies(a.id, { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false }, T0 + 10)).toBe(1);
        expect((await stream(a.id)).at(-1)).toEqual({ type: 'command.released', data: { commandId: c.id, commandType: 'message.send', policy: 'quietHours', by: 'policy_change' } });
        expect(await store.getCommand(a.id, c.id)).toMatchObject({ status: 'queued', releasedAt: T0 + 10 });
        expect(await store.releaseDueHolds(T0 + 20)).toEqual([]);
      });

      it('first-contact approval: a first message to an address is held, and so is the next one to it; only an operator releases them', async () => {
        const a = await withPolicies({ firstContactApproval: true });
        const first = toRecipient(a.id, '+14155550100', T0);
        const second = toRecipient(a.id, '+1 415 555 0100', T0 + 1);
        expect(commandOf(await store.acceptCommand(first, 0, true))).toMatchObject({ status: 'held', heldBy: 'firstContactApproval', heldAt: T0 });
        expect(commandOf(await store.acceptCommand(second, 0, true))).toMatchObject({ status: 'held', heldBy: 'firstContactApproval', heldAt: T0 + 1 });
        expect((await stream(a.id))[0]).toEqual({ type: 'command.held', data: {
          commandId: first.id, commandType: 'message.send', policy: 'firstContactApproval', conversationId: null, releasesAt: null, reason: expect.any(String),
        } });
        expect(await store.policyCounts(a.id, null, T0 + 2)).toEqual({
          firstContactsLastHour: 1, firstContactsLastDay: 1, held: { quietHours: 0, firstContactApproval: 2 }, conversation: null,
        });
        // The window job leaves them to an operator.
        expect(await store.releaseDueHolds(T0 + HOUR)).toEqual([]);
        const release = await store.releaseHeld(first.id, T0 + 10);
        expect(release).toMatchObject({ ok: true, value: { id: first.id, status: 'queued', heldBy: null, heldAt: T0, releasedAt: T0 + 10 } });
        expect((await stream(a.id)).at(-1)).toEqual({ type: 'command.released', data: { commandId: first.id, commandType: 'message.send', policy: 'firstContactApproval', by: 'operator' } });
        expect(await store.releaseHeld(first.id, T0 + 11)).toEqual({ ok: false, error: 'not_held' });
        const l = await lease(a.id, 'host-a', T0 + 10);
        expect(ids(await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0 + 10, TTL)))).toEqual([first.id]);
        // Approved: the address is known now, and the next send to it goes straight out.
        expect(commandOf(await store.acceptCommand(toRecipient(a.id, '+14155550100', T0 + 20), 0, true))).toMatchObject({ status: 'queued', heldBy: null });
        expect((await store.releaseHeld(second.id, T0 + 30)).ok).toBe(true);
        expect(await store.commandHistory(second.id)).toEqual([{ status: 'held', at: T0 + 1 }, { status: 'queued', at: T0 + 30 }]);
        expect((await store.policyCounts(a.id, null, T0 + 30)).held).toEqual({ quietHours: 0, firstContactApproval: 0 });
      });

      it('first-contact approval: a rejection settles it failed with the reason and a command.settled event, and gives the first-contact unit back', async () => {
        const a = await withPolicies({ firstContactApproval: true, newContacts: { perHour: 1, perDay: null } });
        const first = toRecipient(a.id, '+14155550100', T0);
        await store.acceptCommand(first, 0, true);
        expect((await store.policyCounts(a.id, null, T0 + 1)).firstContactsLastHour).toBe(1);
        expect((await store.acceptCommand(toRecipient(a.id, '+14155550101', T0 + 1), 0, true)).disposition).toBe('refused');
        const rejected = await store.rejectHeld(first.id, 'not this one', T0 + 2, settledData);
        const failed = { id: first.id, status: 'failed', heldBy: null, errorCode: 'first_contact_rejected', errorMessage: 'not this one', settledAt: T0 + 2 };
        expect(rejected).toMatchObject({ ok: true, value: failed });
        expect(await store.getCommand(a.id, first.id)).toMatchObject(failed);
        expect((await stream(a.id)).at(-1)).toEqual({ type: 'command.settled', data: { commandId: first.id, status: 'failed', errorCode: 'first_contact_rejected', errorMessage: 'not this one' } });
        expect(await store.commandHistory(first.id)).toEqual([{ status: 'held', at: T0 }, { status: 'failed', at: T0 + 2 }]);
        expect(await store.policyCounts(a.id, null, T0 + 3)).toMatchObject({ firstContactsLastHour: 0, held: { quietHours: 0, firstContactApproval: 0 } });
        expect(await store.rejectHeld(first.id, null, T0 + 3, settledData)).toEqual({ ok: false, error: 'not_held' });
        expect(await store.releaseHeld(first.id, T0 + 3)).toEqual({ ok: false, error: 'not_held' });
        // The unit is back: another new address goes in (held, as a first contact).
        expect(commandOf(await store.acceptCommand(toRecipient(a.id, '+14155550101', T0 + 4), 0, true))).toMatchObject({ status: 'held', heldBy: 'firstContactApproval' });
        // The rejected address is new again.
        expect((await store.acceptCommand(toRecipient(a.id, '+14155550100', T0 + 5), 0, true)).disposition).toBe('refused');
      });

      it('a second send held behind a rejected first contact becomes the first contact once released', async () => {
        const a = await withPolicies({ firstContactApproval: true });
        const first = toRecipient(a.id, '+14155550100', T0);
        const second = toRecipient(a.id, '+14155550100', T0 + 1);
        await store.acceptCommand(first, 0, true);
        await store.acceptCommand(second, 0, true);
        expect((await store.rejectHeld(first.id, 'no', T0 + 2, settledData)).ok).toBe(true);
        expect((await store.policyCounts(a.id, null, T0 + 2)).firstContactsLastHour).toBe(0);
        expect((await store.getCommand(a.id, second.id))!.heldBy).toBe('firstContactApproval');
        expect((await store.releaseHeld(second.id, T0 + 3)).ok).toBe(true);
        expect((await store.policyCounts(a.id, null, T0 + 3)).firstContactsLastHour).toBe(1);
        expect(commandOf(await store.acceptCommand(toRecipient(a.id, '+14155550100', T0 + 4), 0, true)).heldBy).toBeNull();
      });

      it('a first contact approved during quiet hours is held again, by quiet hours (a second command.held), until the window ends', async () => {
        const a = await withPolicies({ firstContactApproval: true, quietHours: QUIET });
        const c = toRecipient(a.id, '+14155550100', T0);
        expect(commandOf(await store.acceptCommand(c, 0, true))).toMatchObject({ status: 'held', heldBy: 'firstContactApproval' });
        const approved = await store.releaseHeld(c.id, T0 + HOUR);
        expect(approved).toMatchObject({ ok: true, value: { status: 'held', heldBy: 'quietHours', heldAt: T0, releasedAt: null } });
        const events = await stream(a.id);
        expect(events.map((e) => [e.type, (e.data as { policy: string }).policy])).toEqual([['command.held', 'firstContactApproval'], ['command.held', 'quietHours']]);
        expect((events[1]!.data as { releasesAt: string }).releasesAt).toBe(new Date(OPENS).toISOString());
        expect((await store.policyCounts(a.id, null, T0 + HOUR)).held).toEqual({ quietHours: 1, firstContactApproval: 0 });
        expect(await store.releaseDueHolds(OPENS)).toEqual([{ accountId: a.id, released: 1 }]);
        expect(await store.commandHistory(c.id)).toEqual([{ status: 'held', at: T0 }, { status: 'queued', at: OPENS }]);
      });

      it('a quiet-hours hold an operator rejects settles failed with quiet_hours_rejected', async () => {
        const a = await withPolicies({ quietHours: QUIET });
        const c = newCommand(a.id, { createdAt: T0 });
        await store.acceptCommand(c, 0, true);
        expect(await store.rejectHeld(c.id, null, T0 + 5, settledData)).toMatchObject({ ok: true, value: { status: 'failed', errorCode: 'quiet_hours_rejected', errorMessage: null } });
        expect(await store.releaseDueHolds(OPENS)).toEqual([]);
      });

      it('releasing or rejecting a command that is not held: not_held; an unknown id: not_found', async () => {
        const a = await account();
        const c = newCommand(a.id);
        await store.acceptCommand(c, 0);
        expect(await store.releaseHeld(c.id, T0)).toEqual({ ok: false, error: 'not_held' });
        expect(await store.rejectHeld(c.id, 'no', T0, settledData)).toEqual({ ok: false, error: 'not_held' });
        expect(await store.releaseHeld(orderedId(), T0)).toEqual({ ok: false, error: 'not_found' });
        expect(await store.rejectHeld(orderedId(), 'no', T0, settledData)).toEqual({ ok: false, error: 'not_found' });
        expect(await store.getCommand(a.id, c.id)).toMatchObject({ status: 'queued', heldBy: null, releasedAt: null });
        expect(await store.readEvents(a.id, 0, 10)).toEqual([]);
      });
    });

    describe('credentials', () => {
      it('finds a credential by the hash of its secret, never by anything else', async () => {
        const a = await account();
        const created = await store.createCredential({ id: newId(), accountId: a.id, kind: 'account', prefix: 'sb_abcdef', label: 'ci', createdAt: T0, hash: hash('secret-1') });
        expect(created).toEqual({ id: created.id, accountId: a.id, kind: 'account', prefix: 'sb_abcdef', label: 'ci', createdAt: T0, revokedAt: null });
        const found = await store.findCredentialByHash(hash('secret-1'));
        expect(found).toMatchObject(created);
        expect(Buffer.from(found!.hash).equals(hash('secret-1'))).toBe(true);
        expect(await store.findCredentialByHash(hash('secret-2'))).toBeNull();
        expect(await store.findCredentialByHash(Buffer.alloc(0))).toBeNull();
      });

      it('lists an account\'s credentials without their hashes', async () => {
        const a = await account();
        const b = await account();
        const one = await store.createCredential({ id: newId(), accountId: a.id, kind: 'account', prefix: 'sb_1', label: '', createdAt: T0, hash: hash('1') });
        const two = await store.createCredential({ id: newId(), accountId: a.id, kind: 'connector', prefix: 'sbc_2', label: 'host', createdAt: T0 + 1, hash: hash('2') });
        await store.createCredential({ id: newId(), accountId: b.id, kind: 'account', prefix: 'sb_3', label: '', createdAt: T0, hash: hash('3') });
        const listed = await store.listCredentials(a.id);
        expect(listed).toEqual([one, two]);
        for (const credential of listed) expect(credential).not.toHaveProperty('hash');
      });

      it('a revoked credential is found no more; revocation keeps its first time', async () => {
        const a = await account();
        const c = await store.createCredential({ id: newId(), accountId: a.id, kind: 'account', prefix: 'sb_1', label: '', createdAt: T0, hash: hash('revoke-me') });
        const revoked = await store.revokeCredential(c.id, T0 + 5);
        expect(revoked).toEqual({ ...c, revokedAt: T0 + 5 });
        expect(await store.findCredentialByHash(hash('revoke-me'))).toBeNull();
        expect(await store.revokeCredential(c.id, T0 + 9)).toEqual({ ...c, revokedAt: T0 + 5 });
        expect(await store.listCredentials(a.id)).toEqual([{ ...c, revokedAt: T0 + 5 }]);
        expect(await store.revokeCredential(newId(), T0)).toBeNull();
      });
    });

    describe('conversations and platform events', () => {
      it('a conversation appears once per externalId within the account, with one event', async () => {
        const a = await account();
        const b = await account();
        const first = await report(a.id, [appeared('chat-1', { participants: ['+14155550123', 'dana@example.com'] })]);
        if (!first.ok) throw new Error('refused');
        expect(first.value.events.map((e) => e.type)).toEqual(['conversation.appeared']);
        const id = (first.value.events[0]!.data as { conversationId: string }).conversationId;
        const created = { id, accountId: a.id, externalId: 'chat-1', kind: 'group', name: 'Team', participants: ['+14155550123', 'dana@example.com'], membershipVersion: 0, createdAt: T0 };
        expect(await store.getConversation(a.id, id)).toEqual(created);
        expect(await report(a.id, [appeared('chat-1', { name: 'Other', participants: [] })], T0 + 1)).toEqual({ ok: true, value: { recorded: 1, events: [] } });
        expect(await store.getConversation(a.id, id)).toEqual(created);
        const elsewhere = await report(b.id, [appeared('chat-1')]);
        expect(elsewhere.ok && elsewhere.value.events).toHaveLength(1);
        expect(await store.getConversation(b.id, id)).toBeNull();
        expect(await store.findConversationByExternalId(a.id, 'chat-1')).toEqual(created);
        expect(await store.findConversationByExternalId(a.id, 'chat-2')).toBeNull();
        expect(await store.readEvents(a.id, 0, 10)).toHaveLength(1);
      });

      it('concurrent reports of one conversation make one conversation and one event', async () => {
        const a = await account();
        const results = await Promise.all(Array.from({ length: 10 }, () => report(a.id, [appeared('chat-race')])));
        expect(results.flatMap((r) => (r.ok ? r.value.events : []))).toHaveLength(1);
        expect(await store.readEvents(a.id, 0, 10)).toHaveLength(1);
      });

      it('lists newest first and pages with the cursor', async () => {
        const a = await account();
        const other = await account();
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const id = orderedId();
          await report(a.id, [appeared(`c${i}`)], T0 + i, () => id);
          ids.push(id);
        }
        await report(other.id, [appeared('x')], T0 + 9);
        const newestFirst = [...ids].reverse();
        const first = await store.listConversations(a.id, 2, null);
        expect(first.items.map((c) => c.id)).toEqual(newestFirst.slice(0, 2));
        expect(first.nextCursor).toBe(newestFirst[1]);
        const second = await store.listConversations(a.id, 2, first.nextCursor);
        expect(second.items.map((c) => c.id)).toEqual(newestFirst.slice(2, 4));
        const third = await store.listConversations(a.id, 2, second.nextCursor);
        expect(third.items.map((c) => c.id)).toEqual(newestFirst.slice(4));
        expect(third.nextCursor).toBeNull();
        const exact = await store.listConversations(a.id, 5, null);
        expect(exact.items).toHaveLength(5);
        expect(exact.nextCursor).toBeNull();
      });

      it('a rename or a membership change applies once: repeated, it adds no event and no membership version', async () => {
        const a = await account();
        await report(a.id, [appeared('g', { name: 'Old', participants: ['a@example.com'] })]);
        const renamed: PlatformEvent = { type: 'group.renamed', conversationExternalId: 'g', name: 'New' };
        const changed: PlatformEvent = { type: 'group.participants_changed', conversationExternalId: 'g', added: ['b@example.com'], removed: [], participants: ['a@example.com', 'b@example.com'] };
        const once = await report(a.id, [renamed, changed]);
        expect(once.ok && once.value.events.map((e) => [e.type, e.data])).toEqual([
          ['group.renamed', { conversationId: expect.any(String), membershipVersion: 0 }],
          ['group.participants_changed', { conversationId: expect.any(String), membershipVersion: 1 }],
        ]);
        expect(await report(a.id, [renamed, changed])).toEqual({ ok: true, value: { recorded: 2, events: [] } });
        // The same members in another order are the membership it already has.
        expect(await report(a.id, [{ ...changed, added: [], participants: ['b@example.com', 'a@example.com'] }])).toEqual({ ok: true, value: { recorded: 1, events: [] } });
        expect(await store.findConversationByExternalId(a.id, 'g')).toMatchObject({ name: 'New', participants: ['a@example.com', 'b@example.com'], membershipVersion: 1 });
        const left = await report(a.id, [{ ...changed, added: [], removed: ['a@example.com'], participants: ['b@example.com'] }]);
        expect(left.ok && left.value.events[0]!.data).toMatchObject({ membershipVersion: 2 });
        expect(await store.readEvents(a.id, 0, 10)).toHaveLength(4);
      });

      it('a re-reported batch of group changes made by commands applies once, in any order of repeats', async () => {
        const a = await account();
        await report(a.id, [appeared('g', { name: 'Start', participants: ['a@example.com'] })]);
        const batch: PlatformEvent[] = [
          { type: 'group.renamed', conversationExternalId: 'g', name: 'A', commandId: newId() },
          { type: 'group.renamed', conversationExternalId: 'g', name: 'B', commandId: newId() },
          { type: 'group.participants_changed', conversationExternalId: 'g', added: ['b@example.com'], removed: [], participants: ['a@example.com', 'b@example.com'], commandId: newId() },
          { type: 'group.participants_changed', conversationExternalId: 'g', added: [], removed: ['a@example.com'], participants: ['b@example.com'], commandId: newId() },
        ];
        const first = await report(a.id, batch);
        expect(first.ok && first.value.events).toHaveLength(4);
        expect(await report(a.id, batch)).toEqual({ ok: true, value: { recorded: 4, events: [] } });
        expect(await report(a.id, batch.slice(1))).toEqual({ ok: true, value: { recorded: 3, events: [] } });
        expect(await store.findConversationByExternalId(a.id, 'g')).toMatchObject({ name: 'B', participants: ['b@example.com'], membershipVersion: 2 });
        expect(await store.readEvents(a.id, 0, 10)).toHaveLength(5);
      });

      it('a message is recorded once per conversation, messageExternalId and type', async () => {
        const a = await account();
        await report(a.id, [appeared('dm', { conversationKind: 'direct' }), appeared('other', { conversationKind: 'direct' })]);
        const sent: PlatformEvent = { type: 'message.sent', conversationExternalId: 'dm', messageExternalId: 'm1', commandId: newId() };
        const received: PlatformEvent = { type: 'message.received', conversationExternalId: 'dm', messageExternalId: 'm1', senderExternalId: '+14155550123', text: 'hi', attachments: [], receivedAt: new Date(T0).toISOString() };
        const first = await report(a.id, [sent, received, { ...sent, conversationExternalId: 'other' }]);
        expect(first.ok && first.value.events.map((e) => e.type)).toEqual(['message.sent', 'message.received', 'message.sent']);
        const again = await Promise.all([report(a.id, [sent]), report(a.id, [received, sent])]);
        expect(again.flatMap((r) => (r.ok ? r.value.events : []))).toEqual([]);
        expect(await store.readEvents(a.id, 0, 10)).toHaveLength(5);
      });

      it('a batch naming an unknown conversation records nothing of the batch', async () => {
        const a = await account();
        const c = newCommand(a.id, { routingPath: 'admin', target: { kind: 'recipient', recipientExternalId: '+14155550123' } });
        await store.acceptCommand(c, 0);
        const result = await report(a.id, [
          appeared('new', { commandId: c.id }),
          { type: 'message.sent', conversationExternalId: 'new', messageExternalId: 'm1', commandId: c.id },
          { type: 'group.renamed', conversationExternalId: 'nobody', name: 'x' },
        ]);
        expect(result).toEqual({ ok: false, error: { unknownConversation: 'nobody' } });
        expect(await store.findConversationByExternalId(a.id, 'new')).toBeNull();
        expect((await store.getCommand(a.id, c.id))!.conversationId).toBeNull();
        expect(await store.readEvents(a.id, 0, 10)).toEqual([]);
        // The same conversation announced earlier in the batch is known to the events after it.
        const ok = await report(a.id, [appeared('new', { commandId: c.id }), { type: 'message.sent', conversationExternalId: 'new', messageExternalId: 'm1', commandId: c.id }]);
        expect(ok.ok && ok.value.events.map((e) => e.type)).toEqual(['conversation.appeared', 'message.sent']);
      });

      it('links the command that made a conversation, once', async () => {
        const a = await account();
        const c = newCommand(a.id, { routingPath: 'admin', target: { kind: 'recipient', recipientExternalId: '+14155550123' } });
        await store.acceptCommand(c, 0);
        await report(a.id, [appeared('first', { commandId: c.id })]);
        await report(a.id, [appeared('second', { commandId: c.id })]);
        expect((await store.getCommand(a.id, c.id))!.conversationId).toBe((await store.findConversationByExternalId(a.id, 'first'))!.id);
      });
    });

    describe('polls', () => {
      const options = ['Tacos', 'Sushi', 'Tacos'];
      type Vote = Extract<PlatformEvent, { type: 'poll.voted' }>;
      const vote = (voterExternalId: string, optionIndex: number | null, at: number, pollMessageExternalId = 'poll-msg'): Vote =>
        ({ type: 'poll.voted', conversationExternalId: 'g', pollMessageExternalId, voterExternalId, optionIndex, votedAt: new Date(at).toISOString() });

      /** Reports events; a vote's stream event carries the change the store says it made. */
      function reportVotes(accountId: string, events: PlatformEvent[]) {
        return store.recordPlatformEvents(accountId, events, T0, newId, (event, c, change) => ({
          type: event.type,
          time: T0,
          data: event.type === 'poll.voted'
            ? { pollId: change!.poll.id, voter: event.voterExternalId, optionIndex: event.optionIndex, previousOptionIndex: change!.previousOptionIndex }
            : { conversationId: c.id },
        }));
      }

      /** A group `g` with a poll sent by a command and confirmed as `poll-msg`, and a plain message `plain-msg`. */
      async function sentPoll(accountId: string) {
        const poll = newCommand(accountId, { payload: { kind: 'poll', question: 'Lunch?', options } });
        const plain = newCommand(accountId);
        await store.acceptCommand(poll, 0);
        await store.acceptCommand(plain, 0);
        await report(accountId, [
          appeared('g', { participants: ['a@example.com', 'b@example.com'] }),
          { type: 'message.sent', conversationExternalId: 'g', messageExternalId: 'poll-msg', commandId: poll.id },
          { type: 'message.sent', conversationExternalId: 'g', messageExternalId: 'plain-msg', commandId: plain.id },
        ], T0 + 5);
        const conversationId = (await store.findConversationByExternalId(accountId, 'g'))!.id;
        return { pollId: poll.id, plainId: plain.id, conversationId };
      }

      it('a confirmed poll send makes a poll, read by its command id in its own account only; a plain message, an unconfirmed poll or another account\'s is none', async () => {
        const a = await account();
        const b = await account();
        const { pollId, plainId, conversationId } = await sentPoll(a.id);
        expect(await store.getPoll(a.id, pollId)).toEqual({
          id: pollId, accountId: a.id, conversationId, messageExternalId: 'poll-msg', question: 'Lunch?', options, sentAt: T0 + 5, votes: [],
        });
        expect(await store.getPoll(a.id, plainId)).toBeNull();
        expect(await store.getPoll(b.id, pollId)).toBeNull();
        expect(await store.getPoll(a.id, newId())).toBeNull();
        const queued = newCommand(a.id, { payload: { kind: 'poll', question: 'Later?', options: ['y', 'n'] } });
        await store.acceptCommand(queued, 0);
        expect(await store.getPoll(a.id, queued.id)).toBeNull();
      });

      it('a poll goes with the command that sent it, when retention drops that command', async () => {
        const a = await account();
        const { pollId, plainId } = await sentPoll(a.id);
        await reportVotes(a.id, [vote('a@example.com', 0, T0 + 6)]);
        const l = await lease(a.id, 'host-a', T0 + 7, 600_000);
        await handed(store.dispatchCommands(a.id, l.epoch, 100, [], T0 + 7, TTL));
        expect(outcome(await store.settleCommand(settlement(a.id, pollId, l.epoch, { at: T0 + 7 })))).toBe('settled');
        expect(await store.getPoll(a.id, pollId)).toMatchObject({ votes: [expect.objectContaining({ voterExternalId: 'a@example.com' })] });
        expect(await store.purgeCommands(T0 + 8, 100)).toBe(1);
        expect(await store.getPoll(a.id, pollId)).toBeNull();
        expect(await store.getCommand(a.id, plainId)).toMatchObject({ status: 'queued' });
      });

      it('cast, changed and withdrawn each apply once with the choice before; a repeat, an older vote, an unknown option or a vote on a message that is no poll changes nothing', async () => {
        const a = await account();
        const { pollId } = await sentPoll(a.id);
        const first = await reportVotes(a.id, [vote('a@example.com', 0, T0 + 10), vote('b@example.com', 1, T0 + 11), vote('a@example.com', 2, T0 + 12)]);
        expect(first.ok && first.value.events.map((e) => e.data)).toEqual([
          { pollId, voter: 'a@example.com', optionIndex: 0, previousOptionIndex: null },
          { pollId, voter: 'b@example.com', optionIndex: 1, previousOptionIndex: null },
          { pollId, voter: 'a@example.com', optionIndex: 2, previousOptionIndex: 0 },
        ]);
        const nothing = await reportVotes(a.id, [
          vote('a@example.com', 0, T0 + 10), // re-reported, and older than the vote held
          vote('a@example.com', 2, T0 + 12), // the vote held
          vote('b@example.com', 3, T0 + 20), // no such option
          vote('b@example.com', 0, T0 + 20, 'plain-msg'), // not a poll
          vote('b@example.com', 0, T0 + 20, 'unknown-msg'),
        ]);
        expect(nothing).toEqual({ ok: true, value: { recorded: 5, events: [] } });
        expect((await store.getPoll(a.id, pollId))!.votes).toEqual([
          { voterExternalId: 'b@example.com', optionIndex: 1, votedAt: T0 + 11 },
          { voterExternalId: 'a@example.com', optionIndex: 2, votedAt: T0 + 12 },
        ]);
        const withdrawn = await reportVotes(a.id, [vote('b@example.com', null, T0 + 30), vote('b@example.com', null, T0 + 31), vote('b@example.com', 1, T0 + 29)]);
        expect(withdrawn.ok && withdrawn.value.events.map((e) => e.data)).toEqual([{ pollId, voter: 'b@example.com', optionIndex: null, previousOptionIndex: 1 }]);
        expect((await store.getPoll(a.id, pollId))!.votes).toEqual([{ voterExternalId: 'a@example.com', optionIndex: 2, votedAt: T0 + 12 }]);
        // A withdrawal with no vote held changes nothing either.
        expect(await reportVotes(a.id, [vote('c@example.com', null, T0 + 40)])).toEqual({ ok: true, value: { recorded: 1, events: [] } });
      });

      it('concurrent reports of one vote apply it once', async () => {
        const a = await account();
        await sentPoll(a.id);
        const results = await Promise.all(Array.from({ length: 10 }, () => reportVotes(a.id, [vote('a@example.com', 1, T0 + 10)])));
        expect(results.flatMap((r) => (r.ok ? r.value.events : []))).toHaveLength(1);
      });
    });

    describe('messages: what became of each', () => {
      /** Stream events carry the event's type and, for a message's state, the command the message row names. */
      function reportStates(accountId: string, events: PlatformEvent[], at = T0) {
        return store.recordPlatformEvents(accountId, events, at, newId, (event, c, _vote, message) => ({
          type: event.type, time: at, data: { conversationId: c.id, commandId: message?.commandId ?? null, text: message?.text ?? null },
        }));
      }
      const time = (ms: number) => new Date(T0 + ms).toISOString();
      const delivered = (id: string, ms = 2_000): PlatformEvent => ({ type: 'message.delivered', conversationExternalId: 'dm', messageExternalId: id, deliveredAt: time(ms) });
      const read = (id: string, ms = 3_000): PlatformEvent => ({ type: 'message.read', conversationExternalId: 'dm', messageExternalId: id, readAt: time(ms) });
      const failed = (id: string): PlatformEvent => ({ type: 'message.failed', conversationExternalId: 'dm', messageExternalId: id, reason: 'not_delivered', platformMessage: 'Not Delivered', failedAt: time(4_000) });
      const typesOf = (r: Awaited<ReturnType<typeof reportStates>>) => (r.ok ? r.value.events.map((e) => e.type) : r);

      async function sentMessage(accountId: string, messageExternalId: string, text = 'Yes, it ships today!') {
        const c = newCommand(accountId, { payload: { text } });
        await store.acceptCommand(c, 0);
        await reportStates(accountId, [appeared('dm', { conversationKind: 'direct', name: null }), { type: 'message.sent', conversationExternalId: 'dm', messageExternalId, commandId: c.id }], T0 + 1_000);
        return c.id;
      }

      it('a message is sent, delivered and read, each once however often reported; the command reads its message', async () => {
        const a = await account();
        const commandId = await sentMessage(a.id, 'm1');
        const first = await reportStates(a.id, [delivered('m1'), read('m1')], T0 + 5_000);
        expect(first.ok && first.value.events.map((e) => [e.type, (e.data as { commandId: string }).commandId])).toEqual([['message.delivered', commandId], ['message.read', commandId]]);
        // The catch-up re-reads what webhooks brought, later times and all: nothing new.
        expect(typesOf(await reportStates(a.id, [delivered('m1', 9_000), read('m1', 9_500), { type: 'message.sent', conversationExternalId: 'dm', messageExternalId: 'm1', commandId }]))).toEqual([]);
        const conversationId = (await store.findConversationByExternalId(a.id, 'dm'))!.id;
        expect(await store.getMessageOfCommand(a.id, commandId)).toEqual({
          accountId: a.id, conversationId, messageExternalId: 'm1', direction: 'outbound', commandId, senderExternalId: null, text: 'Yes, it ships today!', attachments: [],
          sentAt: T0 + 1_000, deliveredAt: T0 + 2_000, readAt: T0 + 3_000, failedAt: null, failure: null, editedAt: null, unsentAt: null, recordedAt: T0 + 1_000,
        });
        expect(await store.getMessageOfCommand(a.id, newId())).toBeNull();
        expect(await store.getMessageOfCommand((await account()).id, commandId)).toBeNull();
      });

      it('a message that fails after its echo says so once, naming its command; a state reported for an unknown message makes its row', async () => {
        const a = await account();
        const commandId = await sentMessage(a.id, 'm1');
        const result = await reportStates(a.id, [failed('m1'), failed('m1')]);
        expect(result.ok && result.value.events.map((e) => e.data)).toEqual([{ conversationId: expect.any(String), commandId, text: 'Yes, it ships today!' }]);
        expect(await store.getMessageOfCommand(a.id, commandId)).toMatchObject({ failedAt: T0 + 4_000, failure: { reason: 'not_delivered', platformMessage: 'Not Delivered' } });
        expect(typesOf(await reportStates(a.id, [delivered('elsewhere')]))).toEqual(['message.delivered']);
        const conversationId = (await store.findConversationByExternalId(a.id, 'dm'))!.id;
        const page = await store.listMessages(a.id, conversationId, 10, null);
        expect(page.items.find((m) => m.messageExternalId === 'elsewhere')).toMatchObject({ direction: 'outbound', commandId: null, deliveredAt: T0 + 2_000, sentAt: null });
      });

      it('tapbacks added and removed, edits and unsends: each once', async () => {
        const a = await account();
        await sentMessage(a.id, 'm1');
        const tapback = (id: string, action: 'added' | 'removed'): PlatformEvent => ({
          type: 'message.reaction', conversationExternalId: 'dm', reactionExternalId: id, messageExternalId: 'm1', senderExternalId: '+14155550123', reaction: 'love', action, reactedAt: time(5_000),
        });
        const received: PlatformEvent = { type: 'message.received', conversationExternalId: 'dm', messageExternalId: 'in1', senderExternalId: '+14155550123', text: 'hi', attachments: [], receivedAt: time(6_000) };
        const edit = (ms: number, text: string): PlatformEvent => ({ type: 'message.edited', conversationExternalId: 'dm', messageExternalId: 'in1', senderExternalId: '+14155550123', text, editedAt: time(ms) });
        const batch = [tapback('r1', 'added'), tapback('r2', 'removed'), received, edit(7_000, 'hey'), edit(8_000, 'hello'), { type: 'message.unsent', conversationExternalId: 'dm', messageExternalId: 'in1', senderExternalId: '+14155550123', unsentAt: time(9_000) } as PlatformEvent];
        expect(typesOf(await reportStates(a.id, batch))).toEqual(['message.reaction', 'message.reaction', 'message.received', 'message.edited', 'message.edited', 'message.unsent']);
        expect(typesOf(await reportStates(a.id, batch))).toEqual([]);
        const conversationId = (await store.findConversationByExternalId(a.id, 'dm'))!.id;
        const inbound = (await store.listMessages(a.id, conversationId, 10, null)).items.find((m) => m.messageExternalId === 'in1');
        expect(inbound).toMatchObject({ direction: 'inbound', senderExternalId: '+14155550123', text: null, editedAt: T0 + 8_000, unsentAt: T0 + 9_000, sentAt: T0 + 6_000 });
      });

      it('a conversation\'s messages are listed newest first, page by page, each once, and go with retention', async () => {
        const a = await account();
        const ids = ['m1', 'm2', 'm3', 'm4', 'm5'];
        for (const [i, id] of ids.entries()) {
          const c = newCommand(a.id);
          await store.acceptCommand(c, 0);
          await reportStates(a.id, [appeared('dm', { conversationKind: 'direct', name: null }), { type: 'message.sent', conversationExternalId: 'dm', messageExternalId: id, commandId: c.id }], T0 + i * 1_000);
        }
        const conversationId = (await store.findConversationByExternalId(a.id, 'dm'))!.id;
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<Store['listMessages']>> = await store.listMessages(a.id, conversationId, 2, cursor);
          seen.push(...page.items.map((m) => m.messageExternalId));
          cursor = page.nextCursor;
        } while (cursor);
        expect(seen).toEqual([...ids].reverse());
        expect((await store.listMessages((await account()).id, conversationId, 10, null)).items).toEqual([]);
        await store.purgeEvents(T0 + 2_500);
        expect((await store.listMessages(a.id, conversationId, 10, null)).items.map((m) => m.messageExternalId)).toEqual(['m5', 'm4']);
      });
    });

    describe('commands: acceptance and idempotency', () => {
      it('a new command is queued, readable and has a queued history entry', async () => {
        const a = await account();
        const input = newCommand(a.id, { routingPath: 'admin', type: 'group.update', conversationId: newId() });
        const result = await store.acceptCommand(input, T0 - 48 * HOUR);
        const expected = { ...input, status: 'queued', errorCode: null, errorMessage: null, errorPath: null, settledAt: null, dispatchEpoch: null, dispatchedAt: null, heldBy: null, heldAt: null, releasedAt: null };
        expect(result).toEqual({ disposition: 'queued', command: expected });
        expect(await store.getCommand(a.id, input.id)).toEqual(expected);
        expect(await store.getCommand((await account()).id, input.id)).toBeNull();
        expect(await store.commandHistory(input.id)).toEqual([{ status: 'queued', at: T0 }]);
      });

      it('a known Idempotency-Key adopts the original command and creates nothing', async () => {
        const a = await account();
        const original = newCommand(a.id, { idempotencyKey: 'k1' });
        await store.acceptCommand(original, T0 - HOUR);
        const duplicate = newCommand(a.id, { idempotencyKey: 'k1', payload: { text: 'different' }, createdAt: T0 + 10 });
        const result = await store.acceptCommand(duplicate, T0 + 10 - HOUR);
        expect(result.disposition).toBe('adopted');
        expect(commandOf(result).id).toBe(original.id);
        expect(commandOf(result).payload).toEqual({ text: 'hello' });
        expect(await store.getCommand(a.id, duplicate.id)).toBeNull();
        expect((await store.findIdempotentCommand(a.id, 'k1', T0 - HOUR))!.id).toBe(original.id);
        // The key is per account.
        const b = await account();
        expect((await store.acceptCommand(newCommand(b.id, { idempotencyKey: 'k1' }), T0 - HOUR)).disposition).toBe('queued');
      });

      it('concurrent commands with one key: exactly one is queued, the rest adopt it', async () => {
        const a = await account();
        const results = await Promise.all(Array.from({ length: 20 }, () => store.acceptCommand(newCommand(a.id, { idempotencyKey: 'burst' }), T0 - HOUR)));
        const queued = results.filter((r) => r.disposition === 'queued');
        expect(queued).toHaveLength(1);
        expect(new Set(results.map((r) => commandOf(r).id))).toEqual(new Set([queued[0]!.command.id]));
      });

      it('a key past retention is forgotten: the new command takes it over', async () => {
        const a = await account();
        const old = newCommand(a.id, { idempotencyKey: 'k-old', createdAt: T0 });
        await store.acceptCommand(old, T0 - 48 * HOUR);
        const later = T0 + 49 * HOUR;
        expect(await store.findIdempotentCommand(a.id, 'k-old', later - 48 * HOUR)).toBeNull();
        const fresh = newCommand(a.id, { idempotencyKey: 'k-old', createdAt: later });
        const result = await store.acceptCommand(fresh, later - 48 * HOUR);
        expect(result).toMatchObject({ disposition: 'queued', command: { id: fresh.id } });
        // From now on the key adopts the new command, and the old one is untouched.
        const again = await store.acceptCommand(newCommand(a.id, { idempotencyKey: 'k-old', createdAt: later + 1 }), later + 1 - 48 * HOUR);
        expect(again).toMatchObject({ disposition: 'adopted', command: { id: fresh.id } });
        expect((await store.getCommand(a.id, old.id))!.status).toBe('queued');
      });

      it('purgeIdempotencyKeys drops keys older than the cut-off only', async () => {
        const a = await account();
        await store.acceptCommand(newCommand(a.id, { idempotencyKey: 'old', createdAt: T0 }), 0);
        await store.acceptCommand(newCommand(a.id, { idempotencyKey: 'new', createdAt: T0 + HOUR }), 0);
        expect(await store.purgeIdempotencyKeys(T0 + 1)).toBe(1);
        expect(await store.findIdempotentCommand(a.id, 'old', 0)).toBeNull();
        expect(await store.findIdempotentCommand(a.id, 'new', 0)).not.toBeNull();
      });

    });

    describe('commands: dispatch', () => {
      async function queued(accountId: string, n: number): Promise<string[]> {
        const ids: string[] = [];
        for (let i = 0; i < n; i++) {
          const c = newCommand(accountId);
          ids.push(c.id);
          await store.acceptCommand(c, 0);
        }
        return ids;
      }
      const ids = (commands: { id: string }[] | null) => commands!.map((c) => c.id);

      it('hands the oldest queued commands to the live epoch, once while the host holds them', async () => {
        const a = await account();
        const b = await account();
        const l = await lease(a.id);
        const queue = await queued(a.id, 5);
        await store.acceptCommand(newCommand(b.id), 0);
        const first = await handed(store.dispatchCommands(a.id, l.epoch, 2, [], T0, TTL));
        expect(ids(first)).toEqual(queue.slice(0, 2));
        expect(first!.every((c) => c.dispatchEpoch === l.epoch)).toBe(true);
        expect((await store.getCommand(a.id, queue[0]!))!.dispatchEpoch).toBe(l.epoch);
        const rest = await handed(store.dispatchCommands(a.id, l.epoch, 10, queue.slice(0, 2), T0, TTL));
        expect(ids(rest)).toEqual(queue.slice(2));
        expect(await handed(store.dispatchCommands(a.id, l.epoch, 10, queue, T0, TTL))).toEqual([]);
        // Dispatch is internal: the status stays queued.
        expect((await store.getCommand(a.id, queue[0]!))!.status).toBe('queued');
      });

      it('hands out again, oldest first, what the host does not hold: the answer never reached it', async () => {
        const a = await account();
        const l = await lease(a.id);
        const queue = await queued(a.id, 3);
        expect(ids(await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0, TTL)))).toEqual(queue);
        // The answer was lost (a crash, a closed connection): the host's next poll holds only the middle one.
        expect(ids(await handed(store.dispatchCommands(a.id, l.epoch, 10, [queue[1]!], T0, TTL)))).toEqual([queue[0], queue[2]]);
        // A settled command is never handed out again, held or not.
        expect(outcome(await store.settleCommand(settlement(a.id, queue[0]!, l.epoch)))).toBe('settled');
        expect(ids(await handed(store.dispatchCommands(a.id, l.epoch, 10, [queue[1]!], T0, TTL)))).toEqual([queue[2]]);
      });

      it('an epoch that is not the live lease gets nothing and marks nothing', async () => {
        const a = await account();
        const queue = await queued(a.id, 1);
        expect(await handed(store.dispatchCommands(a.id, 1, 10, [], T0, TTL))).toBeNull();
        const l = await lease(a.id);
        expect(await handed(store.dispatchCommands(a.id, l.epoch + 1, 10, [], T0, TTL))).toBeNull();
        expect(await handed(store.dispatchCommands(a.id, l.epoch, 10, [], l.expiresAt, TTL))).toBeNull();
        expect((await store.getCommand(a.id, queue[0]!))!.dispatchEpoch).toBeNull();
      });

      it('a dispatch renews the live lease once a tenth of its TTL has passed, and only the live one', async () => {
        const a = await account();
        const l = await lease(a.id);
        // Renewed a tenth of the TTL ago, not longer: nothing written.
        expect(await store.dispatchCommands(a.id, l.epoch, 10, [], T0 + 1_500, TTL)).toEqual({ commands: [], leaseExpiresAt: T0 + TTL });
        expect((await store.liveLease(a.id, T0 + 1_500))?.expiresAt).toBe(T0 + TTL);
        expect(await store.dispatchCommands(a.id, l.epoch, 10, [], T0 + 10_000, TTL)).toEqual({ commands: [], leaseExpiresAt: T0 + 10_000 + TTL });
        expect((await store.liveLease(a.id, T0 + 20_000))?.expiresAt).toBe(T0 + 10_000 + TTL);
        expect(await handed(store.dispatchCommands(a.id, l.epoch + 1, 10, [], T0 + 11_000, TTL))).toBeNull();
        expect((await store.liveLease(a.id, T0 + 20_000))?.expiresAt).toBe(T0 + 10_000 + TTL);
        expect(await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0 + 10_000 + TTL, TTL))).toBeNull();
        expect(await store.liveLease(a.id, T0 + 10_000 + TTL)).toBeNull();
      });

      it('redispatches unsettled commands to a higher epoch, never to a lower one', async () => {
        const a = await account();
        const [one, two] = await queued(a.id, 2);
        const l1 = await lease(a.id);
        await handed(store.dispatchCommands(a.id, l1.epoch, 10, [], T0, TTL));
        expect(outcome(await store.settleCommand(settlement(a.id, one!, l1.epoch)))).toBe('settled');
        const l2 = await lease(a.id, 'host-b', T0 + 20_000);
        expect(l2.epoch).toBeGreaterThan(l1.epoch);
        const again = await handed(store.dispatchCommands(a.id, l2.epoch, 10, [two!], T0 + 20_000, TTL));
        expect(ids(again)).toEqual([two]);
        expect(again![0]!.dispatchEpoch).toBe(l2.epoch);
        expect(await handed(store.dispatchCommands(a.id, l2.epoch, 10, [two!], T0 + 20_000, TTL))).toEqual([]);
        expect(await handed(store.dispatchCommands(a.id, l1.epoch, 10, [], T0 + 20_000, TTL))).toBeNull();
      });

      it('concurrent polls of one epoch that hold nothing each get the oldest: what a host does not hold is not known to have arrived', async () => {
        const a = await account();
        const l = await lease(a.id);
        const queue = await queued(a.id, 12);
        const batches = await Promise.all(Array.from({ length: 3 }, () => handed(store.dispatchCommands(a.id, l.epoch, 5, [], T0, TTL))));
        if (hooks.groupCommit) {
          for (const batch of batches) expect(ids(batch)).toEqual(queue.slice(0, 5));
        } else {
          // Row locks (SKIP LOCKED): a poll skips what a concurrent one is handing out, and takes the next oldest.
          for (const batch of batches) expect(ids(batch)).toEqual([...ids(batch)].sort());
          expect(new Set(batches.flatMap(ids))).toEqual(new Set(queue.slice(0, new Set(batches.flatMap(ids)).size)));
          expect(batches.flatMap(ids)).toEqual(expect.arrayContaining(queue.slice(0, 5)));
        }
        expect(ids(await handed(store.dispatchCommands(a.id, l.epoch, 20, queue.slice(0, 5), T0, TTL)))).toEqual(queue.slice(5));
      });
    });

    describe('commands: settlement', () => {
      async function dispatched(accountId: string) {
        const l = await lease(accountId);
        const c = newCommand(accountId);
        await store.acceptCommand(c, 0);
        await handed(store.dispatchCommands(accountId, l.epoch, 10, [], T0, TTL));
        return { lease: l, command: c };
      }

      it('settles once under the live epoch, appending one command.settled event', async () => {
        const a = await account();
        const { lease: l, command: c } = await dispatched(a.id);
        const result = await store.settleCommand(settlement(a.id, c.id, l.epoch, { status: 'failed', errorCode: 'gateway_rejected', detail: 'no' }));
        expect(outcome(result)).toBe('settled');
        if (!result.ok) return;
        expect(result.value.command).toMatchObject({ id: c.id, status: 'failed', errorCode: 'gateway_rejected', settledAt: T0 + 1_000 });
        expect(result.value.event).toMatchObject({ accountId: a.id, type: 'command.settled', time: T0 + 1_000, data: { commandId: c.id, status: 'failed', errorCode: 'gateway_rejected' } });
        expect(await store.readEvents(a.id, 0, 10)).toEqual([result.value.event]);
        expect(await store.getCommand(a.id, c.id)).toMatchObject({ status: 'failed', errorCode: 'gateway_rejected', settledAt: T0 + 1_000 });
        expect(await store.commandHistory(c.id)).toEqual([{ status: 'queued', at: T0 }, { status: 'failed', at: T0 + 1_000 }]);
      });

      it('fencing: an epoch that is not the live lease is lease_lost', async () => {
        const a = await account();
        const { lease: l, command: c } = await dispatched(a.id);
        expect(await store.settleCommand(settlement(a.id, c.id, l.epoch + 1))).toEqual({ ok: false, error: { reason: 'lease_lost' } });
        expect(await store.settleCommand(settlement(a.id, c.id, l.epoch - 1))).toEqual({ ok: false, error: { reason: 'lease_lost' } });
        expect(await store.settleCommand(settlement(a.id, c.id, l.epoch, { at: l.expiresAt }))).toEqual({ ok: false, error: { reason: 'lease_lost' } });
        // A new epoch fences the old one.
        const l2 = await lease(a.id, 'host-a', T0 + 100);
        expect(await store.settleCommand(settlement(a.id, c.id, l.epoch))).toEqual({ ok: false, error: { reason: 'lease_lost' } });
        expect(await store.readEvents(a.id, 0, 10)).toEqual([]);
        expect((await store.getCommand(a.id, c.id))!.status).toBe('queued');
        await handed(store.dispatchCommands(a.id, l2.epoch, 10, [], T0 + 100, TTL));
        expect(outcome(await store.settleCommand(settlement(a.id, c.id, l2.epoch)))).toBe('settled');
      });

      it('the live lease settling a command not dispatched to its epoch is not_dispatched, until it is', async () => {
        const a = await account();
        const { lease: l, command: c } = await dispatched(a.id);
        // Accepted after the dispatch: never handed to this epoch.
        const undispatched = newCommand(a.id);
        await store.acceptCommand(undispatched, 0);
        expect(await store.settleCommand(settlement(a.id, undispatched.id, l.epoch))).toEqual({ ok: false, error: { reason: 'not_dispatched' } });
        // Handed to the previous epoch, not yet to this one.
        const l2 = await lease(a.id, 'host-a', T0 + 100);
        expect(await store.settleCommand(settlement(a.id, c.id, l2.epoch))).toEqual({ ok: false, error: { reason: 'not_dispatched' } });
        expect(await store.readEvents(a.id, 0, 10)).toEqual([]);
        await handed(store.dispatchCommands(a.id, l2.epoch, 10, [], T0 + 100, TTL));
        expect(outcome(await store.settleCommand(settlement(a.id, undispatched.id, l2.epoch)))).toBe('settled');
      });

      it('a command settled by one epoch is a conflict for the next live one', async () => {
        const a = await account();
        const { lease: l, command: c } = await dispatched(a.id);
        expect(outcome(await store.settleCommand(settlement(a.id, c.id, l.epoch)))).toBe('settled');
        const l2 = await lease(a.id, 'host-b', T0 + 20_000);
        expect(await store.settleCommand(settlement(a.id, c.id, l2.epoch, { at: T0 + 20_001 }))).toMatchObject({ ok: false, error: { reason: 'conflict', command: { status: 'succeeded' } } });
        // The epoch that settled it may still repeat it, though it ended; settling it differently, it has lost its lease.
        expect(await store.settleCommand(settlement(a.id, c.id, l.epoch, { at: T0 + 20_001 }))).toMatchObject({ ok: true, value: { event: null } });
        expect(await store.settleCommand(settlement(a.id, c.id, l.epoch, { at: T0 + 20_001, status: 'failed', errorCode: 'invalid_target' }))).toEqual({ ok: false, error: { reason: 'lease_lost' } });
        expect(await store.readEvents(a.id, 0, 10)).toHaveLength(1);
      });

      it('exactly once: concurrent identical settlements settle one and repeat the rest', async () => {
        const a = await account();
        const { lease: l, command: c } = await dispatched(a.id);
        const results = await Promise.all(Array.from({ length: 8 }, () => store.settleCommand(settlement(a.id, c.id, l.epoch))));
        expect(results.filter((r) => outcome(r) === 'settled')).toHaveLength(1);
        expect(results.filter((r) => outcome(r) === 'repeated')).toHaveLength(7);
        expect(await store.readEvents(a.id, 0, 10)).toHaveLength(1);
      });

      it('a repeated settlement is repeated, a different one is a conflict, and neither changes anything', async () => {
        const a = await account();
        const { lease: l, command: c } = await dispatched(a.id);
        await store.settleCommand(settlement(a.id, c.id, l.epoch, { status: 'failed', errorCode: 'stale_target' }));
        const repeated = await store.settleCommand(settlement(a.id, c.id, l.epoch, { status: 'failed', errorCode: 'stale_target', at: T0 + 2_000 }));
        expect(repeated).toMatchObject({ ok: true, value: { event: null, command: { status: 'failed', errorCode: 'stale_target', settledAt: T0 + 1_000 } } });
        expect(await store.settleCommand(settlement(a.id, c.id, l.epoch, { status: 'failed', errorCode: 'invalid_target' }))).toMatchObject({ ok: false, error: { reason: 'conflict' } });
        expect(await store.settleCommand(settlement(a.id, c.id, l.epoch))).toMatchObject({ ok: false, error: { reason: 'conflict', command: { status: 'failed' } } });
        expect(await store.readEvents(a.id, 0, 10)).toHaveLength(1);
        expect(await store.commandHistory(c.id)).toHaveLength(2);
      });

      it('a failure keeps why (errorMessage) and where (errorPath) with the command; a success has neither', async () => {
        const a = await account();
        const l = await lease(a.id);
        const failed = newCommand(a.id);
        const succeeded = newCommand(a.id);
        await store.acceptCommand(failed, 0);
        await store.acceptCommand(succeeded, 0);
        expect(await store.getCommand(a.id, failed.id)).toMatchObject({ errorMessage: null, errorPath: null });
        await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0, TTL));
        const why = { errorMessage: 'Unrecognized key: "txt"', errorPath: '/payload/txt' };
        const result = await store.settleCommand(settlement(a.id, failed.id, l.epoch, { status: 'failed', errorCode: 'payload_invalid', ...why }));
        expect(result).toMatchObject({ ok: true, value: { command: why } });
        expect(await store.getCommand(a.id, failed.id)).toMatchObject({ status: 'failed', ...why });
        // The caller builds the event from the settled command, which carries both.
        expect((await store.readEvents(a.id, 0, 10))[0]).toMatchObject({ data: { commandId: failed.id, errorCode: 'payload_invalid' } });
        await store.settleCommand(settlement(a.id, succeeded.id, l.epoch));
        expect(await store.getCommand(a.id, succeeded.id)).toMatchObject({ status: 'succeeded', errorMessage: null, errorPath: null });
      });

      it('a batch settles in order, each item after its platform events; an unknown conversation takes back only its own item', async () => {
        const a = await account();
        const l = await lease(a.id);
        await report(a.id, [appeared('chat-batch')]);
        const [c1, c2, c3] = [newCommand(a.id), newCommand(a.id), newCommand(a.id)];
        for (const c of [c1, c2, c3]) await store.acceptCommand(c, 0);
        await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0, TTL));
        const after = await store.newestEventId(a.id);
        const withEvents = (commandId: string, events: PlatformEvent[]) => ({
          ...settlement(a.id, commandId, l.epoch),
          platformEvents: { events, newConversationId: newId, view: (event: PlatformEvent, c: { id: string }) => ({ type: event.type, time: T0, data: { conversationId: c.id } }) },
        });
        const sent = (commandId: string, chat = 'chat-batch'): PlatformEvent => ({ type: 'message.sent', conversationExternalId: chat, messageExternalId: `m-${commandId}`, commandId });
        const results = await store.settleCommands([
          withEvents(c1.id, [sent(c1.id)]),
          withEvents(c2.id, [appeared('chat-half'), sent(c2.id, 'chat-nobody')]),
          withEvents(c3.id, [sent(c3.id)]),
          settlement(a.id, c1.id, l.epoch),
        ]);
        expect(results.map(outcome)).toEqual(['settled', 'unknown_conversation', 'settled', 'repeated']);
        const events = await store.readEvents(a.id, after, 100);
        expect(events.map((e) => [e.type, (e.data as { commandId?: string }).commandId ?? null])).toEqual([
          ['message.sent', null], ['command.settled', c1.id], ['message.sent', null], ['command.settled', c3.id],
        ]);
        expect(await store.findConversationByExternalId(a.id, 'chat-half')).toBeNull();
        expect((await store.getCommand(a.id, c2.id))!.status).toBe('queued');
      });

      it('an unknown command, or another account\'s, is not_found', async () => {
        const a = await account();
        const b = await account();
        const { lease: l, command: c } = await dispatched(a.id);
        await lease(b.id);
        expect(await store.settleCommand(settlement(a.id, newId(), l.epoch))).toEqual({ ok: false, error: { reason: 'not_found' } });
        expect(await store.settleCommand(settlement(b.id, c.id, l.epoch))).toEqual({ ok: false, error: { reason: 'not_found' } });
      });
    });

    describe('events', () => {
      it('appends with strictly increasing ids and reads back in order, per account', async () => {
        const a = await account();
        const b = await account();
        const first = await store.appendEvents(a.id, [{ type: 't', time: T0, data: { n: 1 } }, { type: 't', time: T0, data: { n: 2 } }]);
        await store.appendEvents(b.id, [{ type: 't', time: T0, data: { n: 'b' } }]);
        const second = await store.appendEvents(a.id, [{ type: 'u', time: T0 + 1, data: { nested: { list: [1, null, 'x'] } } }]);
        const all = [...first, ...second];
        for (let i = 1; i < all.length; i++) expect(all[i]!.id).toBeGreaterThan(all[i - 1]!.id);
        expect(await store.readEvents(a.id, 0, 100)).toEqual(all);
        expect(all[0]).toEqual({ id: all[0]!.id, accountId: a.id, type: 't', time: T0, data: { n: 1 } });
        expect(await store.readEvents(a.id, all[0]!.id, 1)).toEqual([all[1]]);
        expect(await store.readEvents(a.id, all[2]!.id, 10)).toEqual([]);
        expect((await store.readEvents(b.id, 0, 10)).map((e) => e.data)).toEqual([{ n: 'b' }]);
        expect(await store.appendEvents(a.id, [])).toEqual([]);
      });

      it('concurrent appends get distinct, increasing ids in the order they were issued', async () => {
        const a = await account();
        const results = await Promise.all(Array.from({ length: 30 }, (_, n) => store.appendEvents(a.id, [{ type: 't', time: T0, data: { n } }])));
        const ids = results.flat().map((e) => e.id);
        expect(new Set(ids).size).toBe(30);
        const read = await store.readEvents(a.id, 0, 100);
        expect(read.map((e) => e.id)).toEqual([...ids].sort((x, y) => x - y));
        // One transaction per turn keeps the issue order; a pool of connections keeps only the commit order.
        if (hooks.groupCommit) expect(read.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 30 }, (_, n) => n));
      });

      it('purgeEvents drops older events and records eventsPurgedThrough per account, never lowering it', async () => {
        const a = await account();
        const b = await account();
        const c = await account();
        const old = await store.appendEvents(a.id, [{ type: 't', time: T0, data: 1 }, { type: 't', time: T0 + 1, data: 2 }]);
        const bOld = await store.appendEvents(b.id, [{ type: 't', time: T0, data: 3 }]);
        const kept = await store.appendEvents(a.id, [{ type: 't', time: T0 + 5, data: 4 }]);
        expect(await store.eventsPurgedThrough(a.id)).toBe(0);
        // Older than the cut-off only: an event at the cut-off itself is kept.
        expect(await store.purgeEvents(T0 + 5)).toBe(3);
        expect(await store.readEvents(a.id, 0, 10)).toEqual(kept);
        expect(await store.readEvents(b.id, 0, 10)).toEqual([]);
        expect(await store.eventsPurgedThrough(a.id)).toBe(old[1]!.id);
        expect(await store.eventsPurgedThrough(b.id)).toBe(bOld[0]!.id);
        expect(await store.eventsPurgedThrough(c.id)).toBe(0);
        expect(await store.purgeEvents(T0)).toBe(0);
        expect(await store.eventsPurgedThrough(a.id)).toBe(old[1]!.id);
        expect(await store.purgeEvents(T0 + 6)).toBe(1);
        expect(await store.eventsPurgedThrough(a.id)).toBe(kept[0]!.id);
        // New events continue above everything purged.
        const next = await store.appendEvents(a.id, [{ type: 't', time: T0 + 20, data: 5 }]);
        expect(next[0]!.id).toBeGreaterThan(kept[0]!.id);
      });

      it('newestEventId is the largest id the account ever had, retained or purged, and 0 for none', async () => {
        const a = await account();
        const b = await account();
        expect(await store.newestEventId(a.id)).toBe(0);
        const [first] = await store.appendEvents(a.id, [{ type: 't', time: T0, data: 1 }]);
        const [other] = await store.appendEvents(b.id, [{ type: 't', time: T0 + 10, data: 2 }]);
        // Ids are shared by every account: another account's newer id is not this one's.
        expect(await store.newestEventId(a.id)).toBe(first!.id);
        expect(await store.newestEventId(b.id)).toBe(other!.id);
        await store.purgeEvents(T0 + 1);
        expect(await store.readEvents(a.id, 0, 10)).toEqual([]);
        expect(await store.newestEventId(a.id)).toBe(first!.id);
      });
    });

    describe('leases', () => {
      it('acquire, then another host sees the holder until the lease expires', async () => {
        const a = await account();
        const first = await store.acquireLease({ accountId: a.id, hostId: 'h1', osMajorVersion: 15, capabilities: [{ name: 'command.message_send.conversation.v1' }] }, T0, 1_000);
        expect(first).toEqual({
          ok: true,
          value: { accountId: a.id, hostId: 'h1', epoch: 1, osMajorVersion: 15, capabilities: [{ name: 'command.message_send.conversation.v1' }], acquiredAt: T0, expiresAt: T0 + 1_000 },
        });
        const held = await store.acquireLease({ accountId: a.id, hostId: 'h2', osMajorVersion: 26, capabilities: [] }, T0 + 999, 1_000);
        expect(held).toEqual({ ok: false, error: { holder: first.ok ? first.value : null } });
        expect(await store.liveLease(a.id, T0 + 999)).toEqual(first.ok ? first.value : null);
        expect(await store.liveLease(a.id, T0 + 1_000)).toBeNull();
        const taken = await store.acquireLease({ accountId: a.id, hostId: 'h2', osMajorVersion: 26, capabilities: [] }, T0 + 1_000, 1_000);
        expect(taken).toMatchObject({ ok: true, value: { hostId: 'h2', epoch: 2, expiresAt: T0 + 2_000 } });
        // Another account's lease is its own.
        const b = await account();
        expect(await lease(b.id, 'h1', T0)).toMatchObject({ epoch: 1 });
        expect((await store.listLeases()).map((l) => [l.accountId, l.hostId, l.epoch]).sort()).toEqual([[a.id, 'h2', 2], [b.id, 'h1', 1]].sort());
      });

      it('every acquisition gets a strictly higher epoch; the same host takes over its own live lease with a new one', async () => {
        const a = await account();
        const epochs: number[] = [];
        epochs.push((await lease(a.id, 'h1', T0)).epoch);
        epochs.push((await lease(a.id, 'h1', T0 + 1)).epoch);
        const l = await lease(a.id, 'h1', T0 + 2);
        epochs.push(l.epoch);
        expect(await store.releaseLease(a.id, l.epoch, T0 + 3)).toBe(true);
        epochs.push((await lease(a.id, 'h2', T0 + 4)).epoch);
        epochs.push((await lease(a.id, 'h1', T0 + 100_000)).epoch);
        for (let i = 1; i < epochs.length; i++) expect(epochs[i]!).toBeGreaterThan(epochs[i - 1]!);
      });

      it('concurrent acquisitions by different hosts: exactly one wins', async () => {
        const a = await account();
        const results = await Promise.all(['h1', 'h2', 'h3', 'h4'].map((hostId) => store.acquireLease({ accountId: a.id, hostId, osMajorVersion: 15, capabilities: [] }, T0, 1_000)));
        const winners = results.filter((r) => r.ok);
        expect(winners).toHaveLength(1);
        const winner = winners[0]!.ok ? winners[0]!.value : null;
        for (const r of results) if (!r.ok) expect(r.error.holder).toEqual(winner);
      });

      it('renews only a live lease, and only with its live epoch', async () => {
        const a = await account();
        const l = await lease(a.id, 'h1', T0, 1_000);
        const renewed = await store.renewLease(a.id, l.epoch, T0 + 500, 1_000);
        expect(renewed).toEqual({ ...l, expiresAt: T0 + 1_500 });
        expect(await store.renewLease(a.id, l.epoch + 1, T0 + 600, 1_000)).toBeNull();
        expect(await store.renewLease(a.id, l.epoch, T0 + 1_500, 1_000)).toBeNull();
        const next = await lease(a.id, 'h1', T0 + 2_000, 1_000);
        expect(await store.renewLease(a.id, l.epoch, T0 + 2_100, 1_000)).toBeNull();
        expect((await store.renewLease(a.id, next.epoch, T0 + 2_100, 1_000))!.expiresAt).toBe(T0 + 3_100);
        expect(await store.renewLease((await account()).id, 1, T0, 1_000)).toBeNull();
      });

      it("open polls' leases: renews in one write each live lease of its epoch with less than half its TTL left, and nothing else", async () => {
        const [due, fresh, ended, other, released] = await Promise.all([account(), account(), account(), account(), account()]);
        const dueLease = await lease(due.id, 'h1', T0, 1_000);
        const freshLease = await lease(fresh.id, 'h1', T0 + 600, 1_000);
        await lease(ended.id, 'h1', T0 - 2_000, 1_000);
        const otherLease = await lease(other.id, 'h1', T0, 1_000);
        const releasedLease = await lease(released.id, 'h1', T0, 1_000);
        expect(await store.releaseLease(released.id, releasedLease.epoch, T0 + 1)).toBe(true);
        // At T0 + 600: `due` has 400 ms left (renewed), `fresh` 1,000 (not), `ended` expired, `other` asked under a later epoch.
        const renewed = await store.renewOpenPollLeases([
          { accountId: due.id, epoch: dueLease.epoch },
          // Another poll of the same account under an epoch that is not live: the live one still counts.
          { accountId: due.id, epoch: dueLease.epoch + 1 },
          { accountId: fresh.id, epoch: freshLease.epoch },
          { accountId: ended.id, epoch: 1 },
          { accountId: other.id, epoch: otherLease.epoch + 1 },
          { accountId: released.id, epoch: releasedLease.epoch },
        ], T0 + 600, 1_000);
        expect(renewed).toBe(1);
        expect((await store.liveLease(due.id, T0 + 600))!.expiresAt).toBe(T0 + 1_600);
        expect((await store.liveLease(fresh.id, T0 + 600))!.expiresAt).toBe(T0 + 1_600);
        expect(await store.liveLease(ended.id, T0 + 600)).toBeNull();
        expect((await store.liveLease(other.id, T0 + 600))!.expiresAt).toBe(T0 + 1_000);
        expect(await store.liveLease(released.id, T0 + 600)).toBeNull();
        // What the cache says is what is committed: the renewed lease holds on past its first expiry.
        expect((await store.liveLease(due.id, T0 + 1_200))!.epoch).toBe(dueLease.epoch);
        expect(await store.renewOpenPollLeases([], T0, 1_000)).toBe(0);
      });

      it('release ends the live lease for its epoch only; the epoch counter survives it', async () => {
        const a = await account();
        const l = await lease(a.id, 'h1', T0, 10_000);
        expect(await store.releaseLease(a.id, l.epoch + 1, T0 + 1)).toBe(false);
        expect(await store.liveLease(a.id, T0 + 1)).not.toBeNull();
        expect(await store.releaseLease(a.id, l.epoch, T0 + 1)).toBe(true);
        expect(await store.liveLease(a.id, T0 + 1)).toBeNull();
        expect(await store.releaseLease(a.id, l.epoch, T0 + 2)).toBe(false);
        expect(await store.renewLease(a.id, l.epoch, T0 + 2, 10_000)).toBeNull();
        const other = await store.acquireLease({ accountId: a.id, hostId: 'h2', osMajorVersion: 15, capabilities: [] }, T0 + 2, 10_000);
        expect(other).toMatchObject({ ok: true, value: { hostId: 'h2', epoch: l.epoch + 1 } });
      });
    });

    describe('admin: operator keys and the audit log', () => {
      it('finds a live operator key by hash; lists keys without hashes; a revoked key is found no more and keeps its first revocation', async () => {
        const full = await store.createOperatorKey({ id: newId(), role: 'full', prefix: 'sbo_abc', label: 'ops', createdAt: T0, hash: hash('op-1') });
        const reader = await store.createOperatorKey({ id: newId(), role: 'read-only', prefix: 'sbo_def', label: 'dash', createdAt: T0 + 1, hash: hash('op-2') });
        expect(full).toEqual({ id: full.id, role: 'full', prefix: 'sbo_abc', label: 'ops', createdAt: T0, revokedAt: null });
        const found = await store.findOperatorKeyByHash(hash('op-2'));
        expect(found).toMatchObject(reader);
        expect(Buffer.from(found!.hash).equals(hash('op-2'))).toBe(true);
        expect(await store.findOperatorKeyByHash(hash('op-3'))).toBeNull();
        // An account's credential is no operator key.
        const a = await account();
        await store.createCredential({ id: newId(), accountId: a.id, kind: 'account', prefix: 'sb_1', label: '', createdAt: T0, hash: hash('api-key') });
        expect(await store.findOperatorKeyByHash(hash('api-key'))).toBeNull();
        const listed = await store.listOperatorKeys();
        expect(listed).toEqual([full, reader]);
        for (const key of listed) expect(key).not.toHaveProperty('hash');
        expect(await store.revokeOperatorKey(full.id, T0 + 5)).toEqual({ ...full, revokedAt: T0 + 5 });
        expect(await store.findOperatorKeyByHash(hash('op-1'))).toBeNull();
        expect(await store.revokeOperatorKey(full.id, T0 + 9)).toEqual({ ...full, revokedAt: T0 + 5 });
        expect(await store.listOperatorKeys()).toEqual([{ ...full, revokedAt: T0 + 5 }, reader]);
        expect(await store.revokeOperatorKey(newId(), T0)).toBeNull();
      });

      it('gets any credential by id, revoked or not', async () => {
        const a = await account();
        const c = await store.createCredential({ id: newId(), accountId: a.id, kind: 'connector', prefix: 'sbc_1', label: 'host', createdAt: T0, hash: hash('c-1') });
        expect(await store.getCredential(c.id)).toEqual(c);
        await store.revokeCredential(c.id, T0 + 1);
        expect(await store.getCredential(c.id)).toEqual({ ...c, revokedAt: T0 + 1 });
        expect(await store.getCredential(newId())).toBeNull();
      });

      it('appends audit records with growing ids and lists them newest first, a page at a time', async () => {
        const key = await store.createOperatorKey({ id: newId(), role: 'full', prefix: 'sbo_1', label: '', createdAt: T0, hash: hash('op') });
        const appended = [];
        for (let i = 0; i < 5; i++) {
          appended.push(await store.appendAudit({
            at: T0 + i, operatorKeyId: i % 2 === 0 ? key.id : null, action: `account.pause`, accountId: i === 0 ? null : `acct-${i}`, subject: i === 4 ? null : `s-${i}`,
            detail: { paused: i % 2 === 0, nested: { n: i, list: ['x'] } },
          }));
        }
        expect(appended[0]).toEqual({ id: appended[0]!.id, at: T0, operatorKeyId: key.id, action: 'account.pause', accountId: null, subject: 's-0', detail: { paused: true, nested: { n: 0, list: ['x'] } } });
        for (let i = 1; i < 5; i++) expect(appended[i]!.id).toBeGreaterThan(appended[i - 1]!.id);
        const first = await store.listAudit(2, null);
        expect(first.items).toEqual([appended[4], appended[3]]);
        const second = await store.listAudit(2, first.nextCursor);
        expect(second.items).toEqual([appended[2], appended[1]]);
        const last = await store.listAudit(2, second.nextCursor);
        expect(last).toEqual({ items: [appended[0]], nextCursor: null });
        expect(await store.listAudit(10, null)).toEqual({ items: [...appended].reverse(), nextCursor: null });
      });
    });

    describe('admin: commands across accounts', () => {
      it('finds a command of any account by id', async () => {
        const a = await account();
        const c = newCommand(a.id);
        const command = commandOf(await store.acceptCommand(c, 0));
        expect(await store.findCommand(c.id)).toEqual(command);
        expect(await store.findCommand(newId())).toBeNull();
      });

      it('a dispatch records when it happened, with the epoch', async () => {
        const a = await account();
        const c = newCommand(a.id);
        expect(commandOf(await store.acceptCommand(c, 0)).dispatchedAt).toBeNull();
        const l = await lease(a.id);
        const [dispatched] = (await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0 + 7, TTL)))!;
        expect(dispatched).toMatchObject({ id: c.id, dispatchEpoch: l.epoch, dispatchedAt: T0 + 7 });
        expect(await store.getCommand(a.id, c.id)).toMatchObject({ dispatchEpoch: l.epoch, dispatchedAt: T0 + 7 });
        // Handed out again to a new epoch: both change together.
        const next = await lease(a.id, 'host-b', T0 + TTL + 10);
        await handed(store.dispatchCommands(a.id, next.epoch, 10, [], T0 + TTL + 20, TTL));
        expect(await store.findCommand(c.id)).toMatchObject({ dispatchEpoch: next.epoch, dispatchedAt: T0 + TTL + 20 });
        await store.settleCommand(settlement(a.id, c.id, next.epoch, { at: T0 + TTL + 30 }));
        expect(await store.findCommand(c.id)).toMatchObject({ status: 'succeeded', dispatchedAt: T0 + TTL + 20, settledAt: T0 + TTL + 30 });
      });

      /** Two accounts' commands: a's three (one succeeded, one failed), b's two of another type, accepted a minute apart. */
      async function searched() {
        const a = await account();
        const b = await account();
        const made = [
          newCommand(a.id, { createdAt: T0 }),
          newCommand(b.id, { createdAt: T0 + 60_000, type: 'group.update', target: { kind: 'conversation', conversationId: 'g' }, payload: { name: 'x' } }),
          newCommand(a.id, { createdAt: T0 + 120_000 }),
          newCommand(a.id, { createdAt: T0 + 180_000 }),
          newCommand(b.id, { createdAt: T0 + 240_000, type: 'group.update', target: { kind: 'conversation', conversationId: 'g' }, payload: { name: 'y' } }),
        ];
        for (const c of made) await store.acceptCommand(c, 0);
        const l = await lease(a.id, 'host-a', T0, HOUR);
        await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0, TTL));
        await store.settleCommand(settlement(a.id, made[0]!.id, l.epoch, { at: T0 + 30_000 }));
        await store.settleCommand(settlement(a.id, made[2]!.id, l.epoch, { at: T0 + 150_000, status: 'failed', errorCode: 'gateway_rejected' }));
        return { a, b, ids: made.map((c) => c.id) };
      }
      const ids = (page: { items: Array<{ id: string }> }) => page.items.map((c) => c.id);

      it('lists every account\'s commands newest first, a page at a time, the cursor carrying across pages', async () => {
        const { ids: made } = await searched();
        const newest = [...made].reverse();
        const first = await store.listCommands({}, 2, null);
        expect(ids(first)).toEqual(newest.slice(0, 2));
        expect(first.nextCursor).not.toBeNull();
        const second = await store.listCommands({}, 2, first.nextCursor);
        expect(ids(second)).toEqual(newest.slice(2, 4));
        const third = await store.listCommands({}, 2, second.nextCursor);
        expect(third.nextCursor).toBeNull();
        expect(ids(third)).toEqual(newest.slice(4));
        expect((await store.listCommands({}, 5, null)).nextCursor).toBeNull();
        expect(first.items[0]).toEqual(await store.findCommand(newest[0]!));
      });

      it('filters by account, status, settlement code, type and acceptance time, and combines them', async () => {
        const { a, b, ids: [c0, c1, c2, c3, c4] } = await searched();
        expect(ids(await store.listCommands({ accountId: a.id }, 10, null))).toEqual([c3, c2, c0]);
        expect(ids(await store.listCommands({ accountId: b.id }, 10, null))).toEqual([c4, c1]);
        expect(ids(await store.listCommands({ status: 'queued' }, 10, null))).toEqual([c4, c3, c1]);
        expect(ids(await store.listCommands({ status: 'succeeded' }, 10, null))).toEqual([c0]);
        expect(ids(await store.listCommands({ errorCode: 'gateway_rejected' }, 10, null))).toEqual([c2]);
        expect(ids(await store.listCommands({ errorCode: 'stale_target' }, 10, null))).toEqual([]);
        expect(ids(await store.listCommands({ type: 'group.update' }, 10, null))).toEqual([c4, c1]);
        expect(ids(await store.listCommands({ createdFrom: T0 + 60_000 }, 10, null))).toEqual([c4, c3, c2, c1]);
        expect(ids(await store.listCommands({ createdBefore: T0 + 60_000 }, 10, null))).toEqual([c0]);
        expect(ids(await store.listCommands({ createdFrom: T0 + 60_000, createdBefore: T0 + 180_000 }, 10, null))).toEqual([c2, c1]);
        expect(ids(await store.listCommands({ accountId: a.id, status: 'queued', type: 'message.send', createdFrom: T0 }, 10, null))).toEqual([c3]);
        const page = await store.listCommands({ accountId: a.id }, 1, null);
        expect(ids(page)).toEqual([c3]);
        const rest = await store.listCommands({ accountId: a.id }, 5, page.nextCursor);
        expect(rest).toMatchObject({ nextCursor: null });
        expect(ids(rest)).toEqual([c2, c0]);
      });

      it('counts commands accepted, succeeded and failed by minute since a time, and failures by settlement code', async () => {
        await searched();
        expect(await store.commandCounts(T0)).toEqual({
          minutes: [
            { minute: T0, accepted: 1, succeeded: 1, failed: 0 },
            { minute: T0 + 60_000, accepted: 1, succeeded: 0, failed: 0 },
            { minute: T0 + 120_000, accepted: 1, succeeded: 0, failed: 1 },
            { minute: T0 + 180_000, accepted: 1, succeeded: 0, failed: 0 },
            { minute: T0 + 240_000, accepted: 1, succeeded: 0, failed: 0 },
          ],
          failures: [{ code: 'gateway_rejected', count: 1 }],
        });
        // Since within a minute: what happened before it is left out, its minute still starts on the minute.
        expect(await store.commandCounts(T0 + 150_000)).toEqual({
          minutes: [
            { minute: T0 + 120_000, accepted: 0, succeeded: 0, failed: 1 },
            { minute: T0 + 180_000, accepted: 1, succeeded: 0, failed: 0 },
            { minute: T0 + 240_000, accepted: 1, succeeded: 0, failed: 0 },
          ],
          failures: [{ code: 'gateway_rejected', count: 1 }],
        });
        expect(await store.commandCounts(T0 + HOUR)).toEqual({ minutes: [], failures: [] });
      });

      it('says whether sending is paused for every account, not for one', async () => {
        const a = await account();
        expect(await store.outboundPausedForAll()).toBe(false);
        await store.setOutboundPaused(a.id, true);
        expect(await store.outboundPausedForAll()).toBe(false);
        await store.setOutboundPaused(null, true);
        expect(await store.outboundPausedForAll()).toBe(true);
        await store.setOutboundPaused(null, false);
        expect(await store.outboundPausedForAll()).toBe(false);
      });

      it('names the host that acquired each epoch, through takeovers', async () => {
        const a = await account();
        const first = await lease(a.id, 'h1', T0, 1_000);
        expect(await store.leaseHolder(a.id, first.epoch)).toBe('h1');
        // Refused while live: nothing recorded.
        expect((await store.acquireLease({ accountId: a.id, hostId: 'h2', osMajorVersion: 15, capabilities: [] }, T0 + 1, 1_000)).ok).toBe(false);
        expect(await store.leaseHolder(a.id, first.epoch + 1)).toBeNull();
        const takeover = await lease(a.id, 'h2', T0 + 1_000, 1_000);
        const again = await lease(a.id, 'h2', T0 + 1_500, 1_000);
        expect(await store.leaseHolder(a.id, first.epoch)).toBe('h1');
        expect(await store.leaseHolder(a.id, takeover.epoch)).toBe('h2');
        expect(await store.leaseHolder(a.id, again.epoch)).toBe('h2');
        expect(await store.leaseHolder((await account()).id, 1)).toBeNull();
      });
    });

    describe('retention of commands', () => {
      /** A command accepted at `at` (with `key`), dispatched and settled `settleAfter` later; `null` leaves it queued. */
      async function command(accountId: string, at: number, settleAfter: number | null, key: string | null = null): Promise<string> {
        const c = newCommand(accountId, { idempotencyKey: key, createdAt: at });
        await store.acceptCommand(c, at - 48 * HOUR);
        if (settleAfter === null) return c.id;
        const l = await lease(accountId, 'host-a', at + settleAfter, 600_000);
        await handed(store.dispatchCommands(accountId, l.epoch, 100, [], at + settleAfter, TTL));
        const settled = await store.settleCommand(settlement(accountId, c.id, l.epoch, { at: at + settleAfter }));
        expect(outcome(settled)).toBe('settled');
        return c.id;
      }

      it('purgeCommands drops commands settled before the cut-off, by settlement time, never a queued one', async () => {
        const a = await account();
        // Accepted long ago but settled late: its age counts from the settlement.
        const settledLate = await command(a.id, T0, 10 * HOUR);
        const settledEarly = await command(a.id, T0, 1);
        // Queued for ever: never dropped, however old.
        const queued = await command(a.id, T0 - 365 * 24 * HOUR, null);
        expect(await store.purgeCommands(T0 + HOUR, 100)).toBe(1);
        expect(await store.getCommand(a.id, settledEarly)).toBeNull();
        expect(await store.commandHistory(settledEarly)).toEqual([]);
        expect(await store.getCommand(a.id, settledLate)).not.toBeNull();
        expect(await store.purgeCommands(T0 + 100 * HOUR, 100)).toBe(1);
        expect(await store.getCommand(a.id, settledLate)).toBeNull();
        expect(await store.getCommand(a.id, queued)).toMatchObject({ status: 'queued' });
        expect(await store.purgeCommands(T0 + 10_000 * HOUR, 100)).toBe(0);
      });

      it('purgeCommands keeps a command while its Idempotency-Key is kept, so adoption still answers with it', async () => {
        const a = await account();
        const keyed = await command(a.id, T0, 1, 'order-42');
        const later = T0 + 100 * HOUR;
        expect(await store.purgeCommands(later, 100)).toBe(0);
        // The key still adopts the original, with its current status.
        const again = await store.acceptCommand(newCommand(a.id, { idempotencyKey: 'order-42', createdAt: later }), 0);
        expect(again).toMatchObject({ disposition: 'adopted', command: { id: keyed, status: 'succeeded' } });
        // Once the key is forgotten, the command goes too.
        expect(await store.purgeIdempotencyKeys(T0 + 1)).toBe(1);
        expect(await store.purgeCommands(later, 100)).toBe(1);
        expect(await store.getCommand(a.id, keyed)).toBeNull();
      });

      it('purgeCommands drops at most `limit` commands a call', async () => {
        const a = await account();
        for (let i = 0; i < 5; i++) await command(a.id, T0, 1);
        expect(await store.purgeCommands(T0 + HOUR, 2)).toBe(2);
        expect(await store.purgeCommands(T0 + HOUR, 2)).toBe(2);
        expect(await store.purgeCommands(T0 + HOUR, 2)).toBe(1);
      });
    });

    describe('attachments', () => {
      it('purgeAttachments drops attachments stored before the cut-off, at most `limit` a call', async () => {
        const a = await account();
        const put = (id: string, createdAt: number) => store.putAttachment({ id, accountId: a.id, fileName: `${id}.txt`, mimeType: 'text/plain', bytes: new Uint8Array([1, 2, 3]), createdAt });
        await put('old-1', T0);
        await put('old-2', T0 + 1);
        await put('new', T0 + HOUR);
        expect(await store.purgeAttachments(T0 + 2, 1)).toBe(1);
        expect(await store.purgeAttachments(T0 + 2, 1)).toBe(1);
        expect(await store.purgeAttachments(T0 + 2, 1)).toBe(0);
        expect(await store.getAttachment(a.id, 'old-1')).toBeNull();
        expect(await store.getAttachment(a.id, 'old-2')).toBeNull();
        expect(await store.getAttachment(a.id, 'new')).not.toBeNull();
      });

      it('stores bytes with their name and media type, per account; a second put replaces them', async () => {
        const a = await account();
        const b = await account();
        const bytes = new Uint8Array(Array.from({ length: 100_000 }, (_, i) => (i * 13) % 256));
        await store.putAttachment({ id: 'att-1', accountId: a.id, fileName: 'photo.heic', mimeType: 'image/heic', bytes, createdAt: T0 });
        const got = await store.getAttachment(a.id, 'att-1');
        expect(got).toMatchObject({ id: 'att-1', accountId: a.id, fileName: 'photo.heic', mimeType: 'image/heic', createdAt: T0 });
        expect(Buffer.from(got!.bytes).equals(Buffer.from(bytes))).toBe(true);
        expect(await store.getAttachment(b.id, 'att-1')).toBeNull();
        expect(await store.getAttachment(a.id, 'att-2')).toBeNull();
        await store.putAttachment({ id: 'att-1', accountId: b.id, fileName: 'b.txt', mimeType: 'text/plain', bytes: new Uint8Array([1]), createdAt: T0 });
        await store.putAttachment({ id: 'att-1', accountId: a.id, fileName: 'empty.bin', mimeType: 'application/octet-stream', bytes: new Uint8Array(0), createdAt: T0 });
        const replaced = await store.getAttachment(a.id, 'att-1');
        expect(replaced).toMatchObject({ fileName: 'empty.bin', mimeType: 'application/octet-stream' });
        expect(replaced!.bytes.length).toBe(0);
        expect((await store.getAttachment(b.id, 'att-1'))!.fileName).toBe('b.txt');
      });
    });

    // Only a store that serves several replicas has these rules.
    if (hooks.replica) describe('replicas on one database', () => {
      const replica = async () => {
        const r = await hooks.replica!(store);
        opened.push(r);
        return r;
      };

      it('100 concurrent commands with one key across replicas: exactly one is queued, the rest adopt it', async () => {
        const replicas = [store, await replica(), await replica()];
        const a = await account();
        const results = await Promise.all(Array.from({ length: 100 }, (_, i) =>
          replicas[i % 3]!.acceptCommand(newCommand(a.id, { idempotencyKey: 'across' }), T0 - HOUR)));
        const queued = results.filter((r) => r.disposition === 'queued');
        expect(queued).toHaveLength(1);
        expect(new Set(results.map((r) => commandOf(r).id))).toEqual(new Set([queued[0]!.command.id]));
      });

      it('line policies: with one new-contact unit left, concurrent sends across replicas queue exactly one', async () => {
        const replicas = [store, await replica(), await replica()];
        const a = await account();
        await store.setPolicies(a.id, { newContacts: { perHour: 1, perDay: null }, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false }, T0);
        const results = await Promise.all(Array.from({ length: 30 }, (_, i) => replicas[i % 3]!.acceptCommand(newCommand(a.id, {
          routingPath: 'admin', target: { kind: 'recipient', recipientExternalId: `+141555503${String(i).padStart(2, '0')}` },
        }), 0, true)));
        expect(results.filter((r) => r.disposition === 'queued')).toHaveLength(1);
        expect(results.filter((r) => r.disposition === 'refused')).toHaveLength(29);
      });

      it('quiet hours: replicas racing to release due holds, and intake on another, release each command once', async () => {
        const replicas = [store, await replica(), await replica()];
        const a = await account();
        const quietHours = { from: '00:00', until: '06:00', timeZone: 'UTC', conversationTimeZones: {} };
        await store.setPolicies(a.id, { newContacts: null, pacing: null, loopBreaker: null, quietHours, firstContactApproval: false }, T0);
        for (let i = 0; i < 6; i++) expect(commandOf(await replicas[i % 3]!.acceptCommand(newCommand(a.id, { createdAt: T0 + i }), 0, true)).heldBy).toBe('quietHours');
        const opens = T0 + 6 * HOUR;
        const [accepted, ...rounds] = await Promise.all([
          replicas[1]!.acceptCommand(newCommand(a.id, { createdAt: opens }), 0, true),
          ...replicas.flatMap((r) => [r.releaseDueHolds(opens), r.releaseDueHolds(opens)]),
        ]);
        const byRounds = (rounds as Array<Array<{ accountId: string; released: number }>>).flat().filter((r) => r.accountId === a.id).reduce((n, r) => n + r.released, 0);
        expect(byRounds + ((accepted as { released?: number }).released ?? 0)).toBe(6);
        const releases = (await store.readEvents(a.id, 0, 100)).filter((e) => e.type === 'command.released');
        expect(new Set(releases.map((e) => (e.data as { commandId: string }).commandId)).size).toBe(6);
        expect(releases).toHaveLength(6);
      });

      it('a release on one replica wakes the account\'s dispatch polls on the others', async () => {
        const other = await replica();
        const a = await account();
        const quietHours = { from: '00:00', until: '06:00', timeZone: 'UTC', conversationTimeZones: {} };
        await store.setPolicies(a.id, { newContacts: null, pacing: null, loopBreaker: null, quietHours, firstContactApproval: true }, T0);
        await store.acceptCommand(newCommand(a.id, { createdAt: T0 }), 0, true);
        const first = newCommand(a.id, { routingPath: 'admin', target: { kind: 'recipient', recipientExternalId: '+14155550100' }, createdAt: T0 + 1 });
        await store.acceptCommand(first, 0, true);
        const feed = other as Store & { listen?: (l: (c: { kind: string; accountId: string }) => void, r: () => void) => Promise<() => Promise<void>> };
        let heard: () => void = () => undefined;
        const stop = await feed.listen!((change) => { if (change.kind === 'commands' && change.accountId === a.id) heard(); }, () => undefined);
        try {
          const byWindow = new Promise<void>((resolve) => { heard = resolve; });
          expect(await store.releaseDueHolds(T0 + 6 * HOUR)).toEqual([{ accountId: a.id, released: 1 }]);
          await byWindow;
          const byOperator = new Promise<void>((resolve) => { heard = resolve; });
          expect((await store.releaseHeld(first.id, T0 + 7 * HOUR)).ok).toBe(true);
          await byOperator;
        } finally {
          await stop();
        }
      });

      it('batches on two replicas claiming the same keys in opposite orders all go in: no deadlock', async () => {
        const other = await replica();
        const a = await account();
        for (let round = 0; round < 30; round++) {
          const keys = Array.from({ length: 8 }, (_, i) => `r${round}-k${i}`);
          const results = await Promise.all([
            ...keys.map((key) => store.acceptCommand(newCommand(a.id, { idempotencyKey: key }), T0 - HOUR)),
            ...keys.toReversed().map((key) => other.acceptCommand(newCommand(a.id, { idempotencyKey: key }), T0 - HOUR)),
          ]);
          expect(results.filter((r) => r.disposition === 'queued')).toHaveLength(keys.length);
        }
      });

      it('polls alternating between two replicas hand out every command once, oldest first, while the host holds them', async () => {
        const other = await replica();
        const a = await account();
        const l = await lease(a.id);
        const all: string[] = [];
        for (let i = 0; i < 20; i++) {
          const c = newCommand(a.id);
          all.push(c.id);
          await store.acceptCommand(c, 0);
        }
        const got: string[] = [];
        for (let turn = 0; ; turn++) {
          const batch = await handed((turn % 2 ? other : store).dispatchCommands(a.id, l.epoch, 3, got, T0, TTL));
          if (batch!.length === 0) break;
          got.push(...batch!.map((c) => c.id));
        }
        expect(got).toEqual(all);
      });

      it('concurrent identical settlements on two replicas settle once', async () => {
        const other = await replica();
        const a = await account();
        const l = await lease(a.id);
        const c = newCommand(a.id);
        await store.acceptCommand(c, 0);
        await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0, TTL));
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).settleCommand(settlement(a.id, c.id, l.epoch))));
        expect(results.filter((r) => outcome(r) === 'settled')).toHaveLength(1);
        expect(await other.readEvents(a.id, 0, 10)).toHaveLength(1);
      });

      it('a lease taken on one replica fences dispatch and settlement on the other at once', async () => {
        const other = await replica();
        const a = await account();
        const first = await lease(a.id, 'h1', T0, 1_000);
        const c = newCommand(a.id);
        await store.acceptCommand(c, 0);
        expect(await handed(other.dispatchCommands(a.id, first.epoch, 10, [], T0, 1_000))).toHaveLength(1);
        const second = await other.acquireLease({ accountId: a.id, hostId: 'h2', osMajorVersion: 15, capabilities: [] }, T0 + 1_001, 1_000);
        expect(second.ok).toBe(true);
        expect(await handed(store.dispatchCommands(a.id, first.epoch, 10, [], T0 + 1_002, TTL))).toBeNull();
        expect(outcome(await store.settleCommand(settlement(a.id, c.id, first.epoch, { at: T0 + 1_002 })))).toBe('lease_lost');
      });

      it('stream ids commit in order: a reader polling another replica never skips an id that commits later', async () => {
        const writers = [store, await replica(), await replica()];
        const reader = await replica();
        const a = await account();
        const total = 150;
        let done = false;
        const written: number[] = [];
        const writing = Promise.all(writers.map(async (w, n) => {
          for (let i = 0; i < total / writers.length; i++) written.push(...(await w.appendEvents(a.id, [{ type: 't', time: T0, data: { n, i } }])).map((e) => e.id));
        })).finally(() => { done = true; });
        // A reader that resumes after the last id it saw misses nothing only if ids commit in order.
        const seen: number[] = [];
        for (;;) {
          // Whether writing was over before this read began: only then does an empty page mean the end.
          const finished = done;
          const page = await reader.readEvents(a.id, seen.at(-1) ?? 0, 50);
          seen.push(...page.map((e) => e.id));
          if (finished && page.length === 0) break;
        }
        await writing;
        expect(seen).toEqual(written.sort((x, y) => x - y));
      });

      it('a stream reader woken by every commit sees every event once, in order, though its own replica appends too', async () => {
        const reader = await replica();
        const writers = [reader, store, await replica()];
        const a = await account();
        let pending = true;
        let wake: (() => void) | null = null;
        const poke = () => {
          pending = true;
          wake?.();
        };
        // As a server wakes its streams: other replicas' appends by NOTIFY, its own in-process once committed.
        const feed = reader as Store & { listen?: (l: (c: { kind: string; accountId: string }) => void, r: () => void) => Promise<() => Promise<void>> };
        const stop = await feed.listen!((change) => { if (change.accountId === a.id) poke(); }, poke);
        const written: number[] = [];
        let done = false;
        const writing = Promise.all(writers.map(async (w, n) => {
          for (let i = 0; i < 40; i++) {
            const events = await w.appendEvents(a.id, [{ type: 't', time: T0, data: { n, i } }, { type: 't', time: T0, data: { n, i, second: true } }]);
            written.push(...events.map((e) => e.id));
            if (w === reader) poke();
          }
        })).finally(() => { done = true; });
        const seen: number[] = [];
        try {
          for (;;) {
            if (!pending) {
              // Every commit wakes the reader: once writing is over, a quiet second means it has read them all.
              const woken = await Promise.race([new Promise<boolean>((resolve) => { wake = () => resolve(true); }), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), done ? 1_000 : 10_000))]);
              wake = null;
              if (!woken) break;
              continue;
            }
            pending = false;
            for (;;) {
              const page = await reader.followEvents(a.id, seen.at(-1) ?? 0, 7);
              seen.push(...page.map((e) => e.id));
              if (page.length < 7) break;
            }
          }
        } finally {
          await stop();
        }
        await writing;
        expect(seen).toEqual(written.sort((x, y) => x - y));
      });

      it("a stream reader's replica follows its own appends, and reads another replica's once heard: none is skipped", async () => {
        const reader = await replica();
        const other = await replica();
        const a = await account();
        const feed = reader as Store & { listen?: (l: (c: { kind: string; accountId: string }) => void, r: () => void) => Promise<() => Promise<void>> };
        let heard: () => void = () => undefined;
        const stop = await feed.listen!((change) => { if (change.accountId === a.id) heard(); }, () => undefined);
        try {
          const own = await reader.appendEvents(a.id, [{ type: 't', time: T0, data: 'own' }]);
          const announced = new Promise<void>((resolve) => { heard = resolve; });
          const others = await other.appendEvents(a.id, [{ type: 't', time: T0, data: 'other' }]);
          await announced;
          // Woken by the other replica's append: the page holds it, not only what this replica appended.
          expect((await reader.followEvents(a.id, 0, 50)).map((e) => e.id)).toEqual([...own, ...others].map((e) => e.id));
          const more = await reader.appendEvents(a.id, [{ type: 't', time: T0, data: 'own again' }]);
          expect(await reader.followEvents(a.id, others[0]!.id, 50)).toEqual(more);
        } finally {
          await stop();
        }
      });

      it('an event appended on one replica is announced to the others', async () => {
        const other = await replica();
        const a = await account();
        const feed = other as Store & { listen?: (l: (c: { kind: string; accountId: string }) => void, r: () => void) => Promise<() => Promise<void>> };
        const heard = new Promise<{ kind: string; accountId: string }>((resolve) => {
          void feed.listen!((change) => { if (change.kind === 'events') resolve(change); }, () => undefined).then(async () => {
            await store.appendEvents(a.id, [{ type: 't', time: T0, data: null }]);
          });
        });
        expect(await heard).toEqual({ kind: 'events', accountId: a.id });
      });

      it('a replica hears its own commits in-process only (not again through the database), and every other replica\'s', async () => {
        const other = await replica();
        const a = await account();
        const feed = store as Store & { listen?: (l: (c: { kind: string; accountId: string }) => void, r: () => void) => Promise<() => Promise<void>> };
        const heard: string[] = [];
        const stop = await feed.listen!((change) => heard.push(`${change.kind}:${change.accountId}`), () => undefined);
        try {
          await store.appendEvents(a.id, [{ type: 't', time: T0, data: 'own' }]);
          await other.appendEvents(a.id, [{ type: 't', time: T0, data: 'other' }]);
          // Announcements arrive in commit order: once the other's is heard, this replica's own would have been.
          for (const deadline = Date.now() + 5_000; heard.length === 0 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
          await new Promise((r) => setTimeout(r, 50));
          expect(heard).toEqual([`events:${a.id}`]);
        } finally {
          await stop();
        }
      });

      it("intake's reads on one replica see a change resolved on another at once: revocation, pause, lease, conversation", async () => {
        const other = await replica();
        const a = await account();
        const key = hash(`cached-${newId()}`);
        const c = await store.createCredential({ id: newId(), accountId: a.id, kind: 'account', prefix: 'sb_c', label: '', createdAt: T0, hash: key });
        const l = await lease(a.id, 'h1', T0, HOUR);
        await report(a.id, [appeared('g', { name: 'before' })]);
        const conv = (await store.findConversationByExternalId(a.id, 'g'))!;
        // Read twice on the other replica, so whatever it caches is cached.
        for (let i = 0; i < 2; i++) {
          expect(await other.findCredentialByHash(key)).not.toBeNull();
          expect(await other.isOutboundPaused(a.id)).toBe(false);
          expect((await other.liveLease(a.id, T0 + 1))?.epoch).toBe(l.epoch);
          expect((await other.getConversation(a.id, conv.id))?.name).toBe('before');
        }
        await store.revokeCredential(c.id, T0 + 2);
        expect(await other.findCredentialByHash(key)).toBeNull();
        await store.setOutboundPaused(a.id, true);
        expect(await other.findCredentialByHash(hash('no such key'))).toBeNull();
        expect(await other.isOutboundPaused(a.id)).toBe(true);
        await store.setOutboundPaused(null, true);
        await store.setOutboundPaused(a.id, false);
        expect(await other.findCredentialByHash(hash('no such key'))).toBeNull();
        expect(await other.isOutboundPaused(a.id)).toBe(true);
        await store.releaseLease(a.id, l.epoch, T0 + 3);
        expect(await other.findCredentialByHash(hash('no such key'))).toBeNull();
        expect(await other.liveLease(a.id, T0 + 4)).toBeNull();
        await report(a.id, [{ type: 'group.renamed', conversationExternalId: 'g', name: 'after' }], T0 + 5);
        expect(await other.findCredentialByHash(hash('no such key'))).toBeNull();
        expect((await other.getConversation(a.id, conv.id))?.name).toBe('after');
      });

      it('a dispatch and the reads it makes in its turn see a change resolved on another replica', async () => {
        const other = await replica();
        const a = await account();
        const l = await lease(a.id, 'h1', T0, HOUR);
        await report(a.id, [appeared('g', { name: 'before' })]);
        const conv = (await store.findConversationByExternalId(a.id, 'g'))!;
        for (let i = 0; i < 2; i++) expect((await other.getConversation(a.id, conv.id))?.name).toBe('before');
        await report(a.id, [{ type: 'group.renamed', conversationExternalId: 'g', name: 'after' }], T0 + 5);
        // As a woken poll reads its commands' conversations: right after the dispatch, in its turn.
        const name = await handed(other.dispatchCommands(a.id, l.epoch, 10, [], T0 + 6, TTL)).then(() => other.getConversation(a.id, conv.id)).then((c) => c?.name);
        expect(name).toBe('after');
      });

      it('retention runs in one replica at a time', async () => {
        const replicas = [store, await replica(), await replica()];
        const a = await account();
        const old = await store.appendEvents(a.id, Array.from({ length: 20 }, () => ({ type: 'old', time: T0, data: null })));
        const purged = await Promise.all(replicas.map((r) => r.purgeEvents(T0 + 1)));
        expect(purged.reduce((x, y) => x + y, 0)).toBe(20);
        expect(await store.eventsPurgedThrough(a.id)).toBe(old.at(-1)!.id);
      });

      it('command and attachment retention: replicas purging at once drop each row once', async () => {
        const replicas = [store, await replica(), await replica()];
        const a = await account();
        const l = await lease(a.id);
        for (let i = 0; i < 10; i++) await store.acceptCommand(newCommand(a.id), 0);
        for (const c of (await handed(store.dispatchCommands(a.id, l.epoch, 100, [], T0, TTL)))!) await store.settleCommand(settlement(a.id, c.id, l.epoch));
        for (let i = 0; i < 10; i++) await store.putAttachment({ id: `att-${i}`, accountId: a.id, fileName: 'f', mimeType: 'text/plain', bytes: new Uint8Array([i]), createdAt: T0 });
        const commands = await Promise.all(replicas.map((r) => r.purgeCommands(T0 + HOUR, 100)));
        const attachments = await Promise.all(replicas.map((r) => r.purgeAttachments(T0 + 1, 100)));
        expect(commands.reduce((x, y) => x + y, 0)).toBe(10);
        expect(attachments.reduce((x, y) => x + y, 0)).toBe(10);
        expect(await store.purgeCommands(T0 + HOUR, 100)).toBe(0);
        expect(await store.getAttachment(a.id, 'att-0')).toBeNull();
      });
    });

    describe('group commit', () => {
      it('a read sees a write once it resolved, never before it is durable', async () => {
        const a = store.createAccount({ id: newId(), name: 'read-your-writes', createdAt: T0 });
        // With group commit, the group is still open when the read runs; a store without it may have committed already.
        if (hooks.groupCommit) expect(await store.findAccount('read-your-writes')).toBeNull();
        const created = await a;
        expect(await store.findAccount('read-your-writes')).toEqual(created);
      });

      it.skipIf(!hooks.failCommit)('a read never shows a write of a group that later fails, even one opened as the group before it commits', async () => {
        const a = await account();
        const kept = store.appendEvents(a.id, [{ type: 'kept', time: T0, data: null }]);
        let doomed: Promise<unknown>[] = [];
        // Runs as soon as the first group commits: a new group opens before anything else reads.
        const next = kept.then(() => {
          doomed = [store.appendEvents(a.id, [{ type: 'doomed', time: T0, data: null }]), hooks.failCommit!(store)];
        });
        const read = store.readEvents(a.id, 0, 10);
        await next;
        const outcomes = await Promise.allSettled(doomed);
        expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
        expect((await read).map((e) => e.type)).not.toContain('doomed');
        expect((await store.readEvents(a.id, 0, 10)).map((e) => e.type)).toEqual(['kept']);
      });

      it.skipIf(!hooks.peer)('flushed() resolves once every write issued so far is durable', async () => {
        const other = await peer();
        const a = await account();
        void store.createAccount({ id: newId(), name: 'flushed', createdAt: T0 });
        void store.appendEvents(a.id, [{ type: 't', time: T0, data: null }]);
        await store.flushed();
        expect((await other.findAccount('flushed'))?.name).toBe('flushed');
        expect(await other.readEvents(a.id, 0, 10)).toHaveLength(1);
      });

      it.skipIf(!hooks.peer)('readEvents never shows an event before it is durable', async () => {
        const other = await peer();
        const a = await account();
        const append = store.appendEvents(a.id, [{ type: 't', time: T0, data: 1 }]);
        const read = await store.readEvents(a.id, 0, 10);
        // Whatever readEvents returned is already visible to another connection (which, without
        // group commit, may also see the append if it committed meanwhile).
        const seen = await other.readEvents(a.id, 0, 10);
        if (hooks.groupCommit) expect(seen).toEqual(read);
        else expect(seen).toEqual(expect.arrayContaining(read));
        await append;
      });

      it.skipIf(!hooks.peer || !hooks.groupCommit)('many writes issued in one turn commit together, and each resolves only after that commit', async () => {
        const other = await peer();
        const names = Array.from({ length: 50 }, (_, i) => `group-${i}`);
        const writes = names.map((name) => store.createAccount({ id: newId(), name, createdAt: T0 }));
        // Nothing is visible to another connection before the group commits...
        expect(await other.listAccounts()).toEqual([]);
        // ...and when the first write resolves, all of them already are.
        await writes[0];
        expect((await other.listAccounts()).map((a) => a.name).sort()).toEqual([...names].sort());
        await Promise.all(writes);
      });

      it('a write that throws inside a group rejects alone; the others commit', async () => {
        await account('taken');
        const before = store.createAccount({ id: newId(), name: 'before', createdAt: T0 });
        const failing = store.createAccount({ id: newId(), name: 'taken', createdAt: T0 });
        const after = store.createAccount({ id: newId(), name: 'after', createdAt: T0 });
        await expect(failing).rejects.toThrow();
        await expect(before).resolves.toMatchObject({ name: 'before' });
        await expect(after).resolves.toMatchObject({ name: 'after' });
        expect((await store.listAccounts()).map((a) => a.name).sort()).toEqual(['after', 'before', 'taken']);
      });

      it('a command without a key whose insert fails rejects alone; its group commits and the store goes on', async () => {
        const a = await account();
        const taken = newCommand(a.id);
        await store.acceptCommand(taken, 0);
        const before = newCommand(a.id);
        const after = newCommand(a.id);
        const writes = [before, { ...taken, payload: { text: 'second' } }, after].map((c) => store.acceptCommand(c, 0));
        await expect(writes[1]).rejects.toThrow();
        await expect(writes[0]).resolves.toMatchObject({ disposition: 'queued' });
        await expect(writes[2]).resolves.toMatchObject({ disposition: 'queued' });
        expect((await store.getCommand(a.id, taken.id))!.payload).toEqual(taken.payload);
        expect(await store.getCommand(a.id, before.id)).not.toBeNull();
        expect(await store.getCommand(a.id, after.id)).not.toBeNull();
      });

      it('property: in any one-turn group of commands without a key, exactly those whose insert fails are refused', async () => {
        const a = await account();
        const taken = newCommand(a.id);
        await store.acceptCommand(taken, 0);
        // Up to 70 commands: the SQLite store inserts a group's commands 64, 32, ... 1 rows a statement.
        await fc.assert(
          fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 70 }), async (fails) => {
            const commands = fails.map((fail) => (fail ? { ...taken, payload: { text: 'again' } } : newCommand(a.id)));
            const outcomes = await Promise.allSettled(commands.map((c) => store.acceptCommand(c, 0)));
            expect(outcomes.map((o) => o.status)).toEqual(fails.map((fail) => (fail ? 'rejected' : 'fulfilled')));
            for (const [i, c] of commands.entries()) {
              const stored = await store.getCommand(a.id, c.id);
              if (fails[i]) expect(stored!.payload).toEqual(taken.payload);
              else expect(stored).toMatchObject({ id: c.id, status: 'queued', payload: c.payload, target: c.target });
            }
          }),
          { numRuns: 25 },
        );
      });

      it('a dispatch in the turn that accepted commands hands them out in the order they were accepted', async () => {
        const a = await account();
        const l = await lease(a.id);
        const first = newCommand(a.id);
        const second = newCommand(a.id, { idempotencyKey: `key-${newId()}` });
        const accepted = [store.acceptCommand(first, 0), store.acceptCommand(second, 0)];
        const poll = handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0, TTL));
        await Promise.all(accepted);
        const firstPoll = (await poll)!.map((c) => c.id);
        const secondPoll = (await handed(store.dispatchCommands(a.id, l.epoch, 10, firstPoll, T0, TTL)))!.map((c) => c.id);
        expect([...firstPoll, ...secondPoll]).toEqual([first.id, second.id]);
      });

      it('a write that throws halfway is undone entirely, and the rest of its group still commits', async () => {
        const a = await account();
        const l = await lease(a.id);
        const c = newCommand(a.id);
        await store.acceptCommand(c, 0);
        await handed(store.dispatchCommands(a.id, l.epoch, 10, [], T0, TTL));
        const neighbour = store.appendEvents(a.id, [{ type: 'neighbour', time: T0, data: null }]);
        // eventData runs after the command row and its history were written: both must be undone.
        const broken = store.settleCommand(settlement(a.id, c.id, l.epoch, { eventData: () => { throw new Error('boom'); } }));
        await expect(broken).rejects.toThrow('boom');
        await neighbour;
        expect(await store.getCommand(a.id, c.id)).toMatchObject({ status: 'queued', errorCode: null, settledAt: null });
        expect(await store.commandHistory(c.id)).toEqual([{ status: 'queued', at: T0 }]);
        expect((await store.readEvents(a.id, 0, 10)).map((e) => e.type)).toEqual(['neighbour']);
        expect(outcome(await store.settleCommand(settlement(a.id, c.id, l.epoch)))).toBe('settled');
      });

      it('property: in any one-turn group, exactly the writes that do not throw are kept', async () => {
        await account('dup');
        let run = 0;
        await fc.assert(
          fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }), async (fails) => {
            run++;
            const writes = fails.map((fail, i) => store.createAccount({ id: newId(), name: fail ? 'dup' : `r${run}-${i}`, createdAt: T0 }));
            const outcomes = await Promise.allSettled(writes);
            expect(outcomes.map((o) => o.status === 'rejected')).toEqual(fails);
            const names = new Set((await store.listAccounts()).map((a) => a.name));
            fails.forEach((fail, i) => {
              if (!fail) expect(names.has(`r${run}-${i}`)).toBe(true);
            });
            expect([...names].filter((n) => n.startsWith(`r${run}-`))).toHaveLength(fails.filter((f) => !f).length);
          }),
          { numRuns: 25 },
        );
      });

      it.skipIf(!hooks.blockWrites)('a transaction that cannot begin rejects with StoreError and leaves nothing', async () => {
        const kept = await account('kept');
        const release = await hooks.blockWrites!(store);
        let outcomes: PromiseSettledResult<unknown>[];
        try {
          outcomes = await Promise.allSettled([
            store.createAccount({ id: newId(), name: 'lost-1', createdAt: T0 }),
            store.appendEvents(kept.id, [{ type: 't', time: T0, data: null }]),
          ]);
        } finally {
          await release();
        }
        for (const outcome of outcomes) {
          expect(outcome.status).toBe('rejected');
          expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreError);
        }
        expect((await store.listAccounts()).map((a) => a.name)).toEqual(['kept']);
        expect(await store.readEvents(kept.id, 0, 10)).toEqual([]);
        // The store recovers once the lock is gone.
        await expect(store.createAccount({ id: newId(), name: 'later', createdAt: T0 })).resolves.toMatchObject({ name: 'later' });
      });

      it.skipIf(!hooks.failCommit)('a failed COMMIT rejects every write of the group with StoreError and leaves none of them', async () => {
        const kept = await account('kept');
        const first = store.createAccount({ id: newId(), name: 'lost-1', createdAt: T0 });
        const poison = hooks.failCommit!(store);
        const events = store.appendEvents(kept.id, [{ type: 't', time: T0, data: null }]);
        // The stream reads in the same turn: it must not see an event that is about to be rolled back.
        const streamed = store.readEvents(kept.id, 0, 10);
        const outcomes = await Promise.allSettled([first, poison, events]);
        expect(await streamed).toEqual([]);
        for (const outcome of outcomes) {
          expect(outcome.status).toBe('rejected');
          expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreError);
        }
        expect((await store.listAccounts()).map((a) => a.name)).toEqual(['kept']);
        expect(await store.readEvents(kept.id, 0, 10)).toEqual([]);
        await expect(store.createAccount({ id: newId(), name: 'later', createdAt: T0 })).resolves.toMatchObject({ name: 'later' });
        expect((await store.listAccounts()).map((a) => a.name)).toEqual(['kept', 'later']);
      });
    });
  });
}
