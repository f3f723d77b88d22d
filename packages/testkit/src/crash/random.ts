/**
 * A seeded PRNG (mulberry32). Every random choice of a crash round comes from one of these, so a
 * round's choices (workload, kill times, host ids, simulator seed) are the same for the same seed.
 * The interleaving of the processes is the operating system's and is not reproduced exactly.
 */
export class Random {
  readonly seed: number;
  private state: number;

  constructor(seed: number) {
    this.seed = seed;
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** An independent generator, so concurrent users of randomness do not shift each other's sequences. */
  fork(): Random {
    return new Random(Math.floor(this.next() * 4294967296));
  }
}

/** The seed of the `index`-th round of a campaign started from `seed`. */
export function roundSeed(seed: number, index: number): number {
  return (seed + index) >>> 0;
}
