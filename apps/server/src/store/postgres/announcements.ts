/**
 * This replica's own announcements (NOTIFY payloads) not yet heard back on its listening
 * connection. Its own commits wake its streams and polls in-process, as on SQLite, so hearing
 * them again would only make every stream and poll read twice. A payload is expected when its
 * statement is made, before COMMIT, and skipped once when heard. If another replica's identical
 * payload is skipped in its place, nothing is lost: the expected one commits after it (NOTIFY is
 * delivered in commit order) and is heard, or its transaction fails and `failed` hears it.
 */
export class OwnAnnouncements {
  private readonly expected = new Map<string, number>();
  private deliver: ((payload: string) => void) | null = null;

  /** From now on, payloads not skipped (and failed ones) go to `deliver`. */
  listen(deliver: (payload: string) => void): void {
    this.deliver = deliver;
  }

  expect(payload: string): void {
    // A store that does not listen hears nothing back: nothing to expect.
    if (this.deliver) this.expected.set(payload, (this.expected.get(payload) ?? 0) + 1);
  }

  /** A payload heard on the listening connection: passed on unless it stands for an expected one. */
  heard(payload: string): void {
    if (!this.take(payload)) this.deliver?.(payload);
  }

  /** An expected payload whose transaction did not commit (or may not have): heard in its place. */
  failed(payload: string): void {
    this.take(payload);
    this.deliver?.(payload);
  }

  /** The listening connection came back: what was announced meanwhile was not heard and never will be. */
  reset(): void {
    this.expected.clear();
  }

  private take(payload: string): boolean {
    const n = this.expected.get(payload);
    if (!n) return false;
    if (n === 1) this.expected.delete(payload);
    else this.expected.set(payload, n - 1);
    return true;
  }
}
