import { commandTable, settlementCodes } from '@switchboard/contracts/catalog';
import { useState } from 'preact/hooks';
import { call, describe, type Schemas } from '../api.ts';
import { useClient } from '../context.ts';
import { href, navigate } from '../router.ts';
import { ErrorNote, Loading, MoreButton, PageTitle, StatusBadge, Table, Time, short } from '../ui.tsx';
import { useEffect } from 'preact/hooks';

const commandTypes = Object.keys(commandTable);
const statuses = ['queued', 'held', 'succeeded', 'failed'] as const;

export interface Filters {
  status: string;
  errorCode: string;
  type: string;
  createdAfter: string;
  createdBefore: string;
}

const empty: Filters = { status: '', errorCode: '', type: '', createdAfter: '', createdBefore: '' };

export const filtersOf = (query: URLSearchParams): Filters => ({
  status: query.get('status') ?? '',
  errorCode: query.get('errorCode') ?? '',
  type: query.get('type') ?? '',
  createdAfter: query.get('createdAfter') ?? '',
  createdBefore: query.get('createdBefore') ?? '',
});

/** A datetime-local value (the operator's local time) as ISO 8601 in UTC, or undefined. */
const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** Every account's commands, filtered (the overview's failure links land here). */
export function CommandsPage({ query }: { query: URLSearchParams }) {
  return (
    <section>
      <PageTitle title="Commands">Commands</PageTitle>
      <CommandSearch initial={filtersOf(query)} accountId={query.get('accountId') ?? undefined} syncUrl />
    </section>
  );
}

/** The command search: filters, newest first, a page at a time (the admin API's cursor). */
export function CommandSearch({ initial = empty, accountId, syncUrl = false }: { initial?: Filters; accountId?: string | undefined; syncUrl?: boolean }) {
  const client = useClient();
  const [form, setForm] = useState<Filters>(initial);
  const [applied, setApplied] = useState<Filters>(initial);
  const [commands, setCommands] = useState<Schemas['AdminCommand'][] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  const load = async (filters: Filters, after: string | null) => {
    setLoading(true);
    setError(undefined);
    try {
      const page = await call(
        client.GET('/v1/admin/commands', {
          params: {
            query: {
              accountId,
              status: (filters.status || undefined) as Schemas['CommandPage']['commands'][number]['status'] | undefined,
              errorCode: (filters.errorCode || undefined) as never,
              type: (filters.type || undefined) as never,
              createdAfter: iso(filters.createdAfter),
              createdBefore: iso(filters.createdBefore),
              limit: 50,
              cursor: after ?? undefined,
            },
          },
        }),
      );
      setCommands((before) => (after && before ? [...before, ...page.commands] : page.commands));
      setCursor(page.nextCursor);
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void load(applied, null), [applied, accountId]);

  const submit = (event: Event) => {
    event.preventDefault();
    setApplied({ ...form });
    if (syncUrl) {
      const query = new URLSearchParams(Object.entries(form).filter(([, value]) => value) as [string, string][]);
      if (accountId) query.set('accountId', accountId);
      navigate(`/commands${query.size ? `?${query}` : ''}`, true);
    }
  };
  const field = (name: keyof Filters) => ({
    id: `filter-${name}`,
    value: form[name],
    onInput: (event: Event) => setForm({ ...form, [name]: (event.target as HTMLInputElement).value }),
  });

  return (
    <div class="search" aria-busy={loading}>
      <form class="filters" onSubmit={submit} role="search" aria-label="Command search">
        <div class="field">
          <label for="filter-status">Status</label>
          <select {...field('status')}>
            <option value="">any</option>
            {statuses.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-errorCode">Settlement code</label>
          <select {...field('errorCode')}>
            <option value="">any</option>
            {settlementCodes.map((code) => (
              <option key={code}>{code}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-type">Type</label>
          <select {...field('type')}>
            <option value="">any</option>
            {commandTypes.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-createdAfter">Accepted after</label>
          <input type="datetime-local" step="1" {...field('createdAfter')} />
        </div>
        <div class="field">
          <label for="filter-createdBefore">Accepted before</label>
          <input type="datetime-local" step="1" {...field('createdBefore')} />
        </div>
        <div class="field actions">
          <button type="submit" disabled={loading}>
            Search
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setForm(empty);
              setApplied(empty);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {commands === null && loading && <Loading label="Searching…" />}
      {commands && commands.length === 0 && !loading && <p class="muted">No command matches.</p>}
      {commands && commands.length > 0 && (
        <Table caption="Commands found">
          <thead>
            <tr>
              <th scope="col">Accepted</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Why it failed</th>
              <th scope="col">Command</th>
            </tr>
          </thead>
          <tbody>
            {commands.map((command) => (
              <tr key={command.commandId} class={command.status === 'failed' ? 'row-failed' : undefined}>
                <td>
                  <Time at={command.createdAt} />
                </td>
                <td>
                  <code>{command.type}</code>
                </td>
                <td>
                  <StatusBadge status={command.status} />
                </td>
                <td>{command.errorCode ? <code>{command.errorCode}</code> : <span class="muted">—</span>}</td>
                <td>
                  <a href={href(`/commands/${command.commandId}`)} class="mono" aria-label={`Command ${command.commandId}`}>
                    {short(command.commandId)}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <MoreButton cursor={cursor} loading={loading} onMore={() => void load(applied, cursor)} />
    </div>
  );
}
