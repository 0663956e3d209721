// A run's SQL as the history shows it beside the text that ran: a governed run ran with placeholders
// (`$1`, `?`) and bound values, so its values and the same statement with them written as literals (by
// the engine's own quoting, from the SQL tree) are shown too. The runnable text is what the SQL editor
// reopens: it runs as shown, with the rows the recorded run had.
import { z } from 'zod';
import type { HistoryRow, WorkspaceHistoryRow } from '../store/history-repo.js';
import { historyRunSchema, presentRun, presentWorkspaceRun, workspaceRunSchema } from './history-page.js';

/** Origins of raw SQL: what ran is the text a user (or the question API's fallback) wrote; `csv` is the editor's CSV export. */
const RAW_SQL_ORIGINS = new Set(['sql', 'question_sql', 'csv']);

const runnableFields = {
  params: z.array(z.unknown()).nullable().describe("a governed run's bound values, in order; null for raw SQL"),
  runnable_sql: z
    .string()
    .nullable()
    .describe('the statement with its values written as literals, to run as shown (raw SQL: `sql` itself); null for a governed run recorded before values were kept'),
};

export const runWithSqlSchema = historyRunSchema.extend(runnableFields);
export const workspaceRunWithSqlSchema = workspaceRunSchema.extend(runnableFields);

function runnableOf(row: HistoryRow): { params: unknown[] | null; runnable_sql: string | null } {
  return { params: row.params, runnable_sql: row.runnable_sql ?? (RAW_SQL_ORIGINS.has(row.origin) ? row.sql : null) };
}

export function presentRunWithSql(row: HistoryRow): z.infer<typeof runWithSqlSchema> {
  return { ...presentRun(row), ...runnableOf(row) };
}

export function presentWorkspaceRunWithSql(row: WorkspaceHistoryRow): z.infer<typeof workspaceRunWithSqlSchema> {
  return { ...presentWorkspaceRun(row), ...runnableOf(row) };
}
