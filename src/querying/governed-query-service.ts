// The one path every governed query takes, whichever entry point asks (C's /v1/query and the console's
// /api/query, scene and mosaic runs, signals, the editor's CML builder, questions):
//   live model → the node the query reads (404 when unknown) → that node's connection → the result
//   cache, when the policy uses it → SQL compiled with the principal's data keys and time zone → a
//   read-only, time-limited, capped run, recorded in the query history with its surface and origin
//   (`structured`, `question`, `cml`, `scene:<id>`…) → the rows with their provenance.
// Entry points only parse what they were sent and shape what they answer. `explain` walks the same
// path up to the run, which it leaves out.
//
// The cache holds only results of requests that ask to `use` it (C's /v1/query today). Runs of stored
// definitions, signals and questions are `off`: they read fresh, with their reader's (or owner's) data
// keys, so nothing would read their entries back; kept, they would fill the cache with other
// principals' rows and push C's answers out.
//
// A query with `compare`, `shares` or `per` takes this path once per plain statement it is made of, and
// its rows are merged after (composed-query.ts).
//
// A node query of a model with rollups, and a reveal query read as the query of its base node it
// compiles to (its metrics and a question's facts of the rows as derived outputs), is answered from a
// rollup when one can answer it and its build records cover what it reads (rollup-route.ts); `explain`
// says which rollup would, without reading it. The result then names the rollup (`rollup`), its
// provenance is as fresh as the latest source time the rollup holds, and the run is recorded in the
// history with the rollup's statement. Answers of a node with rollups (from a rollup or its source) are
// kept in the result cache under a key that also names the workspace's rollups generation, which every
// build record written moves (result-key.ts): a kept answer never hides a newer build, nor keeps a
// source answer once a rollup could answer. SVC_ROLLUPS=off answers every query from the source.
//
// A request's `signal` cancels its own run only. Identical requests that arrive together are not
// coalesced: each runs on the warehouse, so one caller's cancel never fails another's answer. A
// cancelled run fails before anything is kept, so the cache never holds one.
import type { Clock } from '../clock.js';
import { MODEL_CONNECTION, type ConnectionService, type ConnectionView } from '../connections/connection-service.js';
import type { CompileOptions } from '../core/semantic/compile.js';
import { isComposedQuery } from '../core/semantic/composed-plan.js';
import { DIALECTS } from '../core/sql/dialects.js';
import type { WarehouseRow } from '../core/warehouse/types.js';
import type { Principal } from '../identity/principal.js';
import type { LiveModel, ModelService } from '../modeling/model-service.js';
import type { ServiceMetrics } from '../observability/metrics.js';
import { explainComposedQuery, runComposedQuery, type ComposedRunner } from './composed-query.js';
import { baseNodeOf, compileRequest, compiling, nodeQueryOf } from './governed-compile.js';
import type { RollupReport } from './rollup-route.js';
import type { CacheState, GovernedExplanation, GovernedProvenance, GovernedQueryRequest, GovernedQueryResult, GovernedStatement } from './governed-query.js';
import type { RawSqlService } from './raw-sql-service.js';
import type { ResultCache } from './result-cache.js';
import { resultKey } from './result-key.js';
import { rollupRouteOf, routeToRollup, type RollupRouteInput, type RollupRouting } from './rollup-route.js';

export type { CachePolicy, CacheState, GovernedExplanation, GovernedProvenance, GovernedQueryRequest, GovernedQueryResult, SemanticRequest } from './governed-query.js';

/** What `explain` needs: the request without where a run would be recorded. */
export type ExplainRequest = Omit<GovernedQueryRequest, 'surface' | 'origin'>;

/** A result as the cache keeps it: everything but its provenance, which a hit writes anew. */
type StoredResult = Omit<GovernedQueryResult, 'provenance' | 'rowsJson'>;

/** The request located: the live model, the connection that would serve it, and how to compile it. */
interface Located {
  readonly live: LiveModel;
  readonly connection: ConnectionView;
  readonly options: CompileOptions;
  /** The result's cache key, when the policy uses the cache. */
  readonly key: string | undefined;
}

export class GovernedQueryService {
  constructor(
    private readonly models: ModelService,
    private readonly connections: ConnectionService,
    private readonly rawSql: RawSqlService,
    private readonly cache: ResultCache,
    private readonly clock: Clock,
    private readonly metrics?: ServiceMetrics,
    /** Where built rollups are found; absent (SVC_ROLLUPS=off): every query reads its source. */
    private readonly rollups?: RollupRouting,
  ) {}

  /** The principal's workspace's live model (for checks of definitions against it before they run). */
  live(principal: Principal): Promise<LiveModel> {
    return this.models.live(principal.workspace.id, principal.generations);
  }

  /** Runs `request` for its principal (or answers it from the cache, when its policy allows). */
  async query(request: GovernedQueryRequest): Promise<GovernedQueryResult> {
    if (composed(request)) return runComposedQuery(request, this.composedRunner);
    const located = await this.locate(request);
    const { key } = located;
    if (key !== undefined) {
      const stored = await this.cache.get(key);
      this.metrics?.cacheLookup(stored !== undefined);
      if (stored !== undefined) return storedResult(stored, located.live);
    }
    const compiled = compiling(request, located.live, () => compileRequest(located.live.model, request.query, located.options));
    const ranAt = this.clock.now().toISOString();
    const routed = await this.fromRollup(request, located, compiled, ranAt);
    if (routed.result) return this.kept(key, routed.result, located.live, request);
    const run = await this.rawSql.runCompiled({
      workspaceId: request.principal.workspace.id,
      userId: request.principal.user.id,
      connection: { name: located.connection.name },
      sql: compiled.sql,
      params: compiled.params,
      runnableSql: compiled.runnableSql,
      timeZone: compiled.timezone,
      maxRows: request.maxRows,
      surface: request.surface,
      origin: request.origin,
      generations: request.principal.generations,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const result: StoredResult = {
      ...statementOf(compiled),
      rows: run.rows,
      columns: run.columns,
      rowCount: run.rowCount,
      durationMs: run.durationMs,
      truncated: run.truncated,
      ranAt,
      ...(routed.report ? { rollup: routed.report } : {}),
    };
    return this.kept(key, result, located.live, request);
  }

  /** The result, kept in the cache under `key` when the request's policy uses the cache. */
  private async kept(key: string | undefined, result: StoredResult, live: LiveModel, request: GovernedQueryRequest): Promise<GovernedQueryResult> {
    if (key === undefined) return withProvenance(result, live, request.cache === 'bypass' ? 'bypass' : 'off');
    const rowsJson = JSON.stringify(result.rows);
    await this.cache.set(key, storedText(result, rowsJson));
    return { ...withProvenance(result, live, 'miss'), rowsJson };
  }

  /** Compiles `request` as `query` would, without running it: the SQL, where it would run, and whether the cache holds its answer now. */
  async explain(request: ExplainRequest): Promise<GovernedExplanation> {
    if (composed(request)) return explainComposedQuery(request, this.composedRunner);
    const located = await this.locate(request);
    const compiled = compiling(request, located.live, () => compileRequest(located.live.model, request.query, located.options));
    const cache: CacheState =
      located.key !== undefined ? ((await this.cache.get(located.key)) !== undefined ? 'hit' : 'miss') : request.cache === 'bypass' ? 'bypass' : 'off';
    // Which rollup would answer now, by the matcher and the build records; its stored table is not read.
    const rollup = this.rollups ? await rollupRouteOf(this.rollups, this.routeInput(request, located)) : undefined;
    return { ...statementOf(compiled), modelVersion: located.live.version, engine: located.connection.engine, cache, ...(rollup ? { rollup } : {}) };
  }

  /** What routing to a rollup reads of a request: its node query (a reveal's base node's), with the principal's keys and zone. */
  private routeInput(request: ExplainRequest, located: Located): RollupRouteInput {
    const { principal } = request;
    const { query, derived, now } = compiling(request, located.live, () => nodeQueryOf(located.live.model, request.query, located.options.now));
    return {
      workspaceId: principal.workspace.id,
      model: located.live.model,
      query,
      ...(derived ? { derived } : {}),
      sourceEngine: located.connection.engine,
      attributes: principal.attributes,
      now,
      timezone: principal.workspace.timezone,
      maxRows: request.maxRows,
      ...(principal.generations ? { generations: principal.generations } : {}),
    };
  }

  /** The result from a rollup when one answers (recorded in the history), else why none did (undefined for a node without rollups). */
  private async fromRollup(request: GovernedQueryRequest, located: Located, compiled: ReturnType<typeof compileRequest>, ranAt: string): Promise<{ result?: StoredResult; report?: RollupReport }> {
    if (!this.rollups) return {};
    const { principal } = request;
    const started = performance.now();
    const input = this.routeInput(request, located);
    const route = await routeToRollup(this.rollups, input);
    if (route.report) this.rollups.answered?.(principal.workspace.id, input.query.node, route.report);
    // The history shows which rollup answered (or failed to): its statement, led by a comment naming it.
    const record = (rollup: string, table: string, text: string, params: readonly unknown[], outcome: { rowCount: number } | { error: unknown }) => {
      const sql = `/* rollup ${rollup}: ${table} */\n${text}`;
      const recorded = { workspaceId: principal.workspace.id, userId: principal.user.id, connection: { name: located.connection.name }, sql, params, runnableSql: () => sql, maxRows: request.maxRows, surface: request.surface, origin: request.origin };
      this.rawSql.recordRollupRun(recorded, located.connection, outcome, started);
    };
    if (route.failed) record(route.failed.rollup, route.failed.table, '', [], { error: route.failed.error });
    if (!route.answer) return route.report ? { report: route.report } : {};
    const { answer, report } = route;
    record(answer.rollup.name, answer.table, answer.sql, answer.params, { rowCount: answer.result.rowCount });
    const result: StoredResult = {
      ...statementOf(compiled),
      sql: answer.sql,
      params: answer.params,
      rows: answer.result.rows,
      columns: answer.result.columns,
      rowCount: answer.result.rowCount,
      durationMs: answer.result.durationMs,
      truncated: answer.result.truncated,
      ranAt,
      rollup: report,
    };
    return { result, report };
  }

  /** Comparisons, shares and ratios: plain statements on this same path, merged (see composed-query.ts). */
  private readonly composedRunner: ComposedRunner = {
    now: () => this.clock.now(),
    live: (principal) => this.live(principal),
    query: (request) => this.query(request),
    explain: (request) => this.explain(request),
  };

  /** The live model, the node's connection, the principal's compile options and the cache key: everything before compiling. */
  private async locate(request: ExplainRequest): Promise<Located> {
    const { principal } = request;
    const live = request.live ?? (await this.live(principal));
    const node = compiling(request, live, () => baseNodeOf(live.model, request.query));
    // The connection's view only: its password is opened by the run, and a cached result needs none.
    const connection = await this.connections.named(principal.workspace.id, node.connection, { ...MODEL_CONNECTION, generations: principal.generations });
    const now = this.clock.now();
    const options: CompileOptions = { dialect: DIALECTS[connection.engine], attributes: principal.attributes, now, timezone: principal.workspace.timezone };
    // A node with rollups: its answers are kept under the rollups generation too (result-key.ts).
    const rollups = request.cache === 'use' && this.rollups && node.rollups.length > 0 ? await this.rollups.generation(principal.workspace.id, principal.generations) : undefined;
    const key = request.cache === 'use' ? resultKey({ principal, live, connection, request: request.query, maxRows: request.maxRows, nowMs: now.getTime(), ...(rollups !== undefined ? { rollups } : {}) }) : undefined;
    return { live, connection, options, key };
  }
}

function composed(request: ExplainRequest): boolean {
  return request.query.kind === 'node' && isComposedQuery(request.query.query);
}

function statementOf(compiled: ReturnType<typeof compileRequest>): GovernedStatement {
  return {
    sql: compiled.sql,
    params: compiled.params,
    node: compiled.node,
    connection: compiled.connection,
    outputColumns: compiled.columns,
    nodesRead: compiled.nodes,
    ...(compiled.reveal ? { reveal: { name: compiled.reveal.name, domain: compiled.reveal.domain } } : {}),
  };
}

function withProvenance(result: StoredResult, live: LiveModel, cache: CacheState): GovernedQueryResult {
  return { ...result, provenance: provenanceOf(result, live, cache) };
}

function provenanceOf(result: Pick<StoredResult, 'sql' | 'ranAt' | 'rollup'>, live: LiveModel, cache: CacheState): GovernedProvenance {
  const used = result.rollup?.used;
  // A rollup answer is as fresh as the source rows its partitions were built from, never as its read.
  const freshAsOf = used ? (used.dataThrough ?? used.partitionsBuiltAt) : result.ranAt;
  return { modelVersion: live.version, sql: result.sql, cache, freshAsOf, ...(used ? { rollup: used.name } : {}) };
}

// A kept result is its rows' JSON after a line of everything else's (JSON text holds no raw line
// break): a hit reads the small part, and hands on the rows' text unparsed, for an answer to embed.
function storedText(result: StoredResult, rowsJson: string): string {
  const { rows: _rows, ...rest } = result;
  return `${JSON.stringify(rest)}\n${rowsJson}`;
}

function storedResult(text: string, live: LiveModel): GovernedQueryResult {
  const split = text.indexOf('\n');
  const rest = JSON.parse(text.slice(0, split)) as Omit<StoredResult, 'rows'>;
  const rowsJson = text.slice(split + 1);
  let rows: readonly WarehouseRow[] | undefined;
  const result = { ...rest, rowsJson, provenance: provenanceOf(rest, live, 'hit') };
  // Parsed when first read: an answer that embeds rowsJson (C's) never pays for it.
  return Object.defineProperty(result, 'rows', { enumerable: true, get: () => (rows ??= JSON.parse(rowsJson) as WarehouseRow[]) }) as GovernedQueryResult;
}
