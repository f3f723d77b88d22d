import pino, { type Logger } from 'pino';

/** JSON lines on stdout, one per event, every line naming the host. */
export function createLog(level: string, hostId: string): Logger {
  return pino({ level, base: { service: 'switchboard-connector', hostId } });
}
