import { describe, expect, test } from 'vitest';
import { runCampaigns, reproduceArgs } from './campaign.ts';
import { invariantNames } from './invariants.ts';

// A fresh seed each run widens what CI explores; CRASH_SEED replays one.
const seed = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);

describe('every accepted command settles exactly once, each message state shows once, and the stream never lies, across kill -9', () => {
  test(`3 server-kill rounds and 1 host-kill round (seed ${seed})`, async () => {
    const lines: string[] = [];
    const { results, errors } = await runCampaigns({ rounds: 3, hostKills: 1, seed, log: (line) => lines.push(line) });
    process.stdout.write(`${lines.join('\n')}\n`);
    const broken = results.flatMap((result) =>
      invariantNames.filter((key) => result.counts[key] > 0).map((key) => `${key}=${result.counts[key]} in pnpm crash ${reproduceArgs(result.campaign, result.seed)}`),
    );
    const details = results.flatMap((result) => result.details.slice(0, 5).map((line) => `${result.campaign} ${result.seed}: ${line}`));
    expect(errors).toEqual([]);
    expect(broken, details.join('\n')).toEqual([]);
    for (const result of results) expect(result.counts.accepted, `${result.campaign} seed ${result.seed}`).toBeGreaterThan(0);
  });

  test(`1 server-kill round with line policies on: every send written by the policed path (seed ${seed})`, async () => {
    const lines: string[] = [];
    const { results, errors } = await runCampaigns({ rounds: 1, hostKills: 0, seed: seed + 1, linePolicies: true, log: (line) => lines.push(line) });
    process.stdout.write(`${lines.join('\n')}\n`);
    const [result] = results;
    expect(errors).toEqual([]);
    const broken = invariantNames.filter((key) => result!.counts[key] > 0).map((key) => `${key}=${result!.counts[key]}`);
    expect(broken, `pnpm crash ${reproduceArgs(result!.campaign, result!.seed, undefined, true)}\n${result!.details.slice(0, 5).join('\n')}`).toEqual([]);
    expect(result!.counts.accepted).toBeGreaterThan(0);
    // The limits are out of the workload's reach: nothing is refused.
    expect(result!.rejected).toEqual([]);
  });

  test(`1 server-kill round with quiet hours on, then off during the burst, and a kill around the release: each held command held and released once (seed ${seed})`, async () => {
    const lines: string[] = [];
    const { results, errors } = await runCampaigns({ rounds: 1, hostKills: 0, seed: seed + 2, holds: true, log: (line) => lines.push(line) });
    process.stdout.write(`${lines.join('\n')}\n`);
    const [result] = results;
    expect(errors).toEqual([]);
    const broken = invariantNames.filter((key) => result!.counts[key] > 0).map((key) => `${key}=${result!.counts[key]}`);
    expect(broken, `pnpm crash ${reproduceArgs(result!.campaign, result!.seed, undefined, false, true)}\n${result!.details.slice(0, 5).join('\n')}`).toEqual([]);
    expect(result!.counts.accepted).toBeGreaterThan(0);
    // Quiet hours were on when the burst began: its first commands were held, and every hold ended.
    expect(result!.counts.held).toBeGreaterThan(0);
    expect(result!.counts.released).toBe(result!.counts.held);
  });
});
