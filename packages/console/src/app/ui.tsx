import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConfirmRequest } from './context.ts';
import type { Schemas } from './api.ts';

export type Tone = 'good' | 'bad' | 'warn' | 'info' | 'muted';

export function Badge({ tone, children }: { tone: Tone; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

const statusTone: Record<string, Tone> = { succeeded: 'good', failed: 'bad', queued: 'info', held: 'warn' };
export const StatusBadge = ({ status }: { status: string }) => <Badge tone={statusTone[status] ?? 'muted'}>{status}</Badge>;

export function HostBadge({ host }: { host: Schemas['Host'] | null }) {
  if (!host) return <Badge tone="muted">no host</Badge>;
  return host.live ? <Badge tone="good">live</Badge> : <Badge tone="warn">expired</Badge>;
}

/** A time as the operator's locale shows it, with the exact ISO time on hover and for machines. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={at}>
      {date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' })}
    </time>
  );
}

/** How long ago, in words ("12 s ago"), for renewals and failures. */
export function Ago({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  const seconds = Math.round((Date.now() - Date.parse(at)) / 1000);
  const text = Math.abs(seconds) < 90 ? `${Math.abs(seconds)} s` : Math.abs(seconds) < 5400 ? `${Math.round(Math.abs(seconds) / 60)} min` : `${Math.round(Math.abs(seconds) / 3600)} h`;
  return (
    <time dateTime={at} title={new Date(at).toLocaleString()}>
      {seconds >= 0 ? `${text} ago` : `in ${text}`}
    </time>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

/** The thin bar at the top of a section while it reloads with data already shown. */
export const Progress = ({ active }: { active: boolean }) => <div class={active ? 'progress active' : 'progress'} aria-hidden="true" />;

export function ErrorNote({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="note note-bad" role="alert">
      {error}
    </p>
  );
}

export function Note({ tone = 'info', children }: { tone?: Tone; children: ComponentChildren }) {
  return <div class={`note note-${tone}`}>{children}</div>;
}

/** A secret shown this once (a new key, a rotated signing secret), with a way to copy it. */
export function SecretOnce({ title, secret, onDone }: { title: string; secret: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.select(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      field.current?.select();
    }
  };
  return (
    <div class="note note-warn secret" role="region" aria-label={title}>
      <h2>{title}</h2>
      <p>This is the only time it is shown: the server keeps only its hash. Copy it now.</p>
      <div class="row">
        <label class="sr-only" for="secret-once">
          Secret
        </label>
        <input id="secret-once" ref={field} class="mono grow" readOnly value={secret} data-secret />
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** The one confirmation dialog: a modal <dialog>, its default button the safe one. */
export function ConfirmDialog({ request, onAnswer }: { request: ConfirmRequest | null; onAnswer(yes: boolean): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (request && !element.open) element.showModal();
    if (!request && element.open) element.close();
  }, [request]);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" aria-describedby="confirm-body" onClose={() => request && onAnswer(false)}>
      {request && (
        <form method="dialog" onSubmit={(event) => event.preventDefault()}>
          <h2 id="confirm-title">{request.title}</h2>
          <p id="confirm-body">{request.body}</p>
          <div class="row end">
            <button type="button" class="secondary" autoFocus onClick={() => onAnswer(false)}>
              Cancel
            </button>
            <button type="button" class={request.danger ? 'danger' : ''} onClick={() => onAnswer(true)}>
              {request.action}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}

export function Json({ value, label }: { value: unknown; label?: string }) {
  return (
    <pre class="json" tabIndex={0} aria-label={label}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** A table that scrolls sideways on a narrow screen instead of squeezing its columns. */
export function Table({ caption, children }: { caption: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption class="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function MoreButton({ cursor, loading, onMore }: { cursor: string | null | undefined; loading: boolean; onMore(): void }) {
  if (!cursor) return null;
  return (
    <p>
      <button type="button" class="secondary" onClick={onMore} disabled={loading}>
        {loading ? 'Loading…' : 'Load more'}
      </button>
    </p>
  );
}

/** The page's title: the h1, focused after navigation so a screen reader announces the new page. */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Switchboard console`;
    if (document.activeElement === document.body || document.activeElement?.closest('nav, .page-nav')) heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

export const short = (id: string): string => (id.length > 13 ? `${id.slice(0, 8)}…` : id);
