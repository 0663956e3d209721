// A signal and an evaluation as the APIs show them.
import { z } from 'zod';
import { SIGNAL_CONDITIONS, SIGNAL_STATES } from '../../signals/signal-definition.js';
import type { Evaluation, EvaluationView, SignalView } from '../../signals/signal-service.js';
import { VALUES_HIDDEN } from '../../signals/signal-visibility.js';

/** With a comparison: the watched measure in both periods and the periods, beside the watched value. */
export const comparedSchema = z
  .object({
    current: z.number().nullable().describe('the measure over the current period'),
    comparison: z.number().nullable().describe('the measure over the comparison period'),
    range: z.array(z.string()).describe('the current period, [from, to), as wall times of the workspace time zone'),
    comparison_range: z.array(z.string()).describe('the comparison period, [from, to)'),
  })
  .nullable();

/**
 * A signal's state as the APIs show it: `pending` until its first recorded evaluation (the store's state
 * is only what evaluations decide), then the state the last one led to.
 */
const SIGNAL_STATES_SHOWN = ['pending', ...SIGNAL_STATES] as const;

export const signalSchema = z.object({
  id: z.string(),
  name: z.string(),
  vault: z.string().describe('id of the vault the signal is kept in'),
  owner: z.string().describe('the user whose data keys its evaluations read with: who created it, or last redefined what it watches'),
  watch: z.record(z.string(), z.any()).describe('{scene_id, key?} or {node, measure, time_field?, period?, filters?, compare?, value?}'),
  condition: z.enum(SIGNAL_CONDITIONS),
  threshold: z.number(),
  schedule: z.union([z.object({ cron: z.string(), timezone: z.string() }), z.object({ interval_seconds: z.number().int() })]),
  enabled: z.boolean(),
  state: z
    .enum(SIGNAL_STATES_SHOWN)
    .nullable()
    .describe('pending until the first recorded evaluation (last_evaluated_at null; next_run_at says when it is due), then ok, triggered or error; null when values_hidden'),
  last_value: z.number().nullable(),
  last_compared: comparedSchema.describe('with a comparison: the measure in both periods when last_value was read (null when values_hidden)'),
  last_evaluated_at: z.string().nullable(),
  last_error: z.string().nullable().describe('why the last evaluation read no value, or why the signal stopped (null when values_hidden)'),
  stopped: z
    .string()
    .nullable()
    .describe('why the signal stopped by itself (its owner left, or may no longer see its vault or the scene it watches); null while it runs'),
  values_hidden: z
    .string()
    .nullable()
    .describe("why state, last_value, last_compared and last_error are null: they were read with the owner's data keys, which show other rows than yours"),
  next_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export function presentSignal({ row, valuesHidden }: SignalView): z.infer<typeof signalSchema> {
  return {
    id: row.id,
    name: row.name,
    vault: row.vault_id,
    owner: row.owner_id,
    watch: row.watch,
    condition: row.condition as z.infer<typeof signalSchema>['condition'],
    threshold: row.threshold,
    schedule: row.cron !== null ? { cron: row.cron, timezone: row.timezone ?? 'UTC' } : { interval_seconds: row.interval_seconds! },
    enabled: row.enabled,
    state: valuesHidden ? null : row.last_evaluated_at === null ? 'pending' : (row.state as z.infer<typeof signalSchema>['state']),
    last_value: valuesHidden ? null : row.last_value,
    last_compared: valuesHidden ? null : row.last_compared,
    last_evaluated_at: row.last_evaluated_at?.toISOString() ?? null,
    last_error: valuesHidden ? null : row.last_error,
    stopped: row.stopped_reason,
    values_hidden: valuesHidden ? VALUES_HIDDEN : null,
    next_run_at: row.next_run_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const evaluationSchema = z.object({
  id: z.string(),
  evaluated_at: z.string(),
  value: z.number().nullable(),
  previous: z.number().nullable().describe('the last value read before this evaluation (percent conditions compare with it)'),
  compared: comparedSchema.describe('with a comparison: the measure in both periods, and the periods'),
  holds: z.boolean().nullable(),
  state: z.enum(SIGNAL_STATES).nullable(),
  fired: z.boolean().nullable(),
  error: z.string().nullable(),
  values_hidden: z.string().nullable().describe('why value, previous, compared, holds, state, fired and error are null: this evaluation read with data keys that show other rows than yours'),
});

export function presentEvaluation({ row, valuesHidden }: EvaluationView): z.infer<typeof evaluationSchema> {
  const at = row.evaluated_at.toISOString();
  if (valuesHidden) return { id: row.id, evaluated_at: at, value: null, previous: null, compared: null, holds: null, state: null, fired: null, error: null, values_hidden: VALUES_HIDDEN };
  return {
    id: row.id,
    evaluated_at: at,
    value: row.value,
    previous: row.previous,
    compared: row.compared,
    holds: row.holds,
    state: row.state as z.infer<typeof evaluationSchema>['state'],
    fired: row.fired,
    error: row.error,
    values_hidden: null,
  };
}

export const evaluateAnswerSchema = z.object({
  value: z.number().nullable(),
  compared: comparedSchema.describe('with a comparison: the measure in both periods, and the periods'),
  holds: z.boolean().nullable(),
  would_fire: z.boolean().nullable().describe('whether this evaluation fires signal.triggered (with send=true: it did)'),
  state: z.enum(SIGNAL_STATES).nullable().describe('the state the evaluation leads to (with send=true: the state now)'),
  error: z.string().nullable(),
  sent: z.boolean(),
  values_hidden: z.string().nullable().describe("with send=true by someone whose data keys show other rows than the owner's: why the rest is null"),
});

export function presentEvaluate(e: Evaluation & { valuesHidden: boolean }): z.infer<typeof evaluateAnswerSchema> {
  if (e.valuesHidden) return { value: null, compared: null, holds: null, would_fire: null, state: null, error: null, sent: e.sent, values_hidden: VALUES_HIDDEN };
  return { value: e.value, compared: e.compared, holds: e.holds, would_fire: e.wouldFire, state: e.state, error: e.error, sent: e.sent, values_hidden: null };
}
