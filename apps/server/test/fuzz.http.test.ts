import { afterAll, beforeAll, expect, it } from 'vitest';
import { readyAccount, startTestServer, type TestServer } from './helpers.ts';
import { runFuzz, type Keys } from './fuzz.ts';

// A few hundred malformed requests per run; `pnpm fuzz` runs thousands, with the limits lifted.
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const REQUESTS = 400;

let server: TestServer;
let keys: Keys;

beforeAll(async () => {
  server = await startTestServer();
  const account = await readyAccount(server);
  keys = { apiKey: account.apiKey, connectorKey: account.connectorKey, conversationId: account.direct };
});
afterAll(async () => {
  await server.stopAndClean();
});

it(`answers malformed requests within the spec, with the error body, without dropping connections (seed ${SEED}; FUZZ_SEED=${SEED} reproduces)`, async () => {
  console.log(`fuzz seed ${SEED}`);
  const figures = await runFuzz(server.url, keys, REQUESTS, SEED);
  expect(figures.requests).toBe(REQUESTS);
  expect(figures.failures.slice(0, 20)).toEqual([]);
}, 60_000);
