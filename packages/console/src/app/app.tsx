import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiFailure, describe } from './api.ts';
import { ConsoleContext, type Console, type ConfirmRequest } from './context.ts';
import { followLink, href, match, navigate, useLocation } from './router.ts';
import { forgetKey, openSession, storedKey, type Session } from './session.ts';
import { Badge, ConfirmDialog, Loading, Note } from './ui.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { Overview } from './pages/overview.tsx';
import { AccountPage, type Tab } from './pages/account.tsx';
import { CommandsPage } from './pages/commands.tsx';
import { CommandPage } from './pages/command.tsx';
import { WebhooksPage, EndpointPage } from './pages/webhooks.tsx';
import { OperatorKeysPage } from './pages/operator-keys.tsx';
import { AuditPage } from './pages/audit.tsx';

type State = { phase: 'checking' } | { phase: 'signed-out'; reason?: string } | { phase: 'signed-in'; session: Session };

export function App() {
  const [state, setState] = useState<State>(() => (storedKey() ? { phase: 'checking' } : { phase: 'signed-out' }));
  const signedOut = useRef(false);

  const unauthenticated = useCallback(() => {
    forgetKey();
    setState({ phase: 'signed-out', reason: 'The server did not accept this operator key (revoked or unknown). Sign in with another.' });
  }, []);

  const signIn = useCallback(
    async (key: string) => {
      signedOut.current = false;
      try {
        const session = await openSession(key, unauthenticated);
        setState({ phase: 'signed-in', session });
        return undefined;
      } catch (error) {
        forgetKey();
        return error instanceof ApiFailure && error.status === 401 ? 'The server did not accept this operator key (revoked or unknown).' : describe(error);
      }
    },
    [unauthenticated],
  );

  useEffect(() => {
    const key = storedKey();
    if (state.phase === 'checking' && key) {
      void signIn(key).then((problem) => problem && setState({ phase: 'signed-out', reason: problem }));
    }
  }, []);

  if (state.phase === 'checking') return <Loading label="Checking the operator key…" />;
  if (state.phase === 'signed-out') return <SignIn reason={state.reason} onSignIn={signIn} />;
  return (
    <SignedIn
      session={state.session}
      onSessionChange={(session) => setState({ phase: 'signed-in', session })}
      onSignOut={() => {
        forgetKey();
        setState({ phase: 'signed-out' });
      }}
    />
  );
}

function SignedIn({ session, onSessionChange, onSignOut }: { session: Session; onSessionChange(session: Session): void; onSignOut(): void }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const answer = useRef<((yes: boolean) => void) | null>(null);
  const value = useMemo<Console>(
    () => ({
      session,
      canWrite: session.role !== 'read-only',
      markReadOnly: () => session.role !== 'read-only' && onSessionChange({ ...session, role: 'read-only' }),
      confirm: (next) =>
        new Promise<boolean>((resolve) => {
          answer.current = resolve;
          setRequest(next);
        }),
      signOut: onSignOut,
    }),
    [session],
  );
  const onAnswer = (yes: boolean) => {
    answer.current?.(yes);
    answer.current = null;
    setRequest(null);
  };
  const where = useLocation();
  return (
    <ConsoleContext.Provider value={value}>
      <div class="shell" onClick={followLink}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href={href('/')}>
            Switchboard <span>console</span>
          </a>
          <nav aria-label="Main">
            <ul>
              {[
                ['/', 'Overview'],
                ['/commands', 'Commands'],
                ['/operator-keys', 'Operator keys'],
                ['/audit', 'Audit log'],
              ].map(([path, label]) => (
                <li key={path}>
                  <a href={href(path!)} aria-current={section(where.path) === path ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="who">
            <span class="who-key" title={`operator key ${session.self.id}`}>
              {session.self.label || session.self.prefix}
            </span>{' '}
            {session.role === 'read-only' ? <Badge tone="warn">read-only</Badge> : <Badge tone="info">full</Badge>}
            <button type="button" class="secondary small" onClick={onSignOut}>
              Sign out
            </button>
          </div>
        </header>
        <main id="main">
          {session.role === 'read-only' && <Note tone="warn">This operator key is read-only: the console hides the changes it cannot make.</Note>}
          <Page path={where.path} query={where.query} />
        </main>
      </div>
      <ConfirmDialog request={request} onAnswer={onAnswer} />
    </ConsoleContext.Provider>
  );
}

const section = (path: string) => (path.startsWith('/commands') ? '/commands' : path.startsWith('/operator-keys') ? '/operator-keys' : path.startsWith('/audit') ? '/audit' : path === '/' ? '/' : null);

function Page({ path, query }: { path: string; query: URLSearchParams }) {
  let params: Record<string, string> | null;
  if (path === '/') return <Overview />;
  if (path === '/commands') return <CommandsPage query={query} />;
  if ((params = match('/commands/:commandId', path))) return <CommandPage commandId={params.commandId!} />;
  if ((params = match('/accounts/:accountId/webhooks', path))) return <WebhooksPage accountId={params.accountId!} />;
  if ((params = match('/accounts/:accountId/webhooks/:endpointId', path))) return <EndpointPage accountId={params.accountId!} endpointId={params.endpointId!} />;
  if ((params = match('/accounts/:accountId', path))) return <AccountPage accountId={params.accountId!} tab="commands" />;
  if ((params = match('/accounts/:accountId/:tab', path)) && ['stream', 'conversations', 'keys', 'policies', 'held'].includes(params.tab!)) {
    return <AccountPage accountId={params.accountId!} tab={params.tab as Exclude<Tab, 'commands'>} />;
  }
  if (path === '/operator-keys') return <OperatorKeysPage />;
  if (path === '/audit') return <AuditPage />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        The console has no page at this address. <a href={href('/')} onClick={(event) => (event.preventDefault(), navigate('/'))}>Go to the overview</a>.
      </p>
    </section>
  );
}
