/**
 * A webhook receiver: verifies each delivery's Standard Webhooks signature, de-duplicates by
 * `webhook-id`, answers 204 at once and handles the event after answering.
 *
 *   WEBHOOK_SECRET=whsec_... PORT=8080 npx -y pnpm@10.34.9 exec node examples/webhook-receiver.ts
 *
 * During a secret rotation, put both secrets in WEBHOOK_SECRET, space-separated. Answering fast
 * matters: Switchboard waits 10 s for a 2xx, then retries, and delivers an endpoint's events one
 * at a time, so slow work here would hold back every later event. The seen-ids set lives in
 * memory; a real receiver keeps it (or its effects' keys) in its database.
 */
import { createServer } from 'node:http';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@switchboard/sdk/webhooks';

const secrets = (process.env.WEBHOOK_SECRET ?? '').split(' ').filter(Boolean);
if (secrets.length === 0) {
  console.error('Set WEBHOOK_SECRET to the endpoint\'s whsec_... secret.');
  process.exit(2);
}
const seen = new Set<string>();

function handle(event: WebhookEvent): void {
  // Your work goes here; this prints one JSON line per event.
  console.log(JSON.stringify({ id: event.id, type: event.type }));
}

const server = createServer(async (req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let event: WebhookEvent;
  try {
    event = await verifyWebhook(secrets, Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return void res.writeHead(401).end();
  }
  res.writeHead(204).end();
  // A retry after a lost answer, or a replay, repeats the id: act once.
  if (seen.has(event.id)) return;
  seen.add(event.id);
  handle(event);
});

server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ listening: typeof address === 'object' && address ? `http://127.0.0.1:${address.port}/` : String(address) }));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
