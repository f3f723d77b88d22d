import { styleText } from 'node:util';

/** A mistake in the command line: exit 2 with usage help. */
export class UsageError extends Error {}

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
export const paint = (style: Parameters<typeof styleText>[0], text: string) => (useColor ? styleText(style, text) : text);
export const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r, n) => r.map((cell, i) => (n === 0 ? paint('bold', cell.padEnd(widths[i]!)) : cell.padEnd(widths[i]!))).join('  ').trimEnd())
    .join('\n');
}
