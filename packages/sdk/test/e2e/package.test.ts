/**
 * The packages as a team would get them: `pnpm pack` the contracts and the SDK (what the
 * registry would receive), install the tarballs into a scratch project outside the workspace
 * with npm, compile a consumer with tsc and run it against the real server, on the current Node
 * and on the oldest Node the engines field allows (20.19.0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brokenSourceMaps, ensureBuilt, packPackage } from '@switchboard/tooling/pack';
import { HostLoop } from '../support/host.ts';
import { readmeBlocks } from '../support/readme.ts';
import { readyAccount, startService, type ReadyAccount, type Service } from '../support/service.ts';

const run = promisify(execFile);
const packages = resolve(import.meta.dirname, '../../..');
const OLDEST_NODE = '20.19.0';

const consumer = `
import { SwitchboardClient, SwitchboardError, PayloadValidationError, errorCatalog, type StreamItem } from '@switchboard/sdk';
import { commandTypes } from '@switchboard/contracts';

const baseUrl = process.env.SWITCHBOARD_URL!;
const apiKey = process.env.SWITCHBOARD_API_KEY!;
const conversationId = process.argv[2]!;
const client = new SwitchboardClient({ baseUrl, apiKey });

const acknowledgement = await client.sendMessage({ target: { kind: 'conversation', conversationId }, payload: { kind: 'poll', question: 'Ship it?', options: ['yes', 'no'] } });
const outcome = await client.settled(acknowledgement.commandId, { timeoutMs: 10_000 });

let seen: StreamItem | undefined;
for await (const event of client.events({ after: '0' })) {
  if (event.type === 'command.settled' && event.data.commandId === acknowledgement.commandId) {
    seen = event;
    break;
  }
}

let code: string | undefined;
try {
  await client.getConversation('0190b7a4-0000-7000-8000-00000000dead');
} catch (error) {
  if (error instanceof SwitchboardError) code = error.code + ':' + errorCatalog[error.code].retry;
}

let invalid: string | undefined;
try {
  const strict = new SwitchboardClient({ baseUrl, apiKey, validate: true });
  await strict.sendMessage({ target: { kind: 'conversation', conversationId }, payload: JSON.parse('{"kind":"poll","question":"?","options":["only one"]}') });
} catch (error) {
  if (error instanceof PayloadValidationError) invalid = error.issues.map((i) => i.path).join(',');
}

// A body typed unknown: checked against the schema (the zod chunk loads on demand), then sent.
let unchecked: string | undefined;
try {
  await client.sendCommand('message.send', JSON.parse('{"target":{"kind":"conversation","conversationId":"' + conversationId + '"},"payload":{"txt":"typo"}}'));
} catch (error) {
  if (error instanceof PayloadValidationError) unchecked = error.commandType;
}
const parsed = await client.sendCommand('message.send', JSON.parse('{"target":{"kind":"conversation","conversationId":"' + conversationId + '"},"payload":{"text":"checked"}}'));

console.log(JSON.stringify({ node: process.version, disposition: acknowledgement.disposition, outcome: outcome.status, streamed: seen?.type, code, invalid, unchecked, parsed: parsed.status, commandTypes: commandTypes.length }));
`;

// Must not compile: proves the types ship and are the spec's, not \`any\`.
const misuse = `
import { SwitchboardClient } from '@switchboard/sdk';
declare const client: SwitchboardClient;
void client.applyTapback({ target: { kind: 'conversation', conversationId: 'x' }, payload: { messageExternalId: 'm', tapback: 'wow' } });
`;

/**
 * The README's TypeScript blocks, each a module of its own, exactly as written: each is a whole
 * program (test/readme.test.ts checks the same against the SDK's source, in the workspace).
 */
function readmeSnippets(): string[] {
  return readmeBlocks().map((block) => block.code);
}

let scratch: string;
let service: Service;
let a: ReadyAccount;
let loop: HostLoop;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'switchboard-consumer-'));
  const tarballs: string[] = [];
  for (const name of ['contracts', 'sdk']) {
    ensureBuilt(join(packages, name));
    tarballs.push(packPackage(join(packages, name), scratch));
  }
  const project = join(scratch, 'app');
  mkdirSync(project);
  // The README's ESM setup: npm init's CommonJS package made a module.
  await run('npm', ['init', '-y'], { cwd: project });
  await run('npm', ['pkg', 'set', 'type=module'], { cwd: project });
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, outDir: 'dist', lib: ['es2022', 'dom'], types: ['node'], skipLibCheck: false }, files: ['consumer.ts'] }),
  );
  writeFileSync(join(project, 'consumer.ts'), consumer);
  writeFileSync(join(project, 'misuse.ts'), misuse);
  writeFileSync(join(project, 'tsconfig.misuse.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, files: ['misuse.ts'] }));
  const snippets = readmeSnippets().map((code, i) => {
    writeFileSync(join(project, `readme-${i + 1}.ts`), code);
    return `readme-${i + 1}.ts`;
  });
  // The README's snippets compile under what the README's `tsc --init --types node` turns on
  // (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, module nodenext), run below.
  writeFileSync(join(project, 'tsconfig.readme.json'), JSON.stringify({ extends: './tsconfig.init.json', compilerOptions: { noEmit: true, skipLibCheck: false }, files: snippets }));
  // The typescript and @types/node the workspace pins; Node 20.19.0 as an npm package (the `node` package fetches its binary from the registry).
  // Killed rather than left behind if the registry does not answer.
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, 'typescript@6.0.3', '@types/node@24.19.2', `node@${OLDEST_NODE}`], { cwd: project, timeout: 150_000 });
  const init = mkdtempSync(join(scratch, 'init-'));
  await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '--init', '--types', 'node'], { cwd: init });
  renameSync(join(init, 'tsconfig.json'), join(project, 'tsconfig.init.json'));

  service = await startService();
  a = await readyAccount(service.server);
  loop = new HostLoop(a.host);
}, 180_000);

afterAll(async () => {
  await loop?.stop();
  await service?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the packed tarballs, installed with npm outside the workspace', () => {
  const project = () => join(scratch, 'app');
  const tsc = () => join(project(), 'node_modules/typescript/bin/tsc');

  it('ship the sources their source maps and declaration maps name', () => {
    for (const name of ['contracts', 'sdk']) expect(brokenSourceMaps(join(project(), 'node_modules/@switchboard', name)), name).toEqual([]);
  });

  it('compile a consumer under strict settings, and reject a bad enum', async () => {
    await run(process.execPath, [tsc(), '-p', '.'], { cwd: project() });
    const failed = await run(process.execPath, [tsc(), '-p', 'tsconfig.misuse.json', '--pretty', 'false'], { cwd: project() }).catch((e: { stdout: string }) => e);
    expect((failed as { stdout: string }).stdout).toMatch(/misuse\.ts\(\d+,\d+\): error TS2322: Type '"wow"'/);
  }, 120_000);

  it("compile every TypeScript snippet of the SDK's README in the README's ESM setup (tsc --init: strict, exactOptionalPropertyTypes)", async () => {
    const init = readFileSync(join(project(), 'tsconfig.init.json'), 'utf8');
    for (const option of ['"strict": true', '"exactOptionalPropertyTypes": true', '"module": "nodenext"', '"types": ["node"]']) expect(init).toContain(option);
    expect(JSON.parse(readFileSync(join(project(), 'package.json'), 'utf8')).type).toBe('module');
    expect(readmeSnippets().length).toBeGreaterThanOrEqual(10);
    const compiled = await run(process.execPath, [tsc(), '-p', 'tsconfig.readme.json', '--pretty', 'false'], { cwd: project() }).catch((e: { stdout: string }) => e);
    expect((compiled as { stdout: string }).stdout).toBe('');
  }, 120_000);

  for (const [label, node] of [
    ['the current Node', () => process.execPath],
    [`Node ${OLDEST_NODE}, the oldest engines allows`, () => join(project(), 'node_modules/node/bin/node')],
  ] as const) {
    it(`run against the real server on ${label}`, async () => {
      const { stdout } = await run(node(), ['dist/consumer.js', a.direct.conversationId], {
        cwd: project(),
        env: { ...process.env, SWITCHBOARD_URL: service.server.url, SWITCHBOARD_API_KEY: a.apiKey },
      });
      const result = JSON.parse(stdout) as Record<string, unknown>;
      expect(result).toMatchObject({ disposition: 'queued', outcome: 'succeeded', streamed: 'command.settled', code: 'conversation_not_found:never', invalid: '/payload/options', unchecked: 'message.send', parsed: 'queued', commandTypes: 7 });
      expect(result.node).toBe(label === 'the current Node' ? process.version : `v${OLDEST_NODE}`);
    }, 30_000);
  }
});
