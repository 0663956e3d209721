// Reads the value a signal watches, as its owner would see it: their data keys and the workspace time
// zone, through the one governed path (origin `signal:<id>`, never from or into the result cache: an
// alert must look at fresh data, read with its owner's keys). A query the model no longer serves (an
// unknown node, a field a deploy removed) is an error the evaluation records, as any other.
import type { Clock } from '../clock.js';
import { BadRequestError } from '../core/errors.js';
import { findPeriod } from '../core/answer/periods.js';
import type { Filter, SemanticQuery } from '../core/semantic/query.js';
import type { SavedQuery } from '../content/scene-definition.js';
import type { SceneService } from '../content/scene-service.js';
import type { Principal } from '../identity/principal.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import { isSceneWatch, type MetricWatch, type SignalWatch } from './signal-definition.js';

/** A value that cannot be read: the evaluation records the message and the signal goes to `error`. */
export class SignalValueError extends Error {}

/** The filters a metric's period stands for, on its time field: [start, end) in the workspace zone. */
export function periodFilters(watch: MetricWatch, now: Date, timezone: string): Filter[] {
  if (!watch.period) return [];
  if (!watch.time_field) throw new BadRequestError('watch.time_field is required with watch.period', 'invalid_signal');
  const resolved = findPeriod(watch.period.replaceAll('_', ' '), { now, timezone });
  if (!resolved || resolved.token !== watch.period) throw new BadRequestError(`watch.period "${watch.period}" is not a period token (e.g. last_7_days, last_month, month_to_date)`, 'invalid_signal');
  return [
    { field: watch.time_field, operator: 'onOrAfter', value: resolved.start },
    { field: watch.time_field, operator: 'before', value: resolved.end },
  ];
}

/** The query a watch runs: a scene's saved query, or the measure's total over the period and filters. */
export async function watchQuery(scenes: SceneService, principal: Principal, watch: SignalWatch, now: Date): Promise<SemanticQuery> {
  if (isSceneWatch(watch)) {
    const scene = await scenes.get(principal, watch.scene_id);
    const saved = scene.query as SavedQuery;
    if (saved.measures.length === 0) throw new BadRequestError(`Scene "${scene.name}" has no measure to watch`, 'invalid_signal');
    if (saved.dimensions.length > 0 && saved.sorts.length === 0) {
      throw new BadRequestError(
        `Scene "${scene.name}" has dimensions but no sort, so its first row could be any row; sort the scene (e.g. by ${saved.measures[0]} descending) or watch a measure of its node`,
        'invalid_signal',
      );
    }
    // Ties of the scene's sorts are broken by its dimensions, so the first row is always the same row.
    const sorted = new Set(saved.sorts.map((s) => s.field));
    const tieBreakers = saved.dimensions.filter((d) => !sorted.has(d)).map((field) => ({ field, direction: 'asc' as const }));
    return { node: scene.node, dimensions: saved.dimensions, measures: saved.measures, filters: saved.filters, sorts: [...saved.sorts, ...tieBreakers], limit: 1 };
  }
  return {
    node: watch.node,
    dimensions: [],
    measures: [watch.measure],
    filters: [...(watch.filters ?? []), ...periodFilters(watch, now, principal.workspace.timezone)],
    sorts: [],
    limit: 1,
  };
}

export async function readWatchedValue(
  deps: { governed: GovernedQueryService; scenes: SceneService; clock: Clock },
  principal: Principal,
  signalId: string,
  watch: SignalWatch,
): Promise<number> {
  const query = await watchQuery(deps.scenes, principal, watch, deps.clock.now());
  const result = await deps.governed.query({
    principal,
    query: { kind: 'node', query },
    cache: 'off',
    surface: 'structured_api',
    origin: `signal:${signalId}`,
    maxRows: 1,
  });
  const row = result.rows[0] as Record<string, unknown> | undefined;
  const column = query.measures[0]!;
  const raw = row ? (row[column] ?? Object.values(row).at(query.dimensions.length)) : undefined;
  if (raw === undefined || raw === null) throw new SignalValueError(`No value: the query returned ${row ? `null for ${column}` : 'no rows'}`);
  const value = typeof raw === 'bigint' ? Number(raw) : Number(raw);
  if (!Number.isFinite(value)) throw new SignalValueError(`The value of ${column} is not a number (${String(raw)})`);
  return value;
}
