import initial from './001-initial.ts';
import platformRecords from './002-platform-records.ts';
import webhooks from './003-webhooks.ts';
import polls from './004-polls.ts';
import commandErrorsAndRetention from './005-command-errors-and-retention.ts';
import messages from './006-messages.ts';
import retentionIndexes from './007-retention-indexes.ts';
import admin from './008-admin.ts';
import linePolicies from './009-line-policies.ts';
import holds from './010-holds.ts';
import transfers from './011-transfers.ts';

/**
 * The SQLite schema, one SQL text per version (version = position + 1, kept in `user_version`).
 * Append-only: a released migration is never edited; a change is a new file listed here.
 */
export const migrations: readonly string[] = [initial, platformRecords, webhooks, polls, commandErrorsAndRetention, messages, retentionIndexes, admin, linePolicies, holds, transfers];
