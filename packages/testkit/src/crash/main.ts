/**
 * The crash harness: kill -9 the built server or connector host during a burst of commands, and
 * once more while the simulated platform delivers, reads, fails and reacts to the messages sent;
 * restart it, and count every broken promise of exactly-once settlement, of each message state
 * reported once (none twice, none lost), and of an honest stream.
 *
 *   pnpm crash --rounds N [--seed S] [--host-kills K] [--lease-ttl-ms T] [--line-policies] [--holds] [--keep] [--verbose]
 *
 * --line-policies: each round's account has line policies on, at limits its workload never
 * reaches, so every send is written by the policed path (its own transaction under a lock).
 *
 * --holds: each round's account has quiet hours on (UTC, from a few minutes ago for two hours), so
 * every command is accepted `held`; the operator CLI or the admin API (drawn per round) turns them
 * off after a random number of the burst's answers and the server's release job (every 5 s)
 * releases them. A server-kill round kills the server once more 0-6 s after the change, around
 * the job. Each command acknowledged `held` must show one command.held and one command.released,
 * released before it settles (holdViolations).
 *
 * Exits 1 when any invariant count is above 0, or a round could not run.
 */
import { parseArgs } from 'node:util';
import { runCampaigns, summarise, totalFailures } from './campaign.ts';
import { DEFAULT_LEASE_TTL_MS } from './round.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    seed: { type: 'string' },
    'host-kills': { type: 'string', default: '0' },
    'lease-ttl-ms': { type: 'string', default: String(DEFAULT_LEASE_TTL_MS) },
    'line-policies': { type: 'boolean', default: false },
    holds: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
  strict: true,
});

function count(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a whole number, got "${value}"\n`);
    process.exit(2);
  }
  return n;
}

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : count('seed', values.seed);
const rounds = count('rounds', values.rounds);
const hostKills = count('host-kills', values['host-kills']);
process.stdout.write(`crash campaign: seed ${seed}, ${rounds} server-kill rounds, ${hostKills} host-kill rounds${values['line-policies'] ? ', line policies' : ''}${values.holds ? ', holds' : ''}\n`);
const { results, errors } = await runCampaigns({
  rounds, hostKills, seed, leaseTtlMs: count('lease-ttl-ms', values['lease-ttl-ms']), linePolicies: values['line-policies'], holds: values.holds, keep: values.keep, verbose: values.verbose,
});
process.stdout.write(`\n${summarise(results, errors)}\n`);
process.exit(totalFailures(results) > 0 || errors.length > 0 ? 1 : 0);
