// `pnpm run console:check`: the operator console in headless Chromium (Debian's `chromium`, or
// CHROMIUM=path) against the real built server (apps/server/dist), with a simulated connector host
// executing commands and a webhook receiver on loopback. Each page's main flow is driven as an
// operator would (sign in, overview, pause and resume an account, a failed command's reason, the
// live stream, a webhook endpoint's attempts and a resend, keys, line policies and a send over
// one, held first contacts released and rejected, a read-only key, a revoked key),
// axe-core checks every page (serious and critical violations fail), and nothing the page's policy
// refuses may be asked for. Screenshots go to a temp folder (printed); `--docs` also copies them
// to docs/console/. Run by CI after docs:check; the test command needs no browser.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const root = resolve(import.meta.dirname, '../../..');
const toDocs = process.argv.includes('--docs');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-console-'));
const shots = mkdtempSync(join(tmpdir(), 'switchboard-console-shots-'));
const children: ChildProcess[] = [];
const env = {
  ...process.env,
  SWITCHBOARD_DATA_DIR: dataDir,
  // The receiver is on loopback; retries come quickly so the attempts log fills in seconds.
  SWITCHBOARD_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  SWITCHBOARD_WEBHOOK_RETRY_BASE_MS: '300',
  SWITCHBOARD_WEBHOOK_RETRY_MAX_MS: '2000',
  SWITCHBOARD_WEBHOOK_POLL_MS: '100',
};

// ---------------------------------------------------------------- the service under test

function startServer(): Promise<string> {
  const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], { env: { ...env, SWITCHBOARD_PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(server);
  return new Promise<string>((done, fail) => {
    createInterface({ input: server.stdout! }).on('line', (line) => {
      if (line.includes('switchboard listening')) done(JSON.parse(line).url);
    });
    server.once('exit', () => fail(new Error('the server stopped before listening (is apps/server/dist built?)')));
  });
}

/** A full operator key, made as an operator makes the first one: the CLI, where the store is. */
function firstOperatorKey(): string {
  const out = execFileSync(process.execPath, [join(root, 'apps/server/src/cli/main.ts'), 'operator-keys', 'create', '--label', 'console check', '--role', 'full', '--json'], { env, encoding: 'utf8' });
  return JSON.parse(out).secret;
}

async function api(base: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A webhook receiver that is down (503 with a body) until `healthy` is set. */
function startReceiver(): Promise<{ server: Server; url: string; state: { healthy: boolean; received: number } }> {
  const state = { healthy: false, received: 0 };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      state.received++;
      if (state.healthy) response.writeHead(200, { 'content-type': 'text/plain' }).end('ok, got it');
      else response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"receiver down for maintenance"}');
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, state })));
}

// ---------------------------------------------------------------- the browser side

const failures: string[] = [];
const axeReport: string[] = [];

interface Watched {
  page: Page;
  problems: string[];
}

async function watchedPage(browser: Browser, origin: string, width = 1280, height = 860): Promise<Watched> {
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy/.test(text)) problems.push(`refused by the page's policy: ${text}`);
    // 401 and 403 answers are part of the flows below; the browser logs each as a failed load.
    else if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of (401|403)/.test(text)) problems.push(`console: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  page.on('request', (request) => {
    const target = request.url();
    if (!target.startsWith('data:') && new URL(target).origin !== origin) problems.push(`asked for ${target}, outside its origin`);
  });
  return { page, problems };
}

const text = (page: Page, wanted: string, timeout = 15_000) =>
  page.waitForFunction((t: string) => document.body.innerText.includes(t), { timeout }, wanted).then(() => undefined);
const noText = (page: Page, unwanted: string, timeout = 15_000) =>
  page.waitForFunction((t: string) => !document.body.innerText.includes(t), { timeout }, unwanted).then(() => undefined);
const button = (page: Page, name: string) => page.locator(`::-p-aria([name="${name}"][role="button"])`);
const link = (page: Page, name: string) => page.locator(`::-p-aria([name="${name}"][role="link"])`);
const field = (page: Page, label: string) => page.locator(`::-p-aria([name="${label}"])`);

/** Clicks the button that opens the confirmation dialog, then the dialog's own button. */
async function confirmWith(page: Page, opener: string, action: string): Promise<void> {
  await button(page, opener).click();
  await page.waitForSelector('dialog[open]');
  await page.locator(`dialog[open] ::-p-aria([name="${action}"][role="button"])`).click();
  await page.waitForSelector('dialog[open]', { hidden: true });
}

async function checkAccessibility(page: Page, name: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's script-src does not govern.
  await page.evaluate(axeSource);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }>;
  };
  for (const violation of result.violations) {
    const line = `${name}: ${violation.impact ?? 'unknown'} ${violation.id} (${violation.help}) at ${violation.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`;
    axeReport.push(line);
    if (violation.impact === 'serious' || violation.impact === 'critical') failures.push(`axe: ${line}`);
  }
}

/** The page from its top, at most `maxHeight` px of it (a long log would make a heavy picture). */
async function shoot(page: Page, name: string, maxHeight = 1_400): Promise<void> {
  const file = join(shots, `${name}.png`);
  const { width, height } = await page.evaluate(() => ({ width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight }));
  await page.screenshot({ path: file as `${string}.png`, clip: { x: 0, y: 0, width, height: Math.min(height, maxHeight) }, captureBeyondViewport: true });
  console.log(`     screenshot ${file} (${Math.round(statSync(file).size / 1024)} KB)`);
}

async function step(name: string, run: () => Promise<void>): Promise<boolean> {
  const started = Date.now();
  try {
    await run();
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
    return true;
  } catch (error) {
    failures.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
    console.log(`FAIL ${name}: ${(error as Error).message.split('\n')[0]}`);
    return false;
  }
}

// ---------------------------------------------------------------- the run

const base = await startServer();
const receiver = await startReceiver();
let browser: Browser | undefined;
try {
  const operatorKey = firstOperatorKey();
  const account = await api(base, operatorKey, 'POST', '/v1/admin/accounts', { name: 'acme' });
  await api(base, operatorKey, 'POST', '/v1/admin/accounts', { name: 'globex' });
  const apiKey = (await api(base, operatorKey, 'POST', `/v1/admin/accounts/${account.id}/keys`, { kind: 'account', label: 'crm' })).secret;
  const connectorKey = (await api(base, operatorKey, 'POST', `/v1/admin/accounts/${account.id}/keys`, { kind: 'connector', label: 'mac mini' })).secret;
  const readOnlyKey = (await api(base, operatorKey, 'POST', '/v1/admin/operator-keys', { label: 'on-call viewer', role: 'read-only' })).secret;

  const connectorEnv = { ...env, SWITCHBOARD_URL: base, SWITCHBOARD_CONNECTOR_KEY: connectorKey, SWITCHBOARD_HOST_ID: 'console-check-host', SWITCHBOARD_SIM_MESSAGE_LIFE: 'off', SWITCHBOARD_SIM_P_DELIVERED: '1' };
  const connector = spawn(process.execPath, [join(root, 'apps/connector/dist/main.js')], { env: connectorEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(connector);
  await until('the connector host to hold the lease', async () => (await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}`)).host?.live);
  execFileSync(process.execPath, [join(root, 'apps/connector/dist/main.js'), 'inject', '--account', account.id, '--from', '+14155550123', '--text', 'Hi! Is my order on its way?'], { env: connectorEnv, stdio: 'ignore' });
  const conversation = await until('the injected conversation', async () => (await api(base, apiKey, 'GET', '/v1/conversations?limit=10')).conversations[0]?.conversationId as string | undefined);
  await api(base, apiKey, 'POST', '/v1/webhook-endpoints', { url: receiver.url, description: 'CRM sync' });

  const post = (body: unknown) => api(base, apiKey, 'POST', '/v1/commands/message.send', body);
  const sent = await post({ target: { kind: 'conversation', conversationId: conversation }, payload: { text: 'Yes, it ships today!' } });
  const unreachable = await post({ target: { kind: 'recipient', recipientExternalId: 'nobody@example.invalid' }, payload: { text: 'Hello?' } });
  const misspelled = await post({ target: { kind: 'conversation', conversationId: conversation }, payload: { txt: 'typo' } });
  for (const command of [sent, unreachable, misspelled]) {
    await until(`command ${command.commandId} to settle`, async () => (await api(base, apiKey, 'GET', `/v1/commands/${command.commandId}`)).status !== 'queued');
  }
  const endpoint = (await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}/webhook-endpoints`)).endpoints[0];
  await until('failed webhook attempts', async () => (await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}/webhook-endpoints/${endpoint.id}/deliveries`)).deliveries.length >= 3);

  const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
  browser = await puppeteer.launch({ executablePath: chromium, args: ['--no-sandbox', '--force-color-profile=srgb', '--font-render-hinting=none'] }).catch((error: unknown) => {
    throw new Error(`console:check could not start Chromium at ${chromium}: install Debian's chromium (apt-get install chromium) or set CHROMIUM=/path/to/chromium (${(error as Error).message.split('\n')[0]})`);
  });
  const { page, problems } = await watchedPage(browser, new URL(base).origin);
  const console_ = `${base}/console`;

  await step('sign-in: a wrong key is refused, with a message', async () => {
    await page.goto(console_, { waitUntil: 'networkidle0' });
    await checkAccessibility(page, 'sign-in');
    await shoot(page, 'sign-in');
    await field(page, 'Operator key').fill('sbo_not-a-key');
    await button(page, 'Sign in').click();
    await text(page, 'did not accept this operator key');
  });

  await step('sign-in: the operator key opens the overview; the key is kept in sessionStorage only', async () => {
    await field(page, 'Operator key').fill(operatorKey);
    await button(page, 'Sign in').click();
    await text(page, 'Accounts and their hosts');
    await text(page, 'console check');
    const stored = await page.evaluate(() => ({ session: Object.values({ ...sessionStorage }), local: localStorage.length, cookie: document.cookie }));
    if (!stored.session.includes(operatorKey) || stored.local !== 0 || stored.cookie !== '') throw new Error(`the key is stored as ${JSON.stringify({ ...stored, session: stored.session.length })}`);
  });

  await step('overview: accounts with their hosts, commands per minute, failures by code, failing endpoints', async () => {
    await text(page, 'console-check-host');
    await text(page, 'invalid_target');
    await text(page, 'payload_invalid');
    await text(page, receiver.url);
    await page.waitForSelector('.chart svg rect.bar-failed');
    await checkAccessibility(page, 'overview');
    await shoot(page, 'overview');
  });

  await step('overview: pause all sending, with a confirmation, then resume', async () => {
    await confirmWith(page, 'Pause all…', 'Pause all sending');
    await text(page, 'paused for all');
    if (!(await api(base, operatorKey, 'GET', '/v1/admin/overview')).outboundPaused) throw new Error('the server was not paused');
    await confirmWith(page, 'Resume all…', 'Resume all sending');
    await noText(page, 'paused for all');
  });

  await step('account: pause with a confirmation (Cancel changes nothing), then resume', async () => {
    await link(page, 'acme').click();
    await text(page, 'Account id');
    await button(page, 'Pause…').click();
    await page.waitForSelector('dialog[open]');
    await checkAccessibility(page, 'account (confirmation dialog)');
    await shoot(page, 'account-confirm-pause');
    await page.locator('dialog[open] ::-p-aria([name="Cancel"][role="button"])').click();
    await page.waitForSelector('dialog[open]', { hidden: true });
    if ((await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}`)).outboundPaused) throw new Error('Cancel paused the account');
    await confirmWith(page, 'Pause…', 'Pause sending');
    await button(page, 'Resume…').wait();
    if (!(await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}`)).outboundPaused) throw new Error('the account was not paused');
    const refused = await fetch(`${base}/v1/commands/message.send`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ target: { kind: 'conversation', conversationId: conversation }, payload: { text: 'while paused' } }) });
    if (refused.status !== 503) throw new Error(`a command while paused answered ${refused.status}`);
    await confirmWith(page, 'Resume…', 'Resume sending');
    await button(page, 'Pause…').wait();
    if ((await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}`)).outboundPaused) throw new Error('the account was not resumed');
  });

  await step('account: command search by status finds the failed commands; paging by cursor', async () => {
    await page.locator('#filter-status').fill('failed');
    await button(page, 'Search').click();
    await page.waitForFunction(() => document.querySelectorAll('tr.row-failed').length === 2 && !document.querySelector('tbody tr:not(.row-failed)'));
    await checkAccessibility(page, 'account (commands)');
    await shoot(page, 'account');
  });

  await step('command: a failed command shows why it failed (code, message, path) and its timeline', async () => {
    await link(page, `Command ${misspelled.commandId}`).click();
    await text(page, 'Timeline');
    await text(page, 'Failed: payload_invalid');
    await text(page, '/payload/txt');
    await text(page, 'console-check-host');
    await checkAccessibility(page, 'command (failed)');
    await shoot(page, 'command-failed');
    await page.goBack();
    await link(page, `Command ${unreachable.commandId}`).click();
    await text(page, 'Failed: invalid_target');
    await text(page, 'is not reachable on the platform');
  });

  await step('command: a succeeded command shows accepted, dispatched (host, epoch), sent, settled', async () => {
    await page.goto(`${console_}/commands/${sent.commandId}`, { waitUntil: 'networkidle0' });
    await text(page, 'the platform confirmed message');
    await text(page, 'under epoch');
    await shoot(page, 'command');
  });

  await step('account: the live stream shows a command settle as it happens, filtered by type', async () => {
    await page.goto(`${console_}/accounts/${account.id}/stream`, { waitUntil: 'domcontentloaded' });
    await text(page, 'connected');
    const live = await post({ target: { kind: 'conversation', conversationId: conversation }, payload: { text: 'Live from the console check' } });
    await page.waitForSelector(`.events a[aria-label="Command ${live.commandId}"]`, { timeout: 15_000 });
    await page.locator('#stream-type').fill('command.settled');
    await page.waitForFunction(() => [...document.querySelectorAll('.events .badge')].every((b) => b.textContent === 'command.settled'));
    await page.locator('#stream-conversation').fill(conversation);
    await checkAccessibility(page, 'account (live stream)');
    await page.locator('#stream-type').fill('');
    await shoot(page, 'stream');
  });

  await step('account keys: create an API key (secret shown once), revoke it with a confirmation', async () => {
    await page.goto(`${console_}/accounts/${account.id}/keys`, { waitUntil: 'networkidle0' });
    await page.locator('#new-key-label').fill('zapier');
    await button(page, 'Create key').click();
    const secret = await page.waitForSelector('input[data-secret]').then((input) => input!.evaluate((el) => (el as HTMLInputElement).value));
    const works = await fetch(`${base}/v1/conversations`, { headers: { authorization: `Bearer ${secret}` } });
    if (works.status !== 200) throw new Error(`the new key answered ${works.status}`);
    await checkAccessibility(page, 'account (keys)');
    await shoot(page, 'keys-account');
    await button(page, 'Done').click();
    const created = (await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}/keys`)).keys.find((k: { label: string }) => k.label === 'zapier');
    await confirmWith(page, `Revoke key ${created.prefix}`, 'Revoke key');
    await text(page, 'revoked');
    const revoked = await fetch(`${base}/v1/conversations`, { headers: { authorization: `Bearer ${secret}` } });
    if (revoked.status !== 401) throw new Error(`the revoked key answered ${revoked.status}`);
  });

  await step('account line policies: set a pacing limit with a confirmation, see it shown; a send over it answers 429 pacing_limit', async () => {
    await page.goto(`${console_}/accounts/${account.id}`, { waitUntil: 'networkidle0' });
    await text(page, 'all off');
    await link(page, 'Line policies').click();
    await text(page, 'What it protects against');
    await page.locator('#policy-perMinute').fill('3');
    await button(page, 'Save policies…').click();
    await page.waitForSelector('dialog[open]');
    await text(page, 'pacing: 3 messages per conversation per minute');
    await checkAccessibility(page, 'account (line policies, confirmation)');
    await page.locator('dialog[open] ::-p-aria([name="Save policies"][role="button"])').click();
    await page.waitForSelector('dialog[open]', { hidden: true });
    await text(page, 'Saved: the next command is held to these policies.');
    await page.waitForFunction(() => [...document.querySelectorAll('tr.policy')].some((row) => row.textContent!.includes('Pacing') && row.textContent!.includes('on') && row.textContent!.includes('3 messages per conversation per minute')));
    await text(page, '1 of 6 on');
    const stored = await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}/policies`);
    if (JSON.stringify(stored) !== JSON.stringify({ newContacts: null, pacing: { perMinute: 3 }, loopBreaker: null, quietHours: null, firstContactApproval: false })) throw new Error(`the server holds ${JSON.stringify(stored)}`);
    await checkAccessibility(page, 'account (line policies)');
    // Sends to the conversation this minute count already; within four, one is over the limit.
    let refused: { status: number; body: any } | undefined;
    for (let i = 0; i < 4 && !refused; i++) {
      const response = await fetch(`${base}/v1/commands/message.send`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ target: { kind: 'conversation', conversationId: conversation }, payload: { text: `paced ${i}` } }) });
      const body = await response.json();
      if (response.status !== 202) refused = { status: response.status, body };
    }
    if (!refused || refused.status !== 429 || refused.body.error !== 'pacing_limit') throw new Error(`a send over the pacing limit answered ${JSON.stringify(refused ?? 'nothing but 202')}`);
    // Off again in the form (an empty field), so the steps below send freely.
    await page.locator('#policy-perMinute').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await confirmWith(page, 'Save policies…', 'Save policies');
    await text(page, 'all off');
  });

  // Three first contacts, held for approval: one is released, one rejected, one left waiting (for the read-only key).
  const firstContacts: Array<{ commandId: string }> = [];
  await step('line policies: quiet hours and first-contact approval set in the form; first contacts are held, and the usage counts them', async () => {
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    // A window that is not now, so only first-contact approval holds.
    await page.locator('#policy-quiet-from').fill(hhmm(Date.now() + 2 * 3_600_000));
    await page.locator('#policy-quiet-until').fill(hhmm(Date.now() + 3 * 3_600_000));
    await page.locator('#policy-quiet-zone').fill('UTC');
    await page.locator('#policy-approval').fill('on');
    await button(page, 'Save policies…').click();
    await page.waitForSelector('dialog[open]');
    await text(page, 'first-contact approval on');
    await page.locator('dialog[open] ::-p-aria([name="Save policies"][role="button"])').click();
    await page.waitForSelector('dialog[open]', { hidden: true });
    await text(page, '2 of 6 on');
    const stored = await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}/policies`);
    if (stored.quietHours?.timeZone !== 'UTC' || stored.firstContactApproval !== true) throw new Error(`the server holds ${JSON.stringify(stored)}`);
    for (const [to, words] of [
      ['+14155550150', 'Hello from Acme! Your order #1042 has shipped.'],
      ['+14155550151', 'Hi, this is Acme support following up on your ticket.'],
      ['newcustomer@example.com', 'Welcome to Acme! Reply STOP to opt out.'],
    ] as const) {
      const held = await post({ target: { kind: 'recipient', recipientExternalId: to }, payload: { text: words } });
      if (held.status !== 'held') throw new Error(`a first contact was accepted as ${held.status}`);
      firstContacts.push(held);
    }
    // Someone the line talked to before is no first contact: it goes out.
    const known = await post({ target: { kind: 'conversation', conversationId: conversation }, payload: { text: 'Not held: we talked before' } });
    await until('the known contact\'s send to succeed', async () => (await api(base, apiKey, 'GET', `/v1/commands/${known.commandId}`)).status === 'succeeded');
    await page.reload({ waitUntil: 'networkidle0' });
    await text(page, '0 by quiet hours, 3 for approval');
    await checkAccessibility(page, 'account (line policies with holds)');
    await shoot(page, 'account-policies');
  });

  await step('held commands: listed with what they would send; release one with a confirmation, reject one with a reason', async () => {
    const [released, rejected] = firstContacts;
    await link(page, 'Held commands').click();
    await text(page, 'Accepted, not sent');
    await page.waitForFunction(() => document.querySelectorAll('tr.held').length === 3);
    await text(page, 'Hello from Acme! Your order #1042 has shipped.');
    await checkAccessibility(page, 'account (held commands)');
    await shoot(page, 'account-held');
    await confirmWith(page, `Release command ${released!.commandId}`, 'Release command');
    await text(page, `Released ${released!.commandId.slice(0, 8)}…: it goes to the connector host.`);
    await until('the released first contact to be sent', async () => (await api(base, apiKey, 'GET', `/v1/commands/${released!.commandId}`)).status === 'succeeded');
    await button(page, `Reject command ${rejected!.commandId}`).click();
    await page.locator('#reject-reason').fill('Not one of our customers');
    await checkAccessibility(page, 'account (held commands, rejecting one)');
    await page.locator('form.reject-form ::-p-aria([name="Reject command"][role="button"])').click();
    await text(page, `Rejected ${rejected!.commandId.slice(0, 8)}…`);
    const settled = await api(base, apiKey, 'GET', `/v1/commands/${rejected!.commandId}`);
    if (settled.status !== 'failed' || settled.errorCode !== 'first_contact_rejected' || !settled.errorMessage?.includes('Not one of our customers')) throw new Error(`the rejected command reads ${JSON.stringify(settled)}`);
    await page.waitForFunction(() => document.querySelectorAll('tr.held').length === 1);
  });

  await step('command: a held command says what holds it; a released one shows held and released in its timeline', async () => {
    await page.goto(`${console_}/commands/${firstContacts[2]!.commandId}`, { waitUntil: 'networkidle0' });
    await text(page, 'Held by first-contact approval');
    await checkAccessibility(page, 'command (held)');
    await shoot(page, 'command-held');
    await page.goto(`${console_}/commands/${firstContacts[0]!.commandId}`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => {
      const kinds = [...document.querySelectorAll('.timeline .badge')].map((badge) => badge.textContent);
      return ['accepted', 'held', 'released', 'dispatched', 'sent', 'settled'].every((kind) => kinds.includes(kind));
    });
    await checkAccessibility(page, 'command (released)');
    await shoot(page, 'command-released');
  });

  await step('line policies: the hold policies off again in the form; the first contact still held keeps waiting', async () => {
    await page.goto(`${console_}/accounts/${account.id}/policies`, { waitUntil: 'networkidle0' });
    await page.locator('#policy-quiet-from').fill('');
    await page.locator('#policy-quiet-until').fill('');
    await page.locator('#policy-approval').fill('');
    await confirmWith(page, 'Save policies…', 'Save policies');
    await text(page, 'all off');
    if ((await api(base, apiKey, 'GET', `/v1/commands/${firstContacts[2]!.commandId}`)).status !== 'held') throw new Error('turning approval off released a held first contact');
  });

  await step('webhooks: the attempts log shows each response; resend one attempt and see the new one', async () => {
    await page.goto(`${console_}/accounts/${account.id}/webhooks`, { waitUntil: 'networkidle0' });
    await text(page, 'CRM sync');
    await checkAccessibility(page, 'webhooks');
    await link(page, receiver.url).click();
    await text(page, 'receiver down for maintenance');
    await text(page, '503');
    receiver.state.healthy = true;
    const eventId = await page.$eval('tr.attempt td.mono', (cell) => cell.textContent!.trim());
    await button(page, `Resend event ${eventId}`).click();
    await text(page, `Resent event ${eventId}: the receiver answered 200`);
    // The new attempt heads the log (newest first): this event, marked resend, with the receiver's 200 and body.
    await page.waitForFunction(
      (id: string) => [...document.querySelectorAll('tr.attempt')].some((row) => row.textContent!.includes(id) && row.textContent!.includes('resend') && row.textContent!.includes('200') && row.textContent!.includes('ok, got it')),
      { timeout: 15_000 },
      eventId,
    );
    await checkAccessibility(page, 'webhook endpoint');
    await shoot(page, 'webhook-endpoint', 900);
  });

  await step('webhooks: send a test event, rotate the secret (shown once), disable and enable', async () => {
    await button(page, 'Send a test event').click();
    await text(page, 'Test event');
    await confirmWith(page, 'Rotate secret…', 'Rotate secret');
    const secret = await page.waitForSelector('input[data-secret]').then((input) => input!.evaluate((el) => (el as HTMLInputElement).value));
    if (!secret.startsWith('whsec_')) throw new Error(`the rotated secret is ${secret.slice(0, 8)}…`);
    await button(page, 'Done').click();
    await confirmWith(page, 'Disable…', 'Disable endpoint');
    await text(page, 'disabled (operator)');
    await button(page, 'Enable').click();
    await text(page, 'delivering');
  });

  await step('webhooks: replay since an event id, with a confirmation', async () => {
    await field(page, 'Replay after event id').fill('0');
    await confirmWith(page, 'Replay…', 'Replay events');
    await text(page, 'Replaying after event 0');
    if ((await api(base, operatorKey, 'GET', `/v1/admin/accounts/${account.id}/webhook-endpoints/${endpoint.id}`)).cursor === undefined) throw new Error('no endpoint');
  });

  await step('operator keys: create a read-only key (shown once with its role), revoke it', async () => {
    await page.goto(`${console_}/operator-keys`, { waitUntil: 'networkidle0' });
    await text(page, 'this console');
    await page.locator('#new-operator-label').fill('grafana');
    await page.locator('#new-operator-role').fill('read-only');
    await button(page, 'Create operator key').click();
    await text(page, 'New read-only operator key “grafana”');
    await checkAccessibility(page, 'operator keys');
    await shoot(page, 'operator-keys');
    await button(page, 'Done').click();
    const created = (await api(base, operatorKey, 'GET', '/v1/admin/operator-keys')).keys.find((k: { label: string }) => k.label === 'grafana');
    await confirmWith(page, `Revoke operator key ${created.prefix}`, 'Revoke key');
    await page.waitForFunction((prefix: string) => [...document.querySelectorAll('tr')].some((row) => row.textContent!.includes(prefix) && row.textContent!.includes('revoked')), {}, created.prefix);
  });

  await step('audit log: every change above is recorded', async () => {
    await page.goto(`${console_}/audit`, { waitUntil: 'networkidle0' });
    await text(page, 'account.pause');
    await text(page, 'webhook_endpoint.resend');
    await text(page, 'command.release');
    await text(page, 'command.reject');
    await checkAccessibility(page, 'audit log');
    await shoot(page, 'audit');
  });

  await step('read-only key: the console says so and offers no change', async () => {
    const viewer = await watchedPage(browser!, new URL(base).origin);
    await viewer.page.goto(console_, { waitUntil: 'networkidle0' });
    await field(viewer.page, 'Operator key').fill(readOnlyKey);
    await button(viewer.page, 'Sign in').click();
    await text(viewer.page, 'This operator key is read-only');
    await text(viewer.page, 'Accounts and their hosts');
    if (await viewer.page.$('::-p-aria([name="Pause all…"][role="button"])')) throw new Error('a read-only key is offered Pause all');
    await viewer.page.goto(`${console_}/accounts/${account.id}/keys`, { waitUntil: 'networkidle0' });
    await text(viewer.page, 'mac mini');
    if (await viewer.page.$('::-p-aria([name="Create key"][role="button"])')) throw new Error('a read-only key is offered Create key');
    await viewer.page.goto(`${console_}/accounts/${account.id}/policies`, { waitUntil: 'networkidle0' });
    await text(viewer.page, 'A full operator key can change them.');
    if (await viewer.page.$('::-p-aria([name="Save policies…"][role="button"])')) throw new Error('a read-only key is offered Save policies');
    await viewer.page.goto(`${console_}/accounts/${account.id}/held`, { waitUntil: 'networkidle0' });
    await text(viewer.page, 'A full operator key can release or reject them.');
    await viewer.page.waitForFunction(() => document.querySelectorAll('tr.held').length === 1);
    if (await viewer.page.$('tr.held button')) throw new Error('a read-only key is offered Release or Reject');
    await checkAccessibility(viewer.page, 'account (held commands, read-only)');
    await viewer.page.goto(`${console_}/accounts/${account.id}/keys`, { waitUntil: 'networkidle0' });
    await shoot(viewer.page, 'read-only');
    // Revoked while signed in: the next request answers 401 and the console returns to sign-in.
    const me = (await api(base, operatorKey, 'GET', '/v1/admin/operator-keys')).keys.find((k: { label: string }) => k.label === 'on-call viewer');
    await api(base, operatorKey, 'POST', `/v1/admin/operator-keys/${me.id}/revoke`);
    await viewer.page.goto(`${console_}/`, { waitUntil: 'networkidle0' });
    await text(viewer.page, 'Operator key');
    await text(viewer.page, 'did not accept');
    if (await viewer.page.evaluate(() => sessionStorage.length)) throw new Error('the refused key stays in sessionStorage');
    problems.push(...viewer.problems);
    await viewer.page.close();
  });

  await step('phone width (390 px): every page fits the screen; tables scroll inside themselves', async () => {
    await page.setViewport({ width: 390, height: 844 });
    for (const [name, path] of [
      ['phone-overview', '/'],
      ['phone-account', `/accounts/${account.id}`],
      ['phone-held', `/accounts/${account.id}/held`],
      ['phone-policies', `/accounts/${account.id}/policies`],
      ['phone-command', `/commands/${unreachable.commandId}`],
      ['phone-webhook-endpoint', `/accounts/${account.id}/webhooks/${endpoint.id}`],
    ] as const) {
      await page.goto(`${console_}${path}`, { waitUntil: 'networkidle0' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) {
        // Name the outermost elements that stick out, to say what to fix.
        const culprits = await page.evaluate(() => {
          const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.parentElement?.closest('.table-wrap'));
          // The innermost: those holding no other wide element.
          return wide.filter((el) => !wide.some((other) => other !== el && el.contains(other))).slice(0, 3).map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`);
        });
        throw new Error(`${path} is ${overflow} px wider than the screen (${culprits.join(', ')})`);
      }
      await checkAccessibility(page, name);
      await shoot(page, name);
    }
  });

  await step('sign out forgets the key', async () => {
    await page.setViewport({ width: 1280, height: 860 });
    await button(page, 'Sign out').click();
    await text(page, 'Operator key');
    if (await page.evaluate(() => sessionStorage.length)) throw new Error('sessionStorage still holds the key');
  });

  for (const problem of problems) failures.push(problem);
} catch (error) {
  failures.push(`setup: ${(error as Error).message}`);
} finally {
  await browser?.close();
  receiver.server.close();
  for (const child of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\nscreenshots: ${shots}`);
if (toDocs) {
  const docs = join(root, 'docs/console');
  mkdirSync(docs, { recursive: true });
  for (const name of ['overview', 'account', 'account-policies', 'account-held', 'command-failed', 'stream', 'webhook-endpoint', 'operator-keys']) {
    try {
      copyFileSync(join(shots, `${name}.png`), join(docs, `${name}.png`));
    } catch {
      // A step that failed took no screenshot.
    }
  }
  console.log(`copied to ${docs}`);
}
console.log(axeReport.length ? `axe-core:\n  ${axeReport.join('\n  ')}` : 'axe-core: no violation on any page');
if (failures.length) {
  console.log(`\n${failures.length} problem(s):\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('console:check passed');
