#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { createIdSource } from '../ids.ts';
import { openStore } from '../store/open.ts';
import { migrateDatabase } from '../store/postgres/migrate.ts';
import { StoreError, type AccountRecord, type Store } from '../store/types.ts';
import { issueCredential } from '../auth/issue.ts';
import { webhooksCommand } from './webhooks.ts';
import { tailCommand } from './tail.ts';
import { paint, table, time, UsageError } from './format.ts';

const HELP = `switchboard: operate a Switchboard service (reads and writes its store directly)

Usage: switchboard <command> [arguments] [--data-dir DIR] [--json]

  accounts create <name>                 create an account
  accounts list                          list accounts
  keys create <account> [--label TEXT]   create an account API key (printed once)
  keys list <account>                    list an account's keys (API and connector)
  keys revoke <keyId>                    revoke a key at once
  connector-keys create <account> [--label TEXT]
                                         create a connector host key (printed once)
  pause <account> | pause --all          pause outbound sending (commands answer 503 outbound_paused)
  resume <account> | resume --all        resume outbound sending
  hosts                                  list connector hosts and their leases
  tail <account> [--after ID|now]        follow the account's response stream (from its start,
                                         after an event id, or from now on)
  webhooks list <account>                list the account's webhook endpoints (state, cursor, backlog)
  webhooks disable|enable <account> <endpointId>
                                         stop or resume deliveries to an endpoint
  migrate                                apply pending schema migrations (PostgreSQL)

The installed switchboard executable (docs/deploying.md) also runs:
  serve                                  the server (configured from the environment)
  connector run [--flag value]...        a connector host (switchboard connector --help)

<account> is an account id or name. The store is the PostgreSQL database at
SWITCHBOARD_DATABASE_URL when it is set, else SWITCHBOARD_DATA_DIR (or --data-dir),
by default ./.switchboard: the same the server uses.

Exit status: 0 done; 2 the command line is wrong, or names something that does not exist (or
already does); 1 anything else failed (the store, the configuration). With --json an error is
one JSON object on stderr, {"error":"<code>","message":"..."}: usage, account_not_found,
account_exists, key_not_found, endpoint_not_found, config_invalid, store_failed, internal.`;

/** Times as the API writes them, ISO 8601, in --json output. */
function isoTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(isoTimes);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, key.endsWith('At') && typeof v === 'number' ? new Date(v).toISOString() : v]));
}

async function account(store: Store, idOrName: string | undefined): Promise<AccountRecord> {
  if (!idOrName) throw new UsageError('name an account (id or name)');
  const found = await store.findAccount(idOrName);
  if (!found) throw new UsageError(`no account "${idOrName}"; see: switchboard accounts list`, 'account_not_found');
  return found;
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        label: { type: 'string', default: '' },
        all: { type: 'boolean', default: false },
        after: { type: 'string', default: '0' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // An unknown option or a missing option value is a usage error (exit 2), not a failure.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  const [command, sub, arg] = positionals;
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (!command) throw new UsageError('name a command');
  if (command === 'serve' || command === 'connector') {
    throw new UsageError(`"${command}" is a command of the installed switchboard executable (docs/deploying.md); in the monorepo: ${command === 'serve' ? 'node apps/server/dist/main.js' : 'npx -y pnpm@10.34.9 connector run ...'}`);
  }
  const config = loadConfig();
  const out = (human: string, json: unknown) => console.log(values.json ? JSON.stringify(isoTimes(json), null, 2) : human);
  if (command === 'migrate') {
    if (!config.databaseUrl) {
      // The embedded store migrates itself whenever it opens.
      await (await openStore(config, { dataDir: values['data-dir'] ?? config.dataDir })).close();
      out(`${paint('green', '✔')} the SQLite store is up to date`, { store: 'sqlite' });
      return;
    }
    const { from, to } = await migrateDatabase(config.databaseUrl);
    out(`${paint('green', '✔')} ${from === to ? `the schema is up to date (version ${to})` : `migrated the schema from version ${from} to ${to}`}`, { store: 'postgres', from, to });
    return;
  }
  // The operator CLI never changes the schema by itself: a PostgreSQL schema behind this build is refused.
  const store = await openStore(config, { dataDir: values['data-dir'] ?? config.dataDir, migrate: false });
  try {
    switch (`${command} ${['accounts', 'keys', 'connector-keys', 'webhooks'].includes(command) ? sub : ''}`.trim()) {
      case 'accounts create': {
        const name = arg;
        if (!name) throw new UsageError('accounts create <name>');
        if (await store.findAccount(name)) throw new UsageError(`an account named "${name}" exists`, 'account_exists');
        const created = await store.createAccount({ id: createIdSource().next(), name, createdAt: Date.now() });
        out(`${paint('green', '✔')} account ${paint('bold', created.name)} ${created.id}`, created);
        return;
      }
      case 'accounts list': {
        const accounts = await store.listAccounts();
        out(
          accounts.length === 0 ? 'no accounts yet: switchboard accounts create <name>'
            : table([['ID', 'NAME', 'OUTBOUND', 'CREATED'], ...accounts.map((a) => [a.id, a.name, a.outboundPaused ? paint('yellow', 'paused') : 'sending', time(a.createdAt)])]),
          accounts,
        );
        return;
      }
      case 'keys create':
      case 'connector-keys create': {
        const target = await account(store, arg);
        const kind = command === 'keys' ? 'account' : 'connector';
        const { secret, credential } = await issueCredential(store, target.id, kind, values.label, Date.now());
        out(
          `${paint('green', '✔')} ${kind === 'account' ? 'API key' : 'connector key'} ${credential.id} for ${target.name}\n\n  ${paint('bold', secret)}\n\n${paint('yellow', 'Shown once: store it now. Only its hash is kept.')}`,
          { ...credential, secret },
        );
        return;
      }
      case 'keys list': {
        const target = await account(store, arg);
        const keys = await store.listCredentials(target.id);
        out(
          table([['ID', 'KIND', 'PREFIX', 'LABEL', 'CREATED', 'REVOKED'], ...keys.map((k) => [k.id, k.kind, `${k.prefix}…`, k.label, time(k.createdAt), k.revokedAt === null ? '-' : paint('red', time(k.revokedAt))])]),
          keys,
        );
        return;
      }
      case 'keys revoke': {
        if (!arg) throw new UsageError('keys revoke <keyId>');
        const revoked = await store.revokeCredential(arg, Date.now());
        if (!revoked) throw new UsageError(`no key "${arg}"`, 'key_not_found');
        out(`${paint('green', '✔')} revoked ${revoked.id} (${revoked.kind})`, revoked);
        return;
      }
      case 'pause':
      case 'resume': {
        const paused = command === 'pause';
        if (values.all) {
          await store.setOutboundPaused(null, paused);
          out(`${paint('green', '✔')} outbound ${paused ? 'paused' : 'resumed'} for every account`, { all: true, paused });
        } else {
          const target = await account(store, sub);
          await store.setOutboundPaused(target.id, paused);
          out(`${paint('green', '✔')} outbound ${paused ? 'paused' : 'resumed'} for ${target.name}`, { accountId: target.id, paused });
        }
        return;
      }
      case 'hosts': {
        const now = Date.now();
        const leases = await store.listLeases();
        const names = new Map((await store.listAccounts()).map((a) => [a.id, a.name]));
        out(
          leases.length === 0 ? 'no connector host has taken a lease yet'
            : table([['ACCOUNT', 'HOST', 'EPOCH', 'OS', 'LEASE', 'EXPIRES'], ...leases.map((l) => [names.get(l.accountId) ?? l.accountId, l.hostId, String(l.epoch), `macOS ${l.osMajorVersion}`, l.expiresAt > now ? paint('green', 'live') : paint('dim', 'expired'), time(l.expiresAt)])]),
          leases.map((l) => ({ ...l, accountName: names.get(l.accountId) ?? null, live: l.expiresAt > now })),
        );
        return;
      }
      case 'tail': {
        await tailCommand(store, await account(store, sub), values.after, values.json);
        return;
      }
      case 'webhooks list':
      case 'webhooks enable':
      case 'webhooks disable': {
        await webhooksCommand(store, sub!, await account(store, arg), positionals[3], out);
        return;
      }
      default:
        throw new UsageError(`unknown command "${positionals.join(' ')}"`);
    }
  } finally {
    await store.close();
  }
}

/** What a failure is reported as: its --json code, its exit status (see HELP), and its message. */
function failure(error: unknown): { code: string; exit: number; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError) return { code: error.code, exit: 2, message };
  if (error instanceof ConfigError) return { code: 'config_invalid', exit: 1, message };
  if (error instanceof StoreError) return { code: 'store_failed', exit: 1, message };
  return { code: 'internal', exit: 1, message };
}

const argv = process.argv.slice(2);
run(argv).catch((error: unknown) => {
  const { code, exit, message } = failure(error);
  // --json holds for errors too, even when the rest of the command line could not be parsed.
  const json = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : undefined).includes('--json');
  if (json) console.error(JSON.stringify({ error: code, message }));
  else if (error instanceof UsageError) console.error(`${paint('red', 'error:')} ${message}\n\nRun switchboard --help for usage.`);
  else console.error(`${paint('red', 'error:')} ${message}`);
  process.exitCode = exit;
});
