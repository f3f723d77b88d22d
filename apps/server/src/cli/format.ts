import { styleText } from 'node:util';

/**
 * A mistake in the command line, or a name in it that does not exist (or already does): exit 2
 * with usage help. `code` is what `--json` reports it as: `usage` for the command line itself,
 * else what was wrong with what it named (`account_not_found`, `account_exists`, ...).
 */
export class UsageError extends Error {
  readonly code: string;
  constructor(message: string, code = 'usage') {
    super(message);
    this.code = code;
  }
}

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
export const paint = (style: Parameters<typeof styleText>[0], text: string) => (useColor ? styleText(style, text) : text);
export const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r, n) => r.map((cell, i) => (n === 0 ? paint('bold', cell.padEnd(widths[i]!)) : cell.padEnd(widths[i]!))).join('  ').trimEnd())
    .join('\n');
}
