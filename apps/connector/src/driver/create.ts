import type { Capability } from '@switchboard/contracts';
import type { Logger } from 'pino';
import { capabilitiesFor } from './bluebubbles/capabilities.ts';
import { BlueBubblesDriver } from './bluebubbles/driver.ts';
import { probeServer } from './bluebubbles/probe.ts';
import type { BlueBubblesSettings } from './bluebubbles/settings.ts';
import { SimulatorDriver } from './simulator/driver.ts';
import type { SimulatorSettings } from './simulator/settings.ts';
import type { Driver } from './types.ts';

/** What opening a driver takes from the host's configuration (config.ts). */
export interface DriverConfig {
  driver: 'simulator' | 'bluebubbles';
  simulator: SimulatorSettings;
  bluebubbles: BlueBubblesSettings | null;
  hostId: string;
  osMajorVersion: number;
  /** Whether the operator set osMajorVersion; otherwise a BlueBubbles host takes its server's. */
  osMajorVersionSet: boolean;
  capabilities: Capability[];
}

/** What the host declares with its lease, and how it opens the driver once a lease names the account. */
export interface DriverSetup {
  capabilities: Capability[];
  osMajorVersion: number;
  driverFor: (accountId: string) => Driver;
}

/** The driver the configuration names. A BlueBubbles host first asks its server what it can do. */
export async function prepareDriver(config: DriverConfig, log: Logger): Promise<DriverSetup> {
  const { simulator, bluebubbles } = config;
  if (config.driver === 'bluebubbles' && bluebubbles) {
    const abilities = await probeServer(bluebubbles, log);
    const osMajorVersion = config.osMajorVersionSet ? config.osMajorVersion : abilities.osMajorVersion;
    return {
      capabilities: capabilitiesFor(abilities, config.capabilities),
      osMajorVersion,
      driverFor: (accountId) => {
        log.info({ driver: config.driver, accountId, bluebubbles: bluebubbles.url, journal: bluebubbles.journalPath }, 'driver opened');
        return new BlueBubblesDriver(bluebubbles, { hostId: config.hostId, log, abilities: { ...abilities, osMajorVersion } });
      },
    };
  }
  return {
    capabilities: config.capabilities,
    osMajorVersion: config.osMajorVersion,
    driverFor: (accountId) => {
      log.info(
        { driver: config.driver, simDb: simulator.dbPath, seed: simulator.seed, sendLatency: simulator.sendLatency, echoLatency: simulator.echoLatency, faults: simulator.faults },
        'driver opened',
      );
      return new SimulatorDriver(simulator, { account: accountId, hostId: config.hostId, osMajorVersion: config.osMajorVersion, log });
    },
  };
}
