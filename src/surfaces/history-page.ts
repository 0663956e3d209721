// One page of the query history as the APIs show it: the editor's own runs (GET /api/studio/history)
// and the admin's view of the workspace (GET /api/history); the deployment history pages the same way.
// Pages are keyed by (created_at, id) (store/keyset-page.ts), so runs recorded while someone pages never
// shift or repeat a row.
import { z } from 'zod';
import { HISTORY_SOURCES, type HistoryRow, type HistorySource, type WorkspaceHistoryRow } from '../store/history-repo.js';
import type { Page } from '../store/keyset-page.js';

export const historyPageQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), cursor: z.string().optional() });

const SOURCE_LIST = new RegExp(`^(${HISTORY_SOURCES.join('|')})(,(${HISTORY_SOURCES.join('|')}))*$`);

/** `?source=editor` or `?source=scene,signal`: runs made for any of these sources. */
export const historySourceQuery = z.object({
  source: z
    .string()
    .regex(SOURCE_LIST, `one or more of ${HISTORY_SOURCES.join(', ')}, separated by commas`)
    .optional()
    .describe(
      'what the runs were made for, one or more separated by commas: `editor` (SQL typed in the editor), `cml` (its CML builder), `scene` (scenes, alone or as mosaic tiles), `signal` (signal evaluations), `api` (structured queries and questions, from a key or from Explore and Ask, and raw SQL on the workspace API)',
    ),
});

/** The sources a `source` parameter names, or undefined for every run. */
export function sourcesOf(source: string | undefined): HistorySource[] | undefined {
  return source ? [...new Set(source.split(',') as HistorySource[])] : undefined;
}

export const historyRunSchema = z.object({
  id: z.string(),
  source: z.string(),
  surface: z.string(),
  origin: z.string().describe('what asked for the run: sql, question_sql, structured, question, cml, scene:<id>, mosaic:<id>, signal:<id>'),
  connection: z.string(),
  sql: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  row_count: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  created_at: z.string(),
});

export const workspaceRunSchema = historyRunSchema.extend({ user_id: z.string().nullable(), user_email: z.string().nullable() });

export function presentRun(r: HistoryRow): z.infer<typeof historyRunSchema> {
  return {
    id: r.id,
    source: r.source,
    surface: r.surface,
    origin: r.origin,
    connection: r.connection_name,
    sql: r.sql,
    status: r.status,
    error: r.error,
    row_count: r.row_count,
    duration_ms: r.duration_ms,
    created_at: r.created_at.toISOString(),
  };
}

export function presentWorkspaceRun(r: WorkspaceHistoryRow): z.infer<typeof workspaceRunSchema> {
  return { ...presentRun(r), user_id: r.user_id, user_email: r.user_email };
}

/** A page of runs as the APIs answer it: the runs shown, and the cursor of the next page. */
export function historyPage<R extends HistoryRow, P>(page: Page<R>, present: (row: R) => P): { runs: P[]; next_cursor: string | null } {
  return { runs: page.rows.map(present), next_cursor: page.nextCursor };
}
