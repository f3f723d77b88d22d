import { describe, expect, it } from 'vitest';
import { OwnAnnouncements } from './announcements.ts';

describe('OwnAnnouncements', () => {
  function listening() {
    const own = new OwnAnnouncements();
    const delivered: string[] = [];
    own.listen((payload) => delivered.push(payload));
    return { own, delivered };
  }

  it('skips its own payload once when heard back, and passes on the next', () => {
    const { own, delivered } = listening();
    own.expect('e:a');
    own.heard('e:a');
    own.heard('e:a');
    expect(delivered).toEqual(['e:a']);
  });

  it('an identical payload heard first stands for the expected one, which is then passed on when it comes', () => {
    const { own, delivered } = listening();
    own.expect('e:a');
    own.heard('e:a'); // another replica's, committed first
    own.heard('e:a'); // this one's
    own.heard('e:b');
    expect(delivered).toEqual(['e:a', 'e:b']);
  });

  it('a payload whose transaction failed is heard at once, and not skipped later', () => {
    const { own, delivered } = listening();
    own.expect('c:a');
    own.failed('c:a');
    own.heard('c:a');
    expect(delivered).toEqual(['c:a', 'c:a']);
  });

  it('expects nothing before it listens, and forgets what it expected when the connection comes back', () => {
    const own = new OwnAnnouncements();
    own.expect('e:a');
    const delivered: string[] = [];
    own.listen((payload) => delivered.push(payload));
    own.heard('e:a');
    own.expect('e:a');
    own.reset();
    own.heard('e:a');
    expect(delivered).toEqual(['e:a', 'e:a']);
  });
});
