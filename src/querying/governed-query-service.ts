// The one path every governed query takes, whichever surface asks: the live model → the connection of
// the node the query reads → SQL compiled by the caller with the principal's data keys and time zone →
// a read-only, time-limited, capped run recorded in the query history with its
// surface and origin (`structured`, `question`, `cml`, `scene:<id>`…). Callers compile (a structured
// query, a reveal query, a question's plan), this service does everything around the run, once. Runs
// always read the warehouse: the one cached answer is C's whole /v1/query answer, kept and looked up
// by the route under its answer key (cachedAnswer / keepAnswer); nothing else would read a cached run.
import type { Clock } from '../clock.js';
import { MODEL_CONNECTION, type ConnectionService, type ConnectionView } from '../connections/connection-service.js';
import type { CompileOptions, CompiledQuery } from '../core/semantic/compile.js';
import type { SemanticNode } from '../core/semantic/model.js';
import { DIALECTS } from '../core/sql/dialects.js';
import type { RunResult } from '../core/warehouse/types.js';
import type { Principal } from '../identity/principal.js';
import type { LiveModel, ModelService } from '../modeling/model-service.js';
import type { HistoryOrigin, HistorySurface } from '../store/schema.js';
import type { RawSqlService } from './raw-sql-service.js';
import type { ResultCache } from './result-cache.js';

/** Where a governed query runs, and the options its SQL must be compiled with for this principal. */
export interface GovernedTarget {
  readonly live: LiveModel;
  readonly connection: ConnectionView;
  readonly options: CompileOptions;
}

export interface GovernedRunRequest {
  readonly principal: Principal;
  readonly target: GovernedTarget;
  readonly compiled: Pick<CompiledQuery, 'sql' | 'params' | 'runnableSql' | 'timezone'>;
  readonly maxRows: number;
  readonly surface: HistorySurface;
  readonly origin: HistoryOrigin;
}

export interface GovernedResult extends RunResult {
  /** When the warehouse answered. */
  readonly ranAt: string;
}

export class GovernedQueryService {
  constructor(
    private readonly models: ModelService,
    private readonly connections: ConnectionService,
    private readonly rawSql: RawSqlService,
    private readonly cache: ResultCache,
    private readonly clock: Clock,
  ) {}

  live(principal: Principal): Promise<LiveModel> {
    return this.models.live(principal.workspace.id);
  }

  /** The connection `node` reads from, and the compile options for the principal (data keys, zone, dialect). */
  async target(principal: Principal, live: LiveModel, node: SemanticNode): Promise<GovernedTarget> {
    // The connection's view only: its password is opened by the run, and a cached answer needs none.
    const connection = await this.connections.named(principal.workspace.id, node.connection, MODEL_CONNECTION);
    return {
      live,
      connection,
      options: { dialect: DIALECTS[connection.engine], attributes: principal.attributes, now: this.clock.now(), timezone: principal.workspace.timezone },
    };
  }

  /** A serialized answer stored under `key` (see answer-key.ts), or undefined. */
  cachedAnswer(key: string): Promise<string | undefined> {
    return this.cache.get(key);
  }

  /** Keeps a serialized answer under `key`, for as long as results are kept. */
  keepAnswer(key: string, text: string): Promise<void> {
    return this.cache.set(key, text);
  }

  async run(request: GovernedRunRequest): Promise<GovernedResult> {
    const { principal, target, compiled } = request;
    const ranAt = this.clock.now().toISOString();
    const result = await this.rawSql.runCompiled({
      workspaceId: principal.workspace.id,
      userId: principal.user.id,
      connection: { name: target.connection.name },
      sql: compiled.sql,
      params: compiled.params,
      runnableSql: compiled.runnableSql,
      timeZone: compiled.timezone,
      maxRows: request.maxRows,
      surface: request.surface,
      origin: request.origin,
    });
    return { rows: result.rows, columns: result.columns, rowCount: result.rowCount, durationMs: result.durationMs, truncated: result.truncated, ranAt };
  }
}
