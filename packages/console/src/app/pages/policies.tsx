import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, type Schemas } from '../api.ts';
import { useClient, useConsole } from '../context.ts';
import { useAction, useLoad } from '../hooks.ts';
import { href } from '../router.ts';
import { Badge, ErrorNote, Loading, Note, Table, Time } from '../ui.tsx';

type Policies = Schemas['LinePolicies'];
type Usage = Schemas['PolicyUsage'];
type Field = 'perHour' | 'perDay' | 'perMinute' | 'maxUnanswered';
type Values = Record<Field | 'from' | 'until' | 'timeZone', string> & { approval: boolean };

/** Each limit's row: its name, where its limit sits in the body, its unit, its maximum, and what it protects against. */
const rows: Array<{ field: Field; name: string; unit: string; max: number; why: string; limit(p: Policies): number | null | undefined }> = [
  { field: 'perHour', name: 'New contacts per hour', unit: 'per rolling hour', max: 100_000, why: 'An agent writing to many strangers at once: first messages to addresses this line never talked to.', limit: (p) => p.newContacts?.perHour },
  { field: 'perDay', name: 'New contacts per day', unit: 'per rolling day', max: 100_000, why: 'The same, over a day: a steady trickle of cold outreach.', limit: (p) => p.newContacts?.perDay },
  { field: 'perMinute', name: 'Pacing', unit: 'messages per conversation per minute', max: 600, why: 'A burst of messages into one chat, faster than a person types.', limit: (p) => p.pacing?.perMinute },
  { field: 'maxUnanswered', name: 'Loop breaker', unit: 'messages in a row with no reply', max: 10_000, why: 'An agent talking to itself: it stops once the other side has not answered this many times.', limit: (p) => p.loopBreaker?.maxUnanswered },
];

const text = (n: number | null | undefined) => (n == null ? '' : String(n));

/** The browser's own time zone: where an operator turning quiet hours on most likely is. */
const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const zones = (): string[] => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
};

/** The form's starting values: the stored policies (quiet hours off offers the browser's time zone). */
function valuesOf(p: Policies): Values {
  const limits = Object.fromEntries(rows.map((row) => [row.field, text(row.limit(p))])) as Record<Field, string>;
  return { ...limits, from: p.quietHours?.from ?? '', until: p.quietHours?.until ?? '', timeZone: p.quietHours?.timeZone ?? localZone(), approval: p.firstContactApproval === true };
}

/**
 * The form's fields as the PUT body: an empty limit is off, and so is a new-contact budget with
 * neither window, and quiet hours with neither time. The conversations' own time zones are kept
 * as stored (the CLI and the admin API set them). A form that cannot be a body throws its reason.
 */
export function bodyOf(values: Values, stored: Policies): Policies {
  const n = (field: Field) => (values[field].trim() === '' ? null : Number(values[field]));
  const perHour = n('perHour');
  const perDay = n('perDay');
  const perMinute = n('perMinute');
  const maxUnanswered = n('maxUnanswered');
  const from = values.from.trim();
  const until = values.until.trim();
  if (Boolean(from) !== Boolean(until)) throw new Error('Quiet hours need both a start and an end; leave both empty to turn them off.');
  if (from && from === until) throw new Error('Quiet hours start and end at the same time: give them a window.');
  if (from && !values.timeZone.trim()) throw new Error('Quiet hours need a time zone (an IANA name such as Europe/Paris).');
  return {
    newContacts: perHour === null && perDay === null ? null : { perHour, perDay },
    pacing: perMinute === null ? null : { perMinute },
    loopBreaker: maxUnanswered === null ? null : { maxUnanswered },
    quietHours: from ? { from, until, timeZone: values.timeZone.trim(), conversationTimeZones: { ...stored.quietHours?.conversationTimeZones } } : null,
    firstContactApproval: values.approval,
  };
}

/** One sentence for the confirmation: what is on after the change, and what is off. */
export function policiesSummary(p: Policies): string {
  const on = rows.filter((row) => row.limit(p) != null).map((row) => `${row.name.toLowerCase()}: ${row.limit(p)} ${row.unit}`);
  if (p.quietHours) on.push(`quiet hours: ${p.quietHours.from} to ${p.quietHours.until}, ${p.quietHours.timeZone}`);
  if (p.firstContactApproval) on.push('first-contact approval on');
  return on.length ? on.join('; ') : 'every policy off';
}

const OnOff = ({ on, children }: { on: boolean; children?: ComponentChildren }) =>
  on ? (
    <>
      <Badge tone="good">on</Badge> {children}
    </>
  ) : (
    <Badge tone="muted">off</Badge>
  );

/**
 * The account's line policies (specs/openapi/switchboard.yaml, "Line policies"): each limit on
 * or off, quiet hours and first-contact approval, and what they count now; a full key changes them
 * through PUT /v1/admin/accounts/{id}/policies, after a confirmation, and a read-only key sees
 * them only.
 */
export function LinePolicies({ accountId, accountName, policies, onChanged }: { accountId: string; accountName: string; policies: Policies; onChanged(): void }) {
  const client = useClient();
  const { canWrite, confirm } = useConsole();
  const action = useAction();
  const usage = useLoad((signal) => call(client.GET('/v1/admin/accounts/{accountId}/policies/usage', { params: { path: { accountId } }, signal })), [client, accountId, JSON.stringify(policies)]);
  const [values, setValues] = useState(() => valuesOf(policies));
  const [saved, setSaved] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  // The stored set changed (saved here, or reloaded): the form starts from it again.
  useEffect(() => setValues(valuesOf(policies)), [JSON.stringify(policies)]);
  const set = (name: keyof Values) => (event: Event) => {
    const target = event.target as HTMLInputElement;
    setValues({ ...values, [name]: target.type === 'checkbox' ? target.checked : target.value });
  };
  const conversationZones = Object.entries(policies.quietHours?.conversationTimeZones ?? {});

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    setProblem(undefined);
    let body: Policies;
    try {
      body = bodyOf(values, policies);
    } catch (error) {
      setProblem((error as Error).message);
      return;
    }
    const yes = await confirm({
      title: `Change the line policies of ${accountName}?`,
      body: `From the next command on: ${policiesSummary(body)}. A command over a limit is refused at intake and nothing is sent; one that quiet hours or first-contact approval hold waits, accepted, until it is released.`,
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
        <code>pacing_limit</code>, 409 <code>loop_breaker</code>); nothing reaches the platform. Quiet hours and first-contact approval hold a command instead: it is accepted as{' '}
        <code>held</code> and waits until it is released (<a href={href(`/accounts/${accountId}/held`)}>held commands</a>).
      </p>
      <Table caption="The account's line policies">
        <thead>
          <tr>
            <th scope="col">Policy</th>
            <th scope="col">Setting</th>
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
                  <OnOff on={limit != null}>
                    <strong>{limit}</strong> {row.unit}
                  </OnOff>
                </td>
                <td>{row.why}</td>
              </tr>
            );
          })}
          <tr class="policy">
            <th scope="row">Quiet hours</th>
            <td>
              <OnOff on={!!policies.quietHours}>
                {policies.quietHours && (
                  <>
                    <strong>
                      {policies.quietHours.from} to {policies.quietHours.until}
                    </strong>{' '}
                    {policies.quietHours.timeZone}
                  </>
                )}
              </OnOff>
            </td>
            <td>Messages at night: every command waits from the first time until the second, then goes out in the order it was accepted.</td>
          </tr>
          <tr class="policy">
            <th scope="row">First-contact approval</th>
            <td>
              <OnOff on={policies.firstContactApproval === true}>held for an operator</OnOff>
            </td>
            <td>Cold outreach nobody meant: a first message to an address this line never talked to waits for an operator to release or reject it.</td>
          </tr>
        </tbody>
      </Table>
      {conversationZones.length > 0 && (
        <p class="muted small-text">
          Conversations with their own time zone for quiet hours (set with the CLI or the admin API, kept here):{' '}
          {conversationZones.map(([id, zone], i) => (
            <span key={id}>
              {i > 0 && ', '}
              <span class="mono">{id}</span> {zone}
            </span>
          ))}
          .
        </p>
      )}
      <PolicyUsage accountId={accountId} policies={policies} usage={usage.data} error={usage.error} loading={usage.loading} />
      <ErrorNote error={problem ?? action.error} />
      {saved && (
        <div role="status">
          <Note tone="good">Saved: the next command is held to these policies.</Note>
        </div>
      )}
      {canWrite ? (
        <form class="inline-form" onSubmit={save}>
          <h3>Change the policies</h3>
          <p class="muted">A whole number turns a limit on; an empty field turns it off. Quiet hours are on with both times set, off with both empty.</p>
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
                  onInput={set(row.field)}
                />
                <span id={`policy-${row.field}-unit`} class="muted small-text">
                  {row.unit}
                </span>
              </div>
            ))}
          </div>
          <fieldset class="policy-group">
            <legend>Quiet hours</legend>
            <div class="policy-fields">
              <div>
                <label for="policy-quiet-from">From</label>
                <input id="policy-quiet-from" type="time" aria-describedby="policy-quiet-help" value={values.from} onInput={set('from')} />
              </div>
              <div>
                <label for="policy-quiet-until">Until</label>
                <input id="policy-quiet-until" type="time" aria-describedby="policy-quiet-help" value={values.until} onInput={set('until')} />
              </div>
              <div>
                <label for="policy-quiet-zone">Time zone</label>
                <input id="policy-quiet-zone" list="policy-zones" autoComplete="off" spellcheck={false} maxLength={64} aria-describedby="policy-quiet-help" value={values.timeZone} onInput={set('timeZone')} />
                <datalist id="policy-zones">
                  {zones().map((zone) => (
                    <option key={zone} value={zone} />
                  ))}
                </datalist>
              </div>
            </div>
            <p id="policy-quiet-help" class="muted small-text">
              Local times in that time zone; the window may cross midnight (21:00 until 08:00). Commands wait in it, held, and go out in order when it ends.
            </p>
          </fieldset>
          <div class="check">
            <input id="policy-approval" type="checkbox" checked={values.approval} aria-describedby="policy-approval-help" onChange={set('approval')} />
            <label for="policy-approval">First-contact approval</label>
            <span id="policy-approval-help" class="muted small-text">
              hold a first message to a new address until an operator releases or rejects it
            </span>
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

/** What the policies count now (GET .../policies/usage): new contacts against the budget, whether it is quiet, what is held. */
function PolicyUsage({ accountId, policies, usage, error, loading }: { accountId: string; policies: Policies; usage: Usage | undefined; error: string | undefined; loading: boolean }) {
  const of = (n: number | null | undefined) => (n == null ? '' : ` of ${n}`);
  return (
    <div aria-busy={loading}>
      <h3 class="usage-title">Now</h3>
      <ErrorNote error={error} />
      {!usage && loading && <Loading />}
      {usage && (
        <dl class="facts usage">
          <div>
            <dt>New contacts, last hour</dt>
            <dd>
              <strong>{usage.newContacts.lastHour}</strong>
              {of(policies.newContacts?.perHour)}
            </dd>
          </div>
          <div>
            <dt>New contacts, last day</dt>
            <dd>
              <strong>{usage.newContacts.lastDay}</strong>
              {of(policies.newContacts?.perDay)}
            </dd>
          </div>
          <div>
            <dt>Quiet hours</dt>
            <dd>
              {!policies.quietHours ? (
                <Badge tone="muted">off</Badge>
              ) : usage.quietHours.quiet ? (
                <>
                  <Badge tone="warn">quiet now</Badge> opens <Time at={usage.quietHours.opensAt} />
                </>
              ) : (
                <Badge tone="good">not quiet now</Badge>
              )}
            </dd>
          </div>
          <div>
            <dt>Held</dt>
            <dd>
              {usage.held.quietHours + usage.held.firstContactApproval === 0 ? (
                <span class="muted">nothing</span>
              ) : (
                <a href={href(`/accounts/${accountId}/held`)}>
                  {usage.held.quietHours} by quiet hours, {usage.held.firstContactApproval} for approval
                </a>
              )}
            </dd>
          </div>
        </dl>
      )}
    </div>
  );
}
