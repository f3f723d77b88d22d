import { parseArgs } from 'node:util';
import { UsageError } from './format.ts';
import { POLICY_OPTIONS } from './policies.ts';

/** The command line: its options and its words. main.ts reads it before the rest of the CLI loads. */
export function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        url: { type: 'string' },
        json: { type: 'boolean', default: false },
        label: { type: 'string', default: '' },
        role: { type: 'string', default: 'full' },
        all: { type: 'boolean', default: false },
        after: { type: 'string', default: '0' },
        reason: { type: 'string' },
        conversation: { type: 'string' },
        ...Object.fromEntries(POLICY_OPTIONS.map((o) => [o, { type: 'string' as const }])) as Record<(typeof POLICY_OPTIONS)[number], { type: 'string' }>,
        'quiet-hours': { type: 'string' },
        'time-zone': { type: 'string' },
        'conversation-time-zone': { type: 'string', multiple: true },
        'first-contact-approval': { type: 'string' },
        'max-bytes': { type: 'string' },
        types: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // An unknown option or a missing option value is a usage error (exit 2), not a failure.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
