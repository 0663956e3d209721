// Raw SQL from users (surface B's /query, surface D's editor): checked by the read-only guard, run by
// the connection's driver (read-only, time-limited, capped while reading), and recorded in the query
// history whatever happens: refused, failed or answered.
import type { Clock } from '../clock.js';
import { MODEL_CONNECTION, type ConnectionService, type ConnectionView } from '../connections/connection-service.js';
import { AppError } from '../core/errors.js';
import { assertReadOnly } from '../core/sql/guard/index.js';
import type { RowSink, RunOptions, RunResult, StreamSummary, Warehouse } from '../core/warehouse/types.js';
import type { ServiceMetrics } from '../observability/metrics.js';
import type { GenerationSnapshot } from '../shared-state/shared-state.js';
import type { HistoryWriter } from '../store/history-writer.js';
import type { HistoryOrigin, HistoryStatus, HistorySurface } from '../store/schema.js';
import { currentHistoryContext } from './history-context.js';

/** What the history records as the source of runs the service makes for its users. */
export const HISTORY_SOURCE = 'governed-analytics-service';

export interface RawSqlRequest {
  workspaceId: string;
  userId: string;
  /** By name (the editor) or id (the workspace API); internal connections are never reachable by id. */
  connection: { name: string } | { id: string };
  sql: string;
  maxRows: number;
  surface: HistorySurface;
  /** What asked for the run (see HistoryOrigin); `sql` when not given. */
  origin?: HistoryOrigin;
  /** The caller's cancel: stops the statement on the warehouse (see RunOptions.signal). */
  signal?: AbortSignal;
  /** The request's generations read at admission (Principal.generations): the connection's cache trusts them. */
  generations?: GenerationSnapshot | undefined;
}

/** SQL the semantic compiler built: its bound values, the text with them as literals, its time zone. */
export interface CompiledRun {
  params: readonly unknown[];
  /** Rendered only when the history records the run. */
  runnableSql: () => string;
  /** The zone it converts times into (the driver checks the warehouse can). */
  timeZone?: string;
}

export interface RawSqlResult extends RunResult {
  connection: ConnectionView;
}

export interface RawSqlStreamed extends StreamSummary {
  connection: ConnectionView;
}

type Read<T> = (warehouse: Warehouse, params: readonly unknown[], options: RunOptions) => Promise<T>;

export class RawSqlService {
  constructor(
    private readonly connections: ConnectionService,
    private readonly history: HistoryWriter,
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly metrics?: ServiceMetrics,
  ) {}

  /** SQL written by a user: through the read-only guard first. */
  run(request: RawSqlRequest): Promise<RawSqlResult> {
    return this.execute(request, undefined, (warehouse, params, options) => warehouse.run(request.sql, params, options));
  }

  /**
   * SQL written by a user, as run() takes it (the guard, the time limit, the history), its rows handed
   * to `sink` as the driver reads them (see Warehouse.stream). The history records the run once the
   * last row has gone to the sink, or as an error when it failed on the way.
   */
  stream(request: RawSqlRequest, sink: RowSink): Promise<RawSqlStreamed> {
    return this.execute(request, undefined, (warehouse, params, options) => warehouse.stream(request.sql, params, options, sink));
  }

  /** SQL the semantic compiler built (values bound): trusted text, still read-only and recorded. */
  runCompiled(request: RawSqlRequest & CompiledRun): Promise<RawSqlResult> {
    return this.execute(request, request, (warehouse, params, options) => warehouse.run(request.sql, params, options));
  }

  private async execute<T extends { rowCount: number }>(request: RawSqlRequest, compiled: CompiledRun | undefined, read: Read<T>): Promise<T & { connection: ConnectionView }> {
    const guard = !compiled;
    // Compiled SQL reads the connection a deployed node names: the model chose it, not the user.
    const lookup = { ...(guard ? {} : MODEL_CONNECTION), generations: request.generations };
    const { connection, warehouse } =
      'id' in request.connection
        ? await this.connections.warehouseById(request.workspaceId, request.connection.id, lookup)
        : await this.connections.warehouse(request.workspaceId, request.connection.name, lookup);
    const started = performance.now();
    if (guard) {
      try {
        await assertReadOnly(connection.engine, request.sql);
      } catch (error) {
        this.record(request, compiled, connection, 'refused', { error: messageOf(error) }, started);
        this.metrics?.guardRefusal(connection.engine);
        throw error;
      }
    }
    try {
      const result = await read(warehouse, compiled?.params ?? [], { maxRows: request.maxRows, timeoutMs: this.timeoutMs, timeZone: compiled?.timeZone, signal: request.signal });
      this.record(request, compiled, connection, 'success', { rowCount: result.rowCount }, started);
      this.metrics?.warehouseRun(connection.engine, 'success', (performance.now() - started) / 1000);
      return { ...result, connection };
    } catch (error) {
      this.record(request, compiled, connection, 'error', { error: messageOf(error) }, started);
      this.metrics?.warehouseRun(connection.engine, 'error', (performance.now() - started) / 1000);
      throw error;
    }
  }

  /**
   * Records a governed run answered from a rollup (rollup-route.ts) as it records the node's own runs:
   * the node's connection, the statement that read the rollup's table, its status and rows.
   */
  recordRollupRun(request: RawSqlRequest & CompiledRun, connection: ConnectionView, outcome: { rowCount: number } | { error: unknown }, started: number): void {
    this.record(request, request, connection, 'error' in outcome ? 'error' : 'success', 'error' in outcome ? { error: messageOf(outcome.error) } : { rowCount: outcome.rowCount }, started);
  }

  /** Writes the history rows still buffered: before they are listed, and at shutdown. */
  flush(): Promise<void> {
    return this.history.flush();
  }

  /** Buffers the history row (see history-writer.ts): the answer does not wait for it. */
  private record(request: RawSqlRequest, compiled: CompiledRun | undefined, connection: ConnectionView, status: HistoryStatus, fields: { error?: string; rowCount?: number }, started: number): void {
    const durationMs = Math.round(performance.now() - started);
    // A run made inside an MCP call is recorded as the agent's (see history-context.ts).
    const recordAs = currentHistoryContext();
    this.history.add({
      workspaceId: request.workspaceId,
      userId: request.userId,
      connectionId: connection.id,
      connectionName: connection.name,
      source: HISTORY_SOURCE,
      surface: recordAs?.surface ?? request.surface,
      origin: request.origin ?? 'sql',
      keyId: recordAs?.keyId ?? null,
      sql: request.sql,
      // Compiled SQL holds placeholders: the history keeps its values and a text that runs as shown.
      ...(compiled ? { compiled: { params: compiled.params, runnableSql: compiled.runnableSql() } } : {}),
      status,
      error: fields.error ?? null,
      rowCount: fields.rowCount ?? null,
      durationMs,
      at: this.clock.now(),
    });
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AppError) {
    const reason = error.details?.reason;
    return typeof reason === 'string' ? `${error.message}: ${reason}` : error.message;
  }
  return 'Internal error';
}
