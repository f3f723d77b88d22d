import { describe, expect, it } from 'vitest';
import { everyMinute } from './overview.ts';

const T = Date.UTC(2026, 0, 1, 12, 0);
const iso = (m: number) => new Date(T + m * 60_000).toISOString();

describe('everyMinute', () => {
  it('has one entry per minute of the window, oldest first, zeros where nothing was counted', () => {
    const counted = [{ minute: T + 60_000, accepted: 3, succeeded: 2, failed: 1 }];
    expect(everyMinute(counted, T, 3)).toEqual([
      { minute: iso(0), accepted: 0, succeeded: 0, failed: 0 },
      { minute: iso(1), accepted: 3, succeeded: 2, failed: 1 },
      { minute: iso(2), accepted: 0, succeeded: 0, failed: 0 },
    ]);
  });

  it('a minute counted outside the window is not shown', () => {
    expect(everyMinute([{ minute: T - 60_000, accepted: 9, succeeded: 9, failed: 0 }], T, 1)).toEqual([{ minute: iso(0), accepted: 0, succeeded: 0, failed: 0 }]);
  });
});
