import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isMediaType, mediaTypeOf } from './media-type.ts';

describe('mediaTypeOf', () => {
  it('lower-cases the type and drops its parameters', () => {
    expect(mediaTypeOf('image/PNG')).toBe('image/png');
    expect(mediaTypeOf(' Text/Plain ; charset="utf-8"; format=flowed')).toBe('text/plain');
    expect(mediaTypeOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('is null for an absent, malformed or wildcard type', () => {
    for (const bad of [undefined, '', 'image', 'image/', '/png', 'image png', 'image/png;', 'image/png; charset', 'image/png/x', 'image/*', '*/*', 'ïmage/png']) {
      expect(mediaTypeOf(bad), String(bad)).toBeNull();
    }
  });

  it('never throws, and whatever it answers is lower case with one slash and no parameters', () => {
    fc.assert(fc.property(fc.string(), (value) => {
      const type = mediaTypeOf(value);
      if (type === null) return;
      expect(type).toBe(type.toLowerCase());
      expect(type.split('/')).toHaveLength(2);
      expect(type).not.toMatch(/[;\s]/);
    }));
  });

  it('keeps the type of any well-formed value whatever its parameters', () => {
    const token = fc.stringMatching(/^[a-z0-9][a-z0-9.+-]{0,10}$/);
    fc.assert(fc.property(token, token, fc.array(fc.tuple(token, token), { maxLength: 3 }), (type, subtype, params) => {
      const value = `${type.toUpperCase()}/${subtype}${params.map(([k, v]) => `; ${k}=${v}`).join('')}`;
      expect(mediaTypeOf(value)).toBe(`${type}/${subtype}`);
    }));
  });
});

describe('isMediaType', () => {
  it('accepts what mediaTypeOf reads, and ranges too; refuses what is malformed', () => {
    for (const good of ['image/png', ' Text/Plain ; charset="utf-8"', 'image/*', '*/*']) expect(isMediaType(good), good).toBe(true);
    for (const bad of ['', 'image', 'image/', 'image png', 'image/png;', 'image/png/x', 'ïmage/png']) expect(isMediaType(bad), bad).toBe(false);
  });

  it('agrees with mediaTypeOf on every value that is not a range', () => {
    fc.assert(fc.property(fc.string(), (value) => {
      if (!value.includes('*')) expect(isMediaType(value)).toBe(mediaTypeOf(value) !== null);
    }));
  });
});
