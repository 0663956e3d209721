// What the statements of one SQL connection mean. Each is classified by PostgreSQL's own parser
// (src/core/sqlapi/classify.ts) and answered by what owns it: the session settings (SET, BEGIN…), the
// catalog mirror (pg_catalog and information_schema, exactly as PostgreSQL answers them, over the
// tables this member may see), or the one governed query path (a SELECT over a model table, translated
// to a semantic query and run with the member's data keys, the result cache and the limits). Before
// each statement the connection's key is checked again and the workspace's rate limit is spent.
import { classifyStatement, classifyStatements, type ClassifiedStatement, type CopyStatement, type GovernedStatement, type OuterStatement } from '../core/sqlapi/classify.js';
import { PROGRAM_LIMIT_EXCEEDED, QUERY_CANCELED, SqlStateError } from '../core/sqlapi/sql-state-error.js';
import { sqlTablesOf, type SqlTable } from '../core/sqlapi/tables.js';
import { bindPlan, planSelect, type GovernedSelect, type ParamType, type SelectPlan } from '../core/sqlapi/translate.js';
import type { WarehouseRow } from '../core/warehouse/types.js';
import { MAX_QUERY_LIMIT } from '../core/semantic/query.js';
import type { Principal } from '../identity/principal.js';
import type { LiveModel } from '../modeling/model-service.js';
import { recordRunsAs } from '../querying/history-context.js';
import type { GovernedProvenance } from '../querying/governed-query.js';
import type { Services } from '../services.js';
import { CatalogError } from './catalog/catalog-error.js';
import type { CatalogMirrors } from './catalog/catalog-mirror.js';
import type { ServerNotice } from './protocol/backend-messages.js';
import { fieldsOf, rowsOf } from './governed-rows.js';
import { outerParamTypes, outerSql, paramNumbers, partRowsJson } from './outer-query.js';
import { showFields, type SessionSettings } from './session-settings.js';
import { sqlStateOf } from './sql-errors.js';
import type { PreparedStatement, StatementHandler, StatementOutcome } from './statements.js';
import { BOOL_OID, DATE_OID, INT8_OID, NUMERIC_OID, TEXT_OID, TIMESTAMP_OID } from './type-oids.js';

interface Plan extends PreparedStatement {
  readonly statement: ClassifiedStatement | undefined;
}

export interface SqlConnectionContext {
  readonly services: Services;
  readonly principal: Principal;
  /** The project the connection named as its database: its nodes are the tables. */
  readonly database: string;
  readonly settings: SessionSettings;
  readonly catalog: CatalogMirrors;
  /** Throws a fatal SqlStateError when the connection's key no longer works (revoked, expired). */
  readonly checkKey: () => Promise<void>;
  /** Spends one statement of the workspace's rate limit; throws when it is spent. */
  readonly spend: () => Promise<void>;
}

/** The tables of one project of a live model, kept per model version. */
function tablesOf(live: LiveModel, database: string): SqlTable[] {
  const model = live.model;
  return sqlTablesOf(model).filter((t) => live.projectOf.get(t.node) === database);
}

export class SqlStatementHandler implements StatementHandler {
  private tables: { version: number; tables: SqlTable[] } | undefined;
  /** Plans of the statements this connection runs, by statement (dropped with it). */
  private readonly plans = new WeakMap<GovernedStatement, { tables: SqlTable[]; plan: SelectPlan }>();

  constructor(private readonly ctx: SqlConnectionContext) {}

  get transaction() {
    return this.ctx.settings.transaction;
  }

  failed(): void {
    this.ctx.settings.failed();
  }

  async prepare(sql: string, declaredParamTypes: readonly number[]): Promise<PreparedStatement> {
    const statement = classifyStatement(sql);
    return inStatement(statement, () => this.describe(sql, statement, declaredParamTypes));
  }

  async prepareSimple(sql: string): Promise<PreparedStatement[]> {
    // Parsed whole first, as PostgreSQL does: a syntax error anywhere runs nothing.
    return classifyStatements(sql).map((statement): Plan => ({ sql: statement.text, paramTypes: [], fields: null, statement }));
  }

  private async describe(sql: string, statement: ClassifiedStatement | undefined, declared: readonly number[]): Promise<Plan> {
    if (!statement) return { sql, paramTypes: declared, fields: null, statement };
    switch (statement.kind) {
      case 'session':
        return { sql, paramTypes: declared, fields: statement.command.type === 'show' ? showFields(statement.command.name) : null, statement };
      case 'catalog': {
        const described = await (await this.mirror()).describe(statement.text, [...declared], this.ctx.settings.forCatalog());
        return { sql, paramTypes: described.paramTypes, fields: described.fields, statement };
      }
      case 'governed': {
        const plan = await this.plan(statement);
        return { sql, paramTypes: mergeTypes(declared, plan.params.map((p) => PARAM_TYPE_OIDS[p])), fields: fieldsOf(plan.columns), statement };
      }
      case 'outer':
        return { sql, ...(await this.describeOuter(statement, declared)), statement };
      case 'copy':
        // COPY answers with CopyOutResponse, not rows: nothing to describe.
        return { sql, paramTypes: declared, fields: null, statement };
    }
  }

  async run(prepared: PreparedStatement, params: ReadonlyArray<string | null>, signal: AbortSignal): Promise<StatementOutcome> {
    const { statement } = prepared as Plan;
    if (!statement) return { fields: null, rows: [], tag: '' };
    return inStatement(statement, () => this.runStatement(statement, prepared.paramTypes, params, signal));
  }

  private async runStatement(statement: ClassifiedStatement, paramTypes: readonly number[], params: ReadonlyArray<string | null>, signal: AbortSignal): Promise<StatementOutcome> {
    await this.ctx.checkKey();
    this.ctx.settings.checkNotFailed(statement.kind === 'session' ? statement.command : undefined);
    if (statement.kind === 'session') return this.ctx.settings.apply(statement.command);
    await this.ctx.spend();
    if (statement.kind === 'copy') return this.copy(statement, paramTypes, params, signal);
    return this.select(statement, paramTypes, params, signal);
  }

  private async select(statement: Exclude<ClassifiedStatement, { kind: 'session' | 'copy' }>, paramTypes: readonly number[], params: ReadonlyArray<string | null>, signal: AbortSignal): Promise<StatementOutcome> {
    if (statement.kind === 'catalog') {
      const result = await (await this.mirror()).run(statement.text, [...params], { paramTypes, settings: this.ctx.settings.forCatalog() });
      return { fields: result.fields, rows: result.rows, tag: result.command };
    }
    if (statement.kind === 'outer') return this.outer(statement, paramTypes, params, signal);
    return this.governed(statement, params, signal);
  }

  private async copy(statement: CopyStatement, paramTypes: readonly number[], params: ReadonlyArray<string | null>, signal: AbortSignal): Promise<StatementOutcome> {
    const inner = await inStatement(statement.inner, () => this.select(statement.inner, paramTypes, params, signal));
    return { ...inner, tag: `COPY ${inner.rows.length}`, copy: { format: statement.options.format, header: statement.options.header } };
  }

  private async governed(statement: GovernedStatement, params: ReadonlyArray<string | null>, signal: AbortSignal): Promise<StatementOutcome> {
    const { translated, rows, provenance } = await this.governedRows(await this.plan(statement), params, signal);
    // A client sees which rollup answered as a NOTICE (psql prints it; drivers hand it to a listener).
    const notices = provenance?.rollup ? [rollupNotice(provenance.rollup, provenance.freshAsOf)] : [];
    return { fields: fieldsOf(translated.columns), rows: rowsOf(translated.columns, rows), tag: `SELECT ${rows.length}`, ...(notices.length ? { notices } : {}) };
  }

  /** A governed SELECT's rows, read on the governed path with the member's data keys, cache and limits. */
  private async governedRows(plan: SelectPlan, params: ReadonlyArray<string | null>, signal: AbortSignal): Promise<{ translated: GovernedSelect; rows: readonly WarehouseRow[]; provenance?: GovernedProvenance }> {
    const translated = bindPlan(plan, params);
    // LIMIT 0: a client learning the columns. Checked and described; nothing to read.
    if (translated.emptyResult) return { translated, rows: [] };
    const { principal, services } = this.ctx;
    // Without a LIMIT the answer must be whole or an error, never silently cut: one row more than the
    // most a statement returns tells which.
    const limit = translated.limitGiven ? translated.query.limit! : MAX_QUERY_LIMIT + 1;
    // Days, weeks and months begin in the session's TimeZone: the workspace's unless the client SET
    // another, which then works as C's `timezone` does (an IANA name, else 22023).
    const timezone = this.ctx.settings.get('timezone');
    const zone = timezone && timezone !== principal.workspace.timezone ? { timezone } : {};
    const work = recordRunsAs({ surface: 'sql_api', keyId: principal.key?.id ?? null }, () =>
      services.governed.query({ principal, query: { kind: 'node', query: { ...translated.query, ...zone, limit } }, cache: 'use', surface: 'sql_api', origin: 'structured', maxRows: limit, signal }),
    );
    const result = await cancellable(work, signal).catch((error: unknown) => {
      throw sqlStateOf(error);
    });
    if (!translated.limitGiven && result.rows.length > MAX_QUERY_LIMIT) throw tooManyRows();
    return { translated, rows: result.rows, provenance: result.provenance };
  }

  /** Each governed part's plan, its errors placed in the part's own text. */
  private outerPlans(statement: OuterStatement): Promise<SelectPlan[]> {
    return Promise.all(statement.parts.map((part) => inStatement(part.statement, () => this.plan(part.statement))));
  }

  /**
   * An outer query's parameters and columns, as the mirror's PostgreSQL describes the statement over
   * its parts (see outer-query.ts): a parameter only a part uses has that part's type.
   */
  private async describeOuter(statement: OuterStatement, declared: readonly number[]): Promise<{ paramTypes: number[]; fields: PreparedStatement['fields'] }> {
    const plans = await this.outerPlans(statement);
    const { count, rewritten, paramTypes } = outerStatementOf(statement, plans, declared);
    const described = await this.outerOnMirror(rewritten.originalPosition, (mirror) => mirror.describe(rewritten.sql, paramTypes, this.ctx.settings.forCatalog()));
    return { paramTypes: described.paramTypes.slice(0, count), fields: described.fields };
  }

  /** The governed parts read on the governed path, then the rest of the statement over their rows. */
  private async outer(statement: OuterStatement, paramTypes: readonly number[], params: ReadonlyArray<string | null>, signal: AbortSignal): Promise<StatementOutcome> {
    const plans = await this.outerPlans(statement);
    const parts = await Promise.all(plans.map((plan, i) => inStatement(statement.parts[i]!.statement, () => this.governedRows(plan, params, signal))));
    const outer = outerStatementOf(statement, plans, paramTypes, params.length);
    const values = [...Array.from({ length: outer.count }, (_, i) => params[i] ?? null), ...parts.map((p) => partRowsJson(p.translated.columns, p.rows))];
    const result = await this.outerOnMirror(outer.rewritten.originalPosition, (mirror) =>
      mirror.run(outer.rewritten.sql, values, { paramTypes: outer.paramTypes, settings: this.ctx.settings.forCatalog(), maxRows: MAX_QUERY_LIMIT + 1 }),
    );
    if (result.rows.length > MAX_QUERY_LIMIT) throw tooManyRows();
    return { fields: result.fields, rows: result.rows, tag: result.command };
  }

  /** Work on the mirror whose errors point into the client's statement rather than the rewritten one. */
  private async outerOnMirror<T>(originalPosition: (position: number | undefined) => number | undefined, work: (mirror: Awaited<ReturnType<SqlStatementHandler['mirror']>>) => Promise<T>): Promise<T> {
    try {
      return await work(await this.mirror());
    } catch (error) {
      if (!(error instanceof CatalogError) || error.position === undefined) throw error;
      throw new CatalogError(error.sqlstate, error.message, error.hint, originalPosition(error.position), error.detail);
    }
  }

  /** The statement's plan on the current model: planned again when a deploy changed the model. */
  private async plan(statement: GovernedStatement): Promise<SelectPlan> {
    const tables = await this.currentTables();
    const cached = this.plans.get(statement);
    if (cached?.tables === tables) return cached.plan;
    const plan = planSelect(statement, tables);
    this.plans.set(statement, { tables, plan });
    return plan;
  }


  private async currentTables(): Promise<SqlTable[]> {
    return (await this.currentModel()).tables;
  }

  /** The project's tables on the live model, made again only when a deploy moved its version. */
  private async currentModel(): Promise<{ version: number; tables: SqlTable[] }> {
    const live = await this.ctx.services.models.live(this.ctx.principal.workspace.id);
    if (this.tables?.version !== live.version) this.tables = { version: live.version, tables: tablesOf(live, this.ctx.database) };
    return this.tables;
  }

  private async mirror() {
    const { version, tables } = await this.currentModel();
    const { workspace } = this.ctx.principal;
    return this.ctx.catalog.get(`${workspace.id}:${version}:${this.ctx.database}`, () => ({ tables, database: this.ctx.database }));
  }
}

const PARAM_TYPE_OIDS: Record<ParamType, number> = { text: TEXT_OID, numeric: NUMERIC_OID, bool: BOOL_OID, date: DATE_OID, timestamp: TIMESTAMP_OID, int8: INT8_OID };

/**
 * What the mirror runs for an outer query: the client's parameters (as many as it uses, declared or
 * sent), each typed as the client said, else as the part that uses it says; then the parts' JSON.
 */
function outerStatementOf(statement: OuterStatement, plans: readonly SelectPlan[], clientTypes: readonly number[], clientParams = 0): { count: number; rewritten: ReturnType<typeof outerSql>; paramTypes: number[] } {
  const count = Math.max(0, ...paramNumbers(statement.ast), clientTypes.length, clientParams);
  const types = Array.from({ length: count }, (_, i) => clientTypes[i] || partParamType(statement, plans, i + 1));
  return { count, rewritten: outerSql(statement, plans.map((p) => p.columns), count), paramTypes: outerParamTypes(types, count, plans.length) };
}

/** The type of `$n` in the first part that uses it; 0 (PostgreSQL infers it) when only the outer query does. */
function partParamType(statement: OuterStatement, plans: readonly SelectPlan[], n: number): number {
  const index = statement.parts.findIndex((part) => paramNumbers(part.statement.ast).has(n));
  return index < 0 ? 0 : PARAM_TYPE_OIDS[plans[index]!.params[n - 1] ?? 'text'];
}

function tooManyRows(): SqlStateError {
  return new SqlStateError(PROGRAM_LIMIT_EXCEEDED, `the result has more than ${MAX_QUERY_LIMIT.toLocaleString('en-US')} rows, the most one statement returns`, `Add LIMIT (at most ${MAX_QUERY_LIMIT}) or filters to the statement.`);
}

/** Declared parameter types win; where the client left one unspecified (0), the statement's own. */
function mergeTypes(declared: readonly number[], implied: readonly number[]): number[] {
  const count = Math.max(declared.length, implied.length);
  return Array.from({ length: count }, (_, i) => (declared[i] ? declared[i]! : (implied[i] ?? TEXT_OID)));
}

/** Errors already placed in the client's text (by the innermost statement they came from). */
const placed = new WeakSet<Error>();

/**
 * Errors of one statement point into the statement's own text; a client shows positions in what it
 * sent (several statements in one Query, leading blanks, a COPY's query, an outer query's part), so
 * they are moved by where it starts, once: by the innermost statement the error came from.
 */
async function inStatement<T>(statement: ClassifiedStatement | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof SqlStateError || error instanceof CatalogError) || placed.has(error) || error.position === undefined || !statement) throw error;
    const moved =
      error instanceof SqlStateError
        ? new SqlStateError(error.sqlstate, error.message, error.hint, error.position + statement.start)
        : new CatalogError(error.sqlstate, error.message, error.hint, error.position + statement.start, error.detail);
    placed.add(moved);
    throw moved;
  }
}

/** The work's result, or 57014 as soon as the client cancels (the work, given the signal too, stops its warehouse query). */
function cancellable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new SqlStateError(QUERY_CANCELED, 'canceling statement due to user request'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new SqlStateError(QUERY_CANCELED, 'canceling statement due to user request'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The NOTICE of a statement answered from a rollup: its name and how fresh its rows are. */
function rollupNotice(rollup: string, dataThrough: string): ServerNotice {
  return { severity: 'NOTICE', code: '00000', message: `answered from rollup ${rollup}, data through ${dataThrough}` };
}
