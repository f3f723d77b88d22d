/** The NOTIFY channel on which every replica hears what the others committed. */
export const CHANNEL = 'switchboard_changes';

/** `commands`: an account has new work for its connector host; `events`: its event log grew. */
export interface Change {
  kind: 'commands' | 'events';
  accountId: string;
}

export type ChangeListener = (change: Change) => void;

/** A store that announces committed changes to every replica (the PostgreSQL store, by LISTEN/NOTIFY). */
export interface ChangeFeed {
  /**
   * Calls `listener` for every change any replica commits; `onReconnect` after the listening
   * connection came back, when changes may have been missed. Resolves to a function that stops.
   */
  listen(listener: ChangeListener, onReconnect: () => void): Promise<() => Promise<void>>;
}

/** `c:` wakes polls, `e:` streams; the rate limits' `r:` and `p:` are the read cache's (cache.ts). */
export function parseChange(payload: string): Change | null {
  const kind = payload.startsWith('c:') ? 'commands' : payload.startsWith('e:') ? 'events' : null;
  return kind ? { kind, accountId: payload.slice(2) } : null;
}

export function hasChangeFeed(store: object): store is ChangeFeed {
  return typeof (store as Partial<ChangeFeed>).listen === 'function';
}
