// Raw SQL from users (surface B's /query, surface D's editor): checked by the read-only guard, run by
// the connection's driver (read-only, time-limited, capped while reading), and recorded in the query
// history whatever happens: refused, failed or answered.
import type { Clock } from '../clock.js';
import { MODEL_CONNECTION, type ConnectionService, type ConnectionView } from '../connections/connection-service.js';
import { AppError } from '../core/errors.js';
import { assertReadOnly } from '../core/sql/guard/index.js';
import type { RunResult } from '../core/warehouse/types.js';
import type { HistoryRepo } from '../store/history-repo.js';
import type { HistoryOrigin, HistoryStatus, HistorySurface } from '../store/schema.js';

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
}

export interface RawSqlResult extends RunResult {
  connection: ConnectionView;
}

export class RawSqlService {
  constructor(
    private readonly connections: ConnectionService,
    private readonly history: HistoryRepo,
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly onHistoryError: (error: unknown) => void = () => {},
  ) {}

  /** SQL written by a user: through the read-only guard first. */
  run(request: RawSqlRequest): Promise<RawSqlResult> {
    return this.execute(request, [], true);
  }

  /**
   * SQL the semantic compiler built (values bound): trusted text, still read-only and recorded.
   * `timeZone`: the zone it converts times into (the driver checks the warehouse can).
   */
  runCompiled(request: RawSqlRequest & { params: readonly unknown[]; timeZone?: string }): Promise<RawSqlResult> {
    return this.execute(request, request.params, false, request.timeZone);
  }

  private async execute(request: RawSqlRequest, params: readonly unknown[], guard: boolean, timeZone?: string): Promise<RawSqlResult> {
    // Compiled SQL reads the connection a deployed node names: the model chose it, not the user.
    const lookup = guard ? {} : MODEL_CONNECTION;
    const { connection, warehouse } =
      'id' in request.connection
        ? await this.connections.warehouseById(request.workspaceId, request.connection.id, lookup)
        : await this.connections.warehouse(request.workspaceId, request.connection.name, lookup);
    const started = performance.now();
    const record = (status: HistoryStatus, fields: { error?: string; rowCount?: number }) =>
      this.record(request, connection, status, fields, Math.round(performance.now() - started));
    if (guard) {
      try {
        await assertReadOnly(connection.engine, request.sql);
      } catch (error) {
        record('refused', { error: messageOf(error) });
        throw error;
      }
    }
    try {
      const result = await warehouse.run(request.sql, params, { maxRows: request.maxRows, timeoutMs: this.timeoutMs, timeZone });
      record('success', { rowCount: result.rowCount });
      return { ...result, connection };
    } catch (error) {
      record('error', { error: messageOf(error) });
      throw error;
    }
  }

  /** History writes still running; `flush()` waits for them (at shutdown, and in tests). */
  private readonly pending = new Set<Promise<void>>();

  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /**
   * Writes the history row off the response path: the answer does not wait for it, shutdown does.
   * A write that fails must not turn a good answer into an error; it is logged instead.
   */
  private record(request: RawSqlRequest, connection: ConnectionView, status: HistoryStatus, fields: { error?: string; rowCount?: number }, durationMs: number): void {
    const write = this.history
      .insert({
        workspaceId: request.workspaceId,
        userId: request.userId,
        connectionId: connection.id,
        connectionName: connection.name,
        source: HISTORY_SOURCE,
        surface: request.surface,
        origin: request.origin ?? 'sql',
        sql: request.sql,
        status,
        error: fields.error ?? null,
        rowCount: fields.rowCount ?? null,
        durationMs,
        at: this.clock.now(),
      })
      .catch(this.onHistoryError)
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AppError) {
    const reason = error.details?.reason;
    return typeof reason === 'string' ? `${error.message}: ${reason}` : error.message;
  }
  return 'Internal error';
}
