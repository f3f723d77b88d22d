/** Scratch: the intake statement's variants, executed serially, PostgreSQL's exec time per row. */
import postgres from 'postgres';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';
import { PostgresStore } from '../src/store/postgres/store.ts';

const ROWS = Number(process.env.ROWS ?? 12);
const N = Number(process.env.N ?? 300);
const embedded = await startEmbeddedPostgres({ flags: ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all'] });
process.env[TEST_DATABASE_URL] = embedded.url;
const url = await testDatabase(`stmt-${Date.now()}`);
const store = await PostgresStore.open({ url });
const sql = postgres(url, { max: 1, onnotice: () => undefined });
await sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
await store.createAccount({ id: 'a', name: 'bench', createdAt: 1 });
let seq = 0;
const rows = () => Array.from({ length: ROWS }, () => {
  const id = `c-${++seq}`;
  return { id, account_id: 'a', type: 'message.send', routing_path: 'agent-turn', target: '{"kind":"conversation","conversationId":"conv-1"}', payload: '{"text":"hello from the bench"}', logical_action_id: id, idempotency_key: null as string | null, conversation_id: 'conv-1', created_at: Date.now(), key_not_before: 0 };
});
const CH = 'switchboard_changes';
const variants: Record<string, () => Promise<unknown>> = {
  current: () => { const r = rows(); return sql`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${sql.json(r)}::jsonb) AS t(id text, account_id text, type text, routing_path text,
          target text, payload text, logical_action_id text, idempotency_key text, conversation_id text, created_at bigint, key_not_before bigint)
      ),
      claimed AS (
        INSERT INTO idempotency_keys AS k (account_id, key, command_id, created_at)
        SELECT account_id, idempotency_key, id, created_at FROM input WHERE idempotency_key IS NOT NULL
        ON CONFLICT (account_id, key) DO UPDATE SET command_id = excluded.command_id, created_at = excluded.created_at
          WHERE k.created_at < (SELECT i.key_not_before FROM input i WHERE i.id = excluded.command_id)
        RETURNING command_id
      ),
      inserted AS (
        INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at)
        SELECT id, account_id, type, routing_path, 'queued', target, payload, logical_action_id, idempotency_key, conversation_id, created_at
        FROM input WHERE idempotency_key IS NULL OR id IN (SELECT command_id FROM claimed)
        RETURNING id, account_id
      ),
      woken AS (
        SELECT count(*) AS n FROM (SELECT pg_notify(${CH}, 'c:' || account_id) FROM (SELECT DISTINCT account_id FROM inserted) a) w
      )
      SELECT inserted.id FROM inserted, woken`; },
  nonotify: () => { const r = rows(); return sql`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${sql.json(r)}::jsonb) AS t(id text, account_id text, type text, routing_path text,
          target text, payload text, logical_action_id text, idempotency_key text, conversation_id text, created_at bigint, key_not_before bigint)
      )
        INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at)
        SELECT id, account_id, type, routing_path, 'queued', target, payload, logical_action_id, idempotency_key, conversation_id, created_at
        FROM input RETURNING id`; },
  unnest: () => { const r = rows(); return sql`
        INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at)
        SELECT id, account_id, type, routing_path, 'queued', target, payload, logical_action_id, idempotency_key, conversation_id, created_at
        FROM unnest(${r.map((x) => x.id)}::text[], ${r.map((x) => x.account_id)}::text[], ${r.map((x) => x.type)}::text[], ${r.map((x) => x.routing_path)}::text[],
          ${r.map((x) => x.target)}::text[], ${r.map((x) => x.payload)}::text[], ${r.map((x) => x.logical_action_id)}::text[], ${r.map((x) => x.idempotency_key)}::text[],
          ${r.map((x) => x.conversation_id)}::text[], ${r.map((x) => x.created_at)}::bigint[]) AS t(id, account_id, type, routing_path, target, payload, logical_action_id, idempotency_key, conversation_id, created_at)
        RETURNING id`; },
  plainnoidx: () => { const r = rows(); return sql`
        INSERT INTO commands2 (id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at)
        SELECT id, account_id, type, routing_path, 'queued', target, payload, logical_action_id, idempotency_key, conversation_id, created_at
        FROM jsonb_to_recordset(${sql.json(r)}::jsonb) AS t(id text, account_id text, type text, routing_path text,
          target text, payload text, logical_action_id text, idempotency_key text, conversation_id text, created_at bigint, key_not_before bigint)
        RETURNING id`; },
  select: () => { const r = rows(); return sql`SELECT id FROM jsonb_to_recordset(${sql.json(r)}::jsonb) AS t(id text, account_id text, type text, routing_path text,
          target text, payload text, logical_action_id text, idempotency_key text, conversation_id text, created_at bigint, key_not_before bigint)`; },
};
await sql`CREATE TABLE commands2 (LIKE commands)`;
for (const [name, fn] of Object.entries(variants)) for (let i = 0; i < 30; i++) await fn();
await sql`SELECT pg_stat_statements_reset()`;
const wall: Record<string, number> = {};
for (let round = 0; round < 3; round++) {
  for (const [name, fn] of Object.entries(variants)) {
    const t = performance.now();
    for (let i = 0; i < N / 3; i++) await fn();
    wall[name] = (wall[name] ?? 0) + performance.now() - t;
  }
}
const stats = await sql`SELECT calls, total_exec_time, query FROM pg_stat_statements WHERE calls >= ${N}`;
for (const [name, fn] of Object.entries(variants)) {
  const text = (fn.toString().match(/(INSERT INTO commands2? \(id|WITH input|SELECT id FROM jsonb)/) ?? [''])[0];
  console.log(`${name.padEnd(12)} wall ${((wall[name]! * 1000) / N / ROWS).toFixed(1)} µs/row`);
}
for (const s of stats) console.log(`${((Number(s.total_exec_time) * 1000) / Number(s.calls) / ROWS).toFixed(1).padStart(6)} µs/row exec  ${(s.query as string).replace(/\s+/g, ' ').slice(0, 100)}`);
await sql.end();
await store.close();
await dropTestDatabase(url);
await embedded.stop();
