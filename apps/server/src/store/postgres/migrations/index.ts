import initial from './001-initial.ts';
import webhooks from './002-webhooks.ts';
import polls from './003-polls.ts';
import commandErrorsAndRetention from './004-command-errors-and-retention.ts';
import cacheVersion from './005-cache-version.ts';
import messages from './006-messages.ts';
import idempotencyKeyCommand from './007-idempotency-key-command.ts';
import admin from './008-admin.ts';
import linePolicies from './009-line-policies.ts';
import holds from './010-holds.ts';
import transfers from './011-transfers.ts';

/**
 * The PostgreSQL schema, one SQL text per version (version = position + 1). Append-only: a
 * released migration is never edited; a change (a new table, say) is a new file listed here.
 */
export const migrations: readonly string[] = [initial, webhooks, polls, commandErrorsAndRetention, cacheVersion, messages, idempotencyKeyCommand, admin, linePolicies, holds, transfers];
