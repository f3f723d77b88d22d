// Server-Sent Events read from a fetch body: EventSource cannot send an Authorization header.
// The parsing follows the HTML standard's event stream interpretation (fields, comments, blank line
// dispatches), enough for the response stream's `id`, `event` and `data` lines.

export interface ServerEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/** Yields each event of a text/event-stream body until it ends or the signal aborts. */
export async function* serverEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: RegExpExecArray | null;
      while ((newline = /\r\n|\r|\n/.exec(buffer))) {
        // A lone \r at the end may be the first half of \r\n: wait for more.
        if (newline[0] === '\r' && newline.index === buffer.length - 1) break;
        const line = buffer.slice(0, newline.index);
        buffer = buffer.slice(newline.index + newline[0].length);
        if (line === '') {
          if (data.length > 0) yield { id, event: event || 'message', data: data.join('\n') };
          data = [];
          event = '';
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(text);
        else if (field === 'event') event = text;
        else if (field === 'id' && !text.includes('\0')) id = text;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
