/** A millisecond range; `min === max` is a fixed delay. */
export interface Range {
  min: number;
  max: number;
}

/**
 * A seeded source of randomness (mulberry32): the same seed gives the same latencies and the
 * same faults in the same order, so a failing run can be replayed.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Another source from the same seed, apart from this one: drawing from it changes nothing this one draws. */
  static stream(seed: number, name: string): Random {
    let salt = 0x811c9dc5;
    for (const c of name) salt = Math.imul(salt ^ c.charCodeAt(0), 0x01000193) >>> 0;
    return new Random((seed ^ salt) >>> 0);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  /** One of `items`, each as likely. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('nothing to pick from');
    return items[Math.min(items.length - 1, Math.floor(this.next() * items.length))]!;
  }

  /** An integer in [range.min, range.max]. */
  within(range: Range): number {
    if (range.max <= range.min) return range.min;
    return range.min + Math.floor(this.next() * (range.max - range.min + 1));
  }
}

/** Parses `"N"` or `"N-M"` (milliseconds). */
export function parseRange(raw: string): Range | null {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(raw);
  if (!match) return null;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  return max >= min ? { min, max } : null;
}
