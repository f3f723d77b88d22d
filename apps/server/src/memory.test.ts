import { expect, it } from 'vitest';
import { idleReducer } from './memory.ts';

it('gives memory back at the first quiet second after start-up, after traffic only once quiet for the spell, and not again until busy once more', () => {
  const collected: number[] = [];
  let second = 0;
  const step = idleReducer(() => collected.push(second), 3);
  // 0-1 start-up, busy; 2 its first quiet second; 3-4 busy; 5-6 a short pause; 7 busy; 8-11 a spell of 3 and more; 12 busy; 13-15 quiet.
  for (const utilisation of [0.5, 0.2, 0.001, 0.4, 0.9, 0.01, 0, 0.3, 0.049, 0.001, 0.02, 0, 0.05, 0.01, 0.01, 0.01]) {
    step(utilisation);
    second++;
  }
  expect(collected).toEqual([2, 10, 15]);
});
