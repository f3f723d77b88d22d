import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { schemas, type Capability, type CapabilityName, type RichKind } from '@switchboard/contracts';
import { parseRange, type Range } from './driver/simulator/random.ts';
import { readLifeSettings, type SimulatorSettings } from './driver/simulator/settings.ts';
import type { BlueBubblesSettings } from './driver/bluebubbles/settings.ts';

export interface HostConfig {
  /** The Switchboard server. */
  url: string;
  /** Issued by an operator for one account; it decides the account. */
  connectorKey: string;
  /** Stable across restarts: a restarted host takes its own live lease over at once. */
  hostId: string;
  osMajorVersion: number;
  /** What the host declares with its lease; the executor holds every command to it. */
  capabilities: Capability[];
  driver: 'simulator' | 'bluebubbles';
  simulator: SimulatorSettings;
  /** Set when `driver` is bluebubbles. */
  bluebubbles: BlueBubblesSettings | null;
  /** SWITCHBOARD_OS_MAJOR_VERSION was set: it overrides what a BlueBubbles server reports. */
  osMajorVersionSet: boolean;
  logLevel: string;
  /** How long one dispatch long poll waits for work. */
  dispatchWaitMs: number;
  /** Commands executing at once, across conversations; one conversation's commands run in order. */
  maxInFlight: number;
  /** On SIGTERM, how long running commands get to settle before the lease is released. */
  shutdownGraceMs: number;
}

export const allCapabilityNames: readonly CapabilityName[] = schemas.zCapabilityName.options;
export const allRichKinds: readonly RichKind[] = schemas.zRichKind.options;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** Reads the environment once, collecting every problem instead of stopping at the first. */
class Reader {
  readonly problems: string[] = [];
  private readonly env: Env;

  constructor(env: Env) {
    this.env = env;
  }

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  required(name: string): string {
    const value = this.raw(name);
    if (value === undefined) this.problems.push(`${name} is required`);
    return value ?? '';
  }

  int(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  }

  probability(name: string): number {
    const raw = this.raw(name);
    if (raw === undefined) return 0;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      this.problems.push(`${name} must be a probability from 0 to 1, got "${raw}"`);
      return 0;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  range(name: string, fallback: Range): Range {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const range = parseRange(raw);
    if (!range) this.problems.push(`${name} must be milliseconds as "N" or "MIN-MAX", got "${raw}"`);
    return range ?? fallback;
  }

  /** A comma-separated list; unset means `fallback`, set to "" or "none" means empty. */
  list<T extends string>(name: string, allowed: readonly T[], fallback: readonly T[]): T[] {
    const value = this.env[name];
    if (value === undefined) return [...fallback];
    const items = value.split(',').map((s) => s.trim()).filter((s) => s !== '' && s !== 'none');
    const unknown = items.filter((s) => !allowed.includes(s as T));
    if (unknown.length > 0) this.problems.push(`${name} has unknown values: ${unknown.join(', ')} (allowed: ${allowed.join(', ')})`);
    return [...new Set(items.filter((s): s is T => allowed.includes(s as T)))];
  }
}

/** The host id the lease protocol accepts, derived from the machine's name. */
function defaultHostId(): string {
  return hostname().replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 128) || 'connector-host';
}

/**
 * The capability declaration: each name the host supports, with `supportedKinds` on the content
 * capability and the three group.update parameters, each declared independently.
 */
function readCapabilities(read: Reader): Capability[] {
  const names = read.list('SWITCHBOARD_CAPABILITIES', allCapabilityNames, allCapabilityNames);
  const kinds = read.list('SWITCHBOARD_SUPPORTED_KINDS', allRichKinds, allRichKinds);
  const supportsRename = read.bool('SWITCHBOARD_SUPPORTS_RENAME', true);
  const supportsPhoto = read.bool('SWITCHBOARD_SUPPORTS_PHOTO', true);
  const supportsParticipants = read.bool('SWITCHBOARD_SUPPORTS_PARTICIPANTS', true);
  return names.map((name): Capability => {
    if (name === 'command.message_send.content.v1') return { name, supportedKinds: kinds };
    if (name === 'command.group_update.v1') return { name, supportsRename, supportsPhoto, supportsParticipants };
    return { name };
  });
}

/** Where the simulated platform lives: SWITCHBOARD_SIM_DB, else `simulator.db` in SWITCHBOARD_DATA_DIR (default ./.switchboard). */
export function simulatorDbPath(env: Env = process.env): string {
  return env.SWITCHBOARD_SIM_DB || join(env.SWITCHBOARD_DATA_DIR || join(process.cwd(), '.switchboard'), 'simulator.db');
}

function readSimulator(read: Reader, env: Env): SimulatorSettings {
  const faults = {
    gatewayRejected: read.probability('SWITCHBOARD_SIM_P_GATEWAY_REJECTED'),
    sendNotOk: read.probability('SWITCHBOARD_SIM_P_SEND_NOT_OK'),
    echoLost: read.probability('SWITCHBOARD_SIM_P_ECHO_LOST'),
    groupUpdateUnverified: read.probability('SWITCHBOARD_SIM_P_GROUP_UPDATE_UNVERIFIED'),
  };
  if (faults.gatewayRejected + faults.sendNotOk + faults.echoLost > 1) {
    read.problems.push('SWITCHBOARD_SIM_P_GATEWAY_REJECTED + SWITCHBOARD_SIM_P_SEND_NOT_OK + SWITCHBOARD_SIM_P_ECHO_LOST must not exceed 1');
  }
  return {
    dbPath: simulatorDbPath(env),
    seed: read.int('SWITCHBOARD_SIM_SEED', randomInt(2 ** 31), 0, 2 ** 32 - 1),
    sendLatency: read.range('SWITCHBOARD_SIM_LATENCY_MS', { min: 0, max: 0 }),
    echoLatency: read.range('SWITCHBOARD_SIM_ECHO_LATENCY_MS', { min: 0, max: 0 }),
    faults,
    life: readLifeSettings(env, read.problems),
    removeStallMs: read.int('SWITCHBOARD_SIM_REMOVE_STALL_MS', 3_000, 0),
    feedPollMs: read.int('SWITCHBOARD_SIM_FEED_POLL_MS', 50, 1),
  };
}

function readBlueBubbles(read: Reader, env: Env, hostId: string): BlueBubblesSettings {
  const url = read.required('SWITCHBOARD_BLUEBUBBLES_URL').replace(/\/+$/, '');
  if (url !== '' && !URL.canParse(url)) read.problems.push(`SWITCHBOARD_BLUEBUBBLES_URL is not a URL: "${url}"`);
  const listen = read.string('SWITCHBOARD_BLUEBUBBLES_WEBHOOK_LISTEN', '127.0.0.1:7399');
  const at = listen.lastIndexOf(':');
  const port = Number(listen.slice(at + 1));
  if (at < 1 || !Number.isInteger(port) || port < 0 || port > 65535) read.problems.push(`SWITCHBOARD_BLUEBUBBLES_WEBHOOK_LISTEN must be HOST:PORT, got "${listen}"`);
  const webhookUrl = read.raw('SWITCHBOARD_BLUEBUBBLES_WEBHOOK_URL') ?? null;
  if (webhookUrl !== null && !URL.canParse(webhookUrl)) read.problems.push(`SWITCHBOARD_BLUEBUBBLES_WEBHOOK_URL is not a URL: "${webhookUrl}"`);
  const dataDir = env.SWITCHBOARD_DATA_DIR || join(process.cwd(), '.switchboard');
  return {
    url,
    password: read.required('SWITCHBOARD_BLUEBUBBLES_PASSWORD'),
    webhookHost: listen.slice(0, Math.max(at, 0)),
    webhookPort: Number.isInteger(port) ? port : 7399,
    webhookUrl,
    echoTimeoutMs: read.int('SWITCHBOARD_BLUEBUBBLES_ECHO_TIMEOUT_MS', 75_000, 1),
    updateTimeoutMs: read.int('SWITCHBOARD_BLUEBUBBLES_UPDATE_TIMEOUT_MS', 45_000, 1),
    catchUpWindowMs: read.int('SWITCHBOARD_BLUEBUBBLES_CATCHUP_WINDOW_MS', 3_600_000, 0),
    catchUpIntervalMs: read.int('SWITCHBOARD_BLUEBUBBLES_CATCHUP_INTERVAL_MS', 30_000, 10),
    journalPath: read.string('SWITCHBOARD_BLUEBUBBLES_JOURNAL', join(dataDir, `bluebubbles-${hostId}.db`)),
  };
}

/**
 * Command-line flags as the environment variables they stand for: `--driver bluebubbles` is
 * SWITCHBOARD_DRIVER, `--bluebubbles-url` SWITCHBOARD_BLUEBUBBLES_URL, and so on. A flag wins over
 * the environment.
 */
export function flagsToEnv(args: readonly string[], env: Env = process.env): Env {
  const out: Env = { ...env };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (!/^[a-z][a-z0-9-]*$/.test(name) || value === undefined) throw new ConfigError(`flag "${arg}" needs a value (--name value)`);
    out[`SWITCHBOARD_${name.toUpperCase().replaceAll('-', '_')}`] = value;
  }
  return out;
}

/** Reads the host's configuration from the environment, once; throws a ConfigError naming every problem. */
export function loadConfig(env: Env = process.env): HostConfig {
  const read = new Reader(env);
  const hostId = read.string('SWITCHBOARD_HOST_ID', defaultHostId());
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(hostId)) read.problems.push(`SWITCHBOARD_HOST_ID must match ^[A-Za-z0-9._:-]{1,128}$, got "${hostId}"`);
  const driver = read.string('SWITCHBOARD_DRIVER', 'simulator');
  if (driver !== 'simulator' && driver !== 'bluebubbles') read.problems.push(`SWITCHBOARD_DRIVER must be "simulator" or "bluebubbles", got "${driver}"`);
  const url = read.string('SWITCHBOARD_URL', 'http://127.0.0.1:7300').replace(/\/+$/, '');
  if (!URL.canParse(url)) read.problems.push(`SWITCHBOARD_URL is not a URL: "${url}"`);

  const config: HostConfig = {
    url,
    connectorKey: read.required('SWITCHBOARD_CONNECTOR_KEY'),
    hostId,
    osMajorVersion: read.int('SWITCHBOARD_OS_MAJOR_VERSION', 15, 1, 1000),
    capabilities: readCapabilities(read),
    driver: driver === 'bluebubbles' ? 'bluebubbles' : 'simulator',
    simulator: readSimulator(read, env),
    bluebubbles: driver === 'bluebubbles' ? readBlueBubbles(read, env, hostId) : null,
    osMajorVersionSet: read.raw('SWITCHBOARD_OS_MAJOR_VERSION') !== undefined,
    logLevel: read.string('SWITCHBOARD_LOG_LEVEL', 'info'),
    dispatchWaitMs: read.int('SWITCHBOARD_DISPATCH_WAIT_MS', 20_000, 0, 30_000),
    maxInFlight: read.int('SWITCHBOARD_MAX_IN_FLIGHT', 32, 1, 100),
    shutdownGraceMs: read.int('SWITCHBOARD_SHUTDOWN_GRACE_MS', 10_000, 0),
  };
  if (read.problems.length > 0) throw new ConfigError(`invalid configuration:\n- ${read.problems.join('\n- ')}`);
  return config;
}
