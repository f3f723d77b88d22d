import { useState } from 'preact/hooks';
import { call, type Schemas } from '../api.ts';
import { useClient, useConsole } from '../context.ts';
import { useAction, useInterval, useLoad } from '../hooks.ts';
import { href } from '../router.ts';
import { Ago, Badge, ErrorNote, HostBadge, Loading, PageTitle, Progress, Table } from '../ui.tsx';
import { CommandsChart } from './chart.tsx';

export function Overview() {
  const client = useClient();
  const { canWrite, confirm } = useConsole();
  const loaded = useLoad(
    async (signal) => {
      const [overview, accounts, endpoints] = await Promise.all([
        call(client.GET('/v1/admin/overview', { params: { query: { minutes: 60 } }, signal })),
        call(client.GET('/v1/admin/accounts', { signal })),
        call(client.GET('/v1/admin/webhook-endpoints', { params: { query: { state: 'all' } }, signal })),
      ]);
      const failing = endpoints.endpoints.filter((endpoint) => !endpoint.enabled || endpoint.failingSince !== null);
      return { overview, accounts: accounts.accounts, failing };
    },
    [client],
  );
  useInterval(loaded.reload, 15_000);
  const pausing = useAction();
  const { data } = loaded;

  const toggleAll = async (pause: boolean) => {
    const yes = await confirm(
      pause
        ? { title: 'Pause every account?', body: 'Every account’s outbound commands answer 503 outbound_paused until sending is resumed. Commands already queued stay queued.', action: 'Pause all sending', danger: true }
        : { title: 'Resume every account?', body: 'Ends the pause of every account. Accounts paused one by one stay paused.', action: 'Resume all sending' },
    );
    if (!yes) return;
    if (await pausing.run(() => call(pause ? client.POST('/v1/admin/outbound/pause') : client.POST('/v1/admin/outbound/resume')))) loaded.reload();
  };

  return (
    <section aria-busy={loaded.loading}>
      <div class="title-row">
        <PageTitle title="Overview">Overview</PageTitle>
        <button type="button" class="secondary small" onClick={loaded.reload} disabled={loaded.loading}>
          Refresh
        </button>
      </div>
      <Progress active={loaded.loading && !!data} />
      <ErrorNote error={loaded.error} />
      {!data && loaded.loading && <Loading />}
      {data && (
        <>
          <div class="cards">
            <div class="card">
              <span class="card-label">Accounts</span>
              <span class="card-figure">{data.overview.accounts}</span>
            </div>
            <div class="card">
              <span class="card-label">Connector hosts</span>
              <span class="card-figure">
                {data.overview.hosts.live} <small>live</small>
              </span>
              <span class="card-detail">{data.overview.hosts.expired} expired</span>
            </div>
            <div class="card">
              <span class="card-label">Outbound sending</span>
              <span class="card-figure">{data.overview.outboundPaused ? <Badge tone="warn">paused for all</Badge> : <Badge tone="good">running</Badge>}</span>
              {canWrite && (
                <button type="button" class={data.overview.outboundPaused ? 'small' : 'small danger'} disabled={pausing.busy} onClick={() => toggleAll(!data.overview.outboundPaused)}>
                  {data.overview.outboundPaused ? 'Resume all…' : 'Pause all…'}
                </button>
              )}
            </div>
            <div class="card">
              <span class="card-label">Failing webhook endpoints</span>
              <span class="card-figure">{data.overview.failingEndpoints > 0 ? <Badge tone="bad">{data.overview.failingEndpoints}</Badge> : <Badge tone="good">0</Badge>}</span>
            </div>
          </div>
          <ErrorNote error={pausing.error} />

          <h2>Commands per minute</h2>
          <CommandsChart minutes={data.overview.commandsPerMinute} />

          <div class="columns">
            <div>
              <h2>Failures by settlement code</h2>
              {data.overview.failuresByCode.length === 0 ? (
                <p class="muted">No command failed in the last {data.overview.minutes} minutes.</p>
              ) : (
                <Table caption="Failures by settlement code">
                  <thead>
                    <tr>
                      <th scope="col">Settlement code</th>
                      <th scope="col" class="num">
                        Commands
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.overview.failuresByCode.map((failure) => (
                      <tr key={failure.code}>
                        <td>
                          <a href={href(`/commands?status=failed&errorCode=${encodeURIComponent(failure.code)}`)}>
                            <code>{failure.code}</code>
                          </a>
                        </td>
                        <td class="num">{failure.count}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </div>
            <div>
              <h2>Failing webhook endpoints</h2>
              <FailingEndpoints endpoints={data.failing} accounts={data.accounts} />
            </div>
          </div>

          <h2>Accounts and their hosts</h2>
          <Accounts accounts={data.accounts} />
          {canWrite && <CreateAccount onCreated={loaded.reload} />}
        </>
      )}
    </section>
  );
}

function Accounts({ accounts }: { accounts: Schemas['AccountSummary'][] }) {
  if (accounts.length === 0) return <p class="muted">No account yet.</p>;
  return (
    <Table caption="Accounts and their hosts">
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col">Sending</th>
          <th scope="col">Host</th>
          <th scope="col">Host id</th>
          <th scope="col" class="num">
            Epoch
          </th>
          <th scope="col">Last renewal</th>
          <th scope="col">Expires</th>
        </tr>
      </thead>
      <tbody>
        {accounts.map((account) => (
          <tr key={account.id}>
            <td>
              <a href={href(`/accounts/${account.id}`)}>{account.name}</a>
            </td>
            <td>{account.outboundPaused ? <Badge tone="warn">paused</Badge> : <Badge tone="good">running</Badge>}</td>
            <td>
              <HostBadge host={account.host} />
            </td>
            <td class="mono">{account.host?.hostId ?? '—'}</td>
            <td class="num">{account.host?.epoch ?? '—'}</td>
            <td>
              <Ago at={account.host?.renewedAt} />
            </td>
            <td>
              <Ago at={account.host?.expiresAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function FailingEndpoints({ endpoints, accounts }: { endpoints: Schemas['WebhookEndpoint'][]; accounts: Schemas['AccountSummary'][] }) {
  if (endpoints.length === 0) return <p class="muted">Every webhook endpoint is delivering.</p>;
  const names = new Map(accounts.map((account) => [account.id, account.name]));
  return (
    <Table caption="Failing webhook endpoints">
      <thead>
        <tr>
          <th scope="col">Endpoint</th>
          <th scope="col">Account</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id}>
            <td class="break">
              <a href={href(`/accounts/${endpoint.accountId}/webhooks/${endpoint.id}`)}>{endpoint.url}</a>
            </td>
            <td>{names.get(endpoint.accountId) ?? endpoint.accountId}</td>
            <td>
              {endpoint.enabled ? (
                <>
                  <Badge tone="bad">failing</Badge> since <Ago at={endpoint.failingSince} />
                </>
              ) : (
                <Badge tone="muted">disabled ({endpoint.disabledReason ?? 'operator'})</Badge>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function CreateAccount({ onCreated }: { onCreated(): void }) {
  const client = useClient();
  const [name, setName] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await action.run(() => call(client.POST('/v1/admin/accounts', { body: { name: name.trim() } })))) {
      setName('');
      onCreated();
    }
  };
  return (
    <form class="inline-form" onSubmit={submit}>
      <h3>Create an account</h3>
      <div class="row">
        <label for="new-account-name">Name</label>
        <input id="new-account-name" value={name} onInput={(event) => setName((event.target as HTMLInputElement).value)} pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}" required />
        <button type="submit" disabled={action.busy}>
          Create account
        </button>
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}
