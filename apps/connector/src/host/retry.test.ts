import { describe, expect, test } from 'vitest';
import { NetworkError, type Answer } from '@switchboard/connector-client';
import { backoffDelay, retrying } from './retry.ts';

describe('backoffDelay', () => {
  test('doubles from the initial delay up to the maximum, jittered within the upper half', () => {
    const backoff = { initialMs: 100, maxMs: 1_000 };
    expect([0, 1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, backoff, () => 1))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect([0, 1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, backoff, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
  });
});

describe('retrying', () => {
  const noWait = async () => undefined;

  test('repeats on a network error and on 5xx, and returns the first other answer', async () => {
    const answers: Array<Answer | Error> = [new NetworkError('refused'), { status: 500, body: null }, { status: 409, body: { error: 'lease_lost' } }];
    let calls = 0;
    const answer = await retrying(async () => {
      const next = answers[calls++]!;
      if (next instanceof Error) throw next;
      return next;
    }, { until: new AbortController().signal, sleep: noWait });
    expect(answer.status).toBe(409);
    expect(calls).toBe(3);
  });

  test('gives up with the last error once `until` aborts', async () => {
    const until = new AbortController();
    let calls = 0;
    const attempt = retrying(async () => {
      if (++calls === 3) until.abort();
      throw new NetworkError(`refused ${calls}`);
    }, { until: until.signal, sleep: noWait });
    await expect(attempt).rejects.toThrow('refused 3');
  });

  test('other errors are not retried', async () => {
    let calls = 0;
    await expect(retrying(async () => {
      calls++;
      throw new TypeError('bug');
    }, { until: new AbortController().signal, sleep: noWait })).rejects.toThrow('bug');
    expect(calls).toBe(1);
  });
});
