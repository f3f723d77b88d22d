import { createServer } from 'node:http';

// The ceiling: node:http reading the body and answering 202 with an acknowledgement, nothing else.
const ack = JSON.stringify({ commandId: '01900000-0000-7000-8000-000000000000', status: 'queued', disposition: 'queued' });
const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(202, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(ack) });
    res.end(ack);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'switchboard listening', url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
