// What a signal is, as the APIs take it: the value it watches, the condition on that value, and when it
// is evaluated. The zod schemas are the single source of the shapes; meaning (which scene, node and
// fields exist, whether a cron expression parses) is checked by SignalService against the store and the
// live model.
import { z } from 'zod';
import { COMPARE_TO, filtersSchema } from '../core/semantic/query.js';

export const SIGNAL_CONDITIONS = [
  'less_than',
  'greater_than',
  'equals',
  'not_equals',
  'increases_by_percent',
  'decreases_by_percent',
  'changes_by_percent',
] as const;
export type SignalCondition = (typeof SIGNAL_CONDITIONS)[number];

export const SIGNAL_STATES = ['ok', 'triggered', 'error'] as const;
export type SignalState = (typeof SIGNAL_STATES)[number];

/** The shortest interval between two evaluations. */
export const MIN_INTERVAL_SECONDS = 60;

/**
 * A scene's value: a column of the scene's first row, its first measure unless `key` names another (a
 * scene with `compare`, `shares` or `per` answers more columns: `m.change`, `m.share`…). A scene with
 * dimensions must be sorted for "its first row" to mean one row; ties of its sorts are broken by its
 * dimensions.
 */
export const sceneWatchSchema = z
  .object({
    scene_id: z.uuid().describe('the scene whose first row is watched (a scene with dimensions must have a sort)'),
    key: z
      .string()
      .min(1)
      .max(300)
      .optional()
      .describe("the column of the first row watched: a measure of the scene or a column its compare, shares or per add (m.change, m.change_percent, m.share, m.per.other); the scene's first measure by default"),
  })
  .strict();

/** What a metric watch with `compare` watches: the change over the period, or that change in percent. */
export const COMPARED_VALUES = ['change', 'change_percent'] as const;

/**
 * A measure of a node, optionally over a period of a time dimension and with filters; with `compare`,
 * the change of that measure from the comparison period to the period.
 */
export const metricWatchSchema = z
  .object({
    node: z.string().min(1).max(200),
    measure: z.string().min(1).max(200).describe('the measure whose total is watched'),
    time_field: z.string().min(1).max(200).optional().describe('the time dimension the period applies to (required with period)'),
    period: z.string().min(1).max(50).optional().describe('a period token such as last_7_days, last_month, month_to_date'),
    filters: filtersSchema.optional(),
    compare: z
      .enum(COMPARE_TO)
      .optional()
      .describe('watch the change against the period just before (previous_period) or a year before (previous_year); needs time_field and period'),
    value: z
      .enum(COMPARED_VALUES)
      .optional()
      .describe('with compare: the change (the default: the period minus the comparison period) or the change in percent of the comparison period'),
  })
  .strict();

/**
 * When neither kind of watch fits, the message names the problem of the kind the watch meant (a scene
 * watch has a scene_id): `compare: Invalid option…` rather than a bare "Invalid input".
 */
function watchIssue(issue: { code?: string; input?: unknown; errors?: unknown }): string | undefined {
  if (issue.code !== 'invalid_union' || !Array.isArray(issue.errors)) return undefined;
  const meant = issue.input !== null && typeof issue.input === 'object' && 'scene_id' in issue.input ? 0 : 1;
  const first = (issue.errors[meant] as Array<{ path: PropertyKey[]; message: string }> | undefined)?.[0];
  if (!first) return undefined;
  return first.path.length > 0 ? `${first.path.map(String).join('.')}: ${first.message}` : first.message;
}

export const watchSchema = z.union([sceneWatchSchema, metricWatchSchema], { error: watchIssue });
export type SignalWatch = z.infer<typeof watchSchema>;
export type MetricWatch = z.infer<typeof metricWatchSchema>;

export function isSceneWatch(watch: SignalWatch): watch is z.infer<typeof sceneWatchSchema> {
  return 'scene_id' in watch;
}

export const scheduleSchema = z.union([
  z
    .object({
      cron: z.string().min(1).max(200).describe('a cron expression (5 fields, or 6 with seconds first); runs at least 60 s apart'),
      timezone: z.string().min(1).max(100).optional().describe("IANA time zone of the cron expression; the workspace's by default"),
    })
    .strict(),
  z.object({ interval_seconds: z.number().int().min(MIN_INTERVAL_SECONDS).max(31_536_000) }).strict(),
]);
export type SignalSchedule = z.infer<typeof scheduleSchema>;

export const signalInputSchema = z
  .object({
    name: z.string().min(1).max(200),
    vault: z.uuid().optional().describe('the vault the signal is kept in; your personal vault when omitted'),
    watch: watchSchema,
    condition: z.enum(SIGNAL_CONDITIONS),
    threshold: z.number().finite(),
    schedule: scheduleSchema,
    enabled: z.boolean().default(true),
  })
  .strict();
export type SignalInput = z.infer<typeof signalInputSchema>;

export const signalPatchSchema = z
  .object({
    name: z.string().min(1).max(200).optional(),
    vault: z.uuid().optional(),
    watch: watchSchema.optional(),
    condition: z.enum(SIGNAL_CONDITIONS).optional(),
    threshold: z.number().finite().optional(),
    schedule: scheduleSchema.optional(),
    enabled: z.boolean().optional(),
    take_ownership: z
      .boolean()
      .optional()
      .describe("make yourself the owner: later evaluations read with your data keys (so does a change of watch by anyone but the owner); the state starts again"),
  })
  .strict();
export type SignalPatch = z.infer<typeof signalPatchSchema>;
