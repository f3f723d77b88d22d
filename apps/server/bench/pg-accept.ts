/**
 * The PostgreSQL store's intake alone, in-process, no HTTP: `CONCURRENCY` callers each run a
 * request's store calls (credential, conversation, pause, lease, accept) in a loop. Prints
 * commands/s, this process's CPU and PostgreSQL's CPU per command.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';
import { PostgresStore } from '../src/store/postgres/store.ts';
import { cpuSeconds } from './setup.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 32);
const STORES = Number(process.argv[2] ?? 1);
const KEYS = process.env.BENCH_KEYS === '1';

const embedded = await startEmbeddedPostgres({ flags: ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all'] });
process.env[TEST_DATABASE_URL] = embedded.url;
const url = await testDatabase(`accept-${Date.now()}`);
const admin = postgres(url, { max: 1, onnotice: () => undefined });
const [{ data_directory: dataDir }] = await admin`SHOW data_directory` as any;
const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
function pgCpu(): number {
  let sum = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(name) === postmaster || Number(f[1]) === postmaster) sum += (Number(f[11]) + Number(f[12])) / 100;
    } catch { /* gone */ }
  }
  return sum;
}

const stores: PostgresStore[] = [];
for (let i = 0; i < STORES; i++) stores.push(await PostgresStore.open({ url }));
await admin`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
const s0 = stores[0]!;
const accountId = 'acct-bench';
await s0.createAccount({ id: accountId, name: 'bench', createdAt: Date.now() });
const hash = Buffer.alloc(32, 7);
await s0.createCredential({ id: 'cred-1', accountId, kind: 'account', hash, prefix: 'sb_x', label: 'b', createdAt: Date.now() });
await admin`INSERT INTO conversations (id, account_id, external_id, kind, name, participants, created_at) VALUES ('conv-1', ${accountId}, 'ext', 'direct', null, '[]', 1)`.catch(async (e) => {
  console.log('conversation insert failed', e.message);
});
await s0.acquireLease({ accountId, hostId: 'bench', osMajorVersion: 15, capabilities: [] } as any, Date.now(), 3_600_000);

let n = 0;
let stop = false;
async function caller(store: PostgresStore, c: number): Promise<void> {
  while (!stop) {
    const now = Date.now();
    const credential = await store.findCredentialByHash(hash);
    if (!credential) throw new Error('no credential');
    await store.getConversation(accountId, 'conv-1');
    await store.isOutboundPaused(accountId);
    if (!(await store.liveLease(accountId, now))) throw new Error('no lease');
    const id = `${now.toString(36)}-${c}-${n}`;
    await store.acceptCommand({ id, accountId, type: 'message.send', routingPath: 'agent-turn', target: { kind: 'conversation', conversationId: 'conv-1' }, payload: { text: 'hello from the bench' }, idempotencyKey: KEYS ? id : null, conversationId: 'conv-1', logicalActionId: id, createdAt: now } as any, now - 86_400_000);
    n++;
  }
}
const run = (ms: number) => {
  stop = false;
  const done = Promise.all(Array.from({ length: CONCURRENCY }, (_, c) => caller(stores[c % STORES]!, c)));
  return new Promise<void>((resolve) => setTimeout(() => { stop = true; void done.then(() => resolve()); }, ms));
};
await run(1000);
await admin`SELECT pg_stat_statements_reset()`;
n = 0;
const c0 = cpuSeconds(process.pid);
const p0 = pgCpu();
const t0 = performance.now();
await run(DURATION * 1000);
const seconds = (performance.now() - t0) / 1000;
const c1 = cpuSeconds(process.pid);
const p1 = pgCpu();
console.log(`${STORES} store(s): ${(n / seconds).toFixed(0)} cmd/s; node ${((c1 - c0) / seconds).toFixed(2)} cores ${(((c1 - c0) / n) * 1e6).toFixed(0)} µs/cmd; postgres ${((p1 - p0) / seconds).toFixed(2)} cores ${(((p1 - p0) / n) * 1e6).toFixed(0)} µs/cmd`);
const rows = await admin`SELECT calls, total_exec_time, rows, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 90) AS q FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT ${Number(process.env.TOP ?? 4)}`;
for (const r of rows) console.log(`${(Number(r.calls) / n).toFixed(3).padStart(7)}/cmd ${((Number(r.total_exec_time) * 1000) / Number(r.calls)).toFixed(0).padStart(6)} µs/call ${((Number(r.total_exec_time) * 1000) / n).toFixed(1).padStart(6)} µs/cmd rows/call ${(Number(r.rows) / Number(r.calls)).toFixed(1)}  ${r.q}`);
for (const s of stores) await s.close();
await admin.end();
await dropTestDatabase(url);
await embedded.stop();
