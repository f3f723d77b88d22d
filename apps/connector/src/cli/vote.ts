/** The vote `inject --poll` describes: null without --poll, a message saying what is wrong with the options otherwise. */
export function voteOf(values: { poll?: string | undefined; vote?: string | undefined; withdraw?: boolean | undefined }): { pollMessageExternalId: string; optionIndex: number | null } | null | string {
  if (values.poll === undefined) return values.vote !== undefined || values.withdraw ? '--vote and --withdraw need --poll' : null;
  if ((values.vote !== undefined) === Boolean(values.withdraw)) return '--poll needs exactly one of --vote <index> and --withdraw';
  if (values.withdraw) return { pollMessageExternalId: values.poll, optionIndex: null };
  if (!/^\d{1,2}$/.test(values.vote!)) return `--vote is an option's position (0, 1, ...), not "${values.vote}"`;
  return { pollMessageExternalId: values.poll, optionIndex: Number(values.vote) };
}
