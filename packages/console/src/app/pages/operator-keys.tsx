import { useState } from 'preact/hooks';
import { call, type Schemas } from '../api.ts';
import { useClient, useConsole } from '../context.ts';
import { useAction, useLoad } from '../hooks.ts';
import { Badge, ErrorNote, Loading, PageTitle, Progress, SecretOnce, Table, Time } from '../ui.tsx';

export function OperatorKeysPage() {
  const client = useClient();
  const { canWrite, confirm, session, signOut } = useConsole();
  const loaded = useLoad((signal) => call(client.GET('/v1/admin/operator-keys', { signal })), [client]);
  const action = useAction();
  const [label, setLabel] = useState('');
  const [role, setRole] = useState<Schemas['OperatorRole']>('read-only');
  const [created, setCreated] = useState<Schemas['OperatorKeyWithSecret'] | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      setCreated(await call(client.POST('/v1/admin/operator-keys', { body: { label, role } })));
      setLabel('');
      loaded.reload();
    });
  };
  const revoke = async (key: Schemas['OperatorKey']) => {
    const own = session.self.id === key.id;
    const yes = await confirm({
      title: `Revoke operator key ${key.prefix}…?`,
      body: own ? 'This is the key this console is signed in with: you will be signed out at once.' : `${key.label ? `“${key.label}”: ` : ''}its next request answers 401. This cannot be undone.`,
      action: 'Revoke key',
      danger: true,
    });
    if (!yes) return;
    if (await action.run(() => call(client.POST('/v1/admin/operator-keys/{keyId}/revoke', { params: { path: { keyId: key.id } } })))) {
      if (own) signOut();
      else loaded.reload();
    }
  };

  return (
    <section aria-busy={loaded.loading}>
      <PageTitle title="Operator keys">Operator keys</PageTitle>
      <Progress active={loaded.loading && !!loaded.data} />
      <ErrorNote error={loaded.error ?? action.error} />
      {created && <SecretOnce title={`New ${created.role} operator key${created.label ? ` “${created.label}”` : ''}`} secret={created.secret} onDone={() => setCreated(null)} />}
      {!loaded.data && loaded.loading && <Loading />}
      {loaded.data && (
        <Table caption="Operator keys">
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Role</th>
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
                <td>
                  {key.label || <span class="muted">—</span>} {session.self.id === key.id && <Badge tone="info">this console</Badge>}
                </td>
                <td>{key.role === 'full' ? <Badge tone="info">full</Badge> : <Badge tone="warn">read-only</Badge>}</td>
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
                      <button type="button" class="small danger" disabled={action.busy} onClick={() => revoke(key)} aria-label={`Revoke operator key ${key.prefix}`}>
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
          <h2>Create an operator key</h2>
          <div class="row wrap">
            <label for="new-operator-label">Label</label>
            <input id="new-operator-label" value={label} maxLength={200} onInput={(event) => setLabel((event.target as HTMLInputElement).value)} />
            <label for="new-operator-role">Role</label>
            <select id="new-operator-role" value={role} onInput={(event) => setRole((event.target as HTMLSelectElement).value as Schemas['OperatorRole'])}>
              <option value="read-only">read-only (every GET)</option>
              <option value="full">full (every change)</option>
            </select>
            <button type="submit" disabled={action.busy}>
              Create operator key
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
