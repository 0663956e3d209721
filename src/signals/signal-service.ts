// Signals: alerts on one value, kept in vaults (the vault rules of scenes: 404 outside, `edit` to
// write). Saves are checked against the store and the live model (400 naming the unknown scene, node or
// field, or the bad cron expression). An evaluation reads the value with the owner's data keys; with
// `send` it moves the state machine (ok → triggered fires signal.triggered once per crossing, triggered →
// ok re-arms, a failure sets error and fires nothing) and writes the state, the history row and the
// event in one transaction.
import type { Clock } from '../clock.js';
import { AppError, BadRequestError, NotFoundError } from '../core/errors.js';
import { ALL_ROWS, compileQuery } from '../core/semantic/compile.js';
import { DIALECTS } from '../core/sql/dialects.js';
import type { SceneService } from '../content/scene-service.js';
import type { VaultService } from '../content/vault-service.js';
import { recordEvent } from '../events/event-record.js';
import { principalOf, type Principal } from '../identity/principal.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import { conditionHolds } from './signal-condition.js';
import { isSceneWatch, type SignalCondition, type SignalInput, type SignalPatch, type SignalSchedule, type SignalState, type SignalWatch } from './signal-definition.js';
import { assertSchedule, nextRunAfter, type ScheduleFields } from './signal-schedule.js';
import { readWatchedValue, watchQuery } from './signal-value.js';
import type { SignalEvaluationRow, SignalRow, SignalsRepo, SignalValues } from './signals-repo.js';

export interface Evaluation {
  value: number | null;
  /** Whether the condition holds for the value (null when no value could be read). */
  holds: boolean | null;
  /** Whether this evaluation fires (or, without send, would fire) signal.triggered. */
  wouldFire: boolean;
  state: SignalState;
  error: string | null;
  sent: boolean;
  signal: SignalRow;
}

export function signalNotFound(id: string): NotFoundError {
  return new NotFoundError(`No signal "${id}" in your workspace`, 'unknown_signal');
}

function scheduleFields(schedule: SignalSchedule, workspaceZone: string): ScheduleFields {
  return 'cron' in schedule
    ? { cron: schedule.cron, timezone: schedule.timezone ?? workspaceZone, interval_seconds: null }
    : { cron: null, timezone: null, interval_seconds: schedule.interval_seconds };
}

export class SignalService {
  constructor(
    private readonly signals: SignalsRepo,
    private readonly vaults: VaultService,
    private readonly scenes: SceneService,
    private readonly governed: GovernedQueryService,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, options: { cursor?: string | undefined; limit: number }): Promise<{ signals: SignalRow[]; nextCursor: string | null }> {
    const vaultIds = await this.vaults.visibleIds(principal);
    const { rows, nextCursor } = await this.signals.page(principal.workspace.id, { ...(vaultIds ? { vaultIds } : {}), cursor: options.cursor, limit: options.limit });
    return { signals: rows, nextCursor };
  }

  /** The signal, when the principal may see its vault (404 otherwise, as if it did not exist). */
  async get(principal: Principal, id: string, minimum: 'view' | 'edit' = 'view'): Promise<SignalRow> {
    const row = await this.signals.get(principal.workspace.id, id);
    if (!row) throw signalNotFound(id);
    try {
      await this.vaults.require(principal, row.vault_id, minimum);
    } catch (error) {
      if (error instanceof NotFoundError) throw signalNotFound(id);
      throw error;
    }
    return row;
  }

  async create(principal: Principal, input: SignalInput): Promise<SignalRow> {
    const vault = input.vault ? await this.vaults.require(principal, input.vault, 'edit') : await this.vaults.personal(principal);
    await this.assertWatch(principal, input.watch);
    const schedule = scheduleFields(input.schedule, principal.workspace.timezone);
    assertSchedule(schedule);
    const now = this.clock.now();
    return this.signals.insert(
      principal.workspace.id,
      principal.user.id,
      {
        vault_id: vault.id,
        name: input.name,
        watch: input.watch,
        condition: input.condition,
        threshold: input.threshold,
        ...schedule,
        enabled: input.enabled,
        next_run_at: nextRunAfter(schedule, now),
      },
      now,
    );
  }

  async update(principal: Principal, id: string, patch: SignalPatch): Promise<SignalRow> {
    const current = await this.get(principal, id, 'edit');
    if (patch.vault && patch.vault !== current.vault_id) await this.vaults.require(principal, patch.vault, 'edit');
    if (patch.watch) await this.assertWatch(principal, patch.watch);
    const now = this.clock.now();
    const values: Partial<SignalValues> = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.vault !== undefined ? { vault_id: patch.vault } : {}),
      ...(patch.watch !== undefined ? { watch: patch.watch } : {}),
      ...(patch.condition !== undefined ? { condition: patch.condition } : {}),
      ...(patch.threshold !== undefined ? { threshold: patch.threshold } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    };
    if (patch.schedule) {
      const schedule = scheduleFields(patch.schedule, principal.workspace.timezone);
      assertSchedule(schedule);
      Object.assign(values, schedule, { next_run_at: nextRunAfter(schedule, now) });
    } else if (patch.enabled === true && !current.enabled) {
      // Re-enabled: the next run counts from now, not from the runs missed while disabled.
      values.next_run_at = nextRunAfter(current, now);
    }
    const row = await this.signals.update(principal.workspace.id, id, values, now);
    if (!row) throw signalNotFound(id);
    return row;
  }

  async remove(principal: Principal, id: string): Promise<void> {
    await this.get(principal, id, 'edit');
    await this.signals.remove(principal.workspace.id, id);
  }

  async evaluations(principal: Principal, id: string, options: { cursor?: string | undefined; limit: number }): Promise<{ evaluations: SignalEvaluationRow[]; nextCursor: string | null }> {
    await this.get(principal, id);
    const { rows, nextCursor } = await this.signals.evaluations(id, { cursor: options.cursor, limit: options.limit });
    return { evaluations: rows, nextCursor };
  }

  /** Evaluates a signal the principal may see; changes and sends nothing unless `send`. */
  async evaluateFor(principal: Principal, id: string, send: boolean): Promise<Evaluation> {
    const row = await this.get(principal, id, send ? 'edit' : 'view');
    return this.evaluate(row, { send });
  }

  /**
   * Reads the value with the owner's data keys and applies the condition. With `send`, records the
   * evaluation: the new state, the history row and (on a crossing) the signal.triggered event, in one
   * transaction that locks the signal, so concurrent evaluations apply one after the other.
   */
  async evaluate(signal: SignalRow, options: { send: boolean; releaseClaim?: boolean }): Promise<Evaluation> {
    let value: number | null = null;
    let error: string | null = null;
    try {
      const owner = await this.signals.owner(signal.workspace_id, signal.owner_id);
      if (!owner) throw new Error('The owner of the signal is no longer a member of the workspace');
      value = await readWatchedValue({ governed: this.governed, scenes: this.scenes, clock: this.clock }, principalOf(owner, 'session'), signal.id, signal.watch as SignalWatch);
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const decide = (current: SignalRow) => {
      const holds = value === null ? null : conditionHolds(current.condition as SignalCondition, current.threshold, value, current.last_value);
      const wouldFire = holds === true && !current.holding;
      const state: SignalState = error !== null ? 'error' : holds ? 'triggered' : 'ok';
      return { holds, wouldFire, state };
    };
    if (!options.send) return { value, error, sent: false, signal, ...decide(signal) };

    return this.signals.db.transaction().execute(async (trx) => {
      const current = await this.signals.lock(trx, signal.id);
      if (!current) throw signalNotFound(signal.id);
      const { holds, wouldFire, state } = decide(current);
      const at = this.clock.now();
      const updated = await trx
        .updateTable('signals')
        .set({
          state,
          // An error keeps what the last read value showed: it neither fires nor re-arms.
          holding: holds ?? current.holding,
          last_value: value ?? current.last_value,
          last_evaluated_at: at,
          last_error: error,
          ...(options.releaseClaim ? { claimed_until: null } : {}),
        })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.signals.appendEvaluation(trx, { signal_id: current.id, evaluated_at: at, value, previous: current.last_value, holds, state, fired: wouldFire, error });
      if (wouldFire) {
        await recordEvent(trx, {
          workspaceId: current.workspace_id,
          type: 'signal.triggered',
          fields: { signal_id: current.id, signal_name: current.name, triggered_at: at.toISOString(), value, threshold: current.threshold, condition: current.condition },
        });
      }
      return { value, holds, wouldFire, state, error, sent: true, signal: updated };
    });
  }

  /** 400 naming what the watch refers to and the principal cannot see or the model does not have. */
  private async assertWatch(principal: Principal, watch: SignalWatch): Promise<void> {
    if (isSceneWatch(watch)) {
      try {
        await this.scenes.get(principal, watch.scene_id);
      } catch (error) {
        if (error instanceof NotFoundError) throw new BadRequestError(`Unknown scene "${watch.scene_id}" (or one in a vault you may not see)`, 'invalid_signal');
        throw error;
      }
    }
    const query = await watchQuery(this.scenes, principal, watch, this.clock.now());
    const live = await this.governed.live(principal);
    if (!live.model.nodes.has(query.node)) throw new BadRequestError(`Unknown node "${query.node}"`, 'invalid_signal');
    try {
      compileQuery(live.model, query, { dialect: DIALECTS.duckdb, attributes: new Proxy({}, { get: () => ALL_ROWS }), now: this.clock.now() });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) throw new BadRequestError(error.message, 'invalid_signal');
      throw error;
    }
  }
}
