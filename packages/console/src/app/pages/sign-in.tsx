import { useEffect, useRef, useState } from 'preact/hooks';

/** The operator key, pasted once per tab; it is kept in this tab's sessionStorage only. */
export function SignIn({ reason, onSignIn }: { reason: string | undefined; onSignIn(key: string): Promise<string | undefined> }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState(reason);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    document.title = 'Sign in · Switchboard console';
    field.current?.focus();
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) return setProblem('Paste an operator key first.');
    setBusy(true);
    setProblem(undefined);
    const failed = await onSignIn(trimmed);
    setBusy(false);
    if (failed) setProblem(failed);
  };
  return (
    <main class="sign-in" id="main">
      <form onSubmit={submit} aria-describedby="sign-in-help">
        <h1>
          Switchboard <span>console</span>
        </h1>
        <p id="sign-in-help">
          Paste an operator key (<code>sbo_…</code>). Make one where the store is with <code>switchboard operator-keys create</code>. The key stays in this tab only and is
          forgotten when the tab closes.
        </p>
        {problem && (
          <p class="note note-bad" role="alert">
            {problem}
          </p>
        )}
        <label for="operator-key">Operator key</label>
        <input
          id="operator-key"
          ref={field}
          type="password"
          autocomplete="off"
          spellcheck={false}
          class="mono"
          value={key}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)}
          required
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
