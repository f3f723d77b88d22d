import type { DatabaseSync } from 'node:sqlite';
import { openWal } from '@switchboard/sqlite';
import type { ExecutionRecord, Outcome } from '../types.ts';

/**
 * What this host did through BlueBubbles, kept on its own disk: the outcome of each logical
 * action, the message guids its sends produced (so a lookup never takes one for another action's)
 * and where the inbound catch-up stopped. BlueBubbles keeps none of this past a send.
 */
export class Journal {
  private readonly db: DatabaseSync;

  constructor(path: string) {
    this.db = openWal(path, 5_000);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS executions (logical_action_id TEXT PRIMARY KEY, command_id TEXT NOT NULL, host_id TEXT NOT NULL, outcome TEXT NOT NULL, executed_at INTEGER NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS intents (logical_action_id TEXT PRIMARY KEY, temp_guid TEXT NOT NULL, at INTEGER NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS claimed (message_guid TEXT PRIMARY KEY, logical_action_id TEXT NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS cursor (name TEXT PRIMARY KEY, at INTEGER NOT NULL) STRICT;
    `);
  }

  execution(logicalActionId: string): ExecutionRecord | null {
    const row = this.db.prepare('SELECT * FROM executions WHERE logical_action_id = ?').get(logicalActionId);
    if (!row) return null;
    return {
      logicalActionId,
      commandId: row.command_id as string,
      hostId: row.host_id as string,
      executedAt: Number(row.executed_at),
      outcome: JSON.parse(row.outcome as string) as Outcome,
    };
  }

  record(logicalActionId: string, commandId: string, hostId: string, outcome: Outcome, messageGuid?: string): void {
    this.db.prepare('INSERT OR IGNORE INTO executions (logical_action_id, command_id, host_id, outcome, executed_at) VALUES (?, ?, ?, ?, ?)')
      .run(logicalActionId, commandId, hostId, JSON.stringify(outcome), Date.now());
    if (messageGuid) this.claim(messageGuid, logicalActionId);
  }

  claim(messageGuid: string, logicalActionId: string): void {
    this.db.prepare('INSERT OR IGNORE INTO claimed (message_guid, logical_action_id) VALUES (?, ?)').run(messageGuid, logicalActionId);
  }

  /** The action a message guid belongs to, if this host sent it. */
  claimedBy(messageGuid: string): string | null {
    const row = this.db.prepare('SELECT logical_action_id FROM claimed WHERE message_guid = ?').get(messageGuid);
    return row ? (row.logical_action_id as string) : null;
  }

  /** Written before a send goes out: a host that finds it after a restart knows the send may have happened. */
  intend(logicalActionId: string, tempGuid: string): void {
    this.db.prepare('INSERT OR IGNORE INTO intents (logical_action_id, temp_guid, at) VALUES (?, ?, ?)').run(logicalActionId, tempGuid, Date.now());
  }

  intended(logicalActionId: string): boolean {
    return this.db.prepare('SELECT 1 FROM intents WHERE logical_action_id = ?').get(logicalActionId) !== undefined;
  }

  cursor(name: string): number | null {
    const row = this.db.prepare('SELECT at FROM cursor WHERE name = ?').get(name);
    return row ? Number(row.at) : null;
  }

  advance(name: string, at: number): void {
    this.db.prepare('INSERT INTO cursor (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET at = MAX(at, excluded.at)').run(name, at);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
