import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capability, DispatchedCommand } from '@switchboard/contracts';
import type { Transfer } from '@switchboard/connector-client';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { allCapabilityNames, allRichKinds } from '../config.ts';
import { SimulatorDriver } from '../driver/simulator/driver.ts';
import { directExternalId } from '../driver/simulator/platform.ts';
import { noFaults, type FaultSettings } from '../driver/simulator/settings.ts';
import type { Outcome, OutcomeResult } from '../driver/types.ts';
import { Executor, executionOf, TransferFetchRefused, type TransferSource } from './executor.ts';
import { directTarget, dispatched, groupTarget, participantsTarget, recipientTarget } from './fixtures.test-support.ts';

const everything: Capability[] = allCapabilityNames.map((name) => {
  if (name === 'command.message_send.content.v1') return { name, supportedKinds: [...allRichKinds] };
  if (name === 'command.group_update.v1') return { name, supportsRename: true, supportsPhoto: true, supportsParticipants: true };
  return { name };
});

let dir: string;
let driver: SimulatorDriver;

function open(faults: FaultSettings = noFaults): SimulatorDriver {
  return new SimulatorDriver(
    { dbPath: join(dir, 'simulator.db'), seed: 1, sendLatency: { min: 0, max: 0 }, echoLatency: { min: 0, max: 0 }, faults, removeStallMs: 0, feedPollMs: 10 },
    { account: 'account-1', hostId: 'host-a', osMajorVersion: 15, log: pino({ level: 'silent' }) },
  );
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'executor-'));
  driver = open();
});

afterEach(async () => {
  await driver.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A direct conversation someone started, resolved as the server would. */
function dm(address = '+14155550101'): DispatchedCommand['target'] {
  driver.platform.receive({ from: address, text: 'hi' });
  return directTarget(directExternalId(address), [address]);
}

async function group(executor: Executor): Promise<DispatchedCommand['target']> {
  const created = await executor.execute(dispatched('group.create', { text: 'hi all' }, participantsTarget()));
  const appeared = created.events[0]!;
  if (appeared.type !== 'conversation.appeared') throw new Error('no conversation.appeared');
  return groupTarget(appeared.externalId, appeared.participants);
}

describe('settlement of driver outcomes', () => {
  test.each<[OutcomeResult, string | null]>([
    ['confirmed', null],
    ['gateway_rejected', 'gateway_rejected'],
    ['send_not_ok', 'send_returned_not_ok'],
    ['accepted_no_echo', 'accepted_echo_unconfirmed'],
    ['invalid_target', 'invalid_target'],
    ['stale_target', 'stale_target'],
    ['group_update_unverified', 'group_update_unverified'],
    ['no_message_to_react_to', 'no_message_to_react_to'],
  ])('%s settles %s, with the driver\'s reason', (result, code) => {
    const outcome = { result, detail: `why ${result}`, events: [] } as Outcome;
    expect(executionOf(outcome)).toMatchObject({ status: code === null ? 'succeeded' : 'failed', errorCode: code, detail: `why ${result}` });
  });
});

describe('the order of the host\'s checks', () => {
  test('payload_invalid comes first, before capabilities', async () => {
    const executor = new Executor(driver, []);
    expect(await executor.execute(dispatched('message.send', { txt: 'x' }, dm()))).toMatchObject({ status: 'failed', errorCode: 'payload_invalid' });
  });

  test('payload_invalid says what and where: zod\'s issues with JSON Pointers, a misspelled key first', async () => {
    const executor = new Executor(driver, everything);
    expect(await executor.execute(dispatched('message.send', { txt: 'x' }, dm()))).toMatchObject({
      errorCode: 'payload_invalid',
      errorPath: '/payload/txt',
      detail: '/payload/txt: Unrecognized key: "txt"; /payload/text: Invalid input: expected string, received undefined',
    });
    expect(await executor.execute(dispatched('message.send', { kind: 'poll', question: 'q', options: ['only'] }, dm()))).toMatchObject({
      errorPath: '/payload/options',
      detail: expect.stringMatching(/^\/payload\/options: Too small/),
    });
    // A key that is not a JSON Pointer's plain segment is escaped (RFC 6901).
    expect(await executor.execute(dispatched('name_photo.share', { 'a/b~c': 1 }, dm()))).toMatchObject({ errorPath: '/payload/a~1b~0c' });
  });

  test('a target of the wrong kind and a media payload say where too', async () => {
    const executor = new Executor(driver, everything);
    expect(await executor.execute(dispatched('message.send', { kind: 'attachment', transferId: 't' }, dm()))).toMatchObject({ errorCode: 'transfer_unavailable', errorPath: '/payload/transferId' });
  });

  test('capability_constraint_violation comes before transfer_unavailable', async () => {
    const executor = new Executor(driver, everything.filter((c) => c.name !== 'command.message_send.content.v1'));
    expect(await executor.execute(dispatched('message.send', { kind: 'attachment', transferId: 't' }, dm()))).toMatchObject({ errorCode: 'capability_constraint_violation' });
  });

  test.each([
    ['message.send attachment', 'message.send', { kind: 'attachment', transferId: 't1' }],
    ['message.send sticker', 'message.send', { kind: 'sticker', transferId: 't1' }],
    ['group.update set_photo', 'group.update', { action: 'set_photo', transferId: 't1' }],
  ] as const)('%s settles transfer_unavailable without touching the platform', async (_name, type, payload) => {
    const executor = new Executor(driver, everything);
    const target = type === 'group.update' ? await group(executor) : dm();
    const command = dispatched(type, payload, target);
    expect(await executor.execute(command)).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable', detail: expect.stringContaining('t1') });
    expect(driver.platform.messagesOfAction(command.logicalActionId)).toEqual([]);
  });

  test.each([
    ['reaction.apply', { tapback: 'like' }],
    ['name_photo.share', {}],
  ] as const)('%s aimed at a group settles direct_conversation_required', async (type, payload) => {
    const executor = new Executor(driver, everything);
    expect(await executor.execute(dispatched(type, payload, await group(executor)))).toMatchObject({ status: 'failed', errorCode: 'direct_conversation_required' });
  });

  test('a command the platform already shows is not executed again; its first outcome and events are replayed', async () => {
    const executor = new Executor(driver, everything);
    const command = dispatched('message.send', { text: 'once' }, recipientTarget('carol@example.com'));
    const first = await executor.execute(command);
    const again = await executor.execute({ ...command, epoch: 2 });
    expect(first).toMatchObject({ status: 'succeeded', replayed: false });
    expect(again).toEqual({ ...first, replayed: true });
    expect(driver.platform.messagesOfAction(command.logicalActionId)).toHaveLength(1);
  });

  test('a lost echo replays as accepted_echo_unconfirmed, and the message is on the platform once', async () => {
    await driver.close();
    driver = open({ ...noFaults, echoLost: 1 });
    const executor = new Executor(driver, everything);
    const command = dispatched('message.send', { text: 'maybe' }, dm());
    expect(await executor.execute(command)).toMatchObject({ status: 'failed', errorCode: 'accepted_echo_unconfirmed', replayed: false });
    expect(await executor.execute(command)).toMatchObject({ status: 'failed', errorCode: 'accepted_echo_unconfirmed', replayed: true });
    expect(driver.platform.messagesOfAction(command.logicalActionId)).toHaveLength(1);
  });
});

describe('commands end to end on the simulator', () => {
  test('message.send of every usable kind succeeds with the echo as message.sent', async () => {
    const executor = new Executor(driver, everything);
    const target = dm();
    for (const payload of [{ text: 'plain' }, { kind: 'rich_text', text: 'rich', effect: 'lasers' }, { kind: 'rich_link', url: 'https://example.com' }, { kind: 'poll', question: 'q', options: ['a', 'b'] }]) {
      const command = dispatched('message.send', payload, target);
      const execution = await executor.execute(command);
      expect(execution).toMatchObject({ status: 'succeeded', errorCode: null, events: [{ type: 'message.sent', commandId: command.commandId }] });
    }
  });

  test('group.update add_participant succeeds, then the group settles stale_target until a message arrives', async () => {
    const executor = new Executor(driver, everything);
    const target = await group(executor);
    const add = await executor.execute(dispatched('group.update', { action: 'add_participant', participantExternalId: '+14155550103' }, target));
    expect(add).toMatchObject({ status: 'succeeded', events: [{ type: 'group.participants_changed', added: ['+14155550103'] }] });
    const after = target.kind === 'conversation' ? { ...target, participants: [...target.participants, '+14155550103'], membershipVersion: 1 } : target;
    expect(await executor.execute(dispatched('message.send', { text: 'x' }, after))).toMatchObject({ errorCode: 'stale_target' });
    if (after.kind !== 'conversation') throw new Error('unreachable');
    driver.platform.receive({ from: '+14155550103', conversationExternalId: after.externalId, text: 'hello' });
    expect(await executor.execute(dispatched('message.send', { text: 'x' }, after))).toMatchObject({ status: 'succeeded' });
  });

  test('reaction.tapback of an unknown message has no message to react to', async () => {
    const executor = new Executor(driver, everything);
    expect(await executor.execute(dispatched('reaction.tapback', { messageExternalId: randomUUID(), tapback: 'love' }, dm()))).toMatchObject({ errorCode: 'no_message_to_react_to' });
  });
});

describe('transfers: the media a transferId names is fetched, checked and handed to the driver', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
  const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  /** A server that holds one transfer, `t1`; every fetch is recorded. */
  function serving(transfer: Transfer = { fileName: 'photo.png', mimeType: 'image/png', sha256: sha(png), bytes: png }) {
    const fetches: Array<{ transferId: string; commandId: string; epoch: number }> = [];
    const source: TransferSource = async (transferId, command) => {
      fetches.push({ transferId, commandId: command.commandId, epoch: command.epoch });
      return transferId === 't1' ? { result: 'found', transfer } : { result: 'not_found', error: { error: 'transfer_not_found', message: 'no such transfer' } };
    };
    return { source, fetches };
  }

  test('no more commands hold fetched media at once than the executor has slots: the next fetch waits for a send to finish', async () => {
    const transfer: Transfer = { fileName: 'photo.png', mimeType: 'image/png', sha256: sha(png), bytes: png };
    const started: string[] = [];
    let letFirstGo: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => (letFirstGo = resolve));
    const source: TransferSource = async (_transferId, command) => {
      started.push(command.commandId);
      if (started.length === 1) await firstHeld;
      return { result: 'found', transfer };
    };
    const executor = new Executor(driver, everything, source, 1);
    const [a, b] = [dispatched('message.send', { kind: 'attachment', transferId: 't1' }, dm()), dispatched('message.send', { kind: 'attachment', transferId: 't1' }, dm('+14155550102'))];
    const runs = [executor.execute(a), executor.execute(b)];
    await vi.waitFor(() => expect(started).toEqual([a.commandId]));
    // The second command waits for the slot while the first holds its media.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toEqual([a.commandId]);
    letFirstGo();
    expect(await Promise.all(runs)).toMatchObject([{ status: 'succeeded' }, { status: 'succeeded' }]);
    expect(started).toEqual([a.commandId, b.commandId]);
  });

  test.each(['attachment', 'sticker'] as const)('message.send %s: succeeds with its echo, and the platform keeps the file (name, type, bytes, sha256)', async (kind) => {
    const { source, fetches } = serving();
    const executor = new Executor(driver, everything, source);
    const command = dispatched('message.send', { kind, transferId: 't1' }, dm());
    const execution = await executor.execute(command);
    expect(execution).toMatchObject({ status: 'succeeded', errorCode: null, events: [{ type: 'message.sent', commandId: command.commandId }] });
    expect(fetches).toEqual([{ transferId: 't1', commandId: command.commandId, epoch: command.epoch }]);
    const [sent] = driver.platform.messagesOfAction(command.logicalActionId);
    expect(sent).toMatchObject({ kind, direction: 'out', body: { fileName: 'photo.png', mimeType: 'image/png', byteSize: png.byteLength, sha256: sha(png) } });
    const file = driver.platform.attachment((sent!.body.attachmentIds as string[])[0]!);
    expect(file).toMatchObject({ fileName: 'photo.png', mimeType: 'image/png' });
    expect(Buffer.from(file.bytes).equals(Buffer.from(png))).toBe(true);
  });

  test('group.update set_photo: succeeds, and the group\'s photo on the platform is the file', async () => {
    const { source } = serving();
    const executor = new Executor(driver, everything, source);
    const target = await group(executor);
    if (target.kind !== 'conversation') throw new Error('unreachable');
    expect(await executor.execute(dispatched('group.update', { action: 'set_photo', transferId: 't1' }, target))).toMatchObject({ status: 'succeeded', errorCode: null });
    const state = driver.platform.conversation(target.externalId)!;
    expect(state.photoSha256).toBe(sha(png));
    expect(driver.platform.attachment(state.photoAttachmentId!).bytes).toEqual(png);
  });

  test.each([
    ['message.send attachment', 'message.send', { kind: 'attachment', transferId: 'gone' }],
    ['group.update set_photo', 'group.update', { action: 'set_photo', transferId: 'gone' }],
  ] as const)('%s: a 404 (transfers off, unknown, expired, another account\'s) settles transfer_unavailable at /payload/transferId, the platform untouched', async (_name, type, payload) => {
    const { source } = serving();
    const executor = new Executor(driver, everything, source);
    const target = type === 'group.update' ? await group(executor) : dm();
    const command = dispatched(type, payload, target);
    expect(await executor.execute(command)).toEqual({
      status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId', events: [], replayed: false,
      detail: expect.stringMatching(/^transferId "gone" names no usable transfer: transfers are turned off on the server, or it is unknown/),
    });
    expect(driver.platform.messagesOfAction(command.logicalActionId)).toEqual([]);
  });

  test('bytes that do not match the transfer\'s sha256 are never sent: transfer_unavailable, the platform untouched', async () => {
    const { source } = serving({ fileName: 'photo.png', mimeType: 'image/png', sha256: sha(new Uint8Array([1])), bytes: png });
    const executor = new Executor(driver, everything, source);
    const command = dispatched('message.send', { kind: 'attachment', transferId: 't1' }, dm());
    expect(await executor.execute(command)).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId', detail: expect.stringContaining(`have SHA-256 ${sha(png)}`) });
    expect(driver.platform.messagesOfAction(command.logicalActionId)).toEqual([]);
  });

  test.each([
    ['message.send sticker', 'message.send', { kind: 'sticker', transferId: 't1' }, 'a sticker'],
    ['group.update set_photo', 'group.update', { action: 'set_photo', transferId: 't1' }, 'a group photo'],
  ] as const)('%s of a transfer that is not an image (image/*) settles transfer_unavailable at /payload/transferId, nothing sent', async (_name, type, payload, what) => {
    const pdf = new TextEncoder().encode('%PDF-1.7');
    const { source } = serving({ fileName: 'doc.pdf', mimeType: 'application/pdf', sha256: sha(pdf), bytes: pdf });
    const executor = new Executor(driver, everything, source);
    const target = type === 'group.update' ? await group(executor) : dm();
    const command = dispatched(type, payload, target);
    expect(await executor.execute(command)).toEqual({
      status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId', events: [], replayed: false,
      detail: `transferId "t1" is application/pdf, not an image: ${what} needs an image (image/*); nothing was sent`,
    });
    expect(driver.platform.messagesOfAction(command.logicalActionId)).toEqual([]);
    if (target.kind === 'conversation') expect(driver.platform.conversation(target.externalId)!.photoSha256).toBeFalsy();
  });

  test('an attachment may be any media type: a PDF is sent', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7');
    const { source } = serving({ fileName: 'doc.pdf', mimeType: 'application/pdf', sha256: sha(pdf), bytes: pdf });
    const executor = new Executor(driver, everything, source);
    expect(await executor.execute(dispatched('message.send', { kind: 'attachment', transferId: 't1' }, dm()))).toMatchObject({ status: 'succeeded' });
  });

  test('the fetch is given the signal execute was given (the lease\'s end), so a stalled fetch stops with the lease', async () => {
    const signals: Array<AbortSignal | undefined> = [];
    const ended = new AbortController();
    const executor = new Executor(driver, everything, async (_transferId, _command, signal) => {
      signals.push(signal);
      return { result: 'not_found', error: { error: 'transfer_not_found', message: '' } };
    });
    await executor.execute(dispatched('message.send', { kind: 'attachment', transferId: 't1' }, dm()), ended.signal);
    expect(signals).toEqual([ended.signal]);
  });

  test('any other answer (5xx, lease lost) throws, as every failure to execute does: the host tries again while its lease lives', async () => {
    const answer = { status: 503, body: { error: 'http_503', message: '' } };
    const executor = new Executor(driver, everything, async () => ({ result: 'other', answer }));
    const command = dispatched('message.send', { kind: 'attachment', transferId: 't1' }, dm());
    const thrown = await executor.execute(command).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(TransferFetchRefused);
    expect((thrown as TransferFetchRefused).answer).toBe(answer);
    expect(driver.platform.messagesOfAction(command.logicalActionId)).toEqual([]);
  });

  test('a command the platform already shows is replayed without fetching its media again', async () => {
    const { source, fetches } = serving();
    const executor = new Executor(driver, everything, source);
    const command = dispatched('message.send', { kind: 'attachment', transferId: 't1' }, dm());
    const first = await executor.execute(command);
    expect(await executor.execute({ ...command, epoch: 2 })).toEqual({ ...first, replayed: true });
    expect(fetches).toHaveLength(1);
  });

  test('capability_constraint_violation still comes first: nothing is fetched', async () => {
    const { source, fetches } = serving();
    const executor = new Executor(driver, everything.filter((c) => c.name !== 'command.group_update.v1').concat({ name: 'command.group_update.v1', supportsRename: true, supportsPhoto: false, supportsParticipants: true }), source);
    const target = await group(executor);
    expect(await executor.execute(dispatched('group.update', { action: 'set_photo', transferId: 't1' }, target))).toMatchObject({ errorCode: 'capability_constraint_violation' });
    expect(fetches).toEqual([]);
  });
});
