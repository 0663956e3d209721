// The raw-SQL fallback of /ask: when no governed reveal matches and the asker may run raw SQL (tracer
// and above, because raw SQL cannot apply data keys), a language model writes one SELECT over the
// tables whose names share words with the question. The SQL goes through the same path as the
// editor's: read-only guard, driver caps and time-out, query history. Whatever goes wrong, the caller
// answers "no governed match" instead: the fallback never turns a failure into a number.
import type { Principal } from '../identity/principal.js';
import { RAW_SQL_ROLE, roleAtLeast } from '../identity/roles.js';
import { AppError } from '../core/errors.js';
import type { LlmClient } from '../core/answer/llm-client.js';
import type { ResolvedPeriod } from '../core/answer/plan.js';
import { rawSqlProse } from '../core/answer/prose.js';
import { correctionRequest, readSqlArguments, relevantTables, sqlRequest, SQL_FALLBACK_MAX_ROWS } from '../core/answer/sql-fallback.js';
import { WarehouseError } from '../core/warehouse/errors.js';
import type { SchemaTable } from '../core/warehouse/types.js';
import type { ConnectionService } from '../connections/connection-service.js';
import type { SchemaCache } from '../connections/schema-cache.js';
import type { RawSqlResult, RawSqlService } from '../querying/raw-sql-service.js';
import type { Answer } from './answer.js';
import { freshnessDate } from './freshness.js';

export type FallbackOutcome =
  | { readonly ok: true; readonly answer: Omit<Answer, 'usage'>; readonly tokensUsed: number }
  | { readonly ok: false; readonly reason: string; readonly tokensUsed: number };

export interface FallbackInput {
  readonly principal: Principal;
  readonly question: string;
  readonly period: ResolvedPeriod | undefined;
  /** The warehouse connection the closest governed metrics read. */
  readonly connection: string;
}

/** Whether this asker may be answered by raw SQL at all (the same role as the SQL editor's). */
export function mayUseSqlFallback(principal: Principal): boolean {
  return roleAtLeast(principal.role, RAW_SQL_ROLE);
}

/** The most recent date among the result's values: raw SQL has no declared time dimension. */
function latestDate(rows: ReadonlyArray<Record<string, unknown>>, timezone: string): string | null {
  let latest: string | null = null;
  for (const row of rows) {
    for (const value of Object.values(row)) {
      const date = freshnessDate(value, timezone);
      if (date && (latest === null || date > latest)) latest = date;
    }
  }
  return latest;
}

/** The offered tables the statement names (all of them if it names none we can see), for the prose. */
function tablesNamedIn(sql: string, offered: readonly string[]): readonly string[] {
  const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = offered.filter((name) => new RegExp(`(^|[^A-Za-z0-9_])${escaped(name)}($|[^A-Za-z0-9_])`, 'i').test(sql));
  return named.length ? named : offered;
}

/** One statement, and one corrected statement after an engine error. */
const MAX_ATTEMPTS = 2;

export class SqlFallback {
  constructor(
    private readonly client: LlmClient,
    private readonly connections: ConnectionService,
    private readonly rawSql: RawSqlService,
    private readonly schemas: SchemaCache,
  ) {}

  async answer(input: FallbackInput): Promise<FallbackOutcome> {
    const { principal } = input;
    const workspaceId = principal.workspace.id;
    // Internal connections are not reachable by name, exactly as in the editor.
    const found = await this.connections.warehouse(workspaceId, input.connection).catch(() => undefined);
    if (!found) return { ok: false, reason: 'there is no warehouse connection the SQL fallback may query', tokensUsed: 0 };
    const schema = await this.schemas.tablesOf(found.connection, found.warehouse).catch((error: unknown) => {
      if (error instanceof AppError) return undefined; // the warehouse is unreachable: say so, as for any other failure
      throw error;
    });
    if (!schema) return { ok: false, reason: 'the warehouse schema could not be read', tokensUsed: 0 };
    const tables = relevantTables(input.question, schema);
    if (tables.length === 0) return { ok: false, reason: 'no warehouse table matches the question either', tokensUsed: 0 };

    const request = sqlRequest({ question: input.question, engine: found.connection.engine, tables, timezone: principal.workspace.timezone, ...(input.period ? { period: input.period } : {}) });
    let tokensUsed = 0;
    let failed: { sql: string; error: string } | undefined;
    for (let attempt = 1; ; attempt++) {
      const reply = await this.client.structured(failed ? correctionRequest(request, failed) : request);
      tokensUsed += reply.tokensUsed;
      if (!reply.ok) return { ok: false, reason: `the SQL fallback is unavailable: ${reply.reason}`, tokensUsed };
      const read = readSqlArguments(reply.json);
      if ('declined' in read) return { ok: false, reason: `the warehouse tables do not answer it either (${read.declined})`, tokensUsed };
      if ('error' in read) return { ok: false, reason: `the SQL fallback gave no usable SQL (${read.error})`, tokensUsed };
      try {
        const result = await this.rawSql.run({ workspaceId, userId: principal.user.id, connection: { name: found.connection.name }, sql: read.sql, maxRows: SQL_FALLBACK_MAX_ROWS, surface: 'question_api', origin: 'question_sql' });
        return { ok: true, tokensUsed, answer: rawSqlAnswer(read.sql, result, { tables, input }) };
      } catch (error) {
        // Refusals and engine errors are the asker's to see (they may run raw SQL); anything else is ours.
        if (!(error instanceof AppError)) throw error;
        // An engine error (a wrong column, another dialect's function) gets one corrected attempt; a
        // statement the guard or the read-only session refused does not.
        if (attempt < MAX_ATTEMPTS && error instanceof WarehouseError && error.code === 'warehouse_query_failed') {
          failed = { sql: read.sql, error: error.message };
          continue;
        }
        return { ok: false, reason: `the SQL the fallback wrote could not run (${error.message})`, tokensUsed };
      }
    }
  }
}

function rawSqlAnswer(sql: string, result: RawSqlResult, context: { tables: readonly SchemaTable[]; input: FallbackInput }): Omit<Answer, 'usage'> {
  const { input } = context;
  const rows = result.rows.map((row) => ({ ...row }));
  const columns = result.columns.map((column) => column.name);
  const value = rows.length === 1 ? columns.map((column) => rows[0]![column]).find((cell) => typeof cell === 'number') : undefined;
  return {
    answer: rawSqlProse({ tables: tablesNamedIn(sql, context.tables.map((table) => table.name)), columns, rows }),
    data: { rows, columns, ...(typeof value === 'number' ? { value } : {}), ...(input.period ? { period: input.period.token } : {}) },
    provenance: { source: 'raw SQL', reveal_backed: false, freshness: latestDate(rows, input.principal.workspace.timezone), confidence: 'medium', assumptions: [] },
    raw_sql: { sql, connection: result.connection.name },
  };
}
