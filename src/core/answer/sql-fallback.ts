// The raw-SQL fallback's dealings with the language model: which tables it is shown (the ones whose
// names share words with the question, never the whole warehouse), what it is asked, and how its
// reply is read. The SQL it writes is untrusted text: the caller passes it through the read-only
// guard and runs it with the asker's raw-SQL rights only (tracer and above), because raw SQL cannot
// apply data keys.
import type { StructuredRequest } from './llm-client.js';
import type { ResolvedPeriod } from './plan.js';
import { contentStems, identifierWords } from './text.js';
import type { SchemaTable } from '../warehouse/types.js';

export const SQL_TOOL = 'write_sql';
const MAX_TABLES = 6;
const MAX_COLUMNS = 40;
/** Rows the written SQL may return at most; the caller also caps what it reads. */
export const SQL_FALLBACK_MAX_ROWS = 100;
const MAX_SQL_LENGTH = 10_000;

const ENGINE_NAMES: Record<string, string> = { postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB', duckdb: 'DuckDB', snowflake: 'Snowflake' };

/** Tables ranked by how many of the question's content words their table and column names share. */
export function relevantTables(question: string, tables: readonly SchemaTable[], max = MAX_TABLES): SchemaTable[] {
  const asked = new Set(contentStems(question));
  const score = (table: SchemaTable) => {
    const tableWords = contentStems(identifierWords(table.name));
    const columnWords = new Set(table.columns.flatMap((column) => contentStems(identifierWords(column.name))));
    // A table named by the question counts most; its columns break ties.
    return tableWords.filter((word) => asked.has(word)).length * 10 + [...columnWords].filter((word) => asked.has(word)).length;
  };
  return tables
    .map((table) => ({ table, score: score(table) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.table.name.localeCompare(b.table.name))
    .slice(0, max)
    .map((entry) => entry.table);
}

function describeTables(tables: readonly SchemaTable[]): string {
  return tables
    .map((table) => {
      const columns = table.columns.slice(0, MAX_COLUMNS).map((column) => `${column.name} ${column.type.toLowerCase()}`);
      return `${table.schema ? `${table.schema}.` : ''}${table.name}(${columns.join(', ')})`;
    })
    .join('\n');
}

export interface SqlFallbackContext {
  readonly question: string;
  readonly engine: string;
  readonly tables: readonly SchemaTable[];
  /** The period the question named, resolved on the server; absent when it named none. */
  readonly period?: ResolvedPeriod;
  readonly timezone: string;
}

export function sqlRequest(context: SqlFallbackContext): StructuredRequest {
  const period = context.period
    ? `The question's period is ${context.period.start} (inclusive) to ${context.period.end} (exclusive), dates in ${context.timezone}: filter on exactly that range.`
    : 'The question names no period: do not filter on dates.';
  return {
    system: [
      `Write one read-only ${ENGINE_NAMES[context.engine] ?? context.engine} SELECT that answers the question from the tables below.`,
      'Use only the listed tables and columns. Aggregate in SQL; give every output column a short readable alias.',
      `Return at most ${SQL_FALLBACK_MAX_ROWS} rows. Never write to the database.`,
      period,
      'If the tables cannot answer the question, set no_answer true with a short reason instead.',
    ].join('\n'),
    user: `Question: ${context.question.trim()}\n\nTables:\n${describeTables(context.tables)}`,
    name: SQL_TOOL,
    description: 'A SQL query that answers the question.',
    parameters: {
      type: 'object',
      additionalProperties: false,
      properties: {
        no_answer: { type: 'boolean' },
        reason: { type: 'string', description: 'Why the tables cannot answer, when no_answer.' },
        sql: { type: 'string', description: 'One SELECT (or WITH … SELECT) statement.' },
      },
      required: ['no_answer'],
    },
  };
}

/** The same request once more, with the statement that failed on the engine and the engine's message. */
export function correctionRequest(request: StructuredRequest, failed: { sql: string; error: string }): StructuredRequest {
  return {
    ...request,
    user: `${request.user}\n\nYour previous statement failed on the engine:\n${failed.sql}\nError: ${failed.error.slice(0, 500)}\nWrite a corrected statement.`,
  };
}

export type SqlReply = { readonly sql: string } | { readonly declined: string } | { readonly error: string };

export function readSqlArguments(json: string): SqlReply {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch {
    return { error: `${SQL_TOOL} arguments are not JSON` };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { error: `${SQL_TOOL} arguments are not an object` };
  const record = args as Record<string, unknown>;
  if (record['no_answer'] === true) {
    const reason = typeof record['reason'] === 'string' && record['reason'].trim() ? record['reason'].trim().slice(0, 300) : 'the warehouse tables do not answer it';
    return { declined: reason };
  }
  const sql = record['sql'];
  if (typeof sql !== 'string' || sql.trim() === '') return { error: `${SQL_TOOL} gave no SQL` };
  if (sql.length > MAX_SQL_LENGTH) return { error: `${SQL_TOOL} SQL is longer than ${MAX_SQL_LENGTH} characters` };
  return { sql: sql.trim().replace(/;\s*$/, '') };
}
