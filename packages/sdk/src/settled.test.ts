import { describe, expect, it } from 'vitest';
import { SwitchboardClient } from './client.ts';
import { SettlementTimeoutError, SwitchboardError } from './errors.ts';
import { TestClock } from '../test/support/clock.ts';
import { errorBody, frame, json, scriptedFetch, sse, type Step } from '../test/support/fetch.ts';

const commandId = '0190b7a4-0000-7000-8000-0000000000a1';
const command = (status: string, errorCode: string | null = null) => json(200, { commandId, status, errorCode, type: 'message.send', routingPath: 'agent-turn' });

function setup(steps: Step[]) {
  const clock = new TestClock();
  const scripted = scriptedFetch(...steps);
  const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'k', fetch: scripted.fetch, clock, random: () => 0 });
  return { client, clock, requests: scripted.requests };
}

describe('settled()', () => {
  it('polls GET /v1/commands/{id} with a doubling interval until the command settles', async () => {
    const { client, clock, requests } = setup([command('queued'), command('queued'), command('queued'), command('succeeded')]);
    expect(await clock.run(client.settled(commandId))).toEqual({ commandId, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null });
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(Array(4).fill(`/v1/commands/${commandId}`));
    expect(clock.fired).toEqual([100, 200, 400]);
  });

  it('returns failed with its settlement code', async () => {
    const { client, clock } = setup([command('failed', 'payload_invalid')]);
    expect(await clock.run(client.settled(commandId))).toEqual({ commandId, status: 'failed', errorCode: 'payload_invalid', errorMessage: null, errorPath: null });
  });

  it('throws SettlementTimeoutError when nothing settles in time', async () => {
    const { client, clock, requests } = setup(Array.from({ length: 20 }, () => command('queued')));
    const error = await clock.run(client.settled(commandId, { timeoutMs: 3_000 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettlementTimeoutError);
    expect(error).toMatchObject({ commandId, waitingFor: 'command.settled', timeoutMs: 3_000 });
    // Polls at 0, 100, 300, 700 and 1 500 ms; the next would be at 3 100, after the timeout.
    expect(requests).toHaveLength(5);
  });

  it('with `after`, awaits the command event on the stream', async () => {
    const { client, clock, requests } = setup([
      (r) => sse([frame(8, 'message.sent'), frame(9, 'command.settled', { commandId: 'other', status: 'succeeded', errorCode: null }), frame(10, 'command.settled', { commandId, status: 'failed', errorCode: 'stale_target', errorMessage: 'the membership changed', errorPath: null })], 'hang', r),
    ]);
    expect(await clock.run(client.settled(commandId, { after: '7' }))).toEqual({ commandId, status: 'failed', errorCode: 'stale_target', errorMessage: 'the membership changed', errorPath: null });
    expect(requests[0]!.headers.get('last-event-id')).toBe('7');
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it('passes on an error that waiting cannot fix (an unknown command)', async () => {
    const { client, clock } = setup([errorBody(404, 'command_not_found')]);
    const error = await clock.run(client.settled(commandId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect((error as SwitchboardError).code).toBe('command_not_found');
  });
});
