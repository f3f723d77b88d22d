/**
 * Open SSE streams per credential, at most `max` at a time (the spec's open-stream limit). A slot
 * is taken when a stream opens and given back when it ends.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();
  readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Takes a slot for `key`; false when all of its slots are taken. */
  take(key: string): boolean {
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) return false;
    this.open.set(key, count + 1);
    return true;
  }

  release(key: string): void {
    const count = (this.open.get(key) ?? 0) - 1;
    if (count > 0) this.open.set(key, count);
    else this.open.delete(key);
  }
}
