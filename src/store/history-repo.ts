// The query history: one row per raw SQL run, whatever its outcome.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { readPage, type Page, type PageRequest } from './keyset-page.js';
import type { Database, HistoryOrigin, HistoryStatus, HistorySurface } from './schema.js';

export interface HistoryEntry {
  workspaceId: string;
  userId: string | null;
  connectionId: string | null;
  connectionName: string;
  source: string;
  surface: HistorySurface;
  origin: HistoryOrigin;
  sql: string;
  /** A governed run: its bound values and its statement with them as literals (absent for raw SQL). */
  compiled?: { params: readonly unknown[]; runnableSql: string };
  status: HistoryStatus;
  error: string | null;
  rowCount: number | null;
  durationMs: number | null;
  /** The API key that made the run, where the surface records one (MCP). */
  keyId?: string | null;
  at: Date;
}

export interface HistoryRow {
  id: string;
  connection_name: string;
  source: string;
  surface: HistorySurface;
  origin: HistoryOrigin;
  sql: string;
  params: unknown[] | null;
  runnable_sql: string | null;
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

/** Bound values as JSON the store can hold (jsonb refuses U+0000 too). */
function storableParams(params: readonly unknown[]): string {
  return JSON.stringify(params.map((value) => (typeof value === 'string' ? storable(value) : typeof value === 'bigint' ? String(value) : value)));
}

export function historyRepo(db: Kysely<Database>) {
  return {
    /** Writes runs in one statement (the buffered writer's batches, see history-writer.ts). */
    async insertMany(entries: readonly HistoryEntry[]): Promise<void> {
      if (entries.length === 0) return;
      await db
        .insertInto('query_history')
        .values(
          entries.map((entry) => ({
            workspace_id: entry.workspaceId,
            user_id: entry.userId,
            connection_id: entry.connectionId,
            connection_name: storable(entry.connectionName),
            source: storable(entry.source),
            surface: entry.surface,
            origin: storable(entry.origin),
            sql: storable(entry.sql),
            params: entry.compiled ? storableParams(entry.compiled.params) : null,
            runnable_sql: entry.compiled ? storable(entry.compiled.runnableSql) : null,
            status: entry.status,
            error: entry.error === null ? null : storable(entry.error),
            row_count: entry.rowCount,
            duration_ms: entry.durationMs,
            key_id: entry.keyId ?? null,
            created_at: entry.at,
          })),
        )
        .execute();
    },

    /** A page of a user's runs, newest first; the cursor of a previous page continues it. */
    pageForUser(workspaceId: string, userId: string, page: HistoryPage & Pick<HistoryFilter, 'sources'>): Promise<Page<HistoryRow>> {
      return pageRuns(db, workspaceId, { ...page, userId });
    },

    /** A page of every run of the workspace (the admin's view), newest first, with who ran it. */
    pageForWorkspace(workspaceId: string, page: HistoryPage & HistoryFilter): Promise<Page<WorkspaceHistoryRow>> {
      return pageRuns(db, workspaceId, page);
    },
  };
}

export type HistoryRepo = ReturnType<typeof historyRepo>;

export type HistoryPage = PageRequest;

export interface HistoryFilter {
  userId?: string;
  surface?: HistorySurface;
  /** Exact origin (`structured`), or a kind with every id (`scene:`). */
  origin?: string;
  /** Runs of any of these sources (see HISTORY_SOURCES). */
  sources?: readonly HistorySource[];
}

/**
 * What a run was made for, in the words a user filters by: the SQL they typed in the editor, the
 * editor's CML builder, scenes (alone or as mosaic tiles), signals, or an API request (structured
 * queries and questions, from a key or from the console's Explore and Ask, and raw SQL on the workspace
 * API). Each run has exactly one, read from its surface and origin.
 */
export const HISTORY_SOURCES = ['editor', 'cml', 'scene', 'signal', 'api', 'sql'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

type HistoryWhere = ExpressionBuilder<Database & { h: Database['query_history'] }, 'h'>;

const SOURCE_CONDITIONS: Record<HistorySource, (eb: HistoryWhere) => Expression<SqlBool>> = {
  editor: (eb) => eb('h.surface', '=', 'studio'),
  cml: (eb) => eb('h.surface', '=', 'studio_cml'),
  scene: (eb) => eb.or([startsWith('scene:'), startsWith('mosaic:')]),
  signal: () => startsWith('signal:'),
  // An agent's scene run is a scene's; its other runs (queries, questions, SQL) are API requests.
  api: (eb) =>
    eb.or([
      eb('h.surface', 'in', ['workspace_api', 'question_api']),
      eb.and([eb('h.surface', '=', 'structured_api'), eb('h.origin', '=', 'structured')]),
      eb.and([eb('h.surface', '=', 'mcp'), eb.not(startsWith('scene:'))]),
    ]),
  // Statements of PostgreSQL clients (BI tools) over the SQL interface.
  sql: (eb) => eb('h.surface', '=', 'sql_api'),
};

function startsWith(prefix: string): Expression<SqlBool> {
  return sql<SqlBool>`starts_with(h.origin, ${prefix})`;
}

export interface WorkspaceHistoryRow extends HistoryRow {
  user_id: string | null;
  user_email: string | null;
}

function pageRuns(db: Kysely<Database>, workspaceId: string, page: HistoryPage & HistoryFilter): Promise<Page<WorkspaceHistoryRow>> {
  let query = db
    .selectFrom('query_history as h')
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .select(['h.id', 'h.connection_name', 'h.source', 'h.surface', 'h.origin', 'h.sql', 'h.params', 'h.runnable_sql', 'h.status', 'h.error', 'h.row_count', 'h.duration_ms', 'h.created_at', 'h.user_id', 'u.email as user_email'])
    .where('h.workspace_id', '=', workspaceId);
  if (page.userId) query = query.where('h.user_id', '=', page.userId);
  if (page.surface) query = query.where('h.surface', '=', page.surface);
  const sources = page.sources;
  if (sources?.length) query = query.where((eb) => eb.or(sources.map((source) => SOURCE_CONDITIONS[source](eb))));
  if (page.origin) {
    const origin = page.origin;
    query = origin.endsWith(':') ? query.where(startsWith(origin)) : query.where('h.origin', '=', origin);
  }
  return readPage(query, { time: 'h.created_at', id: 'h.id', direction: 'desc' }, page);
}
