import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HostLoop } from '../support/host.ts';
import { Child } from '../support/process.ts';
import { readyAccount, startService, type ReadyAccount, type Service } from '../support/service.ts';

const examples = resolve(import.meta.dirname, '../../examples');
let service: Service;
let a: ReadyAccount;
let loop: HostLoop;

beforeAll(async () => {
  service = await startService();
  a = await readyAccount(service.server);
  loop = new HostLoop(a.host);
});
afterAll(async () => {
  await loop.stop();
  await service.stop();
});

const env = () => ({ SWITCHBOARD_URL: service.server.url, SWITCHBOARD_API_KEY: a.apiKey });

/** The README's command that runs `examples/<name>`, as written. */
function documented(name: string): string {
  const readme = readFileSync(resolve(examples, '../README.md'), 'utf8');
  const line = readme.split('\n').find((l) => l.includes(`examples/${name}`) && l.startsWith('npx'));
  if (!line) throw new Error(`the README shows no command for examples/${name}`);
  return line.replace(/\s+#.*$/, '');
}

describe('examples/send-every-kind.ts', () => {
  it("sends every message kind and prints how each settled, run by the README's command as written", async () => {
    // `pnpm exec` runs it on the Node the checkout pins, whatever `node` the user's PATH has.
    const command = documented('send-every-kind.ts');
    expect(command).toMatch(/^npx -y pnpm@[\d.]+ exec node examples\/send-every-kind\.ts "\$DM"$/);
    const child = new Child('-c', [command], { ...env(), DM: a.direct.conversationId }, resolve(examples, '..'), 'bash');
    expect(await child.exit(), child.stderr.join('')).toBe(0);
    expect(child.lines.map((l) => [(l as { kind: string }).kind, (l as { status: string }).status, (l as { errorCode: string | null }).errorCode])).toEqual([
      ['text', 'succeeded', null],
      ['rich_text', 'succeeded', null],
      ['rich_link', 'succeeded', null],
      ['poll', 'succeeded', null],
      ['attachment', 'failed', 'transfer_unavailable'],
      ['sticker', 'failed', 'transfer_unavailable'],
    ]);
  });
});

describe('examples/agent.ts', () => {
  it('keeps its cursor outside the checkout by default', async () => {
    const state = mkdtempSync(join(tmpdir(), 'switchboard-state-'));
    try {
      const agent = new Child(join(examples, 'agent.ts'), [], { ...env(), XDG_STATE_HOME: state }, examples);
      const listening = await agent.line<{ cursorFile: string }>((l) => l.msg === 'agent listening');
      expect(listening.cursorFile).toBe(join(state, 'switchboard-agent/cursor'));
      await a.host.received(a.direct.externalId, 'where am I kept?', 'inbound-state');
      await agent.line((l) => l.msg === 'replied');
      expect(await agent.stop()).toBe(0);
      expect(readFileSync(listening.cursorFile, 'utf8')).toMatch(/^\d+$/);
      expect(existsSync(join(examples, '.agent-cursor'))).toBe(false);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('replies to each inbound message once, threaded under it, and resumes after a restart without replying twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-agent-'));
    const cursorFile = join(dir, 'cursor');
    try {
      let agent = new Child(join(examples, 'agent.ts'), [], { ...env(), SWITCHBOARD_CURSOR_FILE: cursorFile }, examples);
      await agent.line((l) => l.msg === 'agent listening');
      await a.host.received(a.direct.externalId, 'hello there', 'inbound-1');
      const first = await agent.line<{ commandId: string }>((l) => l.msg === 'replied');
      expect(await agent.stop()).toBe(0);

      const before = loop.executed.length;
      const saved = readFileSync(cursorFile, 'utf8');
      agent = new Child(join(examples, 'agent.ts'), [], { ...env(), SWITCHBOARD_CURSOR_FILE: cursorFile }, examples);
      const listening = await agent.line<{ after: string }>((l) => l.msg === 'agent listening');
      expect(listening.after).toBe(saved);
      await a.host.received(a.direct.externalId, 'second', 'inbound-2');
      const second = await agent.line<{ commandId: string }>((l) => l.msg === 'replied');
      expect(await agent.stop()).toBe(0);
      await loop.handled(before + 1);

      const replies = loop.executed.filter((c) => c.commandId === first.commandId || c.commandId === second.commandId);
      expect(replies.map((c) => [c.logicalActionId, c.payload])).toEqual([
        ['reply-inbound-1', { kind: 'rich_text', text: 'You said: hello there', replyToMessageExternalId: 'inbound-1' }],
        ['reply-inbound-2', { kind: 'rich_text', text: 'You said: second', replyToMessageExternalId: 'inbound-2' }],
      ]);
      // The restarted agent answered only the new message.
      expect(agent.lines.filter((l) => (l as { msg?: string }).msg === 'replied')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
