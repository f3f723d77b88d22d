import { expect, it } from 'vitest';
import { idleReducer } from './memory.ts';

it('gives memory back at the first quiet second after activity, start-up included, and not again until busy once more', () => {
  const collected: number[] = [];
  let second = 0;
  const step = idleReducer(() => collected.push(second));
  for (const utilisation of [0.001, 0.001, 0.4, 0.9, 0.01, 0, 0.019, 0.02, 0.3, 0.005]) {
    step(utilisation);
    second++;
  }
  expect(collected).toEqual([0, 4, 9]);
});
