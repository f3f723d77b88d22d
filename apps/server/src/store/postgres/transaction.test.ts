import { afterAll, beforeAll, expect, it } from 'vitest';
import postgres from 'postgres';
import { testDatabase } from '@switchboard/testkit/postgres';
import { transaction as run, type Tx } from './transaction.ts';

const transaction = <T>(sql: postgres.Sql, fn: (tx: Tx) => Promise<T>) => run(sql, fn, { announce: () => undefined, appended: () => undefined });

let url: string;
let sql: postgres.Sql;
beforeAll(async () => {
  url = await testDatabase(`transaction-${process.pid}-${Date.now()}`);
  sql = postgres(url, { max: 3, onnotice: () => undefined });
  await sql`CREATE TABLE IF NOT EXISTS tx_test (n int PRIMARY KEY)`;
});
afterAll(() => sql.end({ timeout: 1 }));

/** The transaction id the statement ran in: a new one for each statement outside a transaction. */
const xid = async (tx: Tx) => ((await tx`SELECT pg_current_xact_id()::text AS id`) as unknown as Array<{ id: string }>)[0]!.id;

it('statements made beside commit(), however many awaits deep, run in the transaction before its COMMIT', async () => {
  const deeper = async (tx: Tx) => {
    await null;
    return xid(tx);
  };
  const ids = await transaction(sql, async (tx) => {
    const first = await xid(tx);
    const [a, b, c] = await Promise.all([xid(tx), deeper(tx), (async () => await deeper(tx))(), tx.commit()]);
    return [first, a, b, c];
  });
  expect(new Set(ids).size).toBe(1);
});

it('a failed statement rolls back the whole transaction, COMMIT sent behind it or not, and the connection serves the next', async () => {
  const duplicate = transaction(sql, (tx) => Promise.all([tx`INSERT INTO tx_test VALUES (1)`, tx`INSERT INTO tx_test VALUES (1)`, tx.commit()]));
  await expect(duplicate).rejects.toThrow(/duplicate key/);
  await expect(transaction(sql, async (tx) => {
    await tx`INSERT INTO tx_test VALUES (2)`;
    throw new Error('the caller gives up');
  })).rejects.toThrow('the caller gives up');
  expect(await sql`SELECT n FROM tx_test`).toEqual([]);
  await transaction(sql, async (tx) => tx`INSERT INTO tx_test VALUES (3)`);
  expect(await sql`SELECT n FROM tx_test`).toEqual([{ n: 3 }]);
});

/** Ends the backend of the pool's session that runs `pg_sleep` (as a crash or an operator would). */
async function terminateSleeper(admin: postgres.Sql): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const [row] = await admin`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()`;
    if (row?.done) return;
  }
  throw new Error('no session to end');
}

it('a transaction whose connection the server ends fails, and the pool serves the next ones', async () => {
  const pool = postgres(url, { max: 2, onnotice: () => undefined });
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const lost = transaction(pool, async (tx) => {
      await tx`SELECT pg_sleep(30)`;
      await tx`INSERT INTO tx_test VALUES (10)`;
    });
    // It may fail before terminateSleeper returns: handled now, asserted below.
    lost.catch(() => undefined);
    await terminateSleeper(admin);
    await expect(lost).rejects.toThrow();
    // More transactions than the pool has connections: none is stranded.
    for (let i = 0; i < 5; i++) expect(await transaction(pool, async (tx) => (await tx`SELECT 1 AS one`)[0]!.one)).toBe(1);
    expect(await sql`SELECT n FROM tx_test WHERE n = 10`).toEqual([]);
  } finally {
    await pool.end({ timeout: 1 });
    await admin.end({ timeout: 1 });
  }
});

it('a transaction waiting for the connection the server ends gets it once it reconnects (porsager/postgres#1195)', async () => {
  const pool = postgres(url, { max: 1, onnotice: () => undefined });
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const lost = transaction(pool, (tx) => tx`SELECT pg_sleep(30)`);
    lost.catch(() => undefined);
    const waiting = transaction(pool, async (tx) => (await tx`SELECT 2 AS two`)[0]!.two);
    await terminateSleeper(admin);
    await expect(lost).rejects.toThrow();
    expect(await waiting).toBe(2);
  } finally {
    await pool.end({ timeout: 1 });
    await admin.end({ timeout: 1 });
  }
}, 15_000);
