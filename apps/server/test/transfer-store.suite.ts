import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdSource } from '../src/ids.ts';
import { DEFAULT_TRANSFER_LIMITS } from '../src/store/rules/transfers.ts';
import type { Store } from '../src/store/types.ts';

const newId = createIdSource().next;
const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The rules of TransferStore (src/store/types.ts) every store passes: uploads usable only once
 * finished, a fetch for a command that records its use, and retention. `replica`: a second
 * server on the same database (PostgreSQL), for the race between a fetch and a purge.
 */
export function transferStoreSuite(name: string, factory: () => Promise<Store>, replica?: (store: Store) => Promise<Store>): void {
  describe(`Store contract: ${name}: transfers`, () => {
    let store: Store;
    const opened: Store[] = [];
    beforeEach(async () => {
      store = await factory();
      opened.push(store);
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => undefined);
    });

    const account = () => store.createAccount({ id: newId(), name: `acct-${newId()}`, createdAt: T0 });

    /** A queued command of the account whose payload names `transferId`, accepted at `createdAt`. */
    async function command(accountId: string, transferId: string, createdAt = T0): Promise<string> {
      const id = newId();
      await store.acceptCommand({
        id, accountId, type: 'message.send', routingPath: 'agent-turn', target: { kind: 'conversation', conversationId: newId() },
        payload: { kind: 'attachment', transferId }, logicalActionId: id, idempotencyKey: null, conversationId: null, createdAt,
      }, 0);
      return id;
    }

    const epochs = new Map<string, number>();
    /** Dispatches the account's queued commands to its lease (taken once) and settles `commandId`. */
    async function settle(accountId: string, commandId: string): Promise<void> {
      let epoch = epochs.get(accountId);
      if (epoch === undefined) {
        const lease = await store.acquireLease({ accountId, hostId: 'h', osMajorVersion: 15, capabilities: [] }, T0, 365 * DAY);
        if (!lease.ok) throw new Error('lease held');
        epoch = lease.value.epoch;
        epochs.set(accountId, epoch);
      }
      await store.dispatchCommands(accountId, epoch, 100, [], T0, 365 * DAY);
      const settled = await store.settleCommand({
        accountId, commandId, epoch, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null, detail: null, at: T0,
        eventData: (cmd) => ({ commandId: cmd.id }),
      });
      expect(settled.ok).toBe(true);
    }

    /** A finished upload of `chunks` (each its own write), expiring a day after T0. */
    async function uploaded(accountId: string, chunks: Uint8Array[] = [new Uint8Array([1, 2, 3])], id = newId()): Promise<string> {
      await store.beginTransfer({ id, accountId, fileName: 'a.png', mimeType: 'image/png', createdAt: T0 });
      for (const [seq, bytes] of chunks.entries()) await store.appendTransferChunk(accountId, id, seq, bytes);
      const size = chunks.reduce((n, c) => n + c.length, 0);
      expect(await store.finishTransfer(accountId, id, { byteSize: size, sha256: 'ab'.repeat(32), expiresAt: T0 + DAY })).toMatchObject({ id, state: 'ready', byteSize: size });
      return id;
    }

    it('an upload under way cannot be fetched; finished, it can, and its chunks read back in order', async () => {
      const a = await account();
      const id = newId();
      await store.beginTransfer({ id, accountId: a.id, fileName: 'clip.mp4', mimeType: 'video/mp4', createdAt: T0 });
      const chunks = [new Uint8Array(1 << 20).fill(7), new Uint8Array([9, 8, 7])];
      for (const [seq, bytes] of chunks.entries()) await store.appendTransferChunk(a.id, id, seq, bytes);
      const c = await command(a.id, id);
      expect(await store.fetchTransfer(a.id, id, c)).toBeNull();
      const done = await store.finishTransfer(a.id, id, { byteSize: (1 << 20) + 3, sha256: 'cd'.repeat(32), expiresAt: T0 + DAY });
      expect(done).toEqual({ id, accountId: a.id, fileName: 'clip.mp4', mimeType: 'video/mp4', byteSize: (1 << 20) + 3, sha256: 'cd'.repeat(32), state: 'ready', createdAt: T0, expiresAt: T0 + DAY });
      expect(await store.fetchTransfer(a.id, id, c)).toEqual(done);
      expect(Buffer.from((await store.readTransferChunk(a.id, id, 0))!).equals(Buffer.from(chunks[0]!))).toBe(true);
      expect(Buffer.from((await store.readTransferChunk(a.id, id, 1))!)).toEqual(Buffer.from([9, 8, 7]));
      expect(await store.readTransferChunk(a.id, id, 2)).toBeNull();
      // Finished once: a second finish finds no upload under way.
      expect(await store.finishTransfer(a.id, id, { byteSize: 0, sha256: '', expiresAt: 0 })).toBeNull();
    });

    it('an abandoned upload leaves nothing: no transfer, no chunk', async () => {
      const a = await account();
      const id = newId();
      await store.beginTransfer({ id, accountId: a.id, fileName: 'a.png', mimeType: 'image/png', createdAt: T0 });
      await store.appendTransferChunk(a.id, id, 0, new Uint8Array([1]));
      await store.abandonTransfer(a.id, id);
      expect(await store.readTransferChunk(a.id, id, 0)).toBeNull();
      expect(await store.finishTransfer(a.id, id, { byteSize: 1, sha256: '', expiresAt: T0 + DAY })).toBeNull();
    });

    it('fetchTransfer answers only the account\'s transfer, for a command of the account that names it', async () => {
      const a = await account();
      const b = await account();
      const mine = await uploaded(a.id);
      const theirs = await uploaded(b.id);
      expect(await store.fetchTransfer(a.id, theirs, await command(a.id, theirs))).toBeNull();
      expect(await store.fetchTransfer(b.id, mine, await command(a.id, mine))).toBeNull();
      expect(await store.fetchTransfer(a.id, mine, await command(a.id, 'another'))).toBeNull();
      expect(await store.fetchTransfer(a.id, mine, newId())).toBeNull();
      expect(await store.fetchTransfer(a.id, 'unknown', await command(a.id, 'unknown'))).toBeNull();
      expect(await store.fetchTransfer(a.id, mine, await command(a.id, mine))).toMatchObject({ id: mine });
    });

    it('expiry is judged at acceptance: a command accepted before it fetches the transfer whenever it is sent, one accepted after never', async () => {
      const a = await account();
      const id = await uploaded(a.id);
      expect(await store.fetchTransfer(a.id, id, await command(a.id, id, T0 + DAY - 1))).not.toBeNull();
      expect(await store.fetchTransfer(a.id, id, await command(a.id, id, T0 + DAY))).toBeNull();
    });

    it('a transfer a command used is fetched for it again whenever it asks, never for a new command accepted past its expiry', async () => {
      const a = await account();
      const id = await uploaded(a.id);
      const first = await command(a.id, id);
      expect(await store.fetchTransfer(a.id, id, first)).not.toBeNull();
      expect(await store.fetchTransfer(a.id, id, first)).not.toBeNull();
      expect(await store.fetchTransfer(a.id, id, await command(a.id, id, T0 + 2 * DAY))).toBeNull();
    });

    it('purgeTransfers keeps an expired transfer a queued command accepted before its expiry names, until the command settles', async () => {
      const a = await account();
      const b = await account();
      const waiting = await uploaded(a.id);
      const c = await command(a.id, waiting);
      // Named only by a command accepted after its expiry, another account's command, or a settled one: dropped.
      const late = await uploaded(a.id);
      await command(a.id, late, T0 + DAY);
      const other = await uploaded(a.id);
      await command(b.id, other);
      const done = await uploaded(a.id);
      await settle(a.id, await command(a.id, done));

      expect(await store.purgeTransfers(T0 + 365 * DAY, T0, 100)).toBe(3);
      expect(await store.readTransferChunk(a.id, waiting, 0)).not.toBeNull();
      for (const id of [late, other, done]) expect(await store.readTransferChunk(a.id, id, 0)).toBeNull();
      expect(await store.purgeTransfers(T0 + 365 * DAY, T0, 100)).toBe(0);
      // Once its command settles (it never fetched it), it goes.
      await settle(a.id, c);
      expect(await store.purgeTransfers(T0 + 365 * DAY, T0, 100)).toBe(1);
      expect(await store.readTransferChunk(a.id, waiting, 0)).toBeNull();
    });

    it('purgeTransfers drops expired unused transfers and stale uploads, keeps used ones until their command goes', async () => {
      const a = await account();
      const unused = await uploaded(a.id);
      const used = await uploaded(a.id);
      const c = await command(a.id, used);
      expect(await store.fetchTransfer(a.id, used, c)).not.toBeNull();
      const stale = newId();
      await store.beginTransfer({ id: stale, accountId: a.id, fileName: 'a.png', mimeType: 'image/png', createdAt: T0 });
      await store.appendTransferChunk(a.id, stale, 0, new Uint8Array([1]));

      expect(await store.purgeTransfers(T0 + DAY - 1, T0, 100)).toBe(0);
      expect(await store.purgeTransfers(T0 + DAY, T0 + 1, 100)).toBe(2);
      expect(await store.readTransferChunk(a.id, unused, 0)).toBeNull();
      expect(await store.readTransferChunk(a.id, stale, 0)).toBeNull();
      expect(await store.readTransferChunk(a.id, used, 0)).not.toBeNull();
      expect(await store.purgeTransfers(T0 + 365 * DAY, T0 + 1, 100)).toBe(0);

      // The command settles and retention drops it: its use goes with it, then the transfer.
      await settle(a.id, c);
      expect(await store.purgeTransfers(T0 + 365 * DAY, T0 + 1, 100)).toBe(0);
      expect(await store.purgeCommands(T0 + 1, 100)).toBeGreaterThanOrEqual(1);
      expect(await store.purgeTransfers(T0 + 365 * DAY, T0 + 1, 100)).toBe(1);
      expect(await store.readTransferChunk(a.id, used, 0)).toBeNull();
    });

    it('purgeTransfers drops at most `limit` a call, and never skips past the used ones', async () => {
      const a = await account();
      for (let i = 0; i < 3; i++) {
        const id = await uploaded(a.id);
        expect(await store.fetchTransfer(a.id, id, await command(a.id, id))).not.toBeNull();
      }
      for (let i = 0; i < 3; i++) await uploaded(a.id);
      expect(await store.purgeTransfers(T0 + DAY, T0, 2)).toBe(2);
      expect(await store.purgeTransfers(T0 + DAY, T0, 2)).toBe(1);
      expect(await store.purgeTransfers(T0 + DAY, T0, 2)).toBe(0);
    });

    it('transfer limits are the defaults until set, then as set, per account', async () => {
      const a = await account();
      const b = await account();
      expect(await store.getTransferLimits(a.id)).toEqual(DEFAULT_TRANSFER_LIMITS);
      await store.setTransferLimits(a.id, { maxBytes: 10, allowedTypes: ['text/plain'] }, T0);
      await store.setTransferLimits(a.id, { maxBytes: 20, allowedTypes: [] }, T0 + 1);
      expect(await store.getTransferLimits(a.id)).toEqual({ maxBytes: 20, allowedTypes: [] });
      expect(await store.getTransferLimits(b.id)).toEqual(DEFAULT_TRANSFER_LIMITS);
    });

    if (replica) {
      it('a fetch and a purge racing on two replicas: the transfer is either fetched and kept, or purged and not fetched', async () => {
        const other = await replica(store);
        opened.push(other);
        const a = await account();
        for (let round = 0; round < 10; round++) {
          const id = await uploaded(a.id);
          // Settled, so no queued command keeps it: the purge may take it, and the fetch (its command
          // accepted before the expiry) may too.
          const c = await command(a.id, id);
          await settle(a.id, c);
          const [fetched] = await Promise.all([store.fetchTransfer(a.id, id, c), other.purgeTransfers(T0 + DAY, T0, 100)]);
          const chunk = await store.readTransferChunk(a.id, id, 0);
          if (fetched) expect(chunk, `round ${round}`).not.toBeNull();
          else expect(chunk, `round ${round}`).toBeNull();
        }
      });
    }
  });
}
