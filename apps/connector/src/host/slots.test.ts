import { describe, expect, test } from 'vitest';
import { Slots } from './slots.ts';

describe('Slots', () => {
  test('at most size holders; the next waiter gets a slot given back, in order; giving back twice frees one', async () => {
    const slots = new Slots(2);
    const first = await slots.take();
    const second = await slots.take();
    const order: string[] = [];
    const third = slots.take().then((release) => (order.push('third'), release));
    const fourth = slots.take().then((release) => (order.push('fourth'), release));
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    first();
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    second();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    releaseThird();
    // One slot free again: taken at once.
    await slots.take();
  });
});
