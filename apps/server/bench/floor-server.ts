import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

// The durable floor: node:http parsing the JSON body and inserting it into SQLite (WAL,
// synchronous=FULL) with the same group commit as the server, then answering 202. No
// authentication, envelope checks, idempotency, logging or metrics: what durability alone costs.
const dir = mkdtempSync(join(tmpdir(), 'switchboard-floor-'));
const db = new DatabaseSync(join(dir, 'floor.db'));
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = FULL');
db.exec('CREATE TABLE commands (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at INTEGER NOT NULL)');
const insert = db.prepare('INSERT INTO commands (id, body, created_at) VALUES (?, ?, ?)');

let group: Array<() => void> | null = null;
let sequence = 0;
function commit(): void {
  const answers = group!;
  group = null;
  db.exec('COMMIT');
  for (const answer of answers) answer();
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!group) {
      db.exec('BEGIN IMMEDIATE');
      group = [];
      setImmediate(commit);
    }
    const id = `${Date.now().toString(16).padStart(12, '0')}-${(++sequence).toString(16).padStart(12, '0')}`;
    insert.run(id, JSON.stringify(body), Date.now());
    group.push(() => {
      const ack = JSON.stringify({ commandId: id, status: 'queued', disposition: 'queued' });
      res.writeHead(202, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(ack) });
      res.end(ack);
    });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'switchboard listening', url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }));
});
process.on('SIGTERM', () => server.close(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}));
