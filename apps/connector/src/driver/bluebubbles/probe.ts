import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { BlueBubblesApi, describe } from './api.ts';
import { abilitiesOf, type ServerAbilities } from './capabilities.ts';
import type { BlueBubblesSettings } from './settings.ts';
import type { BbServerInfo } from './wire.ts';

/**
 * What the BlueBubbles server can do (GET /api/v1/server/info), asked until it answers: a host
 * declares capabilities with its lease, so it cannot ask for one before it knows them.
 */
export async function probeServer(settings: BlueBubblesSettings, log: Logger, signal?: AbortSignal): Promise<ServerAbilities> {
  const api = new BlueBubblesApi(settings.url, settings.password);
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await api.call<BbServerInfo>('GET', '/server/info');
      if (answer.status === 200 && answer.body.data) {
        const abilities = abilitiesOf(answer.body.data);
        log.info({ bluebubbles: settings.url, ...abilities, osVersion: answer.body.data.os_version }, 'BlueBubbles server info');
        if (!abilities.privateApi) log.warn('the BlueBubbles Private API is off or its helper is not connected: only plain sends are declared');
        return abilities;
      }
      log.warn({ answer: describe(answer), attempt }, 'BlueBubbles server info not available; asking again');
    } catch (error) {
      if (error instanceof Error && /refused the password/.test(error.message)) throw error;
      log.warn({ err: error, attempt }, 'BlueBubbles server not reachable; asking again');
    }
    await delay(Math.min(250 * 2 ** attempt, 5_000), undefined, signal ? { signal } : {});
  }
}
