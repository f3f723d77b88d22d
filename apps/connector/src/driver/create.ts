import type { Logger } from 'pino';
import { SimulatorDriver } from './simulator/driver.ts';
import type { SimulatorSettings } from './simulator/settings.ts';
import type { Driver } from './types.ts';

/** What opening a driver takes from the host's configuration (config.ts). */
export interface DriverConfig {
  driver: 'simulator';
  simulator: SimulatorSettings;
  hostId: string;
  osMajorVersion: number;
}

/** The driver the configuration names, for one account. */
export function createDriver(config: DriverConfig, accountId: string, log: Logger): Driver {
  const { simulator } = config;
  log.info(
    { driver: config.driver, simDb: simulator.dbPath, seed: simulator.seed, sendLatency: simulator.sendLatency, echoLatency: simulator.echoLatency, faults: simulator.faults },
    'driver opened',
  );
  return new SimulatorDriver(simulator, { account: accountId, hostId: config.hostId, osMajorVersion: config.osMajorVersion, log });
}
