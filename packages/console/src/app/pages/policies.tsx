import { useEffect, useState } from 'preact/hooks';
import { call, type Schemas } from '../api.ts';
import { useClient, useConsole } from '../context.ts';
import { useAction } from '../hooks.ts';
import { Badge, ErrorNote, Note, Table } from '../ui.tsx';

type Policies = Schemas['LinePolicies'];
type Field = 'perHour' | 'perDay' | 'perMinute' | 'maxUnanswered';

/** Each policy's row: its name, where its limit sits in the body, its unit, its maximum, and what it protects against. */
const rows: Array<{ field: Field; name: string; unit: string; max: number; why: string; limit(p: Policies): number | null | undefined }> = [
  { field: 'perHour', name: 'New contacts per hour', unit: 'per rolling hour', max: 100_000, why: 'An agent writing to many strangers at once: first messages to addresses this line never talked to.', limit: (p) => p.newContacts?.perHour },
  { field: 'perDay', name: 'New contacts per day', unit: 'per rolling day', max: 100_000, why: 'The same, over a day: a steady trickle of cold outreach.', limit: (p) => p.newContacts?.perDay },
  { field: 'perMinute', name: 'Pacing', unit: 'messages per conversation per minute', max: 600, why: 'A burst of messages into one chat, faster than a person types.', limit: (p) => p.pacing?.perMinute },
  { field: 'maxUnanswered', name: 'Loop breaker', unit: 'messages in a row with no reply', max: 10_000, why: 'An agent talking to itself: it stops once the other side has not answered this many times.', limit: (p) => p.loopBreaker?.maxUnanswered },
];

const text = (n: number | null | undefined) => (n == null ? '' : String(n));

/** The form's fields as the PUT body: an empty field is off, and so is a new-contact budget with neither window. */
function bodyOf(values: Record<Field, string>): Policies {
  const n = (field: Field) => (values[field].trim() === '' ? null : Number(values[field]));
  const perHour = n('perHour');
  const perDay = n('perDay');
  const perMinute = n('perMinute');
  const maxUnanswered = n('maxUnanswered');
  return {
    newContacts: perHour === null && perDay === null ? null : { perHour, perDay },
    pacing: perMinute === null ? null : { perMinute },
    loopBreaker: maxUnanswered === null ? null : { maxUnanswered },
  };
}

/** One sentence for the confirmation: what is on after the change, and what is off. */
export function policiesSummary(p: Policies): string {
  const on = rows.filter((row) => row.limit(p) != null).map((row) => `${row.name.toLowerCase()}: ${row.limit(p)} ${row.unit}`);
  return on.length ? on.join('; ') : 'every policy off';
}

/**
 * The account's line policies (specs/openapi/switchboard.yaml, "Line policies"): each on with its
 * limit, or off; a full key changes them through PUT /v1/admin/accounts/{id}/policies, after a
 * confirmation, and a read-only key sees them only.
 */
export function LinePolicies({ accountId, accountName, policies, onChanged }: { accountId: string; accountName: string; policies: Policies; onChanged(): void }) {
  const client = useClient();
  const { canWrite, confirm } = useConsole();
  const action = useAction();
  const current = (): Record<Field, string> => Object.fromEntries(rows.map((row) => [row.field, text(row.limit(policies))])) as Record<Field, string>;
  const [values, setValues] = useState(current);
  const [saved, setSaved] = useState(false);
  // The stored set changed (saved here, or reloaded): the form starts from it again.
  useEffect(() => setValues(current()), [JSON.stringify(policies)]);

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const body = bodyOf(values);
    const yes = await confirm({
      title: `Change the line policies of ${accountName}?`,
      body: `From the next command on: ${policiesSummary(body)}. A command over a limit is refused at intake and nothing is sent.`,
      action: 'Save policies',
    });
    if (!yes) return;
    if (await action.run(() => call(client.PUT('/v1/admin/accounts/{accountId}/policies', { params: { path: { accountId } }, body })))) {
      setSaved(true);
      onChanged();
    }
  };

  return (
    <div>
      <h2>Line policies</h2>
      <p class="muted">
        Limits that protect this iMessage line from an agent that sends too much. A command over one is refused when it is posted (429 <code>new_contact_limit</code> or{' '}
        <code>pacing_limit</code>, 409 <code>loop_breaker</code>); nothing reaches the platform.
      </p>
      <Table caption="The account's line policies">
        <thead>
          <tr>
            <th scope="col">Policy</th>
            <th scope="col">Limit</th>
            <th scope="col">What it protects against</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const limit = row.limit(policies);
            return (
              <tr key={row.field} class="policy">
                <th scope="row">{row.name}</th>
                <td>
                  {limit == null ? (
                    <Badge tone="muted">off</Badge>
                  ) : (
                    <>
                      <Badge tone="good">on</Badge> <strong>{limit}</strong> {row.unit}
                    </>
                  )}
                </td>
                <td>{row.why}</td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <ErrorNote error={action.error} />
      {saved && (
        <div role="status">
          <Note tone="good">Saved: the next command is held to these policies.</Note>
        </div>
      )}
      {canWrite ? (
        <form class="inline-form" onSubmit={save}>
          <h3>Change the policies</h3>
          <p class="muted">A whole number turns a policy on with that limit; an empty field turns it off.</p>
          <div class="policy-fields">
            {rows.map((row) => (
              <div key={row.field}>
                <label for={`policy-${row.field}`}>{row.name}</label>
                <input
                  id={`policy-${row.field}`}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={row.max}
                  step={1}
                  placeholder="off"
                  aria-describedby={`policy-${row.field}-unit`}
                  value={values[row.field]}
                  onInput={(event) => setValues({ ...values, [row.field]: (event.target as HTMLInputElement).value })}
                />
                <span id={`policy-${row.field}-unit`} class="muted small-text">
                  {row.unit}
                </span>
              </div>
            ))}
          </div>
          <div class="row end">
            <button type="submit" disabled={action.busy}>
              Save policies…
            </button>
          </div>
        </form>
      ) : (
        <p class="muted">A full operator key can change them.</p>
      )}
    </div>
  );
}
