// Signals: alerts on one value, kept in vaults (the vault rules of scenes: 404 outside, `edit` to
// write). Saves are checked against the store and the live model (400 naming the unknown scene, node or
// field, or the bad cron expression). A signal acts as its owner, a member who may see what it reads:
// recorded evaluations (scheduled, or with `send`) read the value with the owner's data keys; whoever
// redefines what it watches becomes its owner; its values are shown only to readers whose data keys
// give the same rows (signal-visibility.ts); a dry evaluation reads with the caller's own keys. A
// recorded evaluation moves the state machine (ok → triggered fires signal.triggered once per crossing,
// triggered → ok re-arms, a failure sets error and fires nothing) and writes the state, the history row
// and the event in one transaction. A signal whose owner left, or may no longer see its vault or the
// scene it watches, stops (disabled, state error, the reason in last_error).
import type { Clock } from '../clock.js';
import { AppError, BadRequestError, NotFoundError } from '../core/errors.js';
import { answerColumnsOf } from '../core/semantic/answer-columns.js';
import { ALL_ROWS } from '../core/semantic/compile.js';
import type { ResultColumn } from '../core/semantic/composed-plan.js';
import { DIALECTS } from '../core/sql/dialects.js';
import type { SceneService } from '../content/scene-service.js';
import type { VaultService } from '../content/vault-service.js';
import type { Principal } from '../identity/principal.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import { decide, SignalRecorder, type Evaluation } from './signal-recorder.js';
import { isSceneWatch, type SignalInput, type SignalPatch, type SignalSchedule, type SignalWatch } from './signal-definition.js';
import { sameJson } from './same-json.js';
import { assertSchedule, nextRunAfter, type ScheduleFields } from './signal-schedule.js';
import { readOutcome } from './signal-value.js';
import { watchQuery } from './signal-watch-query.js';
import { hiddenValues } from './signal-visibility.js';
import type { SignalChanges, SignalEvaluationRow, SignalRow, SignalsRepo } from './signals-repo.js';

export type { Evaluation } from './signal-recorder.js';

/** A signal as one reader sees it: its values are hidden when they were read with keys unlike theirs. */
export interface SignalView {
  row: SignalRow;
  valuesHidden: boolean;
}

export interface EvaluationView {
  row: SignalEvaluationRow;
  valuesHidden: boolean;
}

export function signalNotFound(id: string): NotFoundError {
  return new NotFoundError(`No signal "${id}" in your workspace`, 'unknown_signal');
}

function scheduleFields(schedule: SignalSchedule, workspaceZone: string): ScheduleFields {
  return 'cron' in schedule
    ? { cron: schedule.cron, timezone: schedule.timezone ?? workspaceZone, interval_seconds: null }
    : { cron: null, timezone: null, interval_seconds: schedule.interval_seconds };
}

/** The state a signal starts again from once what it reads, or whose keys read it, changed. */
const FRESH_STATE = { state: 'ok', holding: false, last_value: null, last_compared: null, last_error: null } as const;

export class SignalService {
  private readonly recorder: SignalRecorder;
  /** What signal-visibility.ts reads: members' attributes and the live model. */
  private readonly readers: Parameters<typeof hiddenValues>[0];

  constructor(
    private readonly signals: SignalsRepo,
    private readonly vaults: VaultService,
    private readonly scenes: SceneService,
    private readonly governed: GovernedQueryService,
    private readonly clock: Clock,
  ) {
    this.recorder = new SignalRecorder(signals, vaults, scenes, governed, clock);
    this.readers = { signals, governed };
  }

  async list(principal: Principal, options: { cursor?: string | undefined; limit: number }): Promise<{ signals: SignalView[]; nextCursor: string | null }> {
    const vaultIds = await this.vaults.visibleIds(principal);
    const { rows, nextCursor } = await this.signals.page(principal.workspace.id, { ...(vaultIds ? { vaultIds } : {}), cursor: options.cursor, limit: options.limit });
    return { signals: await this.views(principal, rows), nextCursor };
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

  /** The signal as the principal sees it (see SignalView). */
  async view(principal: Principal, id: string): Promise<SignalView> {
    return (await this.views(principal, [await this.get(principal, id)]))[0]!;
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

  /**
   * Applies the fields of `patch`. Whoever else changes what the signal watches (or asks to take it
   * over) becomes its owner: from then on it reads with their data keys. A new watch, owner or
   * condition starts the state again: the last value and whether the condition held belonged to the
   * old definition (a percent condition would otherwise compare two different measures).
   */
  async update(principal: Principal, id: string, patch: SignalPatch): Promise<SignalView> {
    const current = await this.get(principal, id, 'edit');
    if (patch.vault && patch.vault !== current.vault_id) await this.vaults.require(principal, patch.vault, 'edit');
    if (patch.watch) await this.assertWatch(principal, patch.watch);
    const now = this.clock.now();
    const watchChanges = patch.watch !== undefined && !sameJson(patch.watch, current.watch);
    const takesOver = current.owner_id !== principal.user.id && (watchChanges || patch.take_ownership === true);
    const conditionChanges = patch.condition !== undefined && patch.condition !== current.condition;
    const values: SignalChanges = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.vault !== undefined ? { vault_id: patch.vault } : {}),
      ...(patch.watch !== undefined ? { watch: patch.watch } : {}),
      ...(patch.condition !== undefined ? { condition: patch.condition } : {}),
      ...(patch.threshold !== undefined ? { threshold: patch.threshold } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(takesOver ? { owner_id: principal.user.id } : {}),
      // Enabled again or taken over: whoever did it has seen why it stopped; the next run tells again if it must.
      ...(takesOver || patch.enabled === true ? { stopped_reason: null } : {}),
      ...(takesOver || watchChanges ? FRESH_STATE : conditionChanges ? { state: 'ok', holding: false, last_error: null } : {}),
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
    return (await this.views(principal, [row]))[0]!;
  }

  async remove(principal: Principal, id: string): Promise<void> {
    await this.get(principal, id, 'edit');
    await this.signals.remove(principal.workspace.id, id);
  }

  async evaluations(principal: Principal, id: string, options: { cursor?: string | undefined; limit: number }): Promise<{ evaluations: EvaluationView[]; nextCursor: string | null }> {
    const signal = await this.get(principal, id);
    const { rows: page, nextCursor } = await this.signals.evaluations(id, { cursor: options.cursor, limit: options.limit });
    const readerOf = (row: SignalEvaluationRow) => row.read_as ?? signal.owner_id;
    const hidden = await hiddenValues(this.readers, principal, page.map(readerOf));
    return {
      evaluations: page.map((row) => ({ row, valuesHidden: hidden(readerOf(row)) })),
      nextCursor,
    };
  }

  /**
   * Evaluates a signal the principal may see. A dry run (no `send`) reads with the caller's own data
   * keys and changes nothing; it compares with the signal's state only when that state was read with
   * keys that give the caller the same rows (otherwise as a signal evaluated for the first time). With
   * `send` the evaluation is the signal's own, read with its owner's keys and recorded; its values are
   * then shown to the caller as any read of the signal would show them.
   */
  async evaluateFor(principal: Principal, id: string, send: boolean): Promise<Evaluation & { valuesHidden: boolean }> {
    const row = await this.get(principal, id, send ? 'edit' : 'view');
    if (send) {
      const evaluation = await this.evaluate(row, { send: true });
      const hidden = await hiddenValues(this.readers, principal, [evaluation.signal.owner_id]);
      return { ...evaluation, valuesHidden: hidden(evaluation.signal.owner_id) };
    }
    const { value, compared, error } = await readOutcome({ governed: this.governed, scenes: this.scenes, clock: this.clock }, principal, row.id, row.watch as SignalWatch);
    const ownState = !(await hiddenValues(this.readers, principal, [row.owner_id]))(row.owner_id);
    const basis = ownState ? row : { ...row, holding: false, last_value: null };
    return { value, compared, error, sent: false, signal: row, valuesHidden: false, ...decide(basis, value, error) };
  }

  /** The signal's own evaluation, as its owner (see SignalRecorder). Used by the scheduler too. */
  evaluate(signal: SignalRow, options: { send: boolean; releaseClaim?: boolean }): Promise<Evaluation> {
    return this.recorder.evaluate(signal, options);
  }

  private async views(principal: Principal, rows: SignalRow[]): Promise<SignalView[]> {
    const hidden = await hiddenValues(this.readers, principal, rows.map((r) => r.owner_id));
    return rows.map((row) => ({ row, valuesHidden: hidden(row.owner_id) }));
  }

  /**
   * 400 naming what the watch refers to and the principal cannot see or the model does not have, or a
   * watched column the query does not answer (a scene's `key`, a compare's change).
   */
  private async assertWatch(principal: Principal, watch: SignalWatch): Promise<void> {
    if (isSceneWatch(watch)) {
      try {
        await this.scenes.get(principal, watch.scene_id);
      } catch (error) {
        if (error instanceof NotFoundError) throw new BadRequestError(`Unknown scene "${watch.scene_id}" (or one in a vault you may not see)`, 'invalid_signal');
        throw error;
      }
    }
    const { query, key } = await watchQuery(this.scenes, principal, watch, this.clock.now());
    const live = await this.governed.live(principal);
    if (!live.model.nodes.has(query.node)) throw new BadRequestError(`Unknown node "${query.node}"`, 'invalid_signal');
    let columns: readonly ResultColumn[];
    try {
      const options = { dialect: DIALECTS.duckdb, attributes: new Proxy({}, { get: () => ALL_ROWS }), now: this.clock.now(), timezone: principal.workspace.timezone };
      columns = answerColumnsOf(live.model, query, options);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) throw new BadRequestError(error.message, 'invalid_signal');
      throw error;
    }
    const watched = columns.find((c) => c.key === key);
    if (!watched || watched.kind === 'dimension' || watched.kind === 'partial') {
      const numbers = columns.filter((c) => c.kind !== 'dimension' && c.kind !== 'partial').map((c) => c.key);
      throw new BadRequestError(`watch.key "${key}" is not a number column of the scene's answer; it has ${numbers.join(', ') || 'none'}`, 'invalid_signal');
    }
  }
}
