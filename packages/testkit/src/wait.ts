/**
 * Resolves with the first value `find` returns: now, or when one of `waiters` is called (the
 * caller calls them all whenever something new arrives). Rejects with `timeoutMessage()` after
 * `timeoutMs`.
 */
export function waitForMatch<T>(find: () => T | undefined, waiters: Set<() => void>, timeoutMs: number, timeoutMessage: () => string): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = find();
      if (found === undefined) return;
      done();
      resolve(found);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(timeoutMessage()));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      waiters.delete(check);
    };
    waiters.add(check);
    check();
  });
}
