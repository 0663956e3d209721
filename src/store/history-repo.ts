// The query history: one row per raw SQL run, whatever its outcome.
import type { Kysely } from 'kysely';
import type { Database, HistoryStatus, HistorySurface } from './schema.js';

export interface HistoryEntry {
  workspaceId: string;
  userId: string | null;
  connectionId: string | null;
  connectionName: string;
  source: string;
  surface: HistorySurface;
  sql: string;
  status: HistoryStatus;
  error: string | null;
  rowCount: number | null;
  durationMs: number | null;
  at: Date;
}

export interface HistoryRow {
  id: string;
  connection_name: string;
  source: string;
  surface: HistorySurface;
  sql: string;
  status: HistoryStatus;
  error: string | null;
  row_count: number | null;
  duration_ms: number | null;
  created_at: Date;
}

/**
 * PostgreSQL text cannot hold U+0000, yet a refused statement must still be recorded as sent, and an
 * engine's message may echo a value that holds one: the history shows each NUL as ␀ (U+2400).
 */
export const NUL_IN_HISTORY = '\u2400';

function storable(text: string): string {
  return text.replaceAll('\u0000', NUL_IN_HISTORY);
}

export function historyRepo(db: Kysely<Database>) {
  return {
    async insert(entry: HistoryEntry): Promise<void> {
      await db
        .insertInto('query_history')
        .values({
          workspace_id: entry.workspaceId,
          user_id: entry.userId,
          connection_id: entry.connectionId,
          connection_name: storable(entry.connectionName),
          source: storable(entry.source),
          surface: entry.surface,
          sql: storable(entry.sql),
          status: entry.status,
          error: entry.error === null ? null : storable(entry.error),
          row_count: entry.rowCount,
          duration_ms: entry.durationMs,
          created_at: entry.at,
        })
        .execute();
    },

    /** A user's runs, newest first; `before` (a row's created_at and id) continues a previous page. */
    async listForUser(workspaceId: string, userId: string, page: { limit: number; before?: { at: Date; id: string } }): Promise<HistoryRow[]> {
      let query = db
        .selectFrom('query_history')
        .select(['id', 'connection_name', 'source', 'surface', 'sql', 'status', 'error', 'row_count', 'duration_ms', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId);
      if (page.before) {
        const { at, id } = page.before;
        query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
    },
  };
}

export type HistoryRepo = ReturnType<typeof historyRepo>;
