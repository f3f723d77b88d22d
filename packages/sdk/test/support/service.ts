/** The real server for end-to-end tests, with an account whose connector host is the test's. */
import { removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { SwitchboardClient, type ClientOptions } from '../../src/index.ts';
import { TestHost, type Account } from './host.ts';

export interface Service {
  server: ServerProcess;
  /** Stops the server; fails if it had already died, with what it wrote to stderr. */
  stop(): Promise<void>;
}

/**
 * SIGTERM, then SIGKILL if the server is still running 3 s later (a healthy one exits in
 * milliseconds). It is not, when a connector host had a dispatch long-poll open: the server waits
 * for the poll and then for the connection it leaves idle (reported to the server's owner). The
 * tests here do not check shutdown, so this warns rather than fails.
 */
export async function stopServer(server: ServerProcess): Promise<void> {
  const exited = await Promise.race([server.stop().then(() => true), new Promise<false>((resolve) => setTimeout(resolve, 3_000, false).unref())]);
  if (!exited) {
    console.warn(`switchboard server ${server.url} still running 3 s after SIGTERM; killed`);
    await server.kill();
  }
}

export async function startService(env: Record<string, string> = {}): Promise<Service> {
  const server = await startServer(env);
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  server.child.stdout!.on('data', keep);
  server.child.stderr!.on('data', keep);
  let exit: string | undefined;
  server.child.once('exit', (code, signal) => (exit = `exited with ${code ?? signal}`));
  return {
    server,
    async stop() {
      const died = exit;
      await stopServer(server);
      removeDataDir(server.dataDir);
      if (died) throw new Error(`the server ${died} during the tests; its output:\n${output.join('').slice(-4000)}`);
    },
  };
}

export interface ReadyAccount extends Account {
  host: TestHost;
  client: SwitchboardClient;
  direct: { conversationId: string; externalId: string };
  group: { conversationId: string; externalId: string };
}

/** A new account with a live lease, a direct and a group conversation, and a client for it. */
export async function readyAccount(server: ServerProcess, options: Partial<ClientOptions> = {}): Promise<ReadyAccount> {
  const account = await server.account();
  const host = await new TestHost(server.url, account).lease();
  const direct = await host.conversation('direct', ['+14155550123']);
  const group = await host.conversation('group', ['+14155550123', 'dana@example.com'], 'Team');
  const client = new SwitchboardClient({ baseUrl: server.url, apiKey: account.apiKey, ...options });
  return { ...account, host, client, direct, group };
}
