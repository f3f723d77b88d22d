import { SwitchboardClient } from '@switchboard/sdk';

/** A client for the service named by SWITCHBOARD_URL and SWITCHBOARD_API_KEY. */
export function clientFromEnv(): SwitchboardClient {
  const baseUrl = process.env.SWITCHBOARD_URL ?? 'http://127.0.0.1:7300';
  const apiKey = process.env.SWITCHBOARD_API_KEY;
  if (!apiKey) {
    console.error('Set SWITCHBOARD_API_KEY: source .switchboard/demo.env after `npx -y pnpm@10.34.9 start`, or create one with `npx -y pnpm@10.34.9 switchboard keys create <account>`.');
    process.exit(2);
  }
  return new SwitchboardClient({ baseUrl, apiKey });
}

/** The id of the newest event on the stream, so a new reader starts at "now". */
export async function streamHead(client: SwitchboardClient): Promise<string> {
  for (let after = '0'; ; ) {
    const page = await client.eventPage({ after, limit: 1000 });
    if (page.nextAfter === after) return after;
    after = page.nextAfter;
  }
}
