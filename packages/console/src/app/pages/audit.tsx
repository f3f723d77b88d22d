import { useState } from 'preact/hooks';
import { call, describe, type Schemas } from '../api.ts';
import { useClient } from '../context.ts';
import { useLoad } from '../hooks.ts';
import { href } from '../router.ts';
import { ErrorNote, Loading, MoreButton, PageTitle, Progress, Table, Time, short } from '../ui.tsx';

/** Who changed what, newest first. */
export function AuditPage() {
  const client = useClient();
  const [more, setMore] = useState<{ items: Schemas['AuditRecord'][]; cursor: string | null } | null>(null);
  const [moreLoading, setMoreLoading] = useState(false);
  const [moreError, setMoreError] = useState<string | undefined>(undefined);
  const loaded = useLoad(
    async (signal) => {
      setMore(null);
      const [page, keys, accounts] = await Promise.all([
        call(client.GET('/v1/admin/audit', { params: { query: { limit: 50 } }, signal })),
        call(client.GET('/v1/admin/operator-keys', { signal })),
        call(client.GET('/v1/admin/accounts', { signal })),
      ]);
      return { page, keys: new Map(keys.keys.map((key) => [key.id, key])), accounts: new Map(accounts.accounts.map((account) => [account.id, account.name])) };
    },
    [client],
  );
  const items = [...(loaded.data?.page.records ?? []), ...(more?.items ?? [])];
  const cursor = more ? more.cursor : (loaded.data?.page.nextCursor ?? null);
  const loadMore = async () => {
    setMoreLoading(true);
    try {
      const page = await call(client.GET('/v1/admin/audit', { params: { query: { limit: 50, cursor: cursor ?? undefined } } }));
      setMore({ items: [...(more?.items ?? []), ...page.records], cursor: page.nextCursor });
    } catch (failure) {
      setMoreError(describe(failure));
    } finally {
      setMoreLoading(false);
    }
  };
  return (
    <section aria-busy={loaded.loading}>
      <div class="title-row">
        <PageTitle title="Audit log">Audit log</PageTitle>
        <button type="button" class="secondary small" onClick={loaded.reload} disabled={loaded.loading}>
          Refresh
        </button>
      </div>
      <Progress active={loaded.loading && !!loaded.data} />
      <ErrorNote error={loaded.error ?? moreError} />
      {!loaded.data && loaded.loading && <Loading />}
      {loaded.data && items.length === 0 && <p class="muted">No change recorded yet.</p>}
      {items.length > 0 && (
        <Table caption="Audit records, newest first">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">Operator key</th>
              <th scope="col">Account</th>
              <th scope="col">Subject</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {items.map((record) => {
              const key = record.operatorKeyId ? loaded.data?.keys.get(record.operatorKeyId) : undefined;
              return (
                <tr key={record.id}>
                  <td>
                    <Time at={record.at} />
                  </td>
                  <td>
                    <code>{record.action}</code>
                  </td>
                  <td>{record.operatorKeyId ? (key ? key.label || `${key.prefix}…` : short(record.operatorKeyId)) : <span class="muted">CLI where the store is</span>}</td>
                  <td>{record.accountId ? <a href={href(`/accounts/${record.accountId}`)}>{loaded.data?.accounts.get(record.accountId) ?? short(record.accountId)}</a> : <span class="muted">—</span>}</td>
                  <td class="mono">{record.subject ? short(record.subject) : '—'}</td>
                  <td class="mono small-text break">{Object.keys(record.detail).length ? JSON.stringify(record.detail) : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      <MoreButton cursor={cursor} loading={moreLoading} onMore={() => void loadMore()} />
    </section>
  );
}
