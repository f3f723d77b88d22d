import { createServer, type AddressInfo } from 'node:net';

/** A loopback port nothing listens on right now, for a process under test to bind. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
