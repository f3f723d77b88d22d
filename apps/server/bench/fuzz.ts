// The HTTP fuzzer's long run: `pnpm fuzz --requests 20000 --seed 42`.
// Prints the seed first, so any run can be repeated.
import { parseArgs } from 'node:util';
import { readyAccount, startTestServer } from '../test/helpers.ts';
import { runFuzz } from '../test/fuzz.ts';

// A `--` that a package manager passes along is not the end of the options here.
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const { values } = parseArgs({ args, options: { requests: { type: 'string', default: '20000' }, seed: { type: 'string' } } });
const requests = Number(values.requests);
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
console.log(`fuzz: seed ${seed}, ${requests} requests`);

// No limits, so the fuzzer reaches the routes' own checks rather than 429s (test/abuse-limits.http.test.ts covers those).
const server = await startTestServer({ rateLimit: 0, readRateLimit: 0, authFailureLimit: 0 });
const account = await readyAccount(server);
const started = Date.now();
const figures = await runFuzz(server.url, { apiKey: account.apiKey, connectorKey: account.connectorKey, conversationId: account.direct }, requests, seed);
await server.stopAndClean();

console.log(`requests                                          ${figures.requests}`);
console.log(`5xx (other than 501 and documented 503)           ${figures.serverErrors}`);
console.log(`bodies outside {error, message, requestId}        ${figures.badBodies}`);
console.log(`statuses not listed in the spec                   ${figures.unlistedStatuses}`);
console.log(`keep-alive connections dropped without close      ${figures.droppedConnections}`);
console.log(`requests with no answer                           ${figures.noAnswer}`);
console.log(`statuses                                          ${Object.entries(figures.statuses).map(([s, n]) => `${s}:${n}`).join(' ')}`);
console.log(`seconds                                           ${((Date.now() - started) / 1000).toFixed(1)}`);
for (const failure of figures.failures.slice(0, 20)) console.log(`  ${failure}`);
process.exitCode = figures.failures.length === 0 ? 0 : 1;
