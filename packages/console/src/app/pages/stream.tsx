import { useEffect, useRef, useState } from 'preact/hooks';
import { failureOf } from '../api.ts';
import { useClient } from '../context.ts';
import { href } from '../router.ts';
import { serverEvents } from '../sse.ts';
import { Badge, ErrorNote, Json, Time, short, type Tone } from '../ui.tsx';
import { useConversations } from './account.tsx';

const eventTypes = [
  'command.settled',
  'conversation.appeared',
  'message.received',
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.reaction',
  'message.edited',
  'message.unsent',
  'group.renamed',
  'group.participants_changed',
  'poll.voted',
  'webhook.endpoint_disabled',
  'webhook.test',
];

interface StreamEvent {
  id: string;
  type: string;
  time: string;
  data: Record<string, unknown>;
}

type Connection = 'connecting' | 'open' | 'reconnecting' | 'closed';
const KEEP = 500;

/**
 * The account's response stream as it happens: Server-Sent Events read over fetch (EventSource
 * cannot send the Authorization header), resumed with Last-Event-ID after a drop.
 */
export function LiveStream({ accountId }: { accountId: string }) {
  const client = useClient();
  const conversations = useConversations(accountId);
  const [from, setFrom] = useState<'now' | '0'>('now');
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [error, setError] = useState<string | undefined>(undefined);
  const [type, setType] = useState('');
  const [conversation, setConversation] = useState('');
  const lastId = useRef<string | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    lastId.current = undefined;
    setEvents([]);
    let attempt = 0;
    const run = async () => {
      while (!controller.signal.aborted) {
        setConnection(attempt === 0 ? 'connecting' : 'reconnecting');
        try {
          const resume = lastId.current;
          const answer = await client.GET('/v1/admin/accounts/{accountId}/events', {
            params: { path: { accountId }, query: resume ? {} : { after: from }, header: resume ? { 'Last-Event-ID': resume } : {} },
            headers: { accept: 'text/event-stream' },
            parseAs: 'stream',
            signal: controller.signal,
          });
          if (!answer.response.ok || !answer.data) {
            const body = await answer.response.json().catch(() => null);
            const failure = failureOf(answer.response.status, body);
            setError(failure.message);
            // A refused key or a gone account does not get better by retrying.
            if ([401, 403, 404].includes(answer.response.status)) return setConnection('closed');
          } else {
            setConnection('open');
            setError(undefined);
            attempt = 0;
            for await (const message of serverEvents(answer.data as ReadableStream<Uint8Array>)) {
              if (message.id) lastId.current = message.id;
              let event: StreamEvent;
              try {
                event = JSON.parse(message.data) as StreamEvent;
              } catch {
                continue;
              }
              setEvents((before) => [event, ...before].slice(0, KEEP));
            }
          }
        } catch (failure) {
          if (controller.signal.aborted) return;
          setError('The stream dropped; reconnecting…');
        }
        attempt++;
        await new Promise((resume) => setTimeout(resume, Math.min(10_000, 1_000 * attempt)));
      }
    };
    void run();
    return () => {
      controller.abort();
      setConnection('closed');
    };
  }, [client, accountId, from]);

  const shown = events.filter((event) => (!type || event.type === type) && (!conversation || event.data?.conversationId === conversation));
  const tone: Record<Connection, Tone> = { connecting: 'info', open: 'good', reconnecting: 'warn', closed: 'muted' };

  return (
    <div>
      <div class="title-row">
        <h2>Live stream</h2>
        <span role="status" aria-live="polite">
          <Badge tone={tone[connection]}>{connection === 'open' ? 'connected' : connection}</Badge>
        </span>
      </div>
      <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Stream filters">
        <div class="field">
          <label for="stream-from">Start</label>
          <select id="stream-from" value={from} onInput={(event) => setFrom((event.target as HTMLSelectElement).value as 'now' | '0')}>
            <option value="now">from now</option>
            <option value="0">from the oldest retained event</option>
          </select>
        </div>
        <div class="field">
          <label for="stream-type">Event type</label>
          <select id="stream-type" value={type} onInput={(event) => setType((event.target as HTMLSelectElement).value)}>
            <option value="">every type</option>
            {eventTypes.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="stream-conversation">Conversation</label>
          <select id="stream-conversation" value={conversation} onInput={(event) => setConversation((event.target as HTMLSelectElement).value)}>
            <option value="">every conversation</option>
            {conversations.items.map((c) => (
              <option key={c.conversationId} value={c.conversationId}>
                {c.name ?? c.participants.map((p) => p.externalId).join(', ')} ({c.kind})
              </option>
            ))}
          </select>
        </div>
        <div class="field actions">
          <button type="button" class="secondary" onClick={() => setEvents([])}>
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      <p class="muted">
        {shown.length} of {events.length} events shown{events.length >= KEEP ? ` (the newest ${KEEP} are kept)` : ''}, newest first.
      </p>
      <ol class="events" aria-label="Stream events" aria-live="off">
        {shown.map((event) => (
          <li key={event.id || `${event.type}-${event.time}`}>
            <div class="event-head">
              <span class="mono muted">#{event.id}</span> <Time at={event.time} /> <Badge tone={eventTone(event)}>{event.type}</Badge> {summary(event)}
            </div>
            <details>
              <summary>data</summary>
              <Json value={event.data} label={`Event ${event.id} data`} />
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}

function eventTone(event: StreamEvent): Tone {
  if (event.type === 'command.settled') return event.data.status === 'failed' ? 'bad' : 'good';
  if (event.type === 'message.failed' || event.type === 'webhook.endpoint_disabled') return 'bad';
  return event.type.startsWith('message.') ? 'info' : 'muted';
}

function summary(event: StreamEvent) {
  const d = event.data ?? {};
  const command = typeof d.commandId === 'string' ? d.commandId : undefined;
  const link = command && (
    <a href={href(`/commands/${command}`)} class="mono" aria-label={`Command ${command}`}>
      {short(command)}
    </a>
  );
  switch (event.type) {
    case 'command.settled':
      return (
        <span>
          <code>{String(d.commandType ?? '')}</code> {link} {d.status === 'failed' ? <strong>{String(d.errorCode ?? 'failed')}</strong> : String(d.status ?? '')}
          {typeof d.errorMessage === 'string' && <span class="muted">: {d.errorMessage}</span>}
        </span>
      );
    case 'message.received':
      return (
        <span>
          from {String(d.senderExternalId ?? '?')}: “{String(d.text ?? '')}”
        </span>
      );
    default:
      return <span>{link}</span>;
  }
}
