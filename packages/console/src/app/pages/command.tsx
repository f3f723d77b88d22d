import { settlementCatalog, type SettlementCode } from '@switchboard/contracts/catalog';
import type { ComponentChildren } from 'preact';
import { call, type Schemas } from '../api.ts';
import { useClient } from '../context.ts';
import { useLoad } from '../hooks.ts';
import { href } from '../router.ts';
import { Badge, ErrorNote, Json, Loading, Note, PageTitle, Progress, StatusBadge, Time, type Tone } from '../ui.tsx';
import { policyLabel } from './held.tsx';

/** "What happened to this command?": its status, why it failed, and its timeline. */
export function CommandPage({ commandId }: { commandId: string }) {
  const client = useClient();
  const loaded = useLoad((signal) => call(client.GET('/v1/admin/commands/{commandId}', { params: { path: { commandId } }, signal })), [client, commandId]);
  const { data } = loaded;
  const command = data?.command;
  return (
    <section aria-busy={loaded.loading}>
      <div class="title-row">
        <PageTitle title={command ? `Command ${command.type}` : 'Command'}>
          Command {command && <code>{command.type}</code>} {command && <StatusBadge status={command.status} />}
        </PageTitle>
        <button type="button" class="secondary small" onClick={loaded.reload} disabled={loaded.loading}>
          Refresh
        </button>
      </div>
      <Progress active={loaded.loading && !!data} />
      <ErrorNote error={loaded.error} />
      {!data && loaded.loading && <Loading />}
      {command && data && (
        <>
          {command.status === 'failed' && <Failure command={command} />}
          {command.status === 'held' && (
            <Note tone="warn">
              <p>
                <strong>Held by {policyLabel(command.heldBy)}</strong>: accepted, not sent.{' '}
                {command.heldBy === 'quietHours' ? 'It goes out in order when the window ends, unless an operator releases or rejects it first.' : 'It waits for an operator to release or reject it.'}{' '}
                <a href={href(`/accounts/${command.accountId}/held`)}>The account's held commands</a>
              </p>
            </Note>
          )}
          <dl class="facts">
            <Fact term="Command id">
              <span class="mono">{command.commandId}</span>
            </Fact>
            <Fact term="Account">
              <a href={href(`/accounts/${command.accountId}`)} class="mono">
                {command.accountId}
              </a>
            </Fact>
            <Fact term="Routing path">{command.routingPath}</Fact>
            <Fact term="Accepted">
              <Time at={command.createdAt} />
            </Fact>
            <Fact term="Settled">
              <Time at={command.settledAt} />
            </Fact>
            <Fact term="Conversation">{command.conversationId ? <span class="mono">{command.conversationId}</span> : <span class="muted">{command.status === 'queued' || command.status === 'held' ? 'none yet' : 'none'}</span>}</Fact>
            <Fact term="Logical action">
              <span class="mono">{command.logicalActionId}</span>
            </Fact>
            <Fact term="Idempotency key">{command.idempotencyKey ? <span class="mono">{command.idempotencyKey}</span> : <span class="muted">none</span>}</Fact>
          </dl>
          <h2>Timeline</h2>
          <Timeline entries={data.timeline} />
          <div class="columns">
            <div>
              <h2>Target</h2>
              <Json value={command.target} label="Target" />
            </div>
            <div>
              <h2>Payload</h2>
              <Json value={command.payload} label="Payload" />
            </div>
          </div>
        </>
      )}
    </section>
  );
}

const Fact = ({ term, children }: { term: string; children: ComponentChildren }) => (
  <div>
    <dt>{term}</dt>
    <dd>{children}</dd>
  </div>
);

function Failure({ command }: { command: Schemas['AdminCommand'] }) {
  const code = command.errorCode as SettlementCode | null;
  return (
    <div class="note note-bad failure" role="region" aria-label="Why it failed">
      <h2>
        Failed: <code>{code ?? 'no code'}</code>
      </h2>
      {code && settlementCatalog[code] && <p class="muted-on-bad">{settlementCatalog[code].description}</p>}
      {command.errorMessage && <p class="reason">{command.errorMessage}</p>}
      {command.errorPath && (
        <p>
          At <code>{command.errorPath}</code>
        </p>
      )}
    </div>
  );
}

const kindTone: Record<Schemas['TimelineEntry']['kind'], Tone> = {
  accepted: 'info',
  held: 'warn',
  released: 'info',
  dispatched: 'info',
  sent: 'good',
  settled: 'muted',
  delivered: 'good',
  read: 'good',
  failed: 'bad',
  edited: 'muted',
  unsent: 'warn',
};

function Timeline({ entries }: { entries: Schemas['TimelineEntry'][] }) {
  if (entries.length === 0) return <p class="muted">Nothing recorded.</p>;
  return (
    <ol class="timeline">
      {entries.map((entry, i) => {
        const tone = entry.kind === 'settled' ? (entry.status === 'failed' ? 'bad' : entry.status === 'succeeded' ? 'good' : 'info') : kindTone[entry.kind];
        return (
          <li key={i} class={`step step-${tone}`}>
            <div class="step-head">
              <Badge tone={tone}>{entry.kind}</Badge> <Time at={entry.at} />
            </div>
            <div class="step-body">{details(entry)}</div>
          </li>
        );
      })}
    </ol>
  );
}

function details(entry: Schemas['TimelineEntry']): ComponentChildren {
  switch (entry.kind) {
    case 'accepted':
      return (
        <>
          {entry.disposition ?? 'queued'} on the <strong>{entry.routingPath ?? '?'}</strong> path{entry.idempotencyKey ? <> with Idempotency-Key <code>{entry.idempotencyKey}</code></> : null}
        </>
      );
    case 'held':
      return entry.policy ? (
        <>
          by <strong>{policyLabel(entry.policy)}</strong>
        </>
      ) : (
        'by a line policy'
      );
    case 'released':
      return 'the hold ended: queued for the connector host';
    case 'dispatched':
      return (
        <>
          to host <code>{entry.hostId ?? 'unknown'}</code> under epoch <strong>{entry.epoch ?? '?'}</strong>
        </>
      );
    case 'sent':
      return (
        <>
          the platform confirmed message <code>{entry.messageExternalId}</code>
        </>
      );
    case 'settled':
      return entry.status === 'failed' ? (
        <>
          <strong>failed</strong> with <code>{entry.errorCode ?? 'no code'}</code>
          {entry.errorMessage && <>: {entry.errorMessage}</>}
          {entry.errorPath && (
            <>
              {' '}
              (at <code>{entry.errorPath}</code>)
            </>
          )}
        </>
      ) : (
        <strong>{entry.status}</strong>
      );
    case 'failed':
      return (
        <>
          the message failed after it was sent: <code>{entry.failure?.reason}</code>
          {entry.failure?.platformMessage && <> ({entry.failure.platformMessage})</>}
        </>
      );
    default:
      return entry.messageExternalId ? (
        <>
          message <code>{entry.messageExternalId}</code>
        </>
      ) : null;
  }
}
