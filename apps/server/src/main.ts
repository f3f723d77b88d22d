import { loadConfig } from './config.ts';
import { startServer } from './server.ts';
import { reduceMemoryWhenIdle } from './memory.ts';
import { warmNextTick } from './ticks.ts';

const config = loadConfig();
await warmNextTick();
const server = await startServer(config).catch((error: NodeJS.ErrnoException) => {
  if (error.code !== 'EADDRINUSE') throw error;
  console.error(`switchboard: ${config.host}:${config.port} is already in use; set SWITCHBOARD_PORT to another port (or SWITCHBOARD_HOST to another address)`);
  process.exit(1);
});
server.services.log.info({ url: server.url, dataDir: config.dataDir }, 'switchboard listening');
reduceMemoryWhenIdle((ms, rssBefore, rssAfter) => server.services.log.debug({ ms: Math.round(ms), rssBefore, rssAfter }, 'memory given back'));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.services.log.info({ signal }, 'shutting down');
    server.close().then(() => process.exit(0), (error: unknown) => {
      server.services.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  });
}
