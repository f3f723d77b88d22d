import type { SendFault } from './platform.ts';
import { parseRange, type Random, type Range } from './random.ts';

/** Probabilities (0 to 1) of the platform failures the simulator injects. */
export interface FaultSettings {
  /** message.send and group.create: the gateway refuses the send. */
  gatewayRejected: number;
  /** message.send and group.create: the send call returns not ok. */
  sendNotOk: number;
  /** message.send and group.create: the platform takes the send but its echo never comes. */
  echoLost: number;
  /** group.update: the change cannot be confirmed. */
  groupUpdateUnverified: number;
}

/**
 * What becomes of a message after its echo, and what other people do to messages: probabilities
 * (0 to 1) and delays (millisecond ranges). The driver draws a message's whole life when the
 * platform takes it (an inbound one when its host first reads it), and the platform keeps each
 * future state with its due time, so a host's death loses none of them.
 */
export interface LifeSettings {
  /** One of the account's echoed messages fails afterwards (message.failed, `not_delivered`). */
  failed: number;
  /** From the echo to the failure. */
  failLatency: Range;
  /** A message that did not fail is delivered (message.delivered). */
  delivered: number;
  /** From the echo to the delivery. */
  deliveryLatency: Range;
  /** A delivered message of a direct conversation is read (message.read); never in a group. */
  read: number;
  /** From the delivery to the read. */
  readLatency: Range;
  /** Someone in the conversation reacts to a delivered message of the account with a tapback (message.reaction, added). */
  reaction: number;
  /** From the delivery to the tapback. */
  reactionLatency: Range;
  /** That person removes their tapback later (message.reaction, removed). */
  reactionRemoved: number;
  /** From the tapback to its removal. */
  reactionRemovedLatency: Range;
  /** Someone edits a text message they sent to the account (message.edited). */
  edited: number;
  /** From the message to the edit. */
  editLatency: Range;
  /** Someone unsends a message they sent to the account (message.unsent); drawn before an edit, and a message unsent is not edited. */
  unsent: number;
  /** From the message to the unsend. */
  unsendLatency: Range;
}

export interface SimulatorSettings {
  /** The platform's state, shared by every host process on the machine. */
  dbPath: string;
  seed: number;
  /** Before the platform takes a call. */
  sendLatency: Range;
  /** After the platform took a send, before its echo is seen. */
  echoLatency: Range;
  faults: FaultSettings;
  /** Delivery, reads, failures after the echo; tapbacks, edits and unsends by other people. Absent: none of it. */
  life?: LifeSettings | undefined;
  /** How long remove_participant stalls on a host at OS major version 26 before it fails. */
  removeStallMs: number;
  /** How often the platform's feed is read for inbound messages. */
  feedPollMs: number;
}

export const noFaults: FaultSettings = { gatewayRejected: 0, sendNotOk: 0, echoLost: 0, groupUpdateUnverified: 0 };

/** iMessage's life of a message: most are delivered within 1-3 s, a direct conversation's are often read, a few fail; people sometimes react, edit or unsend. */
export const defaultLife: LifeSettings = {
  failed: 0.01,
  failLatency: { min: 1_000, max: 5_000 },
  delivered: 0.97,
  deliveryLatency: { min: 1_000, max: 3_000 },
  read: 0.5,
  readLatency: { min: 2_000, max: 10_000 },
  reaction: 0.05,
  reactionLatency: { min: 2_000, max: 20_000 },
  reactionRemoved: 0.2,
  reactionRemovedLatency: { min: 2_000, max: 20_000 },
  edited: 0.02,
  editLatency: { min: 5_000, max: 60_000 },
  unsent: 0.01,
  unsendLatency: { min: 5_000, max: 60_000 },
};

/** Nothing happens to a message after its echo, and nobody else touches one: the simulator before message lives. */
export const noLife: LifeSettings = { ...defaultLife, failed: 0, delivered: 0, read: 0, reaction: 0, reactionRemoved: 0, edited: 0, unsent: 0 };

/** The environment variable of each life setting. */
export const LIFE_VARIABLES: Record<keyof LifeSettings, string> = {
  failed: 'SWITCHBOARD_SIM_P_FAILED',
  failLatency: 'SWITCHBOARD_SIM_FAIL_LATENCY_MS',
  delivered: 'SWITCHBOARD_SIM_P_DELIVERED',
  deliveryLatency: 'SWITCHBOARD_SIM_DELIVERY_LATENCY_MS',
  read: 'SWITCHBOARD_SIM_P_READ',
  readLatency: 'SWITCHBOARD_SIM_READ_LATENCY_MS',
  reaction: 'SWITCHBOARD_SIM_P_REACTION',
  reactionLatency: 'SWITCHBOARD_SIM_REACTION_LATENCY_MS',
  reactionRemoved: 'SWITCHBOARD_SIM_P_REACTION_REMOVED',
  reactionRemovedLatency: 'SWITCHBOARD_SIM_REACTION_REMOVED_LATENCY_MS',
  edited: 'SWITCHBOARD_SIM_P_EDITED',
  editLatency: 'SWITCHBOARD_SIM_EDIT_LATENCY_MS',
  unsent: 'SWITCHBOARD_SIM_P_UNSENT',
  unsendLatency: 'SWITCHBOARD_SIM_UNSEND_LATENCY_MS',
};
/** `off` starts every life probability at 0 (each SWITCHBOARD_SIM_P_* still sets its own); `on`, the default, at defaultLife's. */
export const LIFE_SWITCH = 'SWITCHBOARD_SIM_MESSAGE_LIFE';

/**
 * The life settings the environment names, each problem added to `problems` (the host's
 * configuration reports them all at once). An empty variable counts as unset.
 */
export function readLifeSettings(env: Record<string, string | undefined>, problems: string[]): LifeSettings {
  const raw = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const switched = raw(LIFE_SWITCH) ?? 'on';
  if (switched !== 'on' && switched !== 'off') problems.push(`${LIFE_SWITCH} must be "on" or "off", got "${switched}"`);
  const base = switched === 'off' ? noLife : defaultLife;
  const life: LifeSettings = { ...base };
  for (const [key, name] of Object.entries(LIFE_VARIABLES) as Array<[keyof LifeSettings, string]>) {
    const value = raw(name);
    if (value === undefined) continue;
    if (typeof base[key] === 'number') {
      const p = Number(value);
      if (Number.isFinite(p) && p >= 0 && p <= 1) (life[key] as number) = p;
      else problems.push(`${name} must be a probability from 0 to 1, got "${value}"`);
    } else {
      const range = parseRange(value);
      if (range) (life[key] as Range) = range;
      else problems.push(`${name} must be milliseconds as "N" or "MIN-MAX", got "${value}"`);
    }
  }
  return life;
}

/** One draw, split by the probabilities, so raising one fault never hides another. */
export function drawSendFault(random: Random, faults: Pick<FaultSettings, 'gatewayRejected' | 'sendNotOk' | 'echoLost'>): SendFault {
  const { gatewayRejected, sendNotOk, echoLost } = faults;
  const r = random.next();
  if (r < gatewayRejected) return 'gateway_rejected';
  if (r < gatewayRejected + sendNotOk) return 'send_not_ok';
  if (r < gatewayRejected + sendNotOk + echoLost) return 'echo_lost';
  return 'none';
}
