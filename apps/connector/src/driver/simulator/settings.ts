import type { SendFault } from './platform.ts';
import type { Random, Range } from './random.ts';

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

export interface SimulatorSettings {
  /** The platform's state, shared by every host process on the machine. */
  dbPath: string;
  seed: number;
  /** Before the platform takes a call. */
  sendLatency: Range;
  /** After the platform took a send, before its echo is seen. */
  echoLatency: Range;
  faults: FaultSettings;
  /** How long remove_participant stalls on a host at OS major version 26 before it fails. */
  removeStallMs: number;
  /** How often the platform's feed is read for inbound messages. */
  feedPollMs: number;
}

export const noFaults: FaultSettings = { gatewayRejected: 0, sendNotOk: 0, echoLost: 0, groupUpdateUnverified: 0 };

/** One draw, split by the probabilities, so raising one fault never hides another. */
export function drawSendFault(random: Random, faults: Pick<FaultSettings, 'gatewayRejected' | 'sendNotOk' | 'echoLost'>): SendFault {
  const { gatewayRejected, sendNotOk, echoLost } = faults;
  const r = random.next();
  if (r < gatewayRejected) return 'gateway_rejected';
  if (r < gatewayRejected + sendNotOk) return 'send_not_ok';
  if (r < gatewayRejected + sendNotOk + echoLost) return 'echo_lost';
  return 'none';
}
