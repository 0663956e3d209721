// A signal's own evaluation: read as its owner, then (with `send`) recorded. The owner must still be
// someone who may see what the signal reads: a member of the workspace who sees the signal's vault and,
// for a scene watch, the scene. When that no longer holds the signal stops (disabled, state error, the
// reason in last_error and in its history) instead of failing every minute, or reading with the keys
// of someone who left. Recording locks the signal, so concurrent evaluations apply one after the other,
// and writes the state, the history row and (on a crossing) the signal.triggered event together.
import type { Clock } from '../clock.js';
import { NotFoundError } from '../core/errors.js';
import type { SceneService } from '../content/scene-service.js';
import type { VaultService } from '../content/vault-service.js';
import { recordEvent } from '../events/event-record.js';
import { principalOf, type Principal } from '../identity/principal.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import { conditionHolds } from './signal-condition.js';
import { isSceneWatch, type SignalCondition, type SignalState, type SignalWatch } from './signal-definition.js';
import { readOutcome, type ComparedValues } from './signal-value.js';
import { sameJson } from './same-json.js';
import { jsonOrNull, type SignalRow, type SignalsRepo } from './signals-repo.js';
import { stoppedFields } from '../jobs/run-stops.js';

export interface Evaluation {
  value: number | null;
  /** With a comparison: the watched measure in both periods, and the periods. */
  compared: ComparedValues | null;
  /** Whether the condition holds for the value (null when no value could be read). */
  holds: boolean | null;
  /** Whether this evaluation fires (or, without send, would fire) signal.triggered. */
  wouldFire: boolean;
  state: SignalState;
  error: string | null;
  sent: boolean;
  signal: SignalRow;
}

/** What a value (or an error) means for a signal in the given state. */
export function decide(current: Pick<SignalRow, 'condition' | 'threshold' | 'last_value' | 'holding'>, value: number | null, error: string | null) {
  const holds = value === null ? null : conditionHolds(current.condition as SignalCondition, current.threshold, value, current.last_value);
  const wouldFire = holds === true && !current.holding;
  const state: SignalState = error !== null ? 'error' : holds ? 'triggered' : 'ok';
  return { holds, wouldFire, state };
}

const TAKE_OVER = 'an editor of its vault can take it over (take_ownership) and enable it again';

export class SignalRecorder {
  constructor(
    private readonly signals: SignalsRepo,
    private readonly vaults: VaultService,
    private readonly scenes: SceneService,
    private readonly governed: GovernedQueryService,
    private readonly clock: Clock,
  ) {}

  /**
   * Reads the value with the owner's data keys and applies the condition. With `send`, records the
   * evaluation; when the owner may no longer run the signal, stops it.
   */
  async evaluate(signal: SignalRow, options: { send: boolean; releaseClaim?: boolean }): Promise<Evaluation> {
    const runner = await this.runnerOf(signal);
    const stopped = 'stopped' in runner ? runner.stopped : null;
    const { value, compared, error } =
      'principal' in runner
        ? await readOutcome({ governed: this.governed, scenes: this.scenes, clock: this.clock }, runner.principal, signal.id, signal.watch as SignalWatch)
        : { value: null, compared: null, error: stopped };
    if (!options.send) return { value, compared, error, sent: false, signal, ...decide(signal, value, error) };

    return this.signals.db.transaction().execute(async (trx) => {
      const current = await this.signals.lock(trx, signal.id);
      if (!current) throw new NotFoundError(`No signal "${signal.id}" in your workspace`, 'unknown_signal');
      if (current.owner_id !== signal.owner_id || !sameJson(current.watch, signal.watch)) {
        // Redefined (or taken over) while the value was read: that value belongs to the old definition
        // or the old owner's keys, and is not recorded. The next run reads the new one.
        const released = options.releaseClaim ? await trx.updateTable('signals').set({ claimed_until: null }).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow() : current;
        return {
          value: null,
          compared: null,
          holds: null,
          wouldFire: false,
          state: current.state as SignalState,
          error: 'The signal was redefined while it was evaluated; nothing was recorded',
          sent: false,
          signal: released,
        };
      }
      const { holds, wouldFire, state } = decide(current, value, error);
      const at = this.clock.now();
      const updated = await trx
        .updateTable('signals')
        .set({
          state,
          // An error keeps what the last read value showed: it neither fires nor re-arms.
          holding: holds ?? current.holding,
          last_value: value ?? current.last_value,
          // The comparison goes with the value it was read with.
          ...(value !== null ? { last_compared: jsonOrNull(compared) } : {}),
          last_evaluated_at: at,
          last_error: error,
          ...(options.releaseClaim ? { claimed_until: null } : {}),
          ...(stopped ? stoppedFields(stopped) : {}),
        })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.signals.appendEvaluation(trx, {
        signal_id: current.id,
        evaluated_at: at,
        value,
        previous: current.last_value,
        holds,
        state,
        fired: wouldFire,
        error,
        read_as: current.owner_id,
        compared,
      });
      if (wouldFire) {
        await recordEvent(trx, {
          workspaceId: current.workspace_id,
          type: 'signal.triggered',
          fields: { signal_id: current.id, signal_name: current.name, triggered_at: at.toISOString(), value, threshold: current.threshold, condition: current.condition, compared },
        });
      }
      return { value, compared, holds, wouldFire, state, error, sent: true, signal: updated };
    });
  }

  /** The owner as the principal the signal acts as, or why the signal must stop. */
  private async runnerOf(signal: SignalRow): Promise<{ principal: Principal } | { stopped: string }> {
    const owner = await this.signals.owner(signal.workspace_id, signal.owner_id);
    if (!owner) return { stopped: `Stopped: its owner is no longer a member of the workspace; ${TAKE_OVER}` };
    const principal = principalOf(owner, 'session');
    try {
      await this.vaults.require(principal, signal.vault_id, 'view');
      const watch = signal.watch as SignalWatch;
      if (isSceneWatch(watch)) await this.scenes.get(principal, watch.scene_id);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const what = error.code === 'unknown_scene' ? 'the scene it watches was deleted, or its owner may no longer see it' : 'its owner may no longer see the vault it is kept in';
      return { stopped: `Stopped: ${what}; ${TAKE_OVER}` };
    }
    return { principal };
  }
}
