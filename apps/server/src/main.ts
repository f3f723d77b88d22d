import { ConfigError, loadConfig, type Config } from './config.ts';
import { startServer } from './server.ts';
import { reduceMemoryWhenIdle } from './memory.ts';
import { StoreError } from './store/types.ts';
import { keepTickObjects } from './ticks.ts';

/** A start-up failure the operator can put right: one line on stderr, exit 1. Anything else is a bug, with its stack. */
function cannotStart(error: unknown, config?: Config): never {
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE' && config) {
    console.error(`switchboard: ${config.host}:${config.port} is already in use; set SWITCHBOARD_PORT to another port (or SWITCHBOARD_HOST to another address)`);
  } else if ((syscall === 'listen' || syscall === 'getaddrinfo') && config) {
    console.error(`switchboard: cannot listen on ${config.host}:${config.port} (${(error as Error).message}); check SWITCHBOARD_HOST and SWITCHBOARD_PORT`);
  } else if (error instanceof ConfigError || error instanceof StoreError) {
    console.error(`switchboard: ${error.message}`);
  } else {
    throw error;
  }
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  cannotStart(error);
}
keepTickObjects();
const server = await startServer(config).catch((error: unknown) => cannotStart(error, config));
server.services.log.info({ url: server.url, dataDir: config.dataDir }, 'switchboard listening');
reduceMemoryWhenIdle(config.memoryQuietMs, (ms, rssBefore, rssAfter) => server.services.log.debug({ ms: Math.round(ms), rssBefore, rssAfter }, 'memory given back'));

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
