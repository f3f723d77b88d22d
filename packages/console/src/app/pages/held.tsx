import { useEffect, useRef, useState } from 'preact/hooks';
import { call, describe, type Schemas } from '../api.ts';
import { useClient, useConsole } from '../context.ts';
import { useAction } from '../hooks.ts';
import { href } from '../router.ts';
import { Badge, ErrorNote, Loading, MoreButton, Note, Table, Time, short } from '../ui.tsx';

type Command = Schemas['AdminCommand'];

/** A hold policy in words. */
export const policyLabel = (policy: string | null | undefined): string =>
  policy === 'quietHours' ? 'quiet hours' : policy === 'firstContactApproval' ? 'first-contact approval' : 'a line policy';

/** Whom the command is for, in a few words. */
function TargetSummary({ target }: { target: Command['target'] }) {
  if (target.kind === 'conversation') {
    return (
      <>
        conversation <span class="mono">{short(target.conversationId)}</span>
      </>
    );
  }
  if (target.kind === 'recipient') return <span class="nowrap">{target.recipientExternalId}</span>;
  return <span class="break">new group: {target.participantExternalIds.join(', ')}</span>;
}

/** What it would send, when it is a message: an operator approves the words, not only the address. */
function Message({ command }: { command: Command }) {
  const words = (command.payload as { text?: unknown }).text;
  if (typeof words !== 'string' || words === '') return <span class="muted">—</span>;
  return <span class="held-text">{words.length > 160 ? `${words.slice(0, 159)}…` : words}</span>;
}

/**
 * The account's held commands (GET /v1/admin/commands?status=held), newest first: what quiet hours
 * or first-contact approval hold. A full key releases one (it goes out) or rejects one, with an
 * optional reason (it settles failed and nothing is sent); a read-only key sees them only.
 */
export function HeldCommands({ accountId }: { accountId: string }) {
  const client = useClient();
  const { canWrite, confirm } = useConsole();
  const action = useAction();
  const [commands, setCommands] = useState<Command[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Command | null>(null);

  const load = async (after: string | null) => {
    setLoading(true);
    setError(undefined);
    try {
      const page = await call(client.GET('/v1/admin/commands', { params: { query: { accountId, status: 'held', limit: 50, cursor: after ?? undefined } } }));
      setCommands((before) => (after && before ? [...before, ...page.commands] : page.commands));
      setCursor(page.nextCursor);
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void load(null), [client, accountId]);

  const release = async (command: Command) => {
    setDone(null);
    const yes = await confirm({
      title: `Release ${command.type} ${short(command.commandId)}?`,
      body:
        command.heldBy === 'firstContactApproval'
          ? 'It is approved and goes to the connector host, in the order it was accepted. During quiet hours it waits for the window to end.'
          : 'It goes to the connector host now, before quiet hours end, in the order it was accepted.',
      action: 'Release command',
    });
    if (!yes) return;
    let after: Schemas['CommandDetail'] | undefined;
    if (await action.run(async () => (after = await call(client.POST('/v1/admin/commands/{commandId}/release', { params: { path: { commandId: command.commandId } } }))))) {
      setDone(
        after?.command.status === 'held'
          ? `Approved ${short(command.commandId)}: quiet hours hold it now, until their window ends.`
          : `Released ${short(command.commandId)}: it goes to the connector host.`,
      );
      void load(null);
    }
  };

  const reject = async (command: Command, reason: string) => {
    setDone(null);
    const body = reason.trim() ? { reason: reason.trim() } : {};
    if (await action.run(() => call(client.POST('/v1/admin/commands/{commandId}/reject', { params: { path: { commandId: command.commandId } }, body })))) {
      setRejecting(null);
      setDone(`Rejected ${short(command.commandId)}: it settled failed (${command.heldBy === 'quietHours' ? 'quiet_hours_rejected' : 'first_contact_rejected'}) and nothing was sent.`);
      void load(null);
    }
  };

  return (
    <div aria-busy={loading}>
      <div class="title-row">
        <h2>Held commands</h2>
        <button type="button" class="secondary small" onClick={() => void load(null)} disabled={loading}>
          Refresh
        </button>
      </div>
      <p class="muted">
        Accepted, not sent: quiet hours hold a command until their window ends, first-contact approval until an operator decides. Released, a command goes out in the order it was
        accepted; rejected, it settles <code>failed</code> and its client is told why.
      </p>
      <ErrorNote error={error ?? action.error} />
      {done && (
        <div role="status">
          <Note tone="good">{done}</Note>
        </div>
      )}
      {rejecting && canWrite && <RejectForm command={rejecting} busy={action.busy} onReject={(reason) => void reject(rejecting, reason)} onCancel={() => setRejecting(null)} />}
      {commands === null && loading && <Loading />}
      {commands && commands.length === 0 && !loading && <p class="muted">Nothing is held.</p>}
      {commands && commands.length > 0 && (
        <Table caption="Held commands">
          <thead>
            <tr>
              <th scope="col">Accepted</th>
              <th scope="col">Type</th>
              <th scope="col">Held by</th>
              <th scope="col">Target</th>
              <th scope="col">Message</th>
              <th scope="col">Command</th>
              {canWrite && (
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {commands.map((command) => (
              <tr key={command.commandId} class="held">
                <td>
                  <Time at={command.createdAt} />
                </td>
                <td>
                  <code>{command.type}</code>
                </td>
                <td>
                  <Badge tone="warn">{policyLabel(command.heldBy)}</Badge>
                </td>
                <td>
                  <TargetSummary target={command.target} />
                </td>
                <td class="body-cell">
                  <Message command={command} />
                </td>
                <td>
                  <a href={href(`/commands/${command.commandId}`)} class="mono" aria-label={`Command ${command.commandId}`}>
                    {short(command.commandId)}
                  </a>
                </td>
                {canWrite && (
                  <td>
                    <div class="row nowrap">
                      <button type="button" class="small" disabled={action.busy} onClick={() => void release(command)} aria-label={`Release command ${command.commandId}`}>
                        Release…
                      </button>
                      <button
                        type="button"
                        class="small danger"
                        disabled={action.busy}
                        onClick={() => {
                          setDone(null);
                          action.clear();
                          setRejecting(command);
                        }}
                        aria-label={`Reject command ${command.commandId}`}
                      >
                        Reject…
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <MoreButton cursor={cursor} loading={loading} onMore={() => void load(cursor)} />
      {!canWrite && commands && commands.length > 0 && <p class="muted">A full operator key can release or reject them.</p>}
    </div>
  );
}

/** The rejection, with its optional reason (the client reads it as the command's errorMessage). */
function RejectForm({ command, busy, onReject, onCancel }: { command: Command; busy: boolean; onReject(reason: string): void; onCancel(): void }) {
  const [reason, setReason] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), [command.commandId]);
  return (
    <form
      class="inline-form reject-form"
      aria-labelledby="reject-title"
      onKeyDown={(event) => event.key === 'Escape' && onCancel()}
      onSubmit={(event) => {
        event.preventDefault();
        onReject(reason);
      }}
    >
      <h3 id="reject-title">
        Reject {command.type} <span class="mono">{short(command.commandId)}</span>?
      </h3>
      <p class="muted">
        It settles <code>failed</code> ({command.heldBy === 'quietHours' ? 'quiet_hours_rejected' : 'first_contact_rejected'}) and nothing is sent. This cannot be undone.
      </p>
      <div class="row wrap">
        <label for="reject-reason">Reason (optional)</label>
        <input id="reject-reason" ref={field} class="grow" maxLength={500} aria-describedby="reject-reason-help" value={reason} onInput={(event) => setReason((event.target as HTMLInputElement).value)} />
      </div>
      <p id="reject-reason-help" class="muted small-text">
        The client reads it in the command's <code>errorMessage</code>.
      </p>
      <div class="row end">
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" class="danger" disabled={busy}>
          Reject command
        </button>
      </div>
    </form>
  );
}
