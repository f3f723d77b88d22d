/**
 * A Server-Sent Events parser following the WHATWG "event stream interpretation": lines end in
 * CRLF, LF or CR; `:` starts a comment (the service's `: heartbeat`); an empty line dispatches
 * the event; an event with no `data` is dropped; `id` persists until changed. Fed decoded text
 * in chunks of any size, it gives the same messages however the text is split.
 */
export interface SseMessage {
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last event id at dispatch (persists across events that carry no `id:`); '' if none yet. */
  id: string;
}

export class SseParser {
  /** The last `retry:` value, in ms. */
  retry: number | undefined;
  private pending = '';
  private data: string[] = [];
  private eventType = '';
  private lastEventId = '';
  private skipLeadingLF = false;
  private started = false;

  feed(text: string): SseMessage[] {
    const out: SseMessage[] = [];
    let start = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    // A CR that ended the previous chunk may be the first half of a CRLF.
    if (this.skipLeadingLF && text.length > 0) {
      if (text.charCodeAt(start) === 10) start++;
      this.skipLeadingLF = false;
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.pending + text.slice(start, i), out);
      this.pending = '';
      if (c === 13) {
        if (i + 1 === text.length) this.skipLeadingLF = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.pending += text.slice(start);
    return out;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') return this.dispatch(out);
    if (line.charCodeAt(0) === 58 /* : */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
    }
  }

  private dispatch(out: SseMessage[]): void {
    if (this.data.length > 0) out.push({ event: this.eventType || 'message', data: this.data.join('\n'), id: this.lastEventId });
    this.data = [];
    this.eventType = '';
  }
}
