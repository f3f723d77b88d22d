import type { Logger } from 'pino';
import type { HostConfig } from '../config.ts';
import { SimulatorDriver } from './simulator/driver.ts';
import type { Driver } from './types.ts';

/** The driver the configuration names, for one account. */
export function createDriver(config: HostConfig, accountId: string, log: Logger): Driver {
  const { simulator } = config;
  log.info(
    { driver: config.driver, simDb: simulator.dbPath, seed: simulator.seed, sendLatency: simulator.sendLatency, echoLatency: simulator.echoLatency, faults: simulator.faults },
    'driver opened',
  );
  return new SimulatorDriver(simulator, { account: accountId, hostId: config.hostId, osMajorVersion: config.osMajorVersion, log });
}
