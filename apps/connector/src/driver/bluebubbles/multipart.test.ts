import { expect, test } from 'vitest';
import { multipart } from './multipart.ts';

test('the file part is the caller\'s bytes as they are (no copy), and the body parses as the form (quotes in a name escaped)', async () => {
  const bytes = new Uint8Array([0, 13, 10, 45, 45, 255]);
  const form = multipart({ chatGuid: 'iMessage;-;+1', name: 'a "b".png' }, { name: 'attachment', fileName: 'a "b".png', mimeType: 'image/png', bytes });
  const chunks: Uint8Array[] = [];
  for await (const chunk of form.body) chunks.push(chunk);
  expect(chunks.some((chunk) => chunk === bytes)).toBe(true);
  const parsed = await new Response(Buffer.concat(chunks), { headers: { 'content-type': form.contentType } }).formData();
  expect(parsed.get('chatGuid')).toBe('iMessage;-;+1');
  expect(parsed.get('name')).toBe('a "b".png');
  const file = parsed.get('attachment') as File;
  expect([file.name, file.type]).toEqual(['a "b".png', 'image/png']);
  expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
});
