import type { ConversationRecord, CredentialRecord, LeaseRecord, LinePolicies } from '../types.ts';

/**
 * Rows every command's intake reads, kept until they change: a map per kind, keyed by strings
 * the request already holds (an account id from the cached credential hashes once), rather than
 * one map under keys built per read (four strings made and hashed a command).
 */
export class ReadCache {
  /** By the digest's bytes as a latin1 string. */
  readonly credentials = new Map<string, (CredentialRecord & { hash: Buffer }) | null>();
  /** By id, whichever account's (a conversation id is its primary key). */
  readonly conversations = new Map<string, ConversationRecord | null>();
  readonly paused = new Map<string, boolean>();
  readonly leases = new Map<string, LeaseRecord | null>();
  /** By account id; NO_POLICIES for an account with none, so intake reads nothing more for it. */
  readonly policies = new Map<string, LinePolicies>();
  /** PRAGMA data_version of the writer: moves when another connection commits. */
  private readonly dataVersion: () => number;
  private version = -1;
  private versionChecked = false;
  /** The open group wrote a table the cache reads from: drop the cache again once it ends. */
  private stale = false;
  /** Entries the open group changed, with what they hold once it commits (undefined: read them again). */
  private readonly changedEntries: Array<[Map<string, unknown>, string, unknown]> = [];

  constructor(dataVersion: () => number) {
    this.dataVersion = dataVersion;
  }

  /**
   * Serves a read from the cache while neither this connection (see `forget`) nor another one
   * (the operator CLI, a second server) changed the database.
   */
  get<T>(map: Map<string, T>, key: string, load: () => T): T {
    if (!this.versionChecked) {
      // Once per event-loop turn: what another process commits shows within a turn. Asked of the
      // writer, whose own commits leave it unchanged (the reader's moves with every one of them).
      const version = this.dataVersion();
      if (version !== this.version) {
        this.clear();
        this.version = version;
      }
      this.versionChecked = true;
      setImmediate(() => { this.versionChecked = false; });
    }
    // Values are never undefined (null when there is no row).
    const hit = map.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    // A bound against keys without end (unknown credentials): well above what ten thousand accounts hold.
    if (map.size >= 100_000) map.clear();
    map.set(key, value);
    return value;
  }

  /** A write touches a table the cache reads from: drop it now, and again when its group ends. */
  forget(): void {
    this.clear();
    this.stale = true;
  }

  /**
   * A write changes one entry (a lease): drop it now, since a read before the COMMIT loads the row
   * as it was, and again when its group ends; or, given `committed`, hold that once it commits.
   */
  forgetEntry<T>(map: Map<string, T>, key: string, committed?: T): void {
    map.delete(key);
    this.changedEntries.push([map as Map<string, unknown>, key, committed]);
  }

  /** Where a write's savepoint begins, for `rolledBackTo`. */
  savepoint(): number {
    return this.changedEntries.length;
  }

  /** The write's savepoint was rolled back: what it changed is read again, not held. */
  rolledBackTo(savepoint: number): void {
    for (const change of this.changedEntries.slice(savepoint)) change[2] = undefined;
  }

  /** The open group committed (or, `committed` false, was rolled back). */
  groupEnded(committed: boolean): void {
    if (this.stale) this.clear();
    for (const [map, key, value] of this.changedEntries.splice(0)) {
      if (committed && value !== undefined && !this.stale) map.set(key, value);
      else map.delete(key);
    }
    this.stale = false;
  }

  private clear(): void {
    this.credentials.clear();
    this.conversations.clear();
    this.paused.clear();
    this.leases.clear();
    this.policies.clear();
  }
}
