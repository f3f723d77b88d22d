import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * Kept-alive connections to receivers: one agent per origin and checked address. The address is
 * still resolved and checked at every attempt (address.ts); an attempt reuses only connections
 * made to the address its own check passed, so a name that now resolves elsewhere gets a new one.
 */
export class Connections {
  /** Least recently used first. */
  private readonly agents = new Map<string, HttpAgent>();
  private readonly max: number;
  private readonly idleMs: number;

  /** `idleMs`: an idle connection is closed after this, well before common servers close theirs (5 s and more). */
  constructor(max = 256, idleMs = 1_000) {
    this.max = max;
    this.idleMs = idleMs;
  }

  agent(url: URL, address: string): HttpAgent {
    const key = `${url.protocol}//${url.host} ${address}`;
    let agent = this.agents.get(key);
    if (agent) this.agents.delete(key);
    else agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, timeout: this.idleMs }) : new HttpAgent({ keepAlive: true, timeout: this.idleMs });
    this.agents.set(key, agent);
    if (this.agents.size > this.max) {
      const [oldest, old] = this.agents.entries().next().value!;
      this.agents.delete(oldest);
      old.destroy();
    }
    return agent;
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
