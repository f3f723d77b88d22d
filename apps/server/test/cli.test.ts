import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createServer, type AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { eventSchemas } from '@switchboard/contracts';
import { exited, paths, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';

let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
  server = await startServer({}, dataDir);
});
afterAll(async () => {
  await server?.stop();
  removeDataDir(dataDir);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI as its own process over the server's data directory. */
function cli(...args: string[]): Promise<Run> {
  return cliWith({}, ...args);
}

/** The same, with more environment. */
function cliWith(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [paths.cli, ...args], {
      env: { ...process.env, ...server.storeEnv, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a command with --json that must succeed, and returns its parsed output. */
async function json<T = any>(...args: string[]): Promise<T> {
  const run = await cli(...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

let names = 0;
const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${++names}`;

async function newAccount(prefix = 'acct') {
  const account = await json<{ id: string; name: string }>('accounts', 'create', uniqueName(prefix));
  const apiKey = await json<{ id: string; secret: string }>('keys', 'create', account.name);
  return { ...account, apiKey: apiKey.secret, apiKeyId: apiKey.id };
}

const authorized = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra });

async function takeLease(connectorKey: string, hostId: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/v1/connector/lease`, { method: 'POST', headers: authorized(connectorKey), body: JSON.stringify({ hostId, osMajorVersion: 15, capabilities: [] }) });
  return { status: res.status, body: await res.json() };
}

async function sendText(apiKey: string, target: Record<string, unknown> = { kind: 'recipient', recipientExternalId: '+14155550123' }): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/v1/commands/message.send`, {
    method: 'POST',
    headers: authorized(apiKey),
    body: JSON.stringify({ target, payload: { text: 'hi' } }),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * An account with a connector key: `lease()` has its host take (or take again) the lease just
 * before commands are posted, since a lease not renewed expires while slow CLI runs go by.
 */
async function sendingAccount(prefix: string) {
  const account = await newAccount(prefix);
  const connector = await json('connector-keys', 'create', account.id);
  const lease = async () => expect((await takeLease(connector.secret, `host-${account.name}`)).status).toBe(200);
  return { ...account, lease };
}

/** A quiet-hours window around the present moment, in UTC: quiet now, and for two hours. */
function quietNow(): string {
  const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  return `${hhmm(Date.now() - 3_600_000)}-${hhmm(Date.now() + 3_600_000)}`;
}

const noUsage = { newContacts: { lastHour: 0, lastDay: 0 }, quietHours: { quiet: false, opensAt: null }, held: { quietHours: 0, firstContactApproval: 0 } };

describe('usage', () => {
  it('--help (and -h) prints the usage and exits 0', async () => {
    const cases = [['--help'], ['-h'], ['accounts', 'list', '--help']];
    const runs = await Promise.all(cases.map((args) => cli(...args)));
    for (const [i, run] of runs.entries()) {
      expect(run.code, cases[i]!.join(' ')).toBe(0);
      expect(run.stdout).toContain('Usage: switchboard <command>');
      for (const command of ['accounts create', 'keys revoke', 'connector-keys create', 'pause', 'resume', 'hosts', 'tail']) expect(run.stdout).toContain(command);
    }
  });

  it('no command at all exits 2 with a usage hint, as a script calling it wrongly needs', async () => {
    const run = await cli();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('name a command');
    expect(run.stderr).toContain('switchboard --help');
    expect(run.stdout).toBe('');
  });

  it('an unknown command exits 2 with a usage hint', async () => {
    const cases = [['frobnicate'], ['accounts'], ['accounts', 'delete', 'x'], ['keys', 'rotate']];
    const runs = await Promise.all(cases.map((args) => cli(...args)));
    for (const [i, run] of runs.entries()) {
      const args = cases[i]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(`unknown command "${args.join(' ')}"`);
      expect(run.stderr).toContain('switchboard --help');
      expect(run.stdout).toBe('');
    }
  });

  it('an unknown option, or an option without its value, exits 2 with a usage hint', async () => {
    const [bogus, label] = await Promise.all([cli('accounts', 'list', '--bogus'), cli('keys', 'create', 'someone', '--label')]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("Unknown option '--bogus'");
    expect(label.code).toBe(2);
    expect(label.stderr).toContain('--label');
    for (const run of [bogus, label]) {
      expect(run.stderr).toContain('switchboard --help');
      expect(run.stdout).toBe('');
    }
  });

  it('a missing or unknown argument exits 2 and says what is missing', async () => {
    const cases: [string[], string][] = [
      [['accounts', 'create'], 'accounts create <name>'],
      [['keys', 'create'], 'name an account'],
      [['keys', 'create', 'nobody-here'], 'no account "nobody-here"'],
      [['keys', 'revoke'], 'keys revoke <keyId>'],
      [['keys', 'revoke', 'no-such-key'], 'no key "no-such-key"'],
      [['pause', 'nobody-here'], 'no account "nobody-here"'],
      [['tail', 'nobody-here'], 'no account "nobody-here"'],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args)));
    for (const [i, run] of runs.entries()) {
      const [args, message] = cases[i]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});

describe('errors under --json', () => {
  it('go to stderr as one JSON object with a code, and the same exit status as without --json', async () => {
    const dup = uniqueName('json-dup');
    await json('accounts', 'create', dup);
    const account = await json('accounts', 'create', uniqueName('json-errors'));
    const cases: [string[], string, number][] = [
      [[], 'usage', 2],
      [['frobnicate'], 'usage', 2],
      [['accounts', 'list', '--bogus'], 'usage', 2],
      [['keys', 'create', 'nobody-here'], 'account_not_found', 2],
      [['accounts', 'create', dup], 'account_exists', 2],
      [['keys', 'revoke', 'no-such-key'], 'key_not_found', 2],
      [['webhooks', 'enable', account.name, 'no-such-endpoint'], 'webhook_endpoint_not_found', 2],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
    for (const [i, run] of runs.entries()) {
      const [args, code, exit] = cases[i]!;
      expect(run.code, args.join(' ')).toBe(exit);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(JSON.parse(run.stderr), args.join(' ')).toEqual({ error: code, message: expect.any(String) });
    }
    // Without --json the same error stays a human one.
    const human = await cli('keys', 'create', 'nobody-here');
    expect(human.code).toBe(2);
    expect(human.stderr).toContain('error: no account "nobody-here"');
  });

  it('a failure that is not the command line\'s exits 1 with its code', async () => {
    const run = await cliWith({ SWITCHBOARD_RATE_LIMIT: 'lots' }, 'accounts', 'list', '--json');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({ error: 'config_invalid', message: expect.stringContaining('SWITCHBOARD_RATE_LIMIT') });
  });
});

describe('accounts', () => {
  it('accounts create makes an account; accounts list shows it', async () => {
    const name = uniqueName('acme');
    const created = await json('accounts', 'create', name);
    expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name, outboundPaused: false, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const listed = await json<any[]>('accounts', 'list');
    expect(listed.filter((a) => a.name === name)).toEqual([{ ...created, host: null }]);
    const human = await cli('accounts', 'list');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`${created.id}\\s+${name}\\s+sending`));
  });

  it('a duplicate account name exits 2 with a clear error and creates nothing', async () => {
    const name = uniqueName('dup');
    await json('accounts', 'create', name);
    const again = await cli('accounts', 'create', name, '--json');
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stderr)).toEqual({ error: 'account_exists', message: `an account named "${name}" exists` });
    expect(again.stdout).toBe('');
    expect((await json<any[]>('accounts', 'list')).filter((a) => a.name === name)).toHaveLength(1);
  });
});

describe('keys', () => {
  it('keys create prints the secret once; keys list never shows it', async () => {
    const account = await json('accounts', 'create', uniqueName('keys'));
    const human = await cli('keys', 'create', account.name, '--label', 'laptop');
    expect(human.code).toBe(0);
    const secret = /\b(sb_[A-Za-z0-9_-]{43})\b/.exec(human.stdout)?.[1];
    expect(secret, human.stdout).toBeDefined();
    expect(human.stdout).toContain('Shown once');
    const created = await json('keys', 'create', account.id, '--label', 'ci');
    expect(created).toMatchObject({ accountId: account.id, kind: 'account', label: 'ci', revokedAt: null, secret: expect.stringMatching(/^sb_/) });
    expect(created.secret.startsWith(created.prefix)).toBe(true);

    const listed = await cli('keys', 'list', account.name, '--json');
    const humanList = await cli('keys', 'list', account.name);
    for (const out of [listed.stdout, humanList.stdout]) {
      expect(out).not.toContain(secret);
      expect(out).not.toContain(created.secret);
      expect(out).not.toMatch(/"(secret|hash)"/);
    }
    const keys = JSON.parse(listed.stdout);
    expect(keys.map((k: any) => k.label)).toEqual(['laptop', 'ci']);
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['accountId', 'createdAt', 'id', 'kind', 'label', 'prefix', 'revokedAt']);
    expect(humanList.stdout).toContain(`${created.prefix}…`);
  });

  it('a created key authenticates against the running server, and stops right after keys revoke', async () => {
    const account = await newAccount('auth');
    const read = () => fetch(`${server.url}/v1/events?limit=1`, { headers: { authorization: `Bearer ${account.apiKey}` } });
    expect((await read()).status).toBe(200);
    // Authenticated all the way to the lease check: no host holds one yet.
    expect((await sendText(account.apiKey)).body.error).toBe('no_live_connector');

    const revoked = await json('keys', 'revoke', account.apiKeyId);
    expect(revoked).toMatchObject({ id: account.apiKeyId, kind: 'account', revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const after = await read();
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: string }).error).toBe('unauthenticated');
    expect((await sendText(account.apiKey)).status).toBe(401);
    const listed = await json<any[]>('keys', 'list', account.id);
    expect(listed.find((k) => k.id === account.apiKeyId).revokedAt).toBe(revoked.revokedAt);
  });
});

describe('connector keys and hosts', () => {
  it('connector-keys create makes a connector key; hosts lists the lease a host took over HTTP', async () => {
    const account = await newAccount('hosts');
    const connector = await json('connector-keys', 'create', account.name, '--label', 'mac-mini');
    expect(connector).toMatchObject({ accountId: account.id, kind: 'connector', label: 'mac-mini', secret: expect.stringMatching(/^sbc_/) });
    // Each key opens its own side only.
    expect((await takeLease(account.apiKey, 'intruder')).status).toBe(401);
    const eventsWithConnectorKey = await fetch(`${server.url}/v1/events`, { headers: { authorization: `Bearer ${connector.secret}` } });
    expect(eventsWithConnectorKey.status).toBe(401);

    const lease = await takeLease(connector.secret, 'mac-mini-1');
    expect(lease.status).toBe(200);
    const hosts = await json<any[]>('hosts');
    expect(hosts.find((h) => h.accountId === account.id)).toMatchObject({ accountId: account.id, accountName: account.name, hostId: 'mac-mini-1', epoch: lease.body.epoch, osMajorVersion: 15, live: true, expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const human = await cli('hosts');
    // The OS column says which OS: the connector hosts are Macs.
    expect(human.stdout).toMatch(/^ACCOUNT\s+HOST\s+EPOCH\s+OS\s+LEASE/);
    expect(human.stdout).toMatch(new RegExp(`${account.name}\\s+mac-mini-1\\s+${lease.body.epoch}\\s+macOS 15\\s+live`));

    const release = await fetch(`${server.url}/v1/connector/lease/release`, { method: 'POST', headers: authorized(connector.secret), body: JSON.stringify({ epoch: lease.body.epoch }) });
    expect(release.status).toBe(204);
    expect((await json<any[]>('hosts')).find((h) => h.accountId === account.id)).toMatchObject({ live: false });
  });
});

describe('pause and resume', () => {
  it('pause makes commands answer 503 outbound_paused; resume sends again; --all covers every account', async () => {
    const [a, b] = await Promise.all([newAccount('pause-a'), newAccount('pause-b')]);
    await Promise.all(
      [a, b].map(async (account) => {
        const connector = await json('connector-keys', 'create', account.id);
        expect((await takeLease(connector.secret, `host-${account.name}`)).status).toBe(200);
      }),
    );
    expect((await sendText(a.apiKey)).status).toBe(202);

    expect(await json('pause', a.name)).toEqual({ accountId: a.id, paused: true });
    const paused = await sendText(a.apiKey);
    expect(paused.status).toBe(503);
    expect(paused.body.error).toBe('outbound_paused');
    expect((await sendText(b.apiKey)).status).toBe(202);
    expect((await json<any[]>('accounts', 'list')).find((x) => x.id === a.id).outboundPaused).toBe(true);

    expect(await json('resume', a.id)).toEqual({ accountId: a.id, paused: false });
    expect((await sendText(a.apiKey)).status).toBe(202);

    expect(await json('pause', '--all')).toEqual({ all: true, paused: true });
    for (const account of [a, b]) expect((await sendText(account.apiKey)).body.error).toBe('outbound_paused');
    expect(await json('resume', '--all')).toEqual({ all: true, paused: false });
    for (const account of [a, b]) expect((await sendText(account.apiKey)).status).toBe(202);
  });

  it('a paused account with no live lease answers outbound_paused: the pause is checked before the lease', async () => {
    const a = await newAccount('pause-nolease');
    expect((await sendText(a.apiKey)).body.error).toBe('no_live_connector');
    await json('pause', a.name);
    const paused = await sendText(a.apiKey);
    expect(paused.status).toBe(503);
    expect(paused.body.error).toBe('outbound_paused');
    await json('resume', a.name);
    expect((await sendText(a.apiKey)).body.error).toBe('no_live_connector');
  });
});

describe('tail', () => {
  it('prints the account\'s events, those before it started and those that happen while it runs', async () => {
    const [account, other] = await Promise.all([newAccount('tail'), newAccount('tail-other')]);
    const keys = await Promise.all([account, other].map((x) => json('connector-keys', 'create', x.id)));
    const epochs = await Promise.all(keys.map(async (k, i) => (await takeLease(k.secret, `tail-host-${i}`)).body.epoch as number));
    const report = async (i: number, externalId: string) => {
      const res = await fetch(`${server.url}/v1/connector/platform-events`, {
        method: 'POST',
        headers: authorized(keys[i].secret),
        body: JSON.stringify({ epoch: epochs[i], events: [{ type: 'conversation.appeared', externalId, conversationKind: 'direct', name: null, participants: [`${externalId}@example.com`] }] }),
      });
      expect(res.status).toBe(200);
    };
    await report(0, 'before');

    const child = spawn(process.execPath, [paths.cli, 'tail', account.name, '--json'], { env: { ...process.env, ...server.storeEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const nextEvent = async () => {
        const { value, done } = await lines.next();
        expect(done).toBe(false);
        return eventSchemas.zStreamEvent.parse(JSON.parse(value as string));
      };
      const first = await nextEvent();
      expect(first).toMatchObject({ type: 'conversation.appeared', account: account.id, data: { participants: ['before@example.com'] } });

      await report(1, 'elsewhere');
      await report(0, 'during');
      const second = await nextEvent();
      expect(second).toMatchObject({ type: 'conversation.appeared', account: account.id, data: { participants: ['during@example.com'] } });
      expect(BigInt(second.id)).toBeGreaterThan(BigInt(first.id));
    } finally {
      process.kill(child.pid!, 'SIGTERM');
      await exited(child);
    }
    expect(child.signalCode ?? child.exitCode).not.toBeNull();

    // --after skips what was already seen.
    const events = (await (await fetch(`${server.url}/v1/events`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json()) as { events: { id: string }[] };
    const resumed = spawn(process.execPath, [paths.cli, 'tail', account.id, '--after', events.events[0]!.id, '--json'], { env: { ...process.env, ...server.storeEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const { value } = await createInterface({ input: resumed.stdout })[Symbol.asyncIterator]().next();
      expect(JSON.parse(value as string)).toEqual(events.events[1]);
    } finally {
      process.kill(resumed.pid!, 'SIGTERM');
      await exited(resumed);
    }
  });

  it('tail --after now prints none of the history, then what happens next', async () => {
    const account = await newAccount('tail-now');
    const key = await json('connector-keys', 'create', account.id);
    const { epoch } = (await takeLease(key.secret, 'tail-now-host')).body as { epoch: number };
    const appeared = async (externalId: string) => {
      const events = [{ type: 'conversation.appeared', externalId, conversationKind: 'direct', name: null, participants: [`${externalId}@example.com`] }];
      const res = await fetch(`${server.url}/v1/connector/platform-events`, { method: 'POST', headers: authorized(key.secret), body: JSON.stringify({ epoch, events }) });
      expect(res.status).toBe(200);
    };
    await appeared('history');
    const child = spawn(process.execPath, [paths.cli, 'tail', account.name, '--after', 'now', '--json'], { env: { ...process.env, ...server.storeEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      // It says where it starts before it reads anything.
      const [started] = (await once(child.stderr, 'data')) as [Buffer];
      expect(started.toString()).toContain(`following ${account.name}'s stream after`);
      await appeared('next');
      const { value } = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
      expect(JSON.parse(value as string)).toMatchObject({ type: 'conversation.appeared', data: { participants: ['next@example.com'] } });
    } finally {
      process.kill(child.pid!, 'SIGTERM');
      await exited(child);
    }
  });

  it('tail --after must be an event id', async () => {
    const account = await newAccount('tail-bad');
    const run = await cli('tail', account.name, '--after', 'yesterday');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--after takes an event id or now');
  });
});

describe('line policies', () => {
  const off = { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false };
  /** `policies <account> --json`: the policies, without what they count now. */
  const policiesOf = async (name: string) => {
    const { usage, ...policies } = await json('policies', name);
    expect(usage).toMatchObject({ newContacts: expect.any(Object), quietHours: expect.any(Object), held: expect.any(Object) });
    return policies;
  };

  it('policies shows each policy as its limit or off, and what they count now; policies set changes only the named ones', { timeout: 120_000 }, async () => {
    const account = await newAccount('policies');
    expect(await json('policies', account.name)).toEqual({ ...off, usage: noUsage });
    const shown = await cli('policies', account.name);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/POLICY\s+LIMIT/);
    for (const policy of ['new-contacts-per-hour', 'new-contacts-per-day', 'pacing-per-minute', 'loop-breaker', 'quiet-hours', 'first-contact-approval']) expect(shown.stdout).toMatch(new RegExp(`${policy}\\s+off`));
    expect(shown.stdout).toMatch(/new contacts\s+0 in the last hour, 0 in the last day/);
    expect(shown.stdout).toMatch(/quiet hours\s+not quiet now/);
    expect(shown.stdout).toMatch(/held\s+nothing/);

    expect(await json('policies', 'set', account.name, '--pacing-per-minute', '10', '--new-contacts-per-day', '50')).toEqual({
      ...off, newContacts: { perHour: null, perDay: 50 }, pacing: { perMinute: 10 },
    });
    // What was not named stays as it was.
    const set = await cli('policies', 'set', account.id, '--loop-breaker', '8', '--new-contacts-per-hour', '15');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`line policies of ${account.name} set`);
    expect(set.stdout).toMatch(/new-contacts-per-hour\s+15/);
    expect(set.stdout).toMatch(/new-contacts-per-day\s+50/);
    expect(set.stdout).toMatch(/pacing-per-minute\s+10/);
    expect(set.stdout).toMatch(/loop-breaker\s+8/);
    const all = { ...off, newContacts: { perHour: 15, perDay: 50 }, pacing: { perMinute: 10 }, loopBreaker: { maxUnanswered: 8 } };
    expect(await policiesOf(account.name)).toEqual(all);
    // "off" turns one off; both windows off turns the new-contact budget off.
    expect(await json('policies', 'set', account.name, '--pacing-per-minute', 'off')).toEqual({ ...all, pacing: null });
    expect(await json('policies', 'set', account.name, '--new-contacts-per-hour', 'off', '--new-contacts-per-day', 'off')).toEqual({ ...all, newContacts: null, pacing: null });
  });

  it('a limit that is not a whole number of at least 1, no policy named, or a limit over the maximum: exit 2 with a clear message, nothing changes', { timeout: 120_000 }, async () => {
    const account = await newAccount('policies-usage');
    await json('policies', 'set', account.name, '--loop-breaker', '8');
    const cases: [string[], string, string][] = [
      [['policies', 'set', account.name, '--pacing-per-minute', '0'], 'usage', '--pacing-per-minute takes a whole number of at least 1, or "off" (not "0")'],
      [['policies', 'set', account.name, '--loop-breaker', '2.5'], 'usage', '--loop-breaker takes a whole number'],
      [['policies', 'set', account.name, '--new-contacts-per-day', 'ten'], 'usage', '--new-contacts-per-day takes a whole number'],
      [['policies', 'set', account.name, '--new-contacts-per-hour=-3'], 'usage', '--new-contacts-per-hour takes a whole number'],
      [['policies', 'set', account.name], 'usage', 'at least one of --new-contacts-per-hour'],
      [['policies', account.name, '--pacing-per-minute', '5'], 'usage', 'belongs to: switchboard policies set'],
      [['policies', 'set', account.name, '--pacing-per-minute'], 'usage', '--pacing-per-minute'],
      [['policies', 'set', account.name, '--pacing-per-minute', '601'], 'invalid_body', 'pacing.perMinute'],
      [['policies', 'set', 'nobody-here', '--pacing-per-minute', '5'], 'account_not_found', 'no account "nobody-here"'],
      [['policies'], 'usage', 'name an account'],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
    for (const [i, run] of runs.entries()) {
      const [args, code, message] = cases[i]!;
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stdout).toBe('');
      expect(JSON.parse(run.stderr), args.join(' ')).toEqual({ error: code, message: expect.stringContaining(message) });
    }
    const human = await cli('policies', 'set', account.name, '--pacing-per-minute', '0');
    expect(human.stderr).toContain('error: --pacing-per-minute takes a whole number of at least 1');
    expect(human.stderr).toContain('switchboard --help');
    expect(await policiesOf(account.name)).toEqual({ ...off, loopBreaker: { maxUnanswered: 8 } });
  });

  it('policies set turns quiet hours (with time zones) and first-contact approval on and off, keeping the others', { timeout: 120_000 }, async () => {
    const account = await newAccount('hold-policies');
    const [dm, group] = ['0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5b', '0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5c'];
    await json('policies', 'set', account.name, '--loop-breaker', '8');
    const set = await cli('policies', 'set', account.name, '--quiet-hours', '21:00-08:00', '--time-zone', 'Europe/Paris', '--conversation-time-zone', `${dm}=America/New_York`,
      '--conversation-time-zone', `${group.toUpperCase()}=Asia/Tokyo`, '--first-contact-approval', 'on');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/quiet-hours\s+21:00-08:00 Europe\/Paris/);
    expect(set.stdout).toMatch(/first-contact-approval\s+on/);
    expect(set.stdout).toMatch(/loop-breaker\s+8/);
    expect(set.stdout).toContain(`${dm}  America/New_York`);
    const held = { ...off, loopBreaker: { maxUnanswered: 8 }, quietHours: { from: '21:00', until: '08:00', timeZone: 'Europe/Paris', conversationTimeZones: { [dm]: 'America/New_York', [group]: 'Asia/Tokyo' } }, firstContactApproval: true };
    expect(await policiesOf(account.name)).toEqual(held);
    // A limit changed keeps the hold policies; the window, the zone and a conversation's zone change alone.
    expect(await json('policies', 'set', account.name, '--pacing-per-minute', '10')).toEqual({ ...held, pacing: { perMinute: 10 } });
    expect(await json('policies', 'set', account.name, '--quiet-hours', '22:30-07:00', '--conversation-time-zone', `${group}=off`)).toEqual({
      ...held, pacing: { perMinute: 10 }, quietHours: { from: '22:30', until: '07:00', timeZone: 'Europe/Paris', conversationTimeZones: { [dm]: 'America/New_York' } },
    });
    expect(await json('policies', 'set', account.name, '--time-zone', 'UTC', '--first-contact-approval', 'off')).toEqual({
      ...held, pacing: { perMinute: 10 }, quietHours: { from: '22:30', until: '07:00', timeZone: 'UTC', conversationTimeZones: { [dm]: 'America/New_York' } }, firstContactApproval: false,
    });
    expect(await json('policies', 'set', account.name, '--quiet-hours', 'off')).toEqual({ ...off, loopBreaker: { maxUnanswered: 8 }, pacing: { perMinute: 10 } });
  });

  it('a hold option that does not fit: exit 2 with a clear message, nothing changes', { timeout: 120_000 }, async () => {
    const account = await newAccount('hold-usage');
    const cases: [string[], string, string][] = [
      [['policies', 'set', account.name, '--quiet-hours', '9-17', '--time-zone', 'UTC'], 'usage', '--quiet-hours takes a window from-until in 24-hour local time'],
      [['policies', 'set', account.name, '--quiet-hours', '21:00-08:00'], 'usage', '--quiet-hours needs --time-zone the first time'],
      [['policies', 'set', account.name, '--time-zone', 'UTC'], 'usage', '--time-zone and --conversation-time-zone need quiet hours on'],
      [['policies', 'set', account.name, '--quiet-hours', '21:00-08:00', '--time-zone', 'Mars/Olympus'], 'invalid_body', 'quietHours.timeZone'],
      [['policies', 'set', account.name, '--quiet-hours', '08:00-08:00', '--time-zone', 'UTC'], 'invalid_body', 'from and until are the same time'],
      [['policies', 'set', account.name, '--quiet-hours', '21:00-08:00', '--time-zone', 'UTC', '--conversation-time-zone', 'dm=UTC'], 'usage', '--conversation-time-zone takes <conversationId>=<time zone>'],
      [['policies', 'set', account.name, '--first-contact-approval', 'yes'], 'usage', '--first-contact-approval takes on or off'],
      [['policies', account.name, '--first-contact-approval', 'on'], 'usage', 'belongs to: switchboard policies set'],
      [['policies', account.name, '--conversation', 'dm'], 'usage', '--conversation takes a conversation id'],
      [['held', account.name, '--reason', 'no'], 'usage', '--reason belongs to: switchboard reject'],
      [['held'], 'usage', 'name an account'],
      [['held', 'nobody-here'], 'account_not_found', 'no account "nobody-here"'],
      [['release'], 'usage', 'release <commandId>'],
      [['reject'], 'usage', 'reject <commandId>'],
      [['release', 'a', 'b'], 'usage', 'release takes one command id'],
      [['release', 'not-a-command'], 'command_not_found', 'no command "not-a-command"'],
      [['reject', '0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5b'], 'command_not_found', 'no command "0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5b"'],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
    for (const [i, run] of runs.entries()) {
      const [args, code, message] = cases[i]!;
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stdout).toBe('');
      expect(JSON.parse(run.stderr), args.join(' ')).toEqual({ error: code, message: expect.stringContaining(message) });
    }
    expect(await policiesOf(account.name)).toEqual(off);
  });

  it('first-contact approval: held lists the held first contacts, release lets one go, reject settles one failed; a command not held is command_not_held', { timeout: 120_000 }, async () => {
    const account = await sendingAccount('approval');
    await json('policies', 'set', account.name, '--first-contact-approval', 'on');
    await account.lease();
    const first = await sendText(account.apiKey, { kind: 'recipient', recipientExternalId: '+14155550181' });
    const second = await sendText(account.apiKey, { kind: 'recipient', recipientExternalId: 'stranger@example.com' });
    for (const sent of [first, second]) {
      expect(sent.status).toBe(202);
      expect(sent.body).toMatchObject({ status: 'held' });
    }

    const held = await json<any[]>('held', account.name);
    expect(held.map((c) => c.commandId)).toEqual([second.body.commandId, first.body.commandId]);
    expect(held[0]).toMatchObject({ accountId: account.id, type: 'message.send', status: 'held', heldBy: 'firstContactApproval', target: { kind: 'recipient', recipientExternalId: 'stranger@example.com' } });
    const listed = await cli('held', account.name);
    expect(listed.stdout).toMatch(/^ID\s+TYPE\s+HELD BY\s+TARGET\s+ACCEPTED/);
    expect(listed.stdout).toMatch(new RegExp(`${first.body.commandId}\\s+message.send\\s+first-contact-approval\\s+to \\+14155550181\\s+\\d{4}-`));
    expect((await json('policies', account.name)).usage).toEqual({ ...noUsage, newContacts: { lastHour: 2, lastDay: 2 }, held: { quietHours: 0, firstContactApproval: 2 } });
    expect((await cli('policies', account.name)).stdout).toMatch(/held\s+0 by quiet hours, 2 by first-contact approval \(switchboard held /);

    const released = await cli('release', first.body.commandId);
    expect(released.code, released.stderr).toBe(0);
    expect(released.stdout).toContain(`released ${first.body.commandId} (message.send): queued`);
    const command = await (await fetch(`${server.url}/v1/commands/${first.body.commandId}`, { headers: authorized(account.apiKey) })).json() as any;
    expect(command).toMatchObject({ heldBy: null, history: [{ status: 'held' }, { status: 'queued' }] });
    expect(command.status).not.toBe('held');

    const rejected = await json('reject', second.body.commandId, '--reason', 'not a customer');
    expect(rejected.command).toMatchObject({ commandId: second.body.commandId, status: 'failed', errorCode: 'first_contact_rejected', errorMessage: expect.stringContaining('not a customer'), heldBy: null });
    expect(rejected.timeline.map((step: any) => step.kind)).toEqual(expect.arrayContaining(['accepted', 'held', 'settled']));
    expect(await json('held', account.name)).toEqual([]);
    expect((await cli('held', account.name)).stdout).toContain(`${account.name} has no held commands`);
    // The rejected first contact gave its unit back.
    expect((await json('policies', account.name)).usage).toMatchObject({ newContacts: { lastHour: 1, lastDay: 1 }, held: { quietHours: 0, firstContactApproval: 0 } });

    for (const [verb, id] of [['release', first.body.commandId], ['reject', second.body.commandId]]) {
      const again = await cli(verb!, id!, '--json');
      expect(again.code, again.stderr).toBe(2);
      expect(JSON.parse(again.stderr)).toEqual({ error: 'command_not_held', message: expect.stringContaining(`command ${id} is not held`) });
    }
    const human = await cli('release', first.body.commandId);
    expect(human.stderr).toContain('error: command');
    expect(human.stderr).toContain('is not held');
  });

  it('quiet hours: policies says it is quiet and until when; a held command is rejected as quiet_hours_rejected', { timeout: 120_000 }, async () => {
    const account = await sendingAccount('quiet');
    await json('policies', 'set', account.name, '--quiet-hours', quietNow(), '--time-zone', 'UTC');
    await account.lease();
    const sent = await sendText(account.apiKey);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ status: 'held' });
    const { usage } = await json('policies', account.name);
    expect(usage.quietHours).toEqual({ quiet: true, opensAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/) });
    expect(Date.parse(usage.quietHours.opensAt) - Date.now()).toBeGreaterThan(3_000_000);
    expect(usage.held).toEqual({ quietHours: 1, firstContactApproval: 0 });
    expect((await cli('policies', account.name)).stdout).toMatch(new RegExp(`quiet hours\\s+quiet now, opens at ${usage.quietHours.opensAt}`));
    expect((await json<any[]>('held', account.name)).map((c) => [c.commandId, c.heldBy])).toEqual([[sent.body.commandId, 'quietHours']]);
    const rejected = await cli('reject', sent.body.commandId);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toContain(`rejected ${sent.body.commandId} (message.send): failed quiet_hours_rejected; nothing was sent`);
    const command = await (await fetch(`${server.url}/v1/commands/${sent.body.commandId}`, { headers: authorized(account.apiKey) })).json() as any;
    expect(command).toMatchObject({ status: 'failed', errorCode: 'quiet_hours_rejected', errorMessage: 'rejected by an operator' });
  });

  it('policies --conversation adds what pacing and the loop breaker count for that conversation', { timeout: 120_000 }, async () => {
    const account = await newAccount('usage-conversation');
    const conversationId = '0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5b';
    const { usage } = await json('policies', account.name, '--conversation', conversationId);
    expect(usage).toEqual({ ...noUsage, conversation: { conversationId, sendsLastMinute: 0, unanswered: 0 } });
    expect((await cli('policies', account.name, '--conversation', conversationId)).stdout).toMatch(new RegExp(`conversation\\s+${conversationId}: 0 sends in the last minute, 0 in a row with no reply`));
  });
});

describe('transfer limits', () => {
  const defaults = { maxBytes: 100_000_000, allowedTypes: ['image/*', 'video/*', 'audio/*', 'application/pdf', 'text/plain', 'text/vcard'] };

  it('transfer-limits shows the defaults; set changes the named limit and keeps the other; the admin API answers what it stored', { timeout: 120_000 }, async () => {
    const account = await newAccount('transfer-limits');
    expect(await json('transfer-limits', account.name)).toEqual({ accountId: account.id, ...defaults });
    const shown = await cli('transfer-limits', account.name);
    expect(shown.stdout).toMatch(/max bytes\s+100,000,000/);
    expect(shown.stdout).toMatch(/allowed types\s+image\/\*, video\/\*/);
    const set = await cli('transfer-limits', 'set', account.name, '--max-bytes', '2048');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/max bytes\s+2,048/);
    expect(await json('transfer-limits', 'set', account.id, '--types', 'application/pdf, image/png')).toEqual({ accountId: account.id, maxBytes: 2048, allowedTypes: ['application/pdf', 'image/png'] });
    // What the admin API answers is what the CLI stored.
    const key = await json<{ secret: string }>('operator-keys', 'create', '--label', 'cli-transfer-limits');
    const stored = await fetch(`${server.url}/v1/admin/accounts/${account.id}/transfer-limits`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(await stored.json()).toEqual({ maxBytes: 2048, allowedTypes: ['application/pdf', 'image/png'] });
    expect(await json('transfer-limits', 'set', account.name, '--types', 'none')).toEqual({ accountId: account.id, maxBytes: 2048, allowedTypes: [] });
    expect((await cli('transfer-limits', account.name)).stdout).toContain('none (every upload is refused)');
  });

  it('a limit that does not fit: exit 2 with a clear message, nothing changes', { timeout: 120_000 }, async () => {
    const account = await newAccount('transfer-limits-bad');
    const cases: [string[], string, string][] = [
      [['transfer-limits', 'set', account.name], 'usage', 'transfer-limits set <account> and --max-bytes'],
      [['transfer-limits', 'set', account.name, '--max-bytes', '1.5'], 'usage', '--max-bytes takes a whole number of bytes'],
      [['transfer-limits', 'set', account.name, '--types', ''], 'usage', '--types takes media types separated by commas'],
      [['transfer-limits', 'set', account.name, '--types', ' , '], 'usage', '--types takes media types separated by commas'],
      [['transfer-limits', 'set', account.name, '--max-bytes', '0'], 'invalid_body', 'maxBytes'],
      [['transfer-limits', 'set', account.name, '--max-bytes', '100000001'], 'invalid_body', 'maxBytes'],
      [['transfer-limits', 'set', account.name, '--types', 'Image/PNG'], 'invalid_body', 'allowedTypes'],
      [['transfer-limits', account.name, '--types', 'image/*'], 'usage', 'belongs to: switchboard transfer-limits set'],
      [['transfer-limits', 'set', 'nobody-here', '--max-bytes', '5'], 'account_not_found', 'no account "nobody-here"'],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
    for (const [i, run] of runs.entries()) {
      const [args, code, message] = cases[i]!;
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(JSON.parse(run.stderr), args.join(' ')).toEqual({ error: code, message: expect.stringContaining(message) });
    }
    expect(await json('transfer-limits', account.name)).toEqual({ accountId: account.id, ...defaults });
  });
});

describe('remote mode (--url, with an operator key)', () => {
  /** Runs the CLI away from the store: no store in its environment, only the server's URL and the key. */
  function remote(key: string | undefined, ...args: string[]): Promise<Run> {
    return new Promise((resolve, reject) => {
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', SWITCHBOARD_DATABASE_URL: undefined, SWITCHBOARD_DATA_DIR: '/nonexistent-store', SWITCHBOARD_OPERATOR_KEY: key };
      const child = spawn(process.execPath, [paths.cli, ...args, '--url', server.url], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }
  const remoteJson = async <T = any>(key: string, ...args: string[]): Promise<T> => {
    const run = await remote(key, ...args, '--json');
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as T;
  };
  let full: { id: string; secret: string };
  let readOnly: { id: string; secret: string };
  beforeAll(async () => {
    full = await json('operator-keys', 'create', '--label', 'cli-remote');
    readOnly = await json('operator-keys', 'create', '--label', 'cli-remote-ro', '--role', 'read-only');
  });

  it('operator-keys create prints a key once, of the role asked for; list shows it without its secret', async () => {
    expect(full).toMatchObject({ role: 'full', label: 'cli-remote', secret: expect.stringMatching(/^sbo_/) });
    expect(readOnly).toMatchObject({ role: 'read-only' });
    const listed = await json<any[]>('operator-keys', 'list');
    expect(listed.find((k) => k.id === full.id)).toEqual({ id: full.id, role: 'full', prefix: full.secret.slice(0, 10), label: 'cli-remote', createdAt: expect.any(String), revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(full.secret);
    const bad = await cli('operator-keys', 'create', '--role', 'admin');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role is full or read-only');
  });

  it('does what the direct mode does, with the same output, through the admin API', { timeout: 120_000 }, async () => {
    const name = uniqueName('remote');
    const created = await remoteJson(full.secret, 'accounts', 'create', name);
    expect(created).toMatchObject({ name, outboundPaused: false });
    // The same listing either way. Earlier tests' hosts hold leases until their TTL ends, and one
    // that ends between the two listings is live in one and not in the other: such a pair is taken again.
    const listings = () => Promise.all([json<any[]>('accounts', 'list'), remoteJson<any[]>(full.secret, 'accounts', 'list')]);
    let [direct, viaApi] = await listings();
    for (let again = 0; again < 3 && !isDeepStrictEqual(viaApi, direct); again++) [direct, viaApi] = await listings();
    expect(viaApi).toEqual(direct);
    expect(viaApi.find((a) => a.name === name)).toEqual({ ...created, host: null });

    const apiKey = await remoteJson(full.secret, 'keys', 'create', name, '--label', 'remote bot');
    expect(apiKey).toMatchObject({ kind: 'account', label: 'remote bot', secret: expect.stringMatching(/^sb_/) });
    const connectorKey = await remoteJson(full.secret, 'connector-keys', 'create', created.id);
    expect((await takeLease(connectorKey.secret, 'remote-host')).status).toBe(200);
    const hosts = await remoteJson<any[]>(full.secret, 'hosts');
    expect(hosts.find((h) => h.accountId === created.id)).toMatchObject({ hostId: 'remote-host', live: true, accountName: name });

    await remoteJson(full.secret, 'pause', name);
    expect((await sendText(apiKey.secret)).body.error).toBe('outbound_paused');
    await remoteJson(full.secret, 'resume', name);
    // The lease is not renewed here: on a slow machine it may have expired since; the host takes it again.
    expect((await takeLease(connectorKey.secret, 'remote-host')).status).toBe(200);
    expect((await sendText(apiKey.secret)).status).toBe(202);

    expect((await remoteJson<any[]>(full.secret, 'keys', 'list', name)).map((k) => k.kind).sort()).toEqual(['account', 'connector']);
    await remoteJson(full.secret, 'keys', 'revoke', apiKey.id);
    expect((await sendText(apiKey.secret)).status).toBe(401);
    expect(await remoteJson(full.secret, 'webhooks', 'list', name)).toEqual([]);
    // Line policies: the same merge through the admin API, the same output as the direct mode.
    await remoteJson(full.secret, 'policies', 'set', name, '--pacing-per-minute', '10');
    const policies = await remoteJson(full.secret, 'policies', 'set', name, '--loop-breaker', '8');
    expect(policies).toEqual({ newContacts: null, pacing: { perMinute: 10 }, loopBreaker: { maxUnanswered: 8 }, quietHours: null, firstContactApproval: false });
    expect(await remoteJson(full.secret, 'policies', name)).toEqual(await json('policies', name));
    expect((await remote(full.secret, 'policies', name)).stdout).toBe((await cli('policies', name)).stdout);
    expect(await remoteJson(full.secret, 'transfer-limits', 'set', name, '--max-bytes', '4096')).toMatchObject({ maxBytes: 4096 });
    expect(await json('transfer-limits', name)).toMatchObject({ maxBytes: 4096 });

    // Each change is in the audit log under the key that made it; a change made where the store is, under none.
    await json('pause', name);
    const audit = (await (await fetch(`${server.url}/v1/admin/audit?limit=20`, { headers: { authorization: `Bearer ${full.secret}` } })).json()) as { records: any[] };
    const mine = audit.records.filter((r) => r.accountId === created.id).map((r) => [r.action, r.operatorKeyId]);
    expect(mine).toEqual([
      ['account.pause', null], ['account.transfer_limits', full.id], ['account.policies', full.id], ['account.policies', full.id], ['key.revoke', full.id], ['account.resume', full.id], ['account.pause', full.id], ['key.create', full.id], ['key.create', full.id], ['account.create', full.id],
    ]);
  });

  it('hold policies, held, release and reject: the same through the admin API, each change audited under the key', { timeout: 120_000 }, async () => {
    const account = await sendingAccount('remote-holds');
    const set = await remoteJson(full.secret, 'policies', 'set', account.name, '--first-contact-approval', 'on', '--quiet-hours', '21:00-08:00', '--time-zone', 'Europe/Paris');
    expect(set).toMatchObject({ firstContactApproval: true, quietHours: { from: '21:00', until: '08:00', timeZone: 'Europe/Paris', conversationTimeZones: {} } });
    // Quiet hours off again, so only first-contact approval holds (whatever the time of day).
    await remoteJson(full.secret, 'policies', 'set', account.name, '--quiet-hours', 'off');
    await account.lease();
    const [first, second] = [await sendText(account.apiKey, { kind: 'recipient', recipientExternalId: '+14155550191' }), await sendText(account.apiKey, { kind: 'recipient', recipientExternalId: '+14155550192' })];
    expect([first.body.status, second.body.status]).toEqual(['held', 'held']);

    const [direct, viaApi] = await Promise.all([json<any[]>('held', account.name), remoteJson<any[]>(full.secret, 'held', account.name)]);
    expect(viaApi).toEqual(direct);
    expect(viaApi.map((c) => c.commandId)).toEqual([second.body.commandId, first.body.commandId]);
    expect((await remote(full.secret, 'held', account.name)).stdout).toBe((await cli('held', account.name)).stdout);
    const usage = (await remoteJson(readOnly.secret, 'policies', account.name)).usage;
    expect(usage.held).toEqual({ quietHours: 0, firstContactApproval: 2 });

    // A read-only key sees them, and may not release or reject.
    expect(await remoteJson(readOnly.secret, 'held', account.name)).toHaveLength(2);
    for (const verb of ['release', 'reject']) {
      const refused = await remote(readOnly.secret, verb, first.body.commandId, '--json');
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stderr).error).toBe('forbidden');
    }

    const released = await remoteJson(full.secret, 'release', first.body.commandId);
    expect(released.command).toMatchObject({ commandId: first.body.commandId, heldBy: null });
    expect(released.command.status).not.toBe('held');
    expect(released.timeline.map((step: any) => step.kind)).toEqual(expect.arrayContaining(['accepted', 'held', 'released']));
    const rejected = await remoteJson(full.secret, 'reject', second.body.commandId, '--reason', 'wrong number');
    expect(rejected.command).toMatchObject({ status: 'failed', errorCode: 'first_contact_rejected', errorMessage: expect.stringContaining('wrong number') });
    const withoutReason = await remote(full.secret, 'reject', first.body.commandId, '--json');
    expect(withoutReason.code).toBe(2);
    expect(JSON.parse(withoutReason.stderr)).toEqual({ error: 'command_not_held', message: expect.stringContaining('is not held') });
    expect(await remoteJson(full.secret, 'held', account.name)).toEqual([]);

    const audit = (await (await fetch(`${server.url}/v1/admin/audit?limit=20`, { headers: { authorization: `Bearer ${full.secret}` } })).json()) as { records: any[] };
    expect(audit.records.filter((r) => r.accountId === account.id && r.action.startsWith('command.')).map((r) => [r.action, r.subject, r.operatorKeyId])).toEqual([
      ['command.reject', second.body.commandId, full.id], ['command.release', first.body.commandId, full.id],
    ]);
  });

  it('tail follows the stream over the admin API until interrupted', async () => {
    const account = await newAccount('remote-tail');
    const key = await json('connector-keys', 'create', account.id);
    const { epoch } = (await takeLease(key.secret, 'remote-tail-host')).body as { epoch: number };
    const env = { ...process.env, SWITCHBOARD_OPERATOR_KEY: full.secret, SWITCHBOARD_DATA_DIR: '/nonexistent-store' };
    const child = spawn(process.execPath, [paths.cli, 'tail', account.name, '--after', 'now', '--json', '--url', server.url], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [started] = (await once(child.stderr, 'data')) as [Buffer];
      expect(started.toString()).toContain(`following ${account.name}'s stream after`);
      const events = [{ type: 'conversation.appeared', externalId: 'remote', conversationKind: 'direct', name: null, participants: ['remote@example.com'] }];
      const res = await fetch(`${server.url}/v1/connector/platform-events`, { method: 'POST', headers: authorized(key.secret), body: JSON.stringify({ epoch, events }) });
      expect(res.status).toBe(200);
      const { value } = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
      expect(eventSchemas.zStreamEvent.parse(JSON.parse(value as string))).toMatchObject({ type: 'conversation.appeared', account: account.id });
    } finally {
      process.kill(child.pid!, 'SIGTERM');
      await exited(child);
    }
    expect(child.exitCode).toBe(0);
  });

  it('says what is wrong: no key, a wrong key, a read-only key asked to change, no server, migrate, a name that is not there', { timeout: 120_000 }, async () => {
    const cases: [string | undefined, string[], string, number][] = [
      [undefined, ['accounts', 'list'], 'usage', 2],
      ['sbo_not-a-key', ['accounts', 'list'], 'unauthenticated', 1],
      [readOnly.secret, ['accounts', 'create', uniqueName('ro')], 'forbidden', 1],
      [full.secret, ['migrate'], 'usage', 2],
      [full.secret, ['pause', 'nobody-here'], 'account_not_found', 2],
      [full.secret, ['keys', 'revoke', 'no-such-key'], 'key_not_found', 2],
      [full.secret, ['accounts', 'create', 'has spaces'], 'invalid_body', 2],
      [full.secret, ['policies', 'set', 'nobody-here', '--loop-breaker', '3'], 'account_not_found', 2],
      [full.secret, ['policies', 'set', 'nobody-here', '--quiet-hours', '25:00-08:00'], 'usage', 2],
      [full.secret, ['held', 'nobody-here'], 'account_not_found', 2],
      [full.secret, ['release', '0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5b'], 'command_not_found', 2],
      [full.secret, ['reject', 'not-a-command', '--reason', 'no'], 'command_not_found', 2],
    ];
    const runs = await Promise.all(cases.map(([key, args]) => remote(key, ...args, '--json')));
    for (const [i, run] of runs.entries()) {
      const [, args, code, exit] = cases[i]!;
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(exit);
      expect(JSON.parse(run.stderr), args.join(' ')).toEqual({ error: code, message: expect.any(String) });
    }
    // A read-only key reads, line policies too.
    expect((await remoteJson<any[]>(readOnly.secret, 'accounts', 'list')).length).toBeGreaterThan(0);
    const account = await newAccount('remote-ro-policies');
    expect(await remoteJson(readOnly.secret, 'policies', account.name)).toEqual({ newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false, usage: noUsage });
    const refused = await remote(readOnly.secret, 'policies', 'set', account.name, '--loop-breaker', '3', '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toBe('forbidden');
    // No server there: a port that was free a moment ago.
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise((done) => probe.close(done));
    const env = { ...process.env, SWITCHBOARD_OPERATOR_KEY: full.secret };
    const child = spawn(process.execPath, [paths.cli, 'hosts', '--json', '--url', `http://127.0.0.1:${port}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await exited(child);
    expect(child.exitCode).toBe(1);
    expect(JSON.parse(stderr)).toEqual({ error: 'unreachable', message: expect.stringContaining('ECONNREFUSED') });
    // A revoked operator key is refused at once.
    await json('operator-keys', 'revoke', readOnly.id);
    const revoked = await remote(readOnly.secret, 'accounts', 'list', '--json');
    expect(revoked.code).toBe(1);
    expect(JSON.parse(revoked.stderr).error).toBe('unauthenticated');
  });
});
