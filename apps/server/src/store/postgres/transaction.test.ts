import { afterAll, beforeAll, expect, it } from 'vitest';
import postgres from 'postgres';
import { testDatabase } from '@switchboard/testkit/postgres';
import { transaction, type Tx } from './transaction.ts';

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await testDatabase(`transaction-${process.pid}-${Date.now()}`), { max: 3, onnotice: () => undefined });
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
