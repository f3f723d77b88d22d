// The operator CLI, loaded by main.ts. What a command needs beyond the command line (the store,
// the admin API's client, a subcommand's own module) is imported when that command runs, so
// `--help` or a mistyped command line loads next to nothing.
import { UsageError, paint, table } from './format.ts';
import { OperatorError, type Account, type Operator } from './operator.ts';
import { parse } from './options.ts';
import { HOLD_OPTIONS, policiesCommand, policyChanges, POLICY_OPTIONS, type PolicyArguments } from './policies.ts';
import { takeInterrupts, type Interrupt } from './terminal.ts';

const HELP = `switchboard: operate a Switchboard service

Usage: switchboard <command> [arguments] [--data-dir DIR | --url URL] [--json]

  accounts create <name>                 create an account
  accounts list                          list accounts
  keys create <account> [--label TEXT]   create an account API key (printed once)
  keys list <account>                    list an account's keys (API and connector)
  keys revoke <keyId>                    revoke a key at once
  connector-keys create <account> [--label TEXT]
                                         create a connector host key (printed once)
  operator-keys create [--label TEXT] [--role full|read-only]
                                         create an operator key for the console and the admin
                                         API (printed once; full by default)
  operator-keys list                     list operator keys
  operator-keys revoke <keyId>           revoke an operator key at once
  pause <account> | pause --all          pause outbound sending (commands answer 503 outbound_paused)
  resume <account> | resume --all        resume outbound sending
  hosts                                  list connector hosts and their leases
  policies <account> [--conversation ID]
                                         show the account's line policies (each setting, or off)
                                         and what they count now: new contacts, whether quiet
                                         hours hold commands and until when, the commands held
                                         (with --conversation, that conversation's sends too)
  policies set <account> [--new-contacts-per-hour N|off] [--new-contacts-per-day N|off]
      [--pacing-per-minute N|off] [--loop-breaker N|off]
      [--quiet-hours HH:MM-HH:MM|off] [--time-zone ZONE]
      [--conversation-time-zone <conversationId>=ZONE|off]...
      [--first-contact-approval on|off]
                                         change the named line policies, keep the others. Quiet
                                         hours hold every command from the first time until the
                                         second (local time, in --time-zone, an IANA name such as
                                         Europe/Paris; a conversation may have its own zone,
                                         repeat the option for each); first-contact approval
                                         holds a first message to a new address for an operator
  transfer-limits <account>              show what the account may upload (POST /v1/transfers, on a
                                         server with SWITCHBOARD_TRANSFERS=enabled)
  transfer-limits set <account> [--max-bytes N] [--types TYPE,...|none]
                                         change them (types such as image/* or application/pdf);
                                         what is left out is kept
  held <account>                         list the commands a line policy holds (id, type, policy,
                                         target, accepted at)
  release <commandId>                    let a held command go out now (a first contact approved
                                         during quiet hours waits for the window)
  reject <commandId> [--reason TEXT]     settle a held command failed (first_contact_rejected or
                                         quiet_hours_rejected, with the reason as its message);
                                         nothing is sent
  tail <account> [--after ID|now]        follow the account's response stream (from its start,
                                         after an event id, or from now on)
  webhooks list <account>                list the account's webhook endpoints (state, cursor, backlog)
  webhooks disable|enable <account> <endpointId>
                                         stop or resume deliveries to an endpoint
  migrate                                apply pending schema migrations (PostgreSQL; not with --url)

The installed switchboard executable (docs/deploying.md) also runs:
  serve                                  the server (configured from the environment)
  connector run [--flag value]...        a connector host (switchboard connector --help)

<account> is an account id or name. By default the CLI reads and writes the store directly: the
PostgreSQL database at SWITCHBOARD_DATABASE_URL when it is set, else SWITCHBOARD_DATA_DIR (or
--data-dir), by default ./.switchboard: the same the server uses. With --url it runs anywhere,
through the server's admin API, with the operator key in SWITCHBOARD_OPERATOR_KEY.

Examples:
  switchboard accounts create acme
  switchboard keys create acme --label "support bot"
  switchboard policies set acme --pacing-per-minute 10 --loop-breaker off
  switchboard policies set acme --quiet-hours 21:00-08:00 --time-zone Europe/Paris
  switchboard reject 0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5b --reason "not a customer"
  SWITCHBOARD_OPERATOR_KEY=sbo_... switchboard hosts --url https://switchboard.example

Exit status: 0 done; 2 the command line is wrong, or names something that does not exist (or
already does); 1 anything else failed (the store, the server, the configuration, the key). With
--json an error is one JSON object on stderr, {"error":"<code>","message":"..."}: usage,
invalid_body, account_not_found, account_exists, key_not_found, webhook_endpoint_not_found,
command_not_found, command_not_held (exit 2), config_invalid, store_failed, unreachable,
unauthenticated, forbidden, internal (exit 1).`;

const SUBCOMMANDS = ['accounts', 'keys', 'connector-keys', 'operator-keys', 'webhooks'];

/** The account named by id or name. */
async function account(operator: Operator, idOrName: string | undefined): Promise<Account> {
  if (!idOrName) throw new UsageError('name an account (id or name)');
  const accounts = await operator.listAccounts();
  const found = accounts.find((a) => a.id === idOrName.toLowerCase()) ?? accounts.find((a) => a.name === idOrName);
  if (!found) throw new UsageError(`no account "${idOrName}"; see: switchboard accounts list`, 'account_not_found');
  return found;
}

/** A key named by id: the service's key_not_found, said with the id the user typed. */
async function named<T>(what: string, id: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof OperatorError && error.code.endsWith('_not_found')) throw new UsageError(`no ${what} "${id}"`, error.code);
    throw error;
  }
}

/** The service to operate: the admin API at --url with the operator key, or the store. */
async function connect(url: string | undefined, dataDir: string | undefined): Promise<Operator> {
  if (url !== undefined) {
    if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url takes the server's base URL (http:// or https://), not "${url}"`);
    const key = process.env.SWITCHBOARD_OPERATOR_KEY;
    if (!key) throw new UsageError('--url needs an operator key in SWITCHBOARD_OPERATOR_KEY (make one where the store is: switchboard operator-keys create)');
    const { remoteOperator } = await import('./remote.ts');
    return remoteOperator(url, key);
  }
  const [{ loadConfig }, { openStore }, { directOperator }] = await Promise.all([import('../config.ts'), import('../store/open.ts'), import('./direct.ts')]);
  const config = loadConfig();
  // The operator CLI never changes the schema by itself: a PostgreSQL schema behind this build is refused.
  return directOperator(await openStore(config, { dataDir: dataDir ?? config.dataDir, migrate: false }), config);
}

async function run(argv: string[], interrupt: Interrupt | undefined): Promise<void> {
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
  const out = (human: string, json: unknown) => console.log(values.json ? JSON.stringify(json, null, 2) : human);
  // `policies <account>` shows, `policies set <account>` changes: its sub is the account unless it is "set".
  const showOrSet = command === 'policies' || command === 'transfer-limits';
  const line = showOrSet ? (sub === 'set' ? `${command} set` : command) : `${command} ${SUBCOMMANDS.includes(command) ? sub ?? '' : ''}`.trim();
  const known = ['accounts create', 'accounts list', 'keys create', 'keys list', 'keys revoke', 'connector-keys create', 'operator-keys create',
    'operator-keys list', 'operator-keys revoke', 'pause', 'resume', 'hosts', 'tail', 'webhooks list', 'webhooks enable', 'webhooks disable', 'policies', 'policies set',
    'transfer-limits', 'transfer-limits set', 'held', 'release', 'reject', 'migrate'];
  if (!known.includes(line)) throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  if (command === 'migrate') {
    if (values.url !== undefined) throw new UsageError('migrate runs where the database is, not with --url');
    const config = (await import('../config.ts')).loadConfig();
    if (!config.databaseUrl) {
      // The embedded store migrates itself whenever it opens.
      const { openStore } = await import('../store/open.ts');
      await (await openStore(config, { dataDir: values['data-dir'] ?? config.dataDir })).close();
      out(`${paint('green', '✔')} the SQLite store is up to date`, { store: 'sqlite' });
      return;
    }
    const { migrateDatabase } = await import('../store/postgres/migrate.ts');
    const { from, to } = await migrateDatabase(config.databaseUrl);
    out(`${paint('green', '✔')} ${from === to ? `the schema is up to date (version ${to})` : `migrated the schema from version ${from} to ${to}`}`, { store: 'postgres', from, to });
    return;
  }
  // What the command line lacks is said before anything is opened.
  if (line === 'accounts create' && !arg) throw new UsageError('accounts create <name>');
  if ((line === 'keys revoke' || line === 'operator-keys revoke') && !arg) throw new UsageError(`${line} <keyId>`);
  if (line === 'release' || line === 'reject') {
    if (!sub) throw new UsageError(`${line} <commandId>`);
    if (arg) throw new UsageError(`${line} takes one command id (not also "${arg}")`);
  }
  if (values.reason !== undefined && line !== 'reject') throw new UsageError('--reason belongs to: switchboard reject <commandId>');
  if (values.conversation !== undefined && line !== 'policies') throw new UsageError('--conversation belongs to: switchboard policies <account>');
  const policyArgs = Object.fromEntries([...POLICY_OPTIONS, ...HOLD_OPTIONS].filter((o) => values[o] !== undefined).map((o) => [o, values[o]])) as PolicyArguments;
  const changes = policyChanges(policyArgs);
  if (line === 'policies set') {
    if (Object.keys(policyArgs).length === 0) {
      throw new UsageError(`policies set <account> and at least one of ${[...POLICY_OPTIONS, ...HOLD_OPTIONS].map((o) => `--${o}`).join(', ')}`);
    }
  } else if (Object.keys(policyArgs).length > 0) {
    throw new UsageError(`--${Object.keys(policyArgs)[0]} belongs to: switchboard policies set <account>`);
  }
  const limitArgs = [values['max-bytes'], values.types];
  if (line === 'transfer-limits set' && limitArgs.every((v) => v === undefined)) throw new UsageError('transfer-limits set <account> and --max-bytes N, --types TYPE,...|none or both');
  if (line !== 'transfer-limits set' && limitArgs.some((v) => v !== undefined)) {
    throw new UsageError(`--${values['max-bytes'] !== undefined ? 'max-bytes' : 'types'} belongs to: switchboard transfer-limits set <account>`);
  }
  const limitChanges = line === 'transfer-limits set' ? (await import('./transfers.ts')).transferLimitChanges(values['max-bytes'], values.types) : null;
  if (line === 'operator-keys create' && values.role !== 'full' && values.role !== 'read-only') throw new UsageError('--role is full or read-only');
  if (line === 'tail') {
    const { tailCommand } = await import('./tail.ts');
    // tail opens the store itself: Ctrl-C, taken by main.ts, may end it while that is under way.
    const open = async () => {
      const operator = await connect(values.url, values['data-dir']);
      return { operator, target: await account(operator, sub).catch(async (error: unknown) => { await operator.close(); throw error; }) };
    };
    await tailCommand(open, values.after, values.json, interrupt ?? takeInterrupts());
    return;
  }
  const operator = await connect(values.url, values['data-dir']);
  try {
    switch (line) {
      case 'accounts create': {
        const created = await operator.createAccount(arg!);
        out(`${paint('green', '✔')} account ${paint('bold', created.name)} ${created.id}`, created);
        return;
      }
      case 'accounts list': {
        const accounts = await operator.listAccounts();
        out(
          accounts.length === 0 ? 'no accounts yet: switchboard accounts create <name>'
            : table([['ID', 'NAME', 'OUTBOUND', 'HOST', 'CREATED'], ...accounts.map((a) => [
              a.id, a.name, a.outboundPaused ? paint('yellow', 'paused') : 'sending', a.host === null ? '-' : a.host.live ? paint('green', a.host.hostId) : paint('dim', `${a.host.hostId} (expired)`), a.createdAt,
            ])]),
          accounts,
        );
        return;
      }
      case 'keys create':
      case 'connector-keys create': {
        const target = await account(operator, arg);
        const kind = command === 'keys' ? 'account' : 'connector';
        const key = await operator.createKey(target.id, kind, values.label);
        out(
          `${paint('green', '✔')} ${kind === 'account' ? 'API key' : 'connector key'} ${key.id} for ${target.name}\n\n  ${paint('bold', key.secret)}\n\n${paint('yellow', 'Shown once: store it now. Only its hash is kept.')}`,
          key,
        );
        return;
      }
      case 'keys list': {
        const keys = await operator.listKeys((await account(operator, arg)).id);
        out(
          table([['ID', 'KIND', 'PREFIX', 'LABEL', 'CREATED', 'REVOKED'], ...keys.map((k) => [k.id, k.kind, `${k.prefix}…`, k.label, k.createdAt, k.revokedAt === null ? '-' : paint('red', k.revokedAt)])]),
          keys,
        );
        return;
      }
      case 'keys revoke': {
        const revoked = await named('key', arg!, () => operator.revokeKey(arg!));
        out(`${paint('green', '✔')} revoked ${revoked.id} (${revoked.kind})`, revoked);
        return;
      }
      case 'operator-keys create': {
        const key = await operator.createOperatorKey(values.label, values.role as 'full' | 'read-only');
        out(
          `${paint('green', '✔')} operator key ${key.id} (${key.role})\n\n  ${paint('bold', key.secret)}\n\n${paint('yellow', 'Shown once: store it now. Only its hash is kept.')} It opens /console and the admin API.`,
          key,
        );
        return;
      }
      case 'operator-keys list': {
        const keys = await operator.listOperatorKeys();
        out(
          keys.length === 0 ? 'no operator keys yet: switchboard operator-keys create'
            : table([['ID', 'ROLE', 'PREFIX', 'LABEL', 'CREATED', 'REVOKED'], ...keys.map((k) => [k.id, k.role, `${k.prefix}…`, k.label, k.createdAt, k.revokedAt === null ? '-' : paint('red', k.revokedAt)])]),
          keys,
        );
        return;
      }
      case 'operator-keys revoke': {
        const revoked = await named('operator key', arg!, () => operator.revokeOperatorKey(arg!));
        out(`${paint('green', '✔')} revoked operator key ${revoked.id}`, revoked);
        return;
      }
      case 'pause':
      case 'resume': {
        const paused = command === 'pause';
        if (values.all) {
          await operator.setPaused(null, paused);
          out(`${paint('green', '✔')} outbound ${paused ? 'paused' : 'resumed'} for every account`, { all: true, paused });
        } else {
          const target = await account(operator, sub);
          await operator.setPaused(target.id, paused);
          out(`${paint('green', '✔')} outbound ${paused ? 'paused' : 'resumed'} for ${target.name}`, { accountId: target.id, paused });
        }
        return;
      }
      case 'hosts': {
        const [hosts, accounts] = await Promise.all([operator.listHosts(), operator.listAccounts()]);
        const names = new Map(accounts.map((a) => [a.id, a.name]));
        out(
          hosts.length === 0 ? 'no connector host has taken a lease yet'
            : table([['ACCOUNT', 'HOST', 'EPOCH', 'OS', 'LEASE', 'RENEWED', 'EXPIRES'], ...hosts.map((h) => [
              names.get(h.accountId) ?? h.accountId, h.hostId, String(h.epoch), `macOS ${h.osMajorVersion}`, h.live ? paint('green', 'live') : paint('dim', 'expired'), h.renewedAt, h.expiresAt,
            ])]),
          hosts.map((h) => ({ ...h, accountName: names.get(h.accountId) ?? null })),
        );
        return;
      }
      case 'policies':
      case 'policies set': {
        await policiesCommand(operator, await account(operator, line === 'policies' ? sub : arg), line === 'policies set', changes, values.conversation, out);
        return;
      }
      case 'transfer-limits':
      case 'transfer-limits set': {
        const { transferLimitsCommand } = await import('./transfers.ts');
        await transferLimitsCommand(operator, await account(operator, limitChanges ? arg : sub), limitChanges, out);
        return;
      }
      case 'held': {
        const { heldCommand } = await import('./holds.ts');
        await heldCommand(operator, await account(operator, sub), out);
        return;
      }
      case 'release': {
        const { releaseCommand } = await import('./holds.ts');
        await releaseCommand(operator, sub!, out);
        return;
      }
      case 'reject': {
        const { rejectCommand } = await import('./holds.ts');
        await rejectCommand(operator, sub!, values.reason, out);
        return;
      }
      default: {
        // webhooks list|enable|disable
        const { webhooksCommand } = await import('./webhooks.ts');
        await webhooksCommand(operator, sub!, await account(operator, arg), positionals[3], out);
      }
    }
  } finally {
    await operator.close();
  }
}

/** The service's answers that mean the command line names something wrong (exit 2). */
const COMMAND_LINE_CODES = new Set(['invalid_body', 'account_not_found', 'account_exists', 'key_not_found', 'webhook_endpoint_not_found', 'command_not_found', 'command_not_held']);

/** What a failure is reported as: its --json code, its exit status (see HELP), and its message. */
async function failure(error: unknown): Promise<{ code: string; exit: number; message: string }> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError) return { code: error.code, exit: 2, message };
  if (error instanceof OperatorError) return { code: error.code, exit: COMMAND_LINE_CODES.has(error.code) ? 2 : 1, message };
  // Loaded already when they threw one of theirs.
  const [{ ConfigError }, { StoreError }] = await Promise.all([import('../config.ts'), import('../store/types.ts')]);
  if (error instanceof ConfigError) return { code: 'config_invalid', exit: 1, message };
  if (error instanceof StoreError) return { code: 'store_failed', exit: 1, message };
  return { code: 'internal', exit: 1, message };
}

/** Runs the command line; a failure is reported on stderr, and its exit status set. */
export async function main(argv: string[], interrupt?: Interrupt): Promise<void> {
  try {
    await run(argv, interrupt);
  } catch (error) {
    const { code, exit, message } = await failure(error);
    // --json holds for errors too, even when the rest of the command line could not be parsed.
    const json = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : undefined).includes('--json');
    if (json) console.error(JSON.stringify({ error: code, message }));
    else if (error instanceof UsageError) console.error(`${paint('red', 'error:')} ${message}\n\nRun switchboard --help for usage.`);
    else console.error(`${paint('red', 'error:')} ${message}`);
    process.exitCode = exit;
  } finally {
    // Taken for a tail that did not run (--help, a mistake in the command line): give it back.
    interrupt?.release();
  }
}
