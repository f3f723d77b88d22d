import { useState } from 'preact/hooks';
import { call, describe, type Schemas } from '../api.ts';
import { useClient, useConsole } from '../context.ts';
import { useAction, useLoad } from '../hooks.ts';
import { href } from '../router.ts';
import { Ago, Badge, ErrorNote, HostBadge, Loading, MoreButton, PageTitle, Progress, SecretOnce, Table, Time } from '../ui.tsx';
import { CommandSearch } from './commands.tsx';
import { LiveStream } from './stream.tsx';
import { LinePolicies } from './policies.tsx';
import { HeldCommands } from './held.tsx';

export type Tab = 'commands' | 'stream' | 'conversations' | 'keys' | 'policies' | 'held';
const tabs: Array<[Tab | 'webhooks', string]> = [
  ['commands', 'Commands'],
  ['stream', 'Live stream'],
  ['conversations', 'Conversations'],
  ['keys', 'Keys'],
  ['policies', 'Line policies'],
  ['held', 'Held commands'],
  ['webhooks', 'Webhook endpoints'],
];

export function AccountPage({ accountId, tab }: { accountId: string; tab: Tab }) {
  const client = useClient();
  const { canWrite, confirm } = useConsole();
  const loaded = useLoad((signal) => call(client.GET('/v1/admin/accounts/{accountId}', { params: { path: { accountId } }, signal })), [client, accountId]);
  const pausing = useAction();
  const account = loaded.data;

  const toggle = async (pause: boolean) => {
    if (!account) return;
    const yes = await confirm(
      pause
        ? { title: `Pause ${account.name}?`, body: 'Its outbound commands answer 503 outbound_paused until it is resumed. Commands already queued stay queued.', action: 'Pause sending', danger: true }
        : { title: `Resume ${account.name}?`, body: account.pausedByAll ? 'Its own pause ends; the pause of every account still holds it.' : 'Its outbound commands are accepted again.', action: 'Resume sending' },
    );
    if (!yes) return;
    const path = { params: { path: { accountId } } };
    if (await pausing.run(() => call(pause ? client.POST('/v1/admin/accounts/{accountId}/pause', path) : client.POST('/v1/admin/accounts/{accountId}/resume', path)))) loaded.reload();
  };

  return (
    <section aria-busy={loaded.loading}>
      <PageTitle title={account ? `Account ${account.name}` : 'Account'}>
        Account {account && <span class="subtle">{account.name}</span>}
      </PageTitle>
      <Progress active={loaded.loading && !!account} />
      <ErrorNote error={loaded.error} />
      {!account && loaded.loading && <Loading />}
      {account && (
        <>
          <div class="account-head">
            <dl class="facts">
              <div>
                <dt>Account id</dt>
                <dd class="mono">{account.id}</dd>
              </div>
              <div>
                <dt>Outbound sending</dt>
                <dd>
                  {account.outboundPaused ? <Badge tone="warn">paused</Badge> : account.pausedByAll ? <Badge tone="warn">paused for all</Badge> : <Badge tone="good">running</Badge>}{' '}
                  {canWrite &&
                    (account.outboundPaused ? (
                      <button type="button" class="small" disabled={pausing.busy} onClick={() => toggle(false)}>
                        Resume…
                      </button>
                    ) : (
                      <button type="button" class="small danger" disabled={pausing.busy} onClick={() => toggle(true)}>
                        Pause…
                      </button>
                    ))}
                </dd>
              </div>
              <div>
                <dt>Line policies</dt>
                <dd>
                  <PoliciesBadge policies={account.policies} /> <a href={href(`/accounts/${accountId}/policies`)}>{canWrite ? 'See or change' : 'See them'}</a>
                </dd>
              </div>
              <div>
                <dt>Connector host</dt>
                <dd>
                  <HostBadge host={account.host} /> {account.host && <code>{account.host.hostId}</code>}
                </dd>
              </div>
              {account.host && (
                <>
                  <div>
                    <dt>Epoch</dt>
                    <dd>{account.host.epoch}</dd>
                  </div>
                  <div>
                    <dt>Last renewal</dt>
                    <dd>
                      <Ago at={account.host.renewedAt} />
                    </dd>
                  </div>
                  <div>
                    <dt>Lease expires</dt>
                    <dd>
                      <Ago at={account.host.expiresAt} />
                    </dd>
                  </div>
                </>
              )}
              <div>
                <dt>Created</dt>
                <dd>
                  <Time at={account.createdAt} />
                </dd>
              </div>
            </dl>
            <ErrorNote error={pausing.error} />
          </div>
          <nav class="page-nav" aria-label="Account">
            <ul>
              {tabs.map(([name, label]) => (
                <li key={name}>
                  <a href={href(`/accounts/${accountId}${name === 'commands' ? '' : `/${name}`}`)} aria-current={name === tab ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          {tab === 'commands' && (
            <>
              <h2>Commands</h2>
              <CommandSearch accountId={accountId} />
            </>
          )}
          {tab === 'stream' && <LiveStream accountId={accountId} />}
          {tab === 'conversations' && <Conversations accountId={accountId} />}
          {tab === 'keys' && <Keys accountId={accountId} />}
          {tab === 'policies' && <LinePolicies accountId={accountId} accountName={account.name} policies={account.policies} onChanged={loaded.reload} />}
          {tab === 'held' && <HeldCommands accountId={accountId} />}
        </>
      )}
    </section>
  );
}

/** How many of the six policies (four limits, two holds) are on, at a glance. */
function PoliciesBadge({ policies }: { policies: Schemas['LinePolicies'] }) {
  const limits = [policies.newContacts?.perHour, policies.newContacts?.perDay, policies.pacing?.perMinute, policies.loopBreaker?.maxUnanswered].filter((n) => n != null).length;
  const on = limits + (policies.quietHours ? 1 : 0) + (policies.firstContactApproval ? 1 : 0);
  return on === 0 ? <Badge tone="muted">all off</Badge> : <Badge tone="good">{on} of 6 on</Badge>;
}

export function useConversations(accountId: string) {
  const client = useClient();
  const [extra, setExtra] = useState<{ items: Schemas['Conversation'][]; cursor: string | null } | null>(null);
  const [moreError, setMoreError] = useState<string | undefined>(undefined);
  const [loadingMore, setLoadingMore] = useState(false);
  const first = useLoad(
    async (signal) => {
      setExtra(null);
      return call(client.GET('/v1/admin/accounts/{accountId}/conversations', { params: { path: { accountId }, query: { limit: 100 } }, signal }));
    },
    [client, accountId],
  );
  const items = [...(first.data?.conversations ?? []), ...(extra?.items ?? [])];
  const cursor = extra ? extra.cursor : (first.data?.nextCursor ?? null);
  const more = async () => {
    setLoadingMore(true);
    try {
      const page = await call(client.GET('/v1/admin/accounts/{accountId}/conversations', { params: { path: { accountId }, query: { limit: 100, cursor: cursor ?? undefined } } }));
      setExtra({ items: [...(extra?.items ?? []), ...page.conversations], cursor: page.nextCursor });
    } catch (failure) {
      setMoreError(describe(failure));
    } finally {
      setLoadingMore(false);
    }
  };
  return { items, cursor, more, loading: first.loading || loadingMore, error: first.error ?? moreError, ready: !!first.data };
}

function Conversations({ accountId }: { accountId: string }) {
  const conversations = useConversations(accountId);
  return (
    <div aria-busy={conversations.loading}>
      <h2>Conversations</h2>
      <ErrorNote error={conversations.error} />
      {!conversations.ready && conversations.loading && <Loading />}
      {conversations.ready && conversations.items.length === 0 && <p class="muted">No conversation yet.</p>}
      {conversations.items.length > 0 && (
        <Table caption="Conversations">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Name</th>
              <th scope="col">Participants</th>
              <th scope="col">Appeared</th>
              <th scope="col">Conversation id</th>
            </tr>
          </thead>
          <tbody>
            {conversations.items.map((conversation) => (
              <tr key={conversation.conversationId}>
                <td>
                  <Badge tone={conversation.kind === 'group' ? 'info' : 'muted'}>{conversation.kind}</Badge>
                </td>
                <td>{conversation.name ?? <span class="muted">—</span>}</td>
                <td class="break">{conversation.participants.map((p) => p.externalId).join(", ")}</td>
                <td>
                  <Time at={conversation.createdAt} />
                </td>
                <td class="mono">{conversation.conversationId}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <MoreButton cursor={conversations.cursor} loading={conversations.loading} onMore={() => void conversations.more()} />
    </div>
  );
}

function Keys({ accountId }: { accountId: string }) {
  const client = useClient();
  const { canWrite, confirm } = useConsole();
  const loaded = useLoad((signal) => call(client.GET('/v1/admin/accounts/{accountId}/keys', { params: { path: { accountId } }, signal })), [client, accountId]);
  const action = useAction();
  const [kind, setKind] = useState<Schemas['KeyKind']>('account');
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<Schemas['KeyWithSecret'] | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      const key = await call(client.POST('/v1/admin/accounts/{accountId}/keys', { params: { path: { accountId } }, body: { kind, label } }));
      setCreated(key);
      setLabel('');
      loaded.reload();
    });
  };
  const revoke = async (key: Schemas['Key']) => {
    const yes = await confirm({
      title: `Revoke ${key.kind === 'account' ? 'API key' : 'connector key'} ${key.prefix}…?`,
      body: `${key.label ? `“${key.label}”: ` : ''}its next request answers 401, at once. This cannot be undone.`,
      action: 'Revoke key',
      danger: true,
    });
    if (yes && (await action.run(() => call(client.POST('/v1/admin/keys/{keyId}/revoke', { params: { path: { keyId: key.id } } }))))) loaded.reload();
  };

  return (
    <div aria-busy={loaded.loading}>
      <h2>Keys</h2>
      <ErrorNote error={loaded.error ?? action.error} />
      {created && <SecretOnce title={`New ${created.kind === 'account' ? 'API key' : 'connector key'} ${created.label ? `“${created.label}”` : ''}`} secret={created.secret} onDone={() => setCreated(null)} />}
      {!loaded.data && loaded.loading && <Loading />}
      {loaded.data && loaded.data.keys.length === 0 && <p class="muted">No key yet.</p>}
      {loaded.data && loaded.data.keys.length > 0 && (
        <Table caption="The account's keys">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Label</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
              {canWrite && (
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {loaded.data.keys.map((key) => (
              <tr key={key.id}>
                <td>{key.kind === 'account' ? 'API key' : 'connector key'}</td>
                <td>{key.label || <span class="muted">—</span>}</td>
                <td class="mono">{key.prefix}…</td>
                <td>
                  <Time at={key.createdAt} />
                </td>
                <td>
                  {key.revokedAt ? (
                    <>
                      <Badge tone="muted">revoked</Badge> <Time at={key.revokedAt} />
                    </>
                  ) : (
                    <Badge tone="good">live</Badge>
                  )}
                </td>
                {canWrite && (
                  <td>
                    {!key.revokedAt && (
                      <button type="button" class="small danger" disabled={action.busy} onClick={() => revoke(key)} aria-label={`Revoke key ${key.prefix}`}>
                        Revoke…
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {canWrite && (
        <form class="inline-form" onSubmit={create}>
          <h3>Create a key</h3>
          <div class="row wrap">
            <label for="new-key-kind">Kind</label>
            <select id="new-key-kind" value={kind} onInput={(event) => setKind((event.target as HTMLSelectElement).value as Schemas['KeyKind'])}>
              <option value="account">API key (public API)</option>
              <option value="connector">connector key (a connector host)</option>
            </select>
            <label for="new-key-label">Label</label>
            <input id="new-key-label" value={label} maxLength={200} onInput={(event) => setLabel((event.target as HTMLInputElement).value)} />
            <button type="submit" disabled={action.busy}>
              Create key
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
