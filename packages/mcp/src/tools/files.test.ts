import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localPath, mediaTypes } from './files.ts';

const refusal = (input: string) => {
  const result = localPath(input);
  return 'refused' in result ? (result.refused.structuredContent as { error: string }).error : undefined;
};

describe('localPath', () => {
  it('refuses every URL but file:, whatever its scheme or case', () => {
    for (const url of ['https://example.com/a.png', 'HTTP://10.0.0.1/a.png', 'ftp://host/a.png', 'data:image/png;base64,AAAA', 's3://bucket/a.png']) expect(refusal(url), url).toBe('url_refused');
  });

  it('takes an absolute path, ~/ and a file: URL as paths; refuses a relative path', () => {
    expect(localPath('/tmp/a.png')).toEqual({ path: '/tmp/a.png' });
    expect(localPath('~/Pictures/a.png')).toEqual({ path: join(homedir(), 'Pictures/a.png') });
    expect(localPath('file:///tmp/a%20b.png')).toEqual({ path: '/tmp/a b.png' });
    expect(refusal('Pictures/a.png')).toBe('path_not_absolute');
    expect(refusal('./a.png')).toBe('path_not_absolute');
  });
});

describe('mediaTypes', () => {
  it('names only types the service allows by default (images, video, audio, PDF, plain text, vCards)', () => {
    for (const type of Object.values(mediaTypes)) expect(type).toMatch(/^(image|video|audio)\/|^application\/pdf$|^text\/(plain|vcard)$/);
  });
});
