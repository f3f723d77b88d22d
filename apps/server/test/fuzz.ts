import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { errorCatalog } from '@switchboard/contracts';
import { RawConnection, type RawResponse } from './raw-http.ts';

/**
 * The HTTP fuzzer: malformed requests (methods, targets, headers, framing, bodies) to every route
 * of both specs, each answer checked against what the spec lists for the route it reached.
 * Used by fuzz.http.test.ts (a few hundred requests) and bench/fuzz.ts (a long run).
 */

const require = createRequire(import.meta.url);
// The bundled documents, as generated (connector.openapi.json is not a package export).
const generated = join(dirname(require.resolve('@switchboard/contracts/package.json')), 'src/generated');
const load = (name: string) => JSON.parse(readFileSync(join(generated, name), 'utf8'));
const publicApi = load('openapi.json');
const connectorApi = load('connector.openapi.json');

interface Operation {
  template: string;
  pattern: RegExp;
  methods: Map<string, Set<number>>;
}

function operations(doc: any): Operation[] {
  return Object.entries(doc.paths as Record<string, any>).map(([template, item]) => {
    const methods = new Map<string, Set<number>>();
    for (const [method, op] of Object.entries(item as Record<string, any>)) {
      if (op && typeof op === 'object' && op.responses) methods.set(method.toUpperCase(), new Set(Object.keys(op.responses).map(Number)));
    }
    // Fastify routes an empty segment to the template too (`/v1/attachments/`).
    const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]*')}$`);
    return { template, pattern, methods };
  });
}

const OPERATIONS = [...operations(publicApi), ...operations(connectorApi)];
const COMMAND_PATH = /^\/v1\/commands\/.*$/;

/** Codes of both catalogs: the public one, and every `error` const or enum of the connector spec. */
function connectorCodes(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => connectorCodes(n, into));
  else if (node && typeof node === 'object') {
    const error = (node as any).properties?.error;
    if (error?.const) into.add(error.const);
    if (Array.isArray(error?.enum)) error.enum.forEach((c: string) => into.add(c));
    Object.values(node).forEach((n) => connectorCodes(n, into));
  }
  return into;
}
const CODES = connectorCodes(connectorApi, new Set([...Object.keys(errorCatalog), ...connectorApi.components.schemas.ConnectorErrorCode.enum]));

/** The statuses the public spec says any request can get before reaching a route. */
const BEFORE_ROUTING = new Set(['bad_request', 'request_timeout', 'headers_too_large', 'not_implemented'].map((c) => errorCatalog[c as keyof typeof errorCatalog].status));

/** The statuses the specs list for `method path`; an unrouted request may get 404 `not_found`. */
export function allowedStatuses(method: string, target: string): Set<number> {
  const path = target.replace(/^https?:\/\/[^/]*/i, '').split('?', 1)[0]!;
  const asked = method === 'HEAD' && !COMMAND_PATH.test(path) ? 'GET' : method;
  // A literal path (`/v1/commands/message.send`) wins over a template that also matches it.
  const matches = OPERATIONS.filter((op) => op.pattern.test(path)).sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')));
  let listed = matches.find((op) => op.methods.has(asked))?.methods.get(asked);
  // The command path routes every method: GET reads, POST takes a type, anything else is the `put` operation.
  if (!listed && COMMAND_PATH.test(path)) {
    const item = OPERATIONS.find((op) => op.template === '/v1/commands/{commandId}')!;
    listed = asked === 'POST' ? item.methods.get('POST') : item.methods.get('PUT');
    if (asked === 'POST') listed = new Set([...listed!, ...OPERATIONS.filter((op) => op.template.startsWith('/v1/commands/') && op.methods.has('POST')).flatMap((op) => [...op.methods.get('POST')!])]);
  }
  return new Set([...(listed ?? [404]), ...BEFORE_ROUTING]);
}

export interface Keys {
  apiKey: string;
  connectorKey: string;
  conversationId: string;
}

export interface FuzzRequest {
  method: string;
  target: string;
  bytes: Buffer;
  /** The framing leaves bytes the server will read as another request: send it alone. */
  alone: boolean;
  /** Framing and version, for the report. */
  note: string;
}

const segment = fc.oneof(
  fc.constantFrom('message.send', 'group.update', 'not-a-uuid', '%', '%zz', '%E0%A4%A', '..', '', '%00', '%2F', 'a'.repeat(300), '019f0000-0000-7000-8000-000000000000'),
  fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s)),
  fc.uint8Array({ minLength: 1, maxLength: 6 }).map((b) => Buffer.from(b).toString('latin1').replace(/[\s\r\n]/g, 'x')),
);

const routes = OPERATIONS.map((op) => op.template);
const target = fc
  .record({
    route: fc.constantFrom(...routes, '/v1/nope', '/', '*', '/v1/commands'),
    fill: segment,
    absolute: fc.boolean(),
    query: fc.constantFrom('', '?after=9223372036854775807', '?after=-1', '?limit=0', '?limit=x&limit=y', '?cursor=%', '?after=1e3', '?a=\u00ff'),
  })
  .map(({ route, fill, absolute, query }) => {
    const path = route.replace(/\{[^}]+\}/g, fill);
    return (absolute && path.startsWith('/') ? 'http://switchboard.test' : '') + path + (route.includes('events') || route.includes('conversations') ? query : '');
  });

const method = fc.constantFrom('GET', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'QUERY', 'TRACE', 'FROB', 'get');

function headers(keys: Keys) {
  return fc.record({
    auth: fc.constantFrom('', `Bearer ${keys.apiKey}`, `Bearer ${keys.connectorKey}`, 'Bearer nope', 'Basic eDp5', 'Bearer', `bearer   ${keys.apiKey}`),
    contentType: fc.constantFrom(undefined, 'application/json', '', 'application/json, text/plain', 'text/plain', 'application/json; charset=utf-8', 'json', '/', 'application/json; =x'),
    contentEncoding: fc.constantFrom(undefined, undefined, 'gzip', 'identity', 'br, gzip', ''),
    accept: fc.constantFrom(undefined, 'application/json', '*/*', ''),
    extra: fc.constantFrom('', `X-Padding: ${'a'.repeat(20_000)}\r\n`, 'X Bad: 1\r\n', 'X-Ctl: a\u0001b\r\n', 'Idempotency-Key: \u00ff\r\n', 'Host: second\r\n', 'NoColon\r\n'),
    host: fc.constantFrom(true, true, true, false),
  });
}

function body(keys: Keys) {
  const envelope = { target: { kind: 'conversation', conversationId: keys.conversationId }, payload: { text: 'hi' } };
  let deep = '{"__proto__":{}}';
  for (let i = 0; i < 70; i++) deep = `{"a":${deep}}`;
  return fc.oneof(
    fc.constant(Buffer.alloc(0)),
    fc.constant(Buffer.from(JSON.stringify(envelope))),
    fc.constant(Buffer.from(JSON.stringify({ hostId: 'fuzz', osMajorVersion: 15, capabilities: [] }))),
    // U+0000 in strings a route stores as text (specs: "Text").
    fc.constant(Buffer.from(JSON.stringify({ hostId: 'f\u0000', osMajorVersion: 15, capabilities: [], url: 'https://example.com/\u0000', description: '\u0000', ...envelope }))),
    fc.integer({ min: 1000, max: 2 ** 31 }).map((epoch) => Buffer.from(JSON.stringify({ epoch, waitMs: 0, events: [], commandId: keys.conversationId, status: 'succeeded', errorCode: null }))),
    fc.constant(Buffer.from(deep)),
    fc.constantFrom([0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80]).map((bad) => Buffer.concat([Buffer.from('{"target":{},"payload":{"text":"'), Buffer.from(bad), Buffer.from('"}}')])),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
    fc.constant(Buffer.alloc(70_000, 0x20)),
    fc.string({ maxLength: 100 }).map((s) => Buffer.from(s)),
  );
}

const framing = fc.constantFrom('length', 'length', 'length', 'chunked', 'chunked-bad', 'te-gzip', 'te-gzip-chunked', 'length-and-chunked', 'length-twice', 'length-short', 'none');
const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x', 'http/1.1');

export function fuzzRequests(keys: Keys): fc.Arbitrary<FuzzRequest> {
  return fc.record({ method, target, headers: headers(keys), body: body(keys), framing, version }).map(({ method, target, headers: h, body: b, framing: f, version: v }) => {
    let head = `${method} ${target} ${v}\r\n`;
    if (h.host) head += 'Host: switchboard.test\r\n';
    if (h.auth) head += `Authorization: ${h.auth}\r\n`;
    if (h.contentType !== undefined) head += `Content-Type: ${h.contentType}\r\n`;
    if (h.contentEncoding !== undefined) head += `Content-Encoding: ${h.contentEncoding}\r\n`;
    if (h.accept !== undefined) head += `Accept: ${h.accept}\r\n`;
    head += h.extra;
    let payload: Buffer = b;
    let alone = v !== 'HTTP/1.1';
    const chunked = (data: Buffer) => (data.length ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n0\r\n\r\n')]) : Buffer.from('0\r\n\r\n'));
    switch (f) {
      case 'length': head += `Content-Length: ${b.length}\r\n`; break;
      case 'chunked': head += 'Transfer-Encoding: chunked\r\n'; payload = chunked(b); break;
      case 'chunked-bad': head += 'Transfer-Encoding: chunked\r\n'; payload = Buffer.from('zz\r\nhello\r\n0\r\n\r\n'); alone = true; break;
      case 'te-gzip': head += 'Transfer-Encoding: gzip\r\n'; alone = true; break;
      case 'te-gzip-chunked': head += 'Transfer-Encoding: gzip, chunked\r\n'; payload = chunked(b); break;
      case 'length-and-chunked': head += `Content-Length: ${b.length}\r\nTransfer-Encoding: chunked\r\n`; payload = chunked(b); alone = true; break;
      case 'length-twice': head += `Content-Length: ${b.length}\r\nContent-Length: ${b.length + 1}\r\n`; alone = true; break;
      case 'length-short': head += `Content-Length: ${Math.max(0, b.length - 3)}\r\n`; alone = true; break;
      case 'none': payload = Buffer.alloc(0); break;
    }
    return { method, target, bytes: Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), payload]), alone, note: `${f} ${v}` };
  });
}

export interface FuzzFigures {
  requests: number;
  /** 5xx other than 501 `not_implemented` and 503 with its documented code. */
  serverErrors: number;
  badBodies: number;
  unlistedStatuses: number;
  droppedConnections: number;
  noAnswer: number;
  /** How many answers had each status. */
  statuses: Record<number, number>;
  failures: string[];
}

function problemsWith(request: FuzzRequest, response: RawResponse): { status?: string; body?: string; serverError?: string } {
  const problems: { status?: string; body?: string; serverError?: string } = {};
  const where = `${request.method} ${JSON.stringify(request.target.slice(0, 80))} (${request.note}) -> ${response.status}`;
  if (response.status >= 500 && response.status !== 501 && response.status !== 503) problems.serverError = `${where}: ${response.body.slice(0, 200)}`;
  if (!allowedStatuses(request.method.toUpperCase() === request.method ? request.method : '?', request.target).has(response.status)) problems.status = `${where}: status not listed in the spec`;
  if (response.status >= 400 && request.method !== 'HEAD') {
    let body: any;
    try {
      body = JSON.parse(response.body);
    } catch {
      body = null;
    }
    const ok = body && typeof body.message === 'string' && typeof body.requestId === 'string' && CODES.has(body.error);
    if (!ok) problems.body = `${where}: body ${response.body.slice(0, 200)}`;
  }
  return problems;
}

/** Sends `count` generated requests (seeded), reusing each connection while the server keeps it. */
export async function runFuzz(url: string, keys: Keys, count: number, seed: number): Promise<FuzzFigures> {
  const figures: FuzzFigures = { requests: 0, serverErrors: 0, badBodies: 0, unlistedStatuses: 0, droppedConnections: 0, noAnswer: 0, statuses: {}, failures: [] };
  const requests = fc.sample(fuzzRequests(keys), { seed, numRuns: count });
  let connection: RawConnection | null = null;
  for (const request of requests) {
    if (request.alone || !connection || connection.closed) {
      connection?.close();
      connection = await RawConnection.open(url);
    }
    figures.requests++;
    await connection.send(request.bytes);
    const response = await connection.response({ head: request.method === 'HEAD', timeoutMs: 5_000 });
    if (!response) {
      figures.noAnswer++;
      figures.failures.push(`${request.method} ${JSON.stringify(request.target.slice(0, 80))} (${request.note}): no answer`);
      connection.close();
      connection = null;
      continue;
    }
    figures.statuses[response.status] = (figures.statuses[response.status] ?? 0) + 1;
    const problems = problemsWith(request, response);
    if (problems.serverError) figures.serverErrors++;
    if (problems.status) figures.unlistedStatuses++;
    if (problems.body) figures.badBodies++;
    figures.failures.push(...Object.values(problems));
    if (response.headers.connection?.toLowerCase() === 'close' || request.alone) {
      connection.close();
      connection = null;
      continue;
    }
    // Still open? A request whose answer did not say Connection: close must find the connection usable.
    await new Promise((resolve) => setImmediate(resolve));
    if (connection.closed) {
      figures.droppedConnections++;
      figures.failures.push(`${request.method} ${JSON.stringify(request.target.slice(0, 80))} -> ${response.status}: connection dropped without Connection: close`);
      connection = null;
    }
  }
  connection?.close();
  return figures;
}
