import { randomBytes } from 'node:crypto';

/** A multipart/form-data request body, and the content type that names its boundary. */
export interface Multipart {
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

/** A file part: the bytes are sent as they are, never copied (a Blob, which FormData needs, copies them). */
export interface FilePart {
  name: string;
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
}

/** A header's quoted value as the HTML spec's multipart/form-data encoding escapes it. */
const quoted = (value: string) => `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/**
 * The form `fields` and `file` make, streamed: the text before the file, the file's own bytes,
 * then the closing boundary. For media of up to 100 MB, so the host holds each file once.
 */
export function multipart(fields: Record<string, string>, file: FilePart): Multipart {
  const boundary = `----switchboard${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value.replace(/\r?\n|\r/g, '\r\n')}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.name)}; filename=${quoted(file.fileName)}\r\nContent-Type: ${file.mimeType}\r\n\r\n`;
  const parts = [new TextEncoder().encode(head), file.bytes, new TextEncoder().encode(`\r\n--${boundary}--\r\n`)];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = parts.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}
