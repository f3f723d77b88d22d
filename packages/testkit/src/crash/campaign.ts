import { addCounts, coverageNames, emptyCounts, failures, invariantNames, type Counts } from './invariants.ts';
import { roundSeed } from './random.ts';
import { assertBuilt, DEFAULT_LEASE_TTL_MS, runRound, type Campaign, type RoundOptions, type RoundResult } from './round.ts';

/** A round that could not be run to its checks (a process that never came up, a store read that failed). */
export interface RoundError {
  campaign: Campaign;
  seed: number;
  error: string;
}

export interface CampaignOptions {
  /** Server-kill rounds. */
  rounds: number;
  /** Host-kill rounds. */
  hostKills: number;
  seed: number;
  leaseTtlMs?: number;
  /** Line policies on for every round's account (RoundOptions.linePolicies). */
  linePolicies?: boolean;
  /** Quiet hours on, then off during the burst, for every round (RoundOptions.holds). */
  holds?: boolean;
  keep?: boolean;
  /** Print each failing round's offending ids. */
  verbose?: boolean;
  log?: (line: string) => void;
}

/**
 * Runs `rounds` server-kill rounds with seeds seed, seed+1, ... and then `hostKills` host-kill
 * rounds with seeds seed+rounds, ...; a round is reproduced by its campaign and its own seed.
 */
export async function runCampaigns(options: CampaignOptions): Promise<{ results: RoundResult[]; errors: RoundError[] }> {
  assertBuilt();
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const plan: Array<{ campaign: Campaign; seed: number }> = [];
  for (let i = 0; i < options.rounds; i++) plan.push({ campaign: 'server-kill', seed: roundSeed(options.seed, i) });
  for (let i = 0; i < options.hostKills; i++) plan.push({ campaign: 'host-kill', seed: roundSeed(options.seed, options.rounds + i) });
  const results: RoundResult[] = [];
  const errors: RoundError[] = [];
  for (const { campaign, seed } of plan) {
    const round: RoundOptions = { campaign, seed, log };
    if (options.leaseTtlMs !== undefined) round.leaseTtlMs = options.leaseTtlMs;
    if (options.keep !== undefined) round.keep = options.keep;
    if (options.linePolicies) round.linePolicies = true;
    if (options.holds) round.holds = true;
    const reproduce = `reproduce: pnpm crash ${reproduceArgs(campaign, seed, options.leaseTtlMs, options.linePolicies, options.holds)}`;
    let result: RoundResult;
    try {
      result = await runRound(round);
    } catch (error) {
      errors.push({ campaign, seed, error: (error as Error).message });
      log(`  ERR  ${campaign} seed ${seed}: ${(error as Error).message}\n       ${reproduce}`);
      continue;
    }
    results.push(result);
    const failed = invariantNames.filter((key) => result.counts[key] > 0).map((key) => `${key}=${result.counts[key]}`);
    log(
      `  ${failed.length ? 'FAIL' : 'ok  '} ${campaign} seed ${seed}: accepted ${result.counts.accepted}, server kills ${result.serverKills}${result.downtimes.length ? ` (down ${result.downtimes.join('/')} ms)` : ''}, host kills ${result.hostKills}, ` +
        `message states ${result.counts.messageStates} (in flight at kills ${result.inFlightAtKills.join('/')}), ${options.holds ? `held ${result.counts.held}, released ${result.counts.released} (quiet hours off ${result.holdsOffMs?.asked}-${result.holdsOffMs?.done} ms into a ${result.burstMs} ms burst), ` : ''}unknown ${result.unknown}, rejected ${result.rejected.length}, ${(result.durationMs / 1000).toFixed(1)} s${failed.length ? ` -- ${failed.join(' ')}` : ''}` +
        `${failed.length ? `\n       ${reproduce}` : ''}`,
    );
    if (failed.length && options.verbose) for (const line of result.details.slice(0, 20)) log(`       ${line}`);
    if (result.rejected.length) log(`       rejected: ${[...new Set(result.rejected)].join('; ')}`);
  }
  return { results, errors };
}

export function reproduceArgs(campaign: Campaign, seed: number, leaseTtlMs?: number, linePolicies = false, holds = false): string {
  const ttl = leaseTtlMs === undefined || leaseTtlMs === DEFAULT_LEASE_TTL_MS ? '' : ` --lease-ttl-ms ${leaseTtlMs}`;
  return `${campaign === 'server-kill' ? `--rounds 1 --seed ${seed}` : `--rounds 0 --host-kills 1 --seed ${seed}`}${ttl}${linePolicies ? ' --line-policies' : ''}${holds ? ' --holds' : ''}`;
}

/**
 * One row per campaign: every count summed over its rounds (what was exercised, then each invariant),
 * and the seeds of failing rounds per invariant.
 */
export function summarise(results: RoundResult[], errors: RoundError[] = []): string {
  const campaigns = [...new Set(results.map((r) => r.campaign))];
  const columns: Array<keyof Counts> = [...coverageNames, ...invariantNames];
  const rows = campaigns.map((campaign) => {
    const rounds = results.filter((r) => r.campaign === campaign);
    const total = rounds.reduce((sum, r) => addCounts(sum, r.counts), emptyCounts());
    const kills = rounds.reduce((n, r) => n + (campaign === 'server-kill' ? r.serverKills : r.hostKills), 0);
    const seconds = rounds.reduce((n, r) => n + r.durationMs, 0) / 1000 / rounds.length;
    return { name: `${campaign} (${rounds.length} rounds, ${kills} kills, ${seconds.toFixed(1)} s/round)`, total };
  });
  const nameWidth = Math.max(8, ...rows.map((r) => r.name.length));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r.total[c]).length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(nameWidth) : cell.padStart(widths[i - 1]!))).join('  ');
  const out = [line(['campaign', ...columns]), ...rows.map((r) => line([r.name, ...columns.map((c) => String(r.total[c]))]))];
  const failing = invariantNames.map((key) => {
    const seeds = results.filter((r) => r.counts[key] > 0).map((r) => `${r.campaign === 'server-kill' ? 's' : 'h'}${r.seed}`);
    return seeds.length ? `  ${key}: ${seeds.join(' ')}` : '';
  }).filter(Boolean);
  if (failing.length) out.push('', 'failing rounds (s = server-kill, h = host-kill seed):', ...failing);
  if (errors.length) out.push('', `rounds that could not run: ${errors.map((e) => `${e.campaign === 'server-kill' ? 's' : 'h'}${e.seed}`).join(' ')}`);
  return out.join('\n');
}

export function totalFailures(results: RoundResult[]): number {
  return results.reduce((n, r) => n + failures(r.counts), 0);
}
