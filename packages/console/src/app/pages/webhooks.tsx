import { useState } from 'preact/hooks';
import { call, describe, type Schemas } from '../api.ts';
import { useClient, useConsole } from '../context.ts';
import { useAction, useLoad } from '../hooks.ts';
import { href } from '../router.ts';
import { Ago, Badge, ErrorNote, Loading, MoreButton, Note, PageTitle, Progress, SecretOnce, Table, Time } from '../ui.tsx';

function EndpointState({ endpoint }: { endpoint: Schemas['WebhookEndpoint'] }) {
  if (!endpoint.enabled) return <Badge tone="muted">disabled ({endpoint.disabledReason ?? 'operator'})</Badge>;
  if (endpoint.failingSince) return <Badge tone="bad">failing</Badge>;
  return <Badge tone="good">delivering</Badge>;
}

/** The account's webhook endpoints. */
export function WebhooksPage({ accountId }: { accountId: string }) {
  const client = useClient();
  const loaded = useLoad(
    async (signal) => {
      const path = { params: { path: { accountId } }, signal };
      const [account, list] = await Promise.all([call(client.GET('/v1/admin/accounts/{accountId}', path)), call(client.GET('/v1/admin/accounts/{accountId}/webhook-endpoints', path))]);
      return { account, endpoints: list.endpoints };
    },
    [client, accountId],
  );
  const { data } = loaded;
  return (
    <section aria-busy={loaded.loading}>
      <p class="crumbs">
        <a href={href(`/accounts/${accountId}`)}>Account {data?.account.name ?? ''}</a> ›
      </p>
      <PageTitle title="Webhook endpoints">Webhook endpoints</PageTitle>
      <Progress active={loaded.loading && !!data} />
      <ErrorNote error={loaded.error} />
      {!data && loaded.loading && <Loading />}
      {data && data.endpoints.length === 0 && <p class="muted">The account has no webhook endpoint. Its clients add them with POST /v1/webhook-endpoints.</p>}
      {data && data.endpoints.length > 0 && (
        <Table caption="Webhook endpoints">
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">State</th>
              <th scope="col">Failing since</th>
              <th scope="col" class="num">
                Backlog
              </th>
              <th scope="col">Events</th>
            </tr>
          </thead>
          <tbody>
            {data.endpoints.map((endpoint) => (
              <tr key={endpoint.id}>
                <td class="break">
                  <a href={href(`/accounts/${accountId}/webhooks/${endpoint.id}`)}>{endpoint.url}</a>
                  {endpoint.description && <div class="muted">{endpoint.description}</div>}
                </td>
                <td>
                  <EndpointState endpoint={endpoint} />
                </td>
                <td>
                  <Ago at={endpoint.failingSince} />
                </td>
                <td class="num">{endpoint.backlog}</td>
                <td>{Array.isArray(endpoint.eventTypes) ? endpoint.eventTypes.join(', ') : String(endpoint.eventTypes ?? 'all')}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

/** One endpoint: its state, the operator's actions on it, and every attempt with its response. */
export function EndpointPage({ accountId, endpointId }: { accountId: string; endpointId: string }) {
  const client = useClient();
  const { canWrite, confirm } = useConsole();
  const path = { params: { path: { accountId, endpointId } } };
  const endpoint = useLoad((signal) => call(client.GET('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}', { ...path, signal })), [client, accountId, endpointId]);
  const account = useLoad((signal) => call(client.GET('/v1/admin/accounts/{accountId}', { params: { path: { accountId } }, signal })), [client, accountId]);
  const [attemptsVersion, setAttemptsVersion] = useState(0);
  const action = useAction();
  const [secret, setSecret] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [replayAfter, setReplayAfter] = useState('');
  const refresh = () => {
    endpoint.reload();
    setAttemptsVersion((n) => n + 1);
  };

  const setEnabled = async (enabled: boolean) => {
    if (!enabled && !(await confirm({ title: 'Disable this endpoint?', body: 'Its deliveries stop until it is enabled again; events wait after its cursor.', action: 'Disable endpoint', danger: true }))) return;
    if (await action.run(() => call(client.PATCH('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}', { ...path, body: { enabled } })))) {
      setSaid(enabled ? 'Enabled: deliveries resume from its cursor.' : 'Disabled.');
      refresh();
    }
  };
  const rotate = async () => {
    if (!(await confirm({ title: 'Rotate the signing secret?', body: 'A new secret signs deliveries from now on; the old one keeps signing alongside it for the overlap (24 hours by default), so the receiver can switch.', action: 'Rotate secret', danger: true }))) return;
    await action.run(async () => {
      const rotated = await call(client.POST('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/rotate-secret', path));
      setSecret(rotated.secret);
      setSaid(null);
      endpoint.reload();
    });
  };
  const test = async () => {
    await action.run(async () => {
      const accepted = await call(client.POST('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/test', path));
      setSaid(`Test event ${accepted.eventId} committed; its delivery follows (refresh the attempts).`);
    });
  };
  const replay = async (event: Event) => {
    event.preventDefault();
    const after = replayAfter.trim();
    if (!(await confirm({ title: `Replay every event after ${after}?`, body: 'The endpoint’s cursor moves back to this event id: every later event of the account’s retained log is delivered again, in order.', action: 'Replay events', danger: true }))) return;
    if (await action.run(() => call(client.POST('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/replay', { ...path, body: { after } })))) {
      setSaid(`Replaying after event ${after}.`);
      refresh();
    }
  };

  const data = endpoint.data;
  return (
    <section aria-busy={endpoint.loading}>
      <p class="crumbs">
        <a href={href(`/accounts/${accountId}`)}>Account {account.data?.name ?? ''}</a> › <a href={href(`/accounts/${accountId}/webhooks`)}>Webhook endpoints</a> ›
      </p>
      <div class="title-row">
        <PageTitle title="Webhook endpoint">Webhook endpoint</PageTitle>
        <button type="button" class="secondary small" onClick={refresh} disabled={endpoint.loading}>
          Refresh
        </button>
      </div>
      <Progress active={endpoint.loading && !!data} />
      <ErrorNote error={endpoint.error} />
      {!data && endpoint.loading && <Loading />}
      {data && (
        <>
          <dl class="facts">
            <div class="wide">
              <dt>URL</dt>
              <dd class="mono break">{data.url}</dd>
            </div>
            <div>
              <dt>State</dt>
              <dd>
                <EndpointState endpoint={data} /> {data.disabledAt && <Time at={data.disabledAt} />}
              </dd>
            </div>
            <div>
              <dt>Failing since</dt>
              <dd>
                <Ago at={data.failingSince} />
              </dd>
            </div>
            <div>
              <dt>Cursor</dt>
              <dd class="mono">{data.cursor}</dd>
            </div>
            <div>
              <dt>Backlog</dt>
              <dd>{data.backlog} events</dd>
            </div>
            <div>
              <dt>Previous secret until</dt>
              <dd>
                <Time at={data.previousSecretExpiresAt} />
              </dd>
            </div>
            {data.description && (
              <div>
                <dt>Description</dt>
                <dd>{data.description}</dd>
              </div>
            )}
          </dl>
          {secret && <SecretOnce title="New signing secret" secret={secret} onDone={() => setSecret(null)} />}
          {said && (
            <Note tone="good">
              <p role="status">{said}</p>
            </Note>
          )}
          <ErrorNote error={action.error} />
          {canWrite && (
            <div class="actions-bar">
              {data.enabled ? (
                <button type="button" class="danger" disabled={action.busy} onClick={() => setEnabled(false)}>
                  Disable…
                </button>
              ) : (
                <button type="button" disabled={action.busy} onClick={() => setEnabled(true)}>
                  Enable
                </button>
              )}
              <button type="button" class="secondary" disabled={action.busy} onClick={test}>
                Send a test event
              </button>
              <button type="button" class="secondary" disabled={action.busy} onClick={rotate}>
                Rotate secret…
              </button>
              <form class="row" onSubmit={replay}>
                <label for="replay-after">Replay after event id</label>
                <input id="replay-after" class="mono narrow" inputMode="numeric" pattern="[0-9]{1,19}" required value={replayAfter} onInput={(event) => setReplayAfter((event.target as HTMLInputElement).value)} />
                <button type="submit" class="secondary" disabled={action.busy}>
                  Replay…
                </button>
              </form>
            </div>
          )}
          <Attempts accountId={accountId} endpointId={endpointId} version={attemptsVersion} onResent={() => setAttemptsVersion((n) => n + 1)} />
        </>
      )}
    </section>
  );
}

function Attempts({ accountId, endpointId, version, onResent }: { accountId: string; endpointId: string; version: number; onResent(): void }) {
  const client = useClient();
  const { canWrite } = useConsole();
  const [more, setMore] = useState<{ items: Schemas['Delivery'][]; cursor: string | null } | null>(null);
  const [moreLoading, setMoreLoading] = useState(false);
  const [moreError, setMoreError] = useState<string | undefined>(undefined);
  const action = useAction();
  const [resent, setResent] = useState<Schemas['Delivery'] | null>(null);
  const path = { path: { accountId, endpointId } };
  const first = useLoad(
    async (signal) => {
      setMore(null);
      return call(client.GET('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/deliveries', { params: { ...path, query: { limit: 50 } }, signal }));
    },
    [client, accountId, endpointId, version],
  );
  const items = [...(first.data?.deliveries ?? []), ...(more?.items ?? [])];
  const cursor = more ? more.cursor : (first.data?.nextCursor ?? null);
  const loadMore = async () => {
    setMoreLoading(true);
    try {
      const page = await call(client.GET('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/deliveries', { params: { ...path, query: { limit: 50, cursor: cursor ?? undefined } } }));
      setMore({ items: [...(more?.items ?? []), ...page.deliveries], cursor: page.nextCursor });
    } catch (failure) {
      setMoreError(describe(failure));
    } finally {
      setMoreLoading(false);
    }
  };
  const resend = async (eventId: string) => {
    await action.run(async () => {
      const attempt = await call(client.POST('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/resend', { params: path, body: { eventId } }));
      setResent(attempt);
      onResent();
    });
  };

  return (
    <div aria-busy={first.loading || moreLoading}>
      <h2>Attempts</h2>
      <ErrorNote error={first.error ?? moreError ?? action.error} />
      {resent && (
        <Note tone={resent.status !== null && resent.status < 300 ? 'good' : 'bad'}>
          <p role="status">
            Resent event {resent.eventId}: {resent.status !== null ? `the receiver answered ${resent.status}` : `no response (${resent.error ?? 'unknown'})`} in {resent.latencyMs} ms.
          </p>
        </Note>
      )}
      {!first.data && first.loading && <Loading />}
      {first.data && items.length === 0 && <p class="muted">No attempt yet.</p>}
      {items.length > 0 && (
        <Table caption="Delivery attempts, newest first">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Response</th>
              <th scope="col">Event</th>
              <th scope="col" class="num">
                Attempt
              </th>
              <th scope="col" class="num">
                Latency
              </th>
              <th scope="col">Response body</th>
              {canWrite && (
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {items.map((attempt, i) => (
              <tr key={`${attempt.eventId}-${attempt.attempt}-${attempt.at}-${i}`} class="attempt">
                <td>
                  <Time at={attempt.at} />
                </td>
                <td>
                  {attempt.status !== null ? (
                    <Badge tone={attempt.status < 300 ? 'good' : 'bad'}>{attempt.status}</Badge>
                  ) : (
                    <>
                      <Badge tone="bad">no response</Badge> <span class="muted">{attempt.error}</span>
                    </>
                  )}
                </td>
                <td class="mono">{attempt.eventId}</td>
                <td class="num">
                  {attempt.attempt}
                  {attempt.resend && (
                    <>
                      {' '}
                      <Badge tone="info">resend</Badge>
                    </>
                  )}
                </td>
                <td class="num">{attempt.latencyMs} ms</td>
                <td class="body-cell">{attempt.responseBody ? <code class="response-body">{attempt.responseBody}</code> : <span class="muted">—</span>}</td>
                {canWrite && (
                  <td>
                    <button type="button" class="small secondary" disabled={action.busy} onClick={() => resend(attempt.eventId)} aria-label={`Resend event ${attempt.eventId}`}>
                      Resend
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <MoreButton cursor={cursor} loading={moreLoading} onMore={() => void loadMore()} />
    </div>
  );
}
