/**
 * A store that grows: intake, the stream's JSON pages and SSE resume, the command read
 * and retention, each on an empty store and on one that holds millions of rows, on SQLite and on
 * PostgreSQL; and the longest POST while the server's own retention removes a day. The two
 * stores are measured in turns, round after round, each figure the median of the rounds, so a
 * noisy moment of a shared machine falls on both.
 * On PostgreSQL it also measures the alternative to deleting a day of events: a table partitioned
 * by day, whose oldest partition is dropped.
 *
 * The rows are written straight through SQL, in bulk, shaped like the server's own: a
 * `message.send` command settled half a second after it was accepted, its `message.sent` and
 * `command.settled` events (with the message and platform record the sent message leaves), spread
 * round-robin over many accounts and evenly over days of time, ids in time order.
 *
 *   node_modules/node/bin/node apps/server/bench/growth.ts                 full size (10M events, 5M commands), both stores
 *   node_modules/node/bin/node apps/server/bench/growth.ts --events 200000 --commands 100000 --store sqlite
 *
 * Build first (`npx -y pnpm@10.34.9 build`): it runs the bundled server.
 */
import { createInterface } from 'node:readline';
import { parseArgs, styleText } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import postgres from 'postgres';
import autocannon from 'autocannon';
import { paths, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase } from '@switchboard/testkit/postgres';
import { loadConfig } from '../src/config.ts';
import { openStore } from '../src/store/open.ts';
import { purgeExpired } from '../src/retention.ts';
import type { Store } from '../src/store/types.ts';
import { benchRequest, median, type BenchRequest } from './setup.ts';
import { paced, type PacedFigures } from './paced.ts';

const HELP = `growth bench: each operation's cost on an empty store and on a filled one

usage: node_modules/node/bin/node apps/server/bench/growth.ts [options]

  --events N      events in the filled store (default 10000000)
  --commands N    commands in the filled store (default 5000000)
  --accounts N    accounts the rows are spread over (default 1000)
  --days N        days of created_at the rows are spread over (default 8)
  --rounds N      rounds of each measurement, medians reported (default 5)
  --store LIST    sqlite,postgres (default both)
  --help          this text

The defaults are the targets' full size: about 30 minutes for both stores on 2 cores. A quick look:
  node_modules/node/bin/node apps/server/bench/growth.ts --events 200000 --commands 100000
PostgreSQL is embedded from npm (fsync on); SWITCHBOARD_TEST_DATABASE_URL=postgres://… uses a
server of yours (a database of its own, dropped at the end).`;

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    commands: { type: 'string', default: '5000000' },
    accounts: { type: 'string', default: '1000' },
    days: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '5' },
    store: { type: 'string', default: 'sqlite,postgres' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const EVENTS = Number(args.events);
const COMMANDS = Number(args.commands);
const ACCOUNTS = Number(args.accounts);
const DAYS = Number(args.days);
const ROUNDS = Number(args.rounds);
const STORES = args.store!.split(',');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The empty store's one account with a history of its own, as much as one account of the filled store has. */
const SEED = { events: Math.max(200, Math.round(EVENTS / ACCOUNTS)), commands: Math.max(100, Math.round(COMMANDS / ACCOUNTS)) };
const INTAKE_SECONDS = 4;
const READS = 100;
/** The steady intake during the retention round (the targets' rate). */
const RATE = 200;
/** Within this much of the empty store's cost. */
const WITHIN = 0.2;
const MAX_POST_MS = 100;

const T = Date.now();
/** The filled store's rows: [SPAN_FROM, SPAN_TO), a day purged by the hour rounds and the day round. */
const SPAN_FROM = T - DAYS * DAY;
const SPAN_TO = T - HOUR;

const env = {
  SWITCHBOARD_RATE_LIMIT: '0',
  SWITCHBOARD_READ_RATE_LIMIT: '0',
  SWITCHBOARD_LEASE_TTL_MS: String(6 * HOUR),
  SWITCHBOARD_MAX_STREAMS_PER_CREDENTIAL: '0',
};

// ---------------------------------------------------------------------------------------------
// Bulk fill, the same rows on both stores.

/** Who the rows belong to: account n of the fill, and its conversation. */
interface FillAccount { id: string; conv: string }

interface Fill {
  accounts: FillAccount[];
  commands: number;
  events: number;
  from: number;
  to: number;
  /** Keeps ids of different fills apart. */
  salt: number;
}

/** What a bulk writer does: runs statements with numbered parameters, in its own transactions. */
interface Bulk {
  exec(text: string, params?: (number | string)[]): Promise<void>;
  /** The first event id the fill may use. */
  nextEventId(): Promise<number>;
  close(): Promise<void>;
}

const CHUNK = 250_000;

async function fill(bulk: Bulk, f: Fill, dialect: 'sqlite' | 'postgres', label: string): Promise<void> {
  const started = performance.now();
  await bulk.exec('DELETE FROM growth_accounts');
  for (let at = 0; at < f.accounts.length; at += 500) {
    const slice = f.accounts.slice(at, at + 500);
    const values = slice.map((_, i) => dialect === 'sqlite' ? `(${at + i}, ?, ?)` : `(${at + i}, $${2 * i + 1}, $${2 * i + 2})`).join(', ');
    await bulk.exec(`INSERT INTO growth_accounts (n, id, conv) VALUES ${values}`, slice.flatMap((a) => [a.id, a.conv]));
  }
  const base = await bulk.nextEventId();
  const q = dialect === 'sqlite' ? sqliteFill : postgresFill;
  // Each table's rows in id order, a chunk a transaction.
  const tables: [string, number, string][] = [
    ['commands', f.commands, q.commands],
    ['events', f.events, q.events],
    ['messages', f.events, q.messages],
    ['platform_records', f.events, q.platformRecords],
  ];
  for (const [table, total, text] of tables) {
    for (let from = 0; from < total; from += CHUNK) {
      const to = Math.min(total, from + CHUNK);
      const p = [from, to, f.from, f.to - f.from, f.commands, f.events, f.accounts.length, f.salt, base];
      await bulk.exec(text, p);
      process.stdout.write(styleText('dim', `\r  ${label}: ${table} ${to.toLocaleString('en')} / ${total.toLocaleString('en')}   `));
    }
  }
  process.stdout.write('\n');
  console.log(styleText('dim', `  ${label}: filled in ${((performance.now() - started) / 1000).toFixed(0)} s`));
}

/**
 * The fill's statements. Parameters: 1 first row, 2 end row, 3 first time, 4 span, 5 commands,
 * 6 events, 7 accounts, 8 salt, 9 first event id. Command k is at from + k·span/commands,
 * account k mod accounts; event i is at from + i·span/events and belongs to command
 * i·commands/events, whose last event is its command.settled, the others message.sent.
 */
const sqliteFill = (() => {
  const series = 'WITH RECURSIVE s(k) AS (SELECT :p1 UNION ALL SELECT k + 1 FROM s WHERE k + 1 < :p2)';
  const uuid = (t: string, k: string) =>
    `printf('%08x-%04x-7%03x-%04x-%012x', (${t}) / 65536, (${t}) % 65536, (${k}) % 4096, 32768 + ((${k}) / 4096) % 16384, ((${k}) * 2654435761 + :p8 * 7919) % 281474976710656)`;
  const cmdTime = (k: string) => `(:p3 + (${k}) * :p4 / :p5)`;
  const ev = `SELECT k AS i, k * :p5 / :p6 AS c, :p3 + k * :p4 / :p6 AS t, ((k + 1) * :p5 / :p6 <> k * :p5 / :p6 OR k + 1 = :p6) AS settled FROM s`;
  return {
    commands: `${series} INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, conversation_id, created_at, settled_at, dispatch_epoch)
      SELECT ${uuid(cmdTime('k'), 'k')}, a.id, 'message.send', 'agent-turn', 'succeeded',
        '{"kind":"conversation","conversationId":"' || a.conv || '"}', '{"text":"growth bench message ' || k || '"}',
        printf('%08x-0000-4000-8000-%012x', k, :p8), a.conv, ${cmdTime('k')}, ${cmdTime('k')} + 500, 1
      FROM s JOIN growth_accounts a ON a.n = k % :p7`,
    events: `${series}, e AS (${ev}) INSERT INTO events (id, account_id, type, time, data)
      SELECT :p9 + i, a.id, CASE WHEN settled THEN 'command.settled' ELSE 'message.sent' END, t,
        CASE WHEN settled THEN '{"commandId":"' || ${uuid(cmdTime('c'), 'c')} || '","logicalActionId":"' || printf('%08x-0000-4000-8000-%012x', c, :p8) ||
          '","status":"succeeded","errorCode":null,"errorMessage":null,"errorPath":null,"commandType":"message.send","routingPath":"agent-turn","conversationId":"' || a.conv || '"}'
        ELSE '{"conversationId":"' || a.conv || '","messageExternalId":"m' || :p8 || '-' || i || '","commandId":"' || ${uuid(cmdTime('c'), 'c')} || '","text":"growth bench message ' || c || '"}' END
      FROM e JOIN growth_accounts a ON a.n = c % :p7`,
    messages: `${series}, e AS (${ev}) INSERT INTO messages (account_id, conversation_id, message_external_id, direction, command_id, text, attachments, sent_at, recorded_at)
      SELECT a.id, a.conv, 'm' || :p8 || '-' || i, 'outbound', ${uuid(cmdTime('c'), 'c')}, 'growth bench message ' || c, '[]', t, t
      FROM e JOIN growth_accounts a ON a.n = c % :p7 WHERE NOT settled`,
    platformRecords: `${series}, e AS (${ev}) INSERT INTO platform_records (account_id, conversation_id, type, identity, recorded_at)
      SELECT a.id, a.conv, 'message.sent', 'm' || :p8 || '-' || i, t
      FROM e JOIN growth_accounts a ON a.n = c % :p7 WHERE NOT settled`,
  };
})();

const postgresFill = (() => {
  const series = 'WITH s AS (SELECT k FROM generate_series($1::bigint, $2::bigint - 1) k)';
  const uuid = (t: string, k: string) =>
    `pg_temp.growth_uuid(${t}, ${k}, $8::bigint)`;
  const cmdTime = (k: string) => `($3::bigint + (${k}) * $4::bigint / $5::bigint)`;
  const ev = `SELECT k AS i, k * $5::bigint / $6::bigint AS c, $3::bigint + k * $4::bigint / $6::bigint AS t,
    ((k + 1) * $5::bigint / $6::bigint <> k * $5::bigint / $6::bigint OR k + 1 = $6::bigint) AS settled FROM s`;
  return {
    commands: `${series} INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, conversation_id, created_at, settled_at, dispatch_epoch)
      SELECT ${uuid(cmdTime('k'), 'k')}, a.id, 'message.send', 'agent-turn', 'succeeded',
        '{"kind":"conversation","conversationId":"' || a.conv || '"}', '{"text":"growth bench message ' || k || '"}',
        lpad(to_hex(k), 8, '0') || '-0000-4000-8000-' || lpad(to_hex($8::bigint), 12, '0'), a.conv, ${cmdTime('k')}, ${cmdTime('k')} + 500, 1
      FROM s JOIN growth_accounts a ON a.n = k % $7::bigint`,
    events: `${series}, e AS (${ev}) INSERT INTO events (id, account_id, type, time, data)
      SELECT $9::bigint + i, a.id, CASE WHEN settled THEN 'command.settled' ELSE 'message.sent' END, t,
        CASE WHEN settled THEN '{"commandId":"' || ${uuid(cmdTime('c'), 'c')} || '","logicalActionId":"' || lpad(to_hex(c), 8, '0') || '-0000-4000-8000-' || lpad(to_hex($8::bigint), 12, '0') ||
          '","status":"succeeded","errorCode":null,"errorMessage":null,"errorPath":null,"commandType":"message.send","routingPath":"agent-turn","conversationId":"' || a.conv || '"}'
        ELSE '{"conversationId":"' || a.conv || '","messageExternalId":"m' || $8::bigint || '-' || i || '","commandId":"' || ${uuid(cmdTime('c'), 'c')} || '","text":"growth bench message ' || c || '"}' END
      FROM e JOIN growth_accounts a ON a.n = c % $7::bigint`,
    messages: `${series}, e AS (${ev}) INSERT INTO messages (account_id, conversation_id, message_external_id, direction, command_id, text, attachments, sent_at, recorded_at)
      SELECT a.id, a.conv, 'm' || $8::bigint || '-' || i, 'outbound', ${uuid(cmdTime('c'), 'c')}, 'growth bench message ' || c, '[]', t, t
      FROM e JOIN growth_accounts a ON a.n = c % $7::bigint WHERE NOT settled`,
    platformRecords: `${series}, e AS (${ev}) INSERT INTO platform_records (account_id, conversation_id, type, identity, recorded_at)
      SELECT a.id, a.conv, 'message.sent', 'm' || $8::bigint || '-' || i, t
      FROM e JOIN growth_accounts a ON a.n = c % $7::bigint WHERE NOT settled`,
  };
})();

function sqliteBulk(dataDir: string): Bulk {
  const db = new DatabaseSync(join(dataDir, 'switchboard.db'));
  db.exec('PRAGMA busy_timeout = 10000; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144');
  db.exec('CREATE TEMP TABLE IF NOT EXISTS growth_accounts (n INTEGER PRIMARY KEY, id TEXT NOT NULL, conv TEXT NOT NULL)');
  return {
    async exec(text, params = []) {
      db.exec('BEGIN IMMEDIATE');
      // Integers as SQLite integers (a JS number binds as a REAL): the fill's arithmetic is integer division.
      const statement = db.prepare(text);
      const values = params.map((p) => (typeof p === 'number' ? BigInt(p) : p));
      if (!text.includes(':p1')) statement.run(...values);
      else {
        // The fill's statements name their parameters (:p1 …), and each uses only some of them.
        statement.setAllowUnknownNamedParameters(true);
        statement.run(Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v])));
      }
      db.exec('COMMIT');
    },
    async nextEventId() {
      const row = db.prepare("SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) + 1 AS id").get()!;
      return Number(row.id);
    },
    async close() {
      // On disk before the server opens it: otherwise the first fsync of the server's own
      // checkpoints writes gigabytes the fill left in the page cache.
      db.exec('PRAGMA synchronous = FULL; PRAGMA wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}

async function postgresBulk(url: string): Promise<Bulk> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  await sql.unsafe('SET statement_timeout = 0');
  await sql.unsafe('CREATE TEMP TABLE IF NOT EXISTS growth_accounts (n BIGINT PRIMARY KEY, id TEXT NOT NULL, conv TEXT NOT NULL)');
  await sql.unsafe(`CREATE OR REPLACE FUNCTION pg_temp.growth_uuid(t bigint, k bigint, salt bigint) RETURNS text IMMUTABLE LANGUAGE sql AS $$
    SELECT lpad(to_hex(t / 65536), 8, '0') || '-' || lpad(to_hex(t % 65536), 4, '0') || '-7' || lpad(to_hex(k % 4096), 3, '0') || '-' ||
      to_hex(32768 + (k / 4096) % 16384) || '-' || lpad(to_hex((k * 2654435761 + salt * 7919) % 281474976710656), 12, '0') $$`);
  return {
    async exec(text, params = []) {
      // Each fill statement uses only some of the parameters, and PostgreSQL wants a type for each: renumber the used ones.
      const used = [...new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
      const renumbered = text.replace(/\$(\d+)/g, (_, n: string) => `$${used.indexOf(Number(n)) + 1}`);
      await sql.unsafe(renumbered, used.map((n) => params[n - 1]) as never[]);
    },
    async nextEventId() {
      const [row] = await sql`SELECT GREATEST(COALESCE(MAX(id), 0), (SELECT last_value FROM event_ids)) + 1 AS id FROM events`;
      return Number(row!.id);
    },
    async close() {
      // As the server's appends leave them: each account's newest id, and the sequence past every id.
      await sql`UPDATE accounts a SET last_event_id = m.id FROM (SELECT account_id, MAX(id) AS id FROM events GROUP BY account_id) m
        WHERE a.id = m.account_id AND a.last_event_id < m.id`;
      await sql`SELECT setval('event_ids', GREATEST((SELECT MAX(id) FROM events), (SELECT last_value FROM event_ids)))`;
      // What autovacuum would have done by the time a real store is this size.
      await sql.unsafe('VACUUM ANALYZE');
      await sql.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The operations measured.

interface Reader { apiKey: string; accountId: string }

/** A few of the account's commands and events, from the store: what a client would hold. */
interface Handles { commandIds: string[]; cursors: number[]; resumeFrom: number }

async function get(url: string, apiKey: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers: { authorization: `Bearer ${apiKey}`, ...headers } });
}

/** The median latency (ms) of `n` requests made one after another, each of `one`. */
async function sequential(n: number, one: (i: number) => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await one(i);
    times.push(performance.now() - started);
  }
  return median(times);
}

async function jsonPage(server: ServerProcess, reader: Reader, cursor: number): Promise<void> {
  const answer = await get(`${server.url}/v1/events?after=${cursor}&limit=100`, reader.apiKey);
  const body = (await answer.json()) as { events?: unknown[] };
  if (answer.status !== 200 || body.events?.length !== 100) throw new Error(`JSON page after ${cursor}: ${answer.status} ${JSON.stringify(body).slice(0, 200)}`);
}

/** Opens the SSE stream with Last-Event-ID and waits for the 100 events after it. */
async function sseResume(server: ServerProcess, reader: Reader, from: number): Promise<void> {
  const abort = new AbortController();
  const answer = await fetch(`${server.url}/v1/events`, {
    headers: { authorization: `Bearer ${reader.apiKey}`, accept: 'text/event-stream', 'last-event-id': String(from) },
    signal: abort.signal,
  });
  if (answer.status !== 200) throw new Error(`SSE from ${from}: ${answer.status}`);
  let seen = 0;
  let tail = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of answer.body!) {
      const text = tail + decoder.decode(chunk as Uint8Array, { stream: true });
      const blocks = text.split('\n\n');
      tail = blocks.pop()!;
      for (const block of blocks) if (block.startsWith('id: ') && block.includes('\nevent: ')) seen++;
      if (seen >= 100) break;
    }
  } finally {
    abort.abort();
  }
  if (seen < 100) throw new Error(`SSE from ${from}: ${seen} events`);
}

async function commandRead(server: ServerProcess, reader: Reader, id: string): Promise<void> {
  const answer = await get(`${server.url}/v1/commands/${id}`, reader.apiKey);
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`GET command ${id}: ${answer.status}`);
}

interface Figures { intake: number; intakeP99: number; page: number; sse: number; read: number }

/** What one measured store is: its running server, the intake's request, its reader and what the reader holds. */
interface Subject { label: string; server: ServerProcess; request: BenchRequest; reader: Reader; handles: Handles }

async function measureOnce(t: Subject, round: number): Promise<Figures> {
  const { server, reader, handles } = t;
  const load = await autocannon({ url: `${server.url}/v1/commands/message.send`, method: 'POST', ...t.request, connections: 32, duration: INTAKE_SECONDS });
  if (load.non2xx + load.errors > 0) throw new Error(`intake: ${load.non2xx} non-2xx, ${load.errors} errors`);
  const page = await sequential(READS, (i) => jsonPage(server, reader, handles.cursors[(i + round * 7) % handles.cursors.length]!));
  const sse = await sequential(READS / 4, () => sseResume(server, reader, handles.resumeFrom));
  const read = await sequential(READS, (i) => commandRead(server, reader, handles.commandIds[(i + round * 7) % handles.commandIds.length]!));
  const figures = { intake: load.requests.average, intakeP99: load.latency.p99, page, sse, read };
  console.log(styleText('dim', `  ${t.label} round ${round}: intake ${figures.intake.toFixed(0)} req/s (p99 ${figures.intakeP99} ms), JSON page ${page.toFixed(2)} ms, SSE resume ${sse.toFixed(2)} ms, command read ${read.toFixed(2)} ms`));
  return figures;
}

/**
 * The empty store and the full one take turns, round after round (the other one first each
 * round), so a noisy moment of the shared machine falls on both rather than on one.
 */
async function measure(empty: Subject, full: Subject): Promise<{ empty: Figures[]; full: Figures[] }> {
  const out = { empty: [] as Figures[], full: [] as Figures[] };
  // A warm-up: the first requests of a new server open its statements and connections.
  for (const t of [empty, full]) await sequential(10, (i) => jsonPage(t.server, t.reader, t.handles.cursors[i % t.handles.cursors.length]!));
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? [empty, full] : [full, empty];
    for (const t of order) (t === empty ? out.empty : out.full).push(await measureOnce(t, round));
  }
  return out;
}

const allPeriods = (period: number) => ({ idempotencyRetentionMs: period, commandRetentionMs: period, eventRetentionMs: period, attachmentRetentionMs: period });

/**
 * Retention rounds through each store, as the server runs them (retention.ts), each removing the
 * next 20 minutes after `oldest`, the two stores in turns: the median ms a round, and the rows it removed.
 */
async function retentionRounds(stores: { store: Store; oldest: number; label: string }[]): Promise<{ ms: number; rows: number; idle: number }[]> {
  const times = stores.map(() => [] as number[]);
  const idle = stores.map(() => [] as number[]);
  const rows = stores.map(() => 0);
  for (let round = 1; round <= 3; round++) {
    for (const [i, s] of stores.entries()) {
      const cutoff = s.oldest + round * (HOUR / 3);
      const started = performance.now();
      const purged = await purgeExpired(s.store, allPeriods(DAY), cutoff + DAY);
      times[i]!.push(performance.now() - started);
      rows[i] = purged.commands + purged.events;
      console.log(styleText('dim', `  ${s.label} retention round ${round} (20 minutes of rows): ${purged.commands} commands, ${purged.events} events in ${times[i]!.at(-1)!.toFixed(0)} ms`));
    }
  }
  // Then a round with nothing due, what every hourly round costs once the backlog is gone.
  for (let round = 1; round <= 3; round++) {
    for (const [i, s] of stores.entries()) {
      const started = performance.now();
      await purgeExpired(s.store, allPeriods(DAY), s.oldest + HOUR + DAY);
      idle[i]!.push(performance.now() - started);
    }
  }
  return stores.map((_, i) => ({ ms: median(times[i]!), rows: rows[i]!, idle: median(idle[i]!) }));
}

interface DayRound { ms: number; commands: number; events: number; maxPost: number; p99: number; maxBefore: number; failed: number; error: string | null }

/**
 * The server's own retention removes the day after `oldest`: restarted with retention periods
 * that put that day past them at its first round (`SWITCHBOARD_ATTACHMENT_RETENTION_MS` sets the
 * round's interval), while a steady intake runs. The round's time is from the server's log.
 */
async function dayRound(storeEnv: Record<string, string>, dataDir: string, request: BenchRequest, oldest: number): Promise<DayRound> {
  const interval = 30_000;
  const cutoff = oldest + DAY;
  const period = Date.now() + interval + 1_000 - cutoff;
  const server = await startServer({
    ...env, ...storeEnv,
    SWITCHBOARD_EVENT_RETENTION_MS: String(period),
    SWITCHBOARD_COMMAND_RETENTION_MS: String(period),
    SWITCHBOARD_ATTACHMENT_RETENTION_MS: String(interval),
  }, dataDir, paths.serverDist);
  // The timer starts just before the server listens.
  const started = Date.now() + interval;
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: server.child.stdout! }).on('line', (line) => {
    if (!line.includes('retention')) return;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch { /* not a log line */ }
  });
  // A round that finds a day's rows may outlast the interval, so the next round runs beside it
  // (setInterval does not wait): the day is done once a round removes almost nothing, or none
  // has said anything for an interval since the last big one.
  const big = () => lines.filter((l) => l.msg === 'retention purge' && Number(l.events) + Number(l.commands) > EVENTS / (DAYS * 24 * 60));
  const failedLine = () => lines.find((l) => l.msg === 'retention purge failed; will retry');
  const finished = () => {
    if (failedLine()) return true;
    const last = big().at(-1);
    if (!last) return false;
    return lines.at(-1) !== last || Date.now() > Number(last.time) + interval + 5_000;
  };
  const chunks: { from: number; to: number; figures: PacedFigures }[] = [];
  try {
    const deadline = Date.now() + 15 * 60_000;
    while (!finished() && Date.now() < deadline) {
      const from = Date.now();
      chunks.push({ from, to: 0, figures: await paced(server.url, request, RATE, 2, 32) });
      chunks.at(-1)!.to = Date.now();
    }
  } finally {
    await server.stop();
  }
  const rounds = big();
  const failure = failedLine();
  const ended = rounds.length > 0 ? Number(rounds.at(-1)!.time) : failure ? Number(failure.time) : Date.now();
  const during = chunks.filter((c) => c.to >= started && c.from <= ended);
  // The first chunk is the new server's first requests.
  const before = chunks.slice(1).filter((c) => c.to < started);
  return {
    ms: ended - started,
    commands: rounds.reduce((n, l) => n + Number(l.commands), 0),
    events: rounds.reduce((n, l) => n + Number(l.events), 0),
    maxPost: Math.max(...during.map((c) => c.figures.max)),
    p99: Math.max(...during.map((c) => c.figures.p99)),
    maxBefore: before.length > 0 ? Math.max(...before.map((c) => c.figures.max)) : Number.NaN,
    failed: chunks.reduce((n, c) => n + c.figures.failures, 0),
    error: failure ? JSON.stringify(failure.err ?? failure).slice(0, 300) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// One store, from empty to full.

interface StoreRun {
  store: string;
  empty: Figures[];
  full: Figures[];
  retentionEmpty: { ms: number; rows: number; idle: number };
  retentionFull: { ms: number; rows: number; idle: number };
  idleEmpty: number;
  idleFull: number;
  day: DayRound;
  partitions?: PartitionFigures | undefined;
}

interface PartitionFigures { fullPage: number; fullSse: number; partPage: number; partSse: number; partIntake: number; fullIntake: number; drop: { ms: number; maxPost: number; maxBefore: number; rows: number } }

function uuidOf(n: number, salt: number): string {
  return `00000000-0000-4000-${(0x8000 + salt).toString(16)}-${n.toString(16).padStart(12, '0')}`;
}

async function runStore(name: 'sqlite' | 'postgres', urls: { empty: string; full: string } | null): Promise<StoreRun> {
  console.log(styleText('bold', `\n${name}: ${EVENTS.toLocaleString('en')} events, ${COMMANDS.toLocaleString('en')} commands over ${ACCOUNTS.toLocaleString('en')} accounts and ${DAYS} days`));
  const dialect = urls ? 'postgres' : 'sqlite';
  const fillers: FillAccount[] = Array.from({ length: ACCOUNTS - 1 }, (_, n) => ({ id: uuidOf(n, 1), conv: uuidOf(n, 2) }));
  /** One store: made through the server (the intake's account with its lease and conversation, the reader), then its other accounts straight in. */
  const make = async (kind: 'empty' | 'full') => {
    const storeEnv: Record<string, string> = urls ? { SWITCHBOARD_DATABASE_URL: urls[kind] } : {};
    const server = await startServer({ ...env, ...storeEnv }, undefined, paths.serverDist);
    const request = await benchRequest(server);
    const reader = await server.account(`growth-${kind}-reader`);
    await server.stop();
    const dataDir = server.dataDir;
    const config = loadConfig({ ...process.env, SWITCHBOARD_DATA_DIR: dataDir, ...storeEnv });
    const bulk = (): Promise<Bulk> => (urls ? postgresBulk(urls[kind]) : Promise.resolve(sqliteBulk(dataDir)));
    const b = await bulk();
    for (let at = 0; at < fillers.length; at += 500) {
      const slice = fillers.slice(at, at + 500);
      const values = slice.map((_, i) => (urls ? `($${2 * i + 1}, $${2 * i + 2}, ${T})` : `(?, ?, ${T})`)).join(', ');
      await b.exec(`INSERT INTO accounts (id, name, created_at) VALUES ${values}`, slice.flatMap((a) => [a.id, `growth-${a.id}`]));
    }
    await b.close();
    return { kind, storeEnv, dataDir, config, bulk, request, reader };
  };
  const E = await make('empty');
  const F = await make('full');
  const servers: ServerProcess[] = [];
  try {
    // The empty store: its reader's history alone (as long as one account's of the full store), an hour before now.
    let b = await E.bulk();
    await fill(b, { accounts: [{ id: E.reader.accountId, conv: uuidOf(0, 3) }], commands: SEED.commands, events: SEED.events, from: T - 2 * HOUR, to: T - HOUR, salt: 1 }, dialect, 'empty store');
    await b.close();
    b = await F.bulk();
    await fill(b, { accounts: [{ id: F.reader.accountId, conv: uuidOf(1, 3) }, ...fillers], commands: COMMANDS, events: EVENTS, from: SPAN_FROM, to: SPAN_TO, salt: 3 }, dialect, 'full store');
    await b.close();

    const handles = async (s: typeof E): Promise<Handles> => {
      const store = await openStore(s.config, { migrate: false });
      try {
        const events = await store.readEvents(s.reader.accountId, 0, 1_000_000);
        const ids = events.map((e) => e.id);
        const commandIds = [...new Set(events.filter((e) => e.type === 'command.settled').map((e) => (e.data as { commandId: string }).commandId))];
        // Cursors anywhere in the history with a full page after them, in a fixed pseudo-random order.
        const cursors = Array.from({ length: 64 }, (_, i) => ids[(i * 7919) % (ids.length - 100)]!);
        const shuffled = Array.from({ length: 64 }, (_, i) => commandIds[(i * 104_729) % commandIds.length]!);
        return { commandIds: shuffled, cursors, resumeFrom: ids.at(-101)! };
      } finally {
        await store.close();
      }
    };
    const subject = async (s: typeof E): Promise<Subject> => {
      const server = await startServer({ ...env, ...s.storeEnv }, s.dataDir, paths.serverDist);
      servers.push(server);
      // A server that dies mid-run says why, rather than leaving only failed requests behind.
      const stderr: string[] = [];
      server.child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
      server.child.once('exit', (code, signal) => {
        if (servers.includes(server)) console.error(styleText('red', `the ${s.kind} store's server exited (${code ?? signal}): ${stderr.join('').slice(-2000)}`));
      });
      return { label: s.kind, server, request: s.request, reader: s.reader, handles: await handles(s) };
    };
    const figures = await measure(await subject(E), await subject(F));
    for (const server of servers.splice(0)) await server.stop();

    // Retention: the empty store gets an hour of rows at the full size's density and nothing
    // else; each store has its oldest hour removed in three rounds, the stores in turns.
    b = await E.bulk();
    const perHour = (n: number) => Math.round(n / (DAYS * 24));
    await fill(b, { accounts: fillers, commands: perHour(COMMANDS), events: perHour(EVENTS), from: SPAN_FROM - HOUR, to: SPAN_FROM, salt: 2 }, dialect, 'empty store, an hour to remove');
    await b.close();
    const emptyStore = await openStore(E.config, { migrate: false });
    const fullStore = await openStore(F.config, { migrate: false });
    const [retentionEmpty, retentionFull] = await retentionRounds([
      { store: emptyStore, oldest: SPAN_FROM - HOUR, label: 'empty' },
      { store: fullStore, oldest: SPAN_FROM, label: 'full' },
    ]);
    await emptyStore.close();
    await fullStore.close();

    // The day after the hour just removed, by the server's own retention, under a steady intake.
    const day = await dayRound(F.storeEnv, F.dataDir, F.request, SPAN_FROM + HOUR);
    console.log(styleText('dim', `  day round: ${day.commands} commands, ${day.events} events in ${day.ms} ms; max POST ${day.maxPost.toFixed(1)} ms (before it ${day.maxBefore.toFixed(1)} ms)${day.error ? `; failed: ${day.error}` : ''}`));
    const run: StoreRun = {
      store: name, empty: figures.empty, full: figures.full,
      retentionEmpty: retentionEmpty!, retentionFull: retentionFull!, idleEmpty: retentionEmpty!.idle, idleFull: retentionFull!.idle, day,
    };
    if (urls) {
      // The partition experiment reports its own failure; the figures above stand without it.
      run.partitions = await partitions(urls.full, F.storeEnv, F.dataDir, F.request, F.reader, await handles(F), SPAN_FROM + HOUR + DAY)
        .catch((error: unknown) => {
          console.error(styleText('red', `partitions: ${error instanceof Error ? error.stack : String(error)}`));
          return undefined;
        });
    }
    return run;
  } finally {
    for (const server of servers) await server.stop();
    removeDataDir(E.dataDir);
    removeDataDir(F.dataDir);
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: the events table partitioned by day, its oldest partition dropped.

async function partitions(url: string, storeEnv: Record<string, string>, dataDir: string, request: BenchRequest, reader: Reader, handles: Handles, oldest: number): Promise<PartitionFigures> {
  console.log(styleText('dim', '  partitions: the same reads on the heap table, then on events partitioned by day'));
  const reads = async () => {
    const server = await startServer({ ...env, ...storeEnv }, dataDir, paths.serverDist);
    const stderr: string[] = [];
    server.child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    server.child.once('exit', (code, signal) => {
      if (code !== 0) console.error(styleText('red', `the partitioned store's server exited (${code ?? signal}): ${stderr.join('').slice(-2000)}`));
    });
    try {
      await sequential(10, (i) => jsonPage(server, reader, handles.cursors[i]!));
      const pages: number[] = [];
      const sses: number[] = [];
      const intakes: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const load = await autocannon({ url: `${server.url}/v1/commands/message.send`, method: 'POST', ...request, connections: 32, duration: INTAKE_SECONDS });
        intakes.push(load.requests.average);
        pages.push(await sequential(READS, (i) => jsonPage(server, reader, handles.cursors[(i + round * 7) % handles.cursors.length]!)));
        sses.push(await sequential(READS / 4, () => sseResume(server, reader, handles.resumeFrom)));
      }
      return { page: median(pages), sse: median(sses), intake: median(intakes) };
    } finally {
      await server.stop();
    }
  };
  const heap = await reads();
  const sql = postgres(url, { max: 2, onnotice: () => undefined });
  let drop: PartitionFigures['drop'];
  let part: { page: number; sse: number; intake: number };
  try {
    await sql.unsafe('SET statement_timeout = 0');
    const started = performance.now();
    const [span] = await sql`SELECT MIN(time) AS lo, MAX(time) AS hi FROM events`;
    const first = Math.floor(Number(span!.lo) / DAY) * DAY;
    const last = Math.floor((Date.now() + 2 * DAY) / DAY) * DAY;
    await sql.unsafe('CREATE TABLE events_by_day (LIKE events INCLUDING DEFAULTS) PARTITION BY RANGE (time)');
    for (let day = first; day <= last; day += DAY) {
      await sql.unsafe(`CREATE TABLE events_d${day / DAY} PARTITION OF events_by_day FOR VALUES FROM (${day}) TO (${day + DAY})`);
    }
    await sql.unsafe('INSERT INTO events_by_day SELECT * FROM events');
    await sql.unsafe('ALTER TABLE events_by_day ADD PRIMARY KEY (account_id, id, time)');
    await sql.unsafe('ALTER TABLE events RENAME TO events_heap');
    await sql.unsafe('ALTER TABLE events_by_day RENAME TO events');
    await sql.unsafe('VACUUM ANALYZE events');
    console.log(styleText('dim', `  partitions: events copied into ${(last - first) / DAY + 1} day partitions in ${((performance.now() - started) / 1000).toFixed(0)} s`));
    part = await reads();
    // Drop the oldest whole day under a steady intake. The partition is detached concurrently
    // (no lock that stops the appends), then dropped; the events' accounts get their
    // events_purged_through first, as the purge does.
    const victim = Math.floor(oldest / DAY) * DAY + DAY;
    const server = await startServer({ ...env, ...storeEnv }, dataDir, paths.serverDist);
    try {
      const chunks: { from: number; to: number; max: number }[] = [];
      let done = false;
      let window = { from: 0, to: 0, rows: 0 };
      const load = (async () => {
        while (!done) {
          const from = Date.now();
          const f = await paced(server.url, request, RATE, 2, 32);
          chunks.push({ from, to: Date.now(), max: f.max });
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 6_500));
      const from = Date.now();
      const [count] = await sql.unsafe(`SELECT count(*)::int AS n FROM events_d${victim / DAY}`);
      await sql.unsafe(`UPDATE accounts a SET events_purged_through = GREATEST(a.events_purged_through, p.through)
        FROM (SELECT account_id, MAX(id) AS through FROM events_d${victim / DAY} GROUP BY account_id) p WHERE a.id = p.account_id`);
      await sql.unsafe(`ALTER TABLE events DETACH PARTITION events_d${victim / DAY} CONCURRENTLY`);
      await sql.unsafe(`DROP TABLE events_d${victim / DAY}`);
      window = { from, to: Date.now(), rows: Number(count!.n) };
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      done = true;
      await load;
      const during = chunks.filter((c) => c.to >= window.from && c.from <= window.to);
      const before = chunks.slice(1).filter((c) => c.to < window.from);
      drop = { ms: window.to - window.from, maxPost: Math.max(...during.map((c) => c.max)), maxBefore: Math.max(...before.map((c) => c.max)), rows: window.rows };
    } finally {
      await server.stop();
    }
    console.log(styleText('dim', `  partitions: a day (${drop.rows} events) dropped in ${drop.ms} ms, max POST ${drop.maxPost.toFixed(1)} ms (before ${drop.maxBefore.toFixed(1)} ms)`));
  } finally {
    await sql.end();
  }
  return { fullPage: heap.page, fullSse: heap.sse, fullIntake: heap.intake, partPage: part.page, partSse: part.sse, partIntake: part.intake, drop };
}

// ---------------------------------------------------------------------------------------------

function report(run: StoreRun): void {
  const m = (list: Figures[], key: keyof Figures) => median(list.map((f) => f[key]));
  const rows: [string, number, number, 'ms' | 'req/s'][] = [
    ['intake, POST message.send (32 connections)', m(run.empty, 'intake'), m(run.full, 'intake'), 'req/s'],
    ['stream, JSON page of 100 from a cursor', m(run.empty, 'page'), m(run.full, 'page'), 'ms'],
    ['stream, SSE resume: 100 events after Last-Event-ID', m(run.empty, 'sse'), m(run.full, 'sse'), 'ms'],
    ['command read, GET /v1/commands/{id}', m(run.empty, 'read'), m(run.full, 'read'), 'ms'],
    [`retention, a round removing 20 minutes (${run.retentionFull.rows.toLocaleString('en')} rows)`, run.retentionEmpty.ms, run.retentionFull.ms, 'ms'],
    ['retention, a round with nothing due', run.idleEmpty, run.idleFull, 'ms'],
  ];
  console.log(styleText('bold', `\n${run.store}: each operation on the empty store and on the full one (medians of ${ROUNDS} rounds; retention of 3)`));
  console.log(`${'operation'.padEnd(58)} ${'empty'.padStart(10)} ${'full'.padStart(10)}   change   within 20 %`);
  for (const [name, before, after, unit] of rows) {
    // Worse is lower throughput or higher latency.
    const change = unit === 'req/s' ? before / after - 1 : after / before - 1;
    const fmt = (v: number) => (unit === 'req/s' ? `${v.toFixed(0)}/s` : `${v.toFixed(2)} ms`);
    const verdict = change <= WITHIN ? styleText('green', 'met') : styleText('red', 'missed');
    console.log(`${name.padEnd(58)} ${fmt(before).padStart(10)} ${fmt(after).padStart(10)}   ${`${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)} %`.padStart(6)}   ${verdict}`);
  }
  const d = run.day;
  const dayVerdict = d.error === null && d.maxPost <= MAX_POST_MS ? styleText('green', 'met') : styleText('red', 'missed');
  console.log(`retention removing a day (${d.commands.toLocaleString('en')} commands, ${d.events.toLocaleString('en')} events) in ${(d.ms / 1000).toFixed(1)} s under ${RATE} POST/s: ` +
    `max POST ${d.maxPost.toFixed(1)} ms, p99 ${d.p99.toFixed(1)} ms (before it: max ${d.maxBefore.toFixed(1)} ms; failures ${d.failed}); no POST over ${MAX_POST_MS} ms: ${dayVerdict}` +
    (d.error ? `\n  the round failed: ${d.error}` : ''));
  if (run.partitions) {
    const p = run.partitions;
    console.log(styleText('bold', 'PostgreSQL, events partitioned by day (full store, same reads)'));
    console.log(`  JSON page ${p.fullPage.toFixed(2)} ms on the heap table, ${p.partPage.toFixed(2)} ms partitioned; SSE resume ${p.fullSse.toFixed(2)} ms, ${p.partSse.toFixed(2)} ms; intake ${p.fullIntake.toFixed(0)}/s, ${p.partIntake.toFixed(0)}/s`);
    console.log(`  a day of events (${p.drop.rows.toLocaleString('en')}) dropped as a partition in ${p.drop.ms} ms, max POST ${p.drop.maxPost.toFixed(1)} ms (before ${p.drop.maxBefore.toFixed(1)} ms); ` +
      `deleted by the purge (with its commands, messages and platform records): ${(d.ms / 1000).toFixed(1)} s, max POST ${d.maxPost.toFixed(1)} ms`);
  }
}

const runs: StoreRun[] = [];
if (STORES.includes('sqlite')) {
  runs.push(await runStore('sqlite', null));
  report(runs.at(-1)!);
}
if (STORES.includes('postgres')) {
  const embedded = process.env.SWITCHBOARD_TEST_DATABASE_URL ? null : await startEmbeddedPostgres({ durable: true, flags: ['-c', 'max_wal_size=4GB', '-c', 'shared_buffers=512MB'] });
  if (embedded) process.env.SWITCHBOARD_TEST_DATABASE_URL = embedded.url;
  const urls = { empty: await testDatabase(`growth-empty-${process.pid}-${Date.now()}`), full: await testDatabase(`growth-full-${process.pid}-${Date.now()}`) };
  try {
    runs.push(await runStore('postgres', urls));
    report(runs.at(-1)!);
  } finally {
    for (const url of Object.values(urls)) await dropTestDatabase(url).catch(() => undefined);
    await embedded?.stop();
  }
}
if (runs.length > 1) for (const run of runs) report(run);
