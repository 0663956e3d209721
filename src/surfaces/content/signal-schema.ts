// A signal and an evaluation as the APIs show them.
import { z } from 'zod';
import { SIGNAL_CONDITIONS, SIGNAL_STATES } from '../../signals/signal-definition.js';
import type { Evaluation } from '../../signals/signal-service.js';
import type { SignalEvaluationRow, SignalRow } from '../../signals/signals-repo.js';

export const signalSchema = z.object({
  id: z.string(),
  name: z.string(),
  vault: z.string().describe('id of the vault the signal is kept in'),
  owner: z.string().describe('the user whose data keys the evaluations use (who created the signal)'),
  watch: z.record(z.string(), z.any()).describe('{scene_id} or {node, measure, time_field?, period?, filters?}'),
  condition: z.enum(SIGNAL_CONDITIONS),
  threshold: z.number(),
  schedule: z.union([z.object({ cron: z.string(), timezone: z.string() }), z.object({ interval_seconds: z.number().int() })]),
  enabled: z.boolean(),
  state: z.enum(SIGNAL_STATES),
  last_value: z.number().nullable(),
  last_evaluated_at: z.string().nullable(),
  last_error: z.string().nullable(),
  next_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export function presentSignal(row: SignalRow): z.infer<typeof signalSchema> {
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
    state: row.state as z.infer<typeof signalSchema>['state'],
    last_value: row.last_value,
    last_evaluated_at: row.last_evaluated_at?.toISOString() ?? null,
    last_error: row.last_error,
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
  holds: z.boolean().nullable(),
  state: z.enum(SIGNAL_STATES),
  fired: z.boolean(),
  error: z.string().nullable(),
});

export function presentEvaluation(row: SignalEvaluationRow): z.infer<typeof evaluationSchema> {
  return { ...row, evaluated_at: row.evaluated_at.toISOString(), state: row.state as z.infer<typeof evaluationSchema>['state'] };
}

export const evaluateAnswerSchema = z.object({
  value: z.number().nullable(),
  holds: z.boolean().nullable(),
  would_fire: z.boolean().describe('whether this evaluation fires signal.triggered (with send=true: it did)'),
  state: z.enum(SIGNAL_STATES).describe('the state the evaluation leads to (with send=true: the state now)'),
  error: z.string().nullable(),
  sent: z.boolean(),
});

export function presentEvaluate(e: Evaluation): z.infer<typeof evaluateAnswerSchema> {
  return { value: e.value, holds: e.holds, would_fire: e.wouldFire, state: e.state, error: e.error, sent: e.sent };
}
