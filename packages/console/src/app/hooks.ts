import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, describe } from './api.ts';
import { useConsole } from './context.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

/** Loads on mount and whenever `deps` change; keeps the last data while it reloads. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(describe(failure));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [...deps, tick]);
  return { data, error, loading, reload: useCallback(() => setTick((n) => n + 1), []) };
}

export interface Action {
  busy: boolean;
  error: string | undefined;
  /** Runs the change; answers whether it succeeded. A 403 marks the key read-only. */
  run(change: () => Promise<unknown>): Promise<boolean>;
  clear(): void;
}

/** A change an operator makes: its progress and its error, for the button and the message beside it. */
export function useAction(): Action {
  const { markReadOnly } = useConsole();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const run = useCallback(async (change: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await change();
      return true;
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.status === 403) markReadOnly();
      if (mounted.current) setError(describe(failure));
      return false;
    } finally {
      if (mounted.current) setBusy(false);
    }
  }, [markReadOnly]);
  return { busy, error, run, clear: useCallback(() => setError(undefined), []) };
}

/** Calls `tick` every `ms` while the tab is visible. */
export function useInterval(tick: () => void, ms: number): void {
  const saved = useRef(tick);
  saved.current = tick;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') saved.current();
    }, ms);
    return () => clearInterval(timer);
  }, [ms]);
}
