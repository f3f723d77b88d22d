import type { EventRecord } from '../types.ts';

/** Appends kept per account, at most; the oldest goes first. */
const PER_ACCOUNT = 32;
/** Accounts kept, at most; past it, all start over. */
const ACCOUNTS = 1_000;

/**
 * The stream events this replica's own transactions appended, each batch keyed by the account's
 * newest event id before it (`after`). The account's row lock orders appends, so a batch is
 * exactly the events that follow `after` in the log: a stream reader at `after` takes them from
 * memory instead of reading them back. Only what committed is kept, and an account is dropped
 * whenever another replica's append is heard (its events are not here), so a gap is never
 * filled from memory: a reader whose cursor starts no batch reads the database.
 */
export class RecentAppends {
  private readonly accounts = new Map<string, Map<number, EventRecord[]>>();

  /** A committed append: `events` follow `after` in the account's log. */
  record(accountId: string, after: number, events: EventRecord[]): void {
    let batches = this.accounts.get(accountId);
    if (!batches) {
      if (this.accounts.size >= ACCOUNTS) this.accounts.clear();
      this.accounts.set(accountId, (batches = new Map()));
    }
    batches.set(after, events);
    if (batches.size > PER_ACCOUNT) batches.delete(batches.keys().next().value!);
  }

  /**
   * The events after `after`, from the batches that follow one another from it (up to `limit`);
   * null when no batch starts at `after`. May stop short of the log's end: the reader is woken
   * again by every later commit.
   */
  follow(accountId: string, after: number, limit: number): EventRecord[] | null {
    const batches = this.accounts.get(accountId);
    let batch = batches?.get(after);
    if (!batch) return null;
    const events: EventRecord[] = [];
    while (batch && events.length < limit) {
      for (const event of batch) if (events.length < limit) events.push(event);
      batch = batches!.get(events.at(-1)!.id);
    }
    return events;
  }

  /** Another replica appended for the account (or may have): its batches no longer tell the whole log. */
  forget(accountId: string): void {
    this.accounts.delete(accountId);
  }

  clear(): void {
    this.accounts.clear();
  }
}
