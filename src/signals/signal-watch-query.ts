// The query a signal's watch runs, and the column of its first row that is the watched value:
// - a scene watch: the scene's saved query (its comparison, shares and ratios included), sorted so that
//   its first row is one row, and the column `key` names (the scene's first measure by default);
// - a metric watch: the measure's total over the filters and the period; with `compare`, the same
//   measure compared with the period before (or a year before) through the query's own `compare`, and
//   the column of its change (or change in percent).
import { BadRequestError } from '../core/errors.js';
import { findPeriod } from '../core/answer/periods.js';
import type { Filter, SemanticQuery } from '../core/semantic/query.js';
import type { SavedQuery } from '../content/scene-definition.js';
import type { SceneService } from '../content/scene-service.js';
import type { Principal } from '../identity/principal.js';
import { isSceneWatch, type MetricWatch, type SignalWatch } from './signal-definition.js';

export interface WatchQuery {
  readonly query: SemanticQuery;
  /** The column of the first row whose value is watched. */
  readonly key: string;
}

/** The period a metric watch names, resolved at `now` in the workspace zone: [start, end) as dates. */
function resolvedPeriod(watch: MetricWatch & { period: string }, now: Date, timezone: string): { start: string; end: string } {
  const resolved = findPeriod(watch.period.replaceAll('_', ' '), { now, timezone });
  if (!resolved || resolved.token !== watch.period) throw new BadRequestError(`watch.period "${watch.period}" is not a period token (e.g. last_7_days, last_month, month_to_date)`, 'invalid_signal');
  return resolved;
}

/** The filters a metric's period stands for, on its time field: [start, end) in the workspace zone. */
function periodFilters(watch: MetricWatch, now: Date, timezone: string): Filter[] {
  if (!watch.period) return [];
  if (!watch.time_field) throw new BadRequestError('watch.time_field is required with watch.period', 'invalid_signal');
  const { start, end } = resolvedPeriod({ ...watch, period: watch.period }, now, timezone);
  return [
    { field: watch.time_field, operator: 'onOrAfter', value: start },
    { field: watch.time_field, operator: 'before', value: end },
  ];
}

function metricWatchQuery(watch: MetricWatch, now: Date, timezone: string): WatchQuery {
  const base = { node: watch.node, dimensions: [], measures: [watch.measure], sorts: [], limit: 1 };
  if (!watch.compare) {
    if (watch.value) throw new BadRequestError('watch.value says which change to watch, and needs watch.compare (previous_period or previous_year)', 'invalid_signal');
    return { query: { ...base, filters: [...(watch.filters ?? []), ...periodFilters(watch, now, timezone)] }, key: watch.measure };
  }
  const missing = [watch.period ? undefined : 'watch.period', watch.time_field ? undefined : 'watch.time_field'].filter((name) => name !== undefined);
  if (missing.length > 0) {
    throw new BadRequestError(
      `watch.compare needs ${missing.join(' and ')}: the period whose change is watched (a token such as last_week) and the time dimension it is a range of`,
      'invalid_signal',
    );
  }
  const { start, end } = resolvedPeriod({ ...watch, period: watch.period! }, now, timezone);
  return {
    query: { ...base, filters: watch.filters ?? [], compare: { dimension: watch.time_field!, range: [start, end], to: watch.compare } },
    key: `${watch.measure}.${watch.value ?? 'change'}`,
  };
}

function sceneWatchQuery(scene: { name: string; node: string; query: unknown }, key: string | undefined): WatchQuery {
  const saved = scene.query as SavedQuery;
  const watched = key ?? saved.measures[0];
  if (watched === undefined) throw new BadRequestError(`Scene "${scene.name}" has no measure to watch; name one of its columns in watch.key`, 'invalid_signal');
  if (saved.dimensions.length > 0 && saved.sorts.length === 0) {
    throw new BadRequestError(
      `Scene "${scene.name}" has dimensions but no sort, so its first row could be any row; sort the scene (e.g. by ${watched} descending) or watch a measure of its node`,
      'invalid_signal',
    );
  }
  // Ties of the scene's sorts are broken by its dimensions, so the first row is always the same row.
  const sorted = new Set(saved.sorts.map((s) => s.field));
  const tieBreakers = saved.dimensions.filter((d) => !sorted.has(d)).map((field) => ({ field, direction: 'asc' as const }));
  return {
    query: {
      node: scene.node,
      dimensions: saved.dimensions,
      measures: saved.measures,
      filters: saved.filters,
      sorts: [...saved.sorts, ...tieBreakers],
      limit: 1,
      ...(saved.compare ? { compare: saved.compare } : {}),
      ...(saved.shares?.length ? { shares: saved.shares } : {}),
      ...(saved.per?.length ? { per: saved.per } : {}),
    },
    key: watched,
  };
}

/** The query a watch runs and its watched column: a scene's saved query, or the measure over the period and filters. */
export async function watchQuery(scenes: SceneService, principal: Principal, watch: SignalWatch, now: Date): Promise<WatchQuery> {
  if (isSceneWatch(watch)) return sceneWatchQuery(await scenes.get(principal, watch.scene_id), watch.key);
  return metricWatchQuery(watch, now, principal.workspace.timezone);
}
