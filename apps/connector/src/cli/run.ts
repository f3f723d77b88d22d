import { ConfigError, flagsToEnv, loadConfig } from '../config.ts';
import { prepareDriver } from '../driver/create.ts';
import { ConnectorClient } from '@switchboard/connector-client';
import { ConnectorHost } from '../host/host.ts';
import { createLog } from '../log.ts';

/** Runs one connector host until SIGTERM or SIGINT, which release its lease before exiting. Flags (`--driver bluebubbles`) stand for environment variables. */
export async function runHost(args: readonly string[] = []): Promise<number> {
  let config;
  try {
    config = loadConfig(flagsToEnv(args));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const log = createLog(config.logLevel, config.hostId);
  let setup;
  try {
    setup = await prepareDriver(config, log);
  } catch (error) {
    log.fatal({ err: error }, 'driver cannot start');
    return 1;
  }
  const host = new ConnectorHost({
    client: new ConnectorClient(config.url, config.connectorKey),
    log,
    hostId: config.hostId,
    osMajorVersion: setup.osMajorVersion,
    capabilities: setup.capabilities,
    driverFor: setup.driverFor,
    dispatchWaitMs: config.dispatchWaitMs,
    maxInFlight: config.maxInFlight,
    shutdownGraceMs: config.shutdownGraceMs,
  });

  let stopping: Promise<void> | null = null;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) {
        log.warn({ signal }, 'second signal; exiting without waiting');
        process.exit(1);
      }
      log.info({ signal }, 'shutting down');
      stopping = host.stop();
    });
  }

  log.info({ url: config.url, osMajorVersion: setup.osMajorVersion, capabilities: setup.capabilities, driver: config.driver }, 'host starting');
  try {
    await host.run();
  } catch (error) {
    log.fatal({ err: error }, 'host cannot run');
    return 1;
  }
  await stopping;
  return 0;
}
