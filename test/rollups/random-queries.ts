// Random governed queries of the fact model (fact-table.ts), from a seeded generator: measure and
// dimension subsets, time grains and a date part, filters on dimensions, time ranges on day and month
// boundaries (which rollups can answer) and some off them (which they cannot), measure filters, sorts
// with limits, a second zone, and the caller's data-key attribute (all rows, one region, none). Some
// queries are at the exact grain of the month rollup, where its distinct count may answer.
import { createRng, intBetween, pickOne, type Rng } from '../../src/core/demo/prng.js';
import type { Filter, SemanticQueryInput } from '../../src/core/semantic/query.js';
import { CHANNELS, DAYS, FIRST_DAY, REGIONS, STATUSES } from './fact-table.js';

export const MEASURES = ['revenue', 'units', 'order_count', 'avg_amount', 'smallest', 'largest', 'completed_revenue', 'aov', 'buyers', 'per_buyer'] as const;
/** Measures whose values are quotients (floating point): compared within a relative 1e-9. */
export const FLOAT_MEASURES: ReadonlySet<string> = new Set(['avg_amount', 'aov', 'per_buyer']);
const DIMENSIONS = ['region', 'status', 'channel'] as const;
const TIME_FIELDS = ['created_at.day', 'created_at.week', 'created_at.month', 'created_at.quarter', 'created_at.year', 'created_at.day_of_week'] as const;

export interface RandomQuery {
  readonly query: SemanticQueryInput;
  readonly attributes: Record<string, string>;
}

function subset<T>(rng: Rng, items: readonly T[], share: number): T[] {
  return items.filter(() => rng() < share);
}

const day = (offset: number) => new Date(FIRST_DAY + offset * 86_400_000).toISOString().slice(0, 10);

/** A month's first day and last day, `offset` months after the first month of the data (a few before and after too). */
function month(offset: number): [string, string] {
  const start = new Date(Date.UTC(2024, offset, 1));
  const last = new Date(Date.UTC(2024, offset + 1, 0));
  return [start.toISOString().slice(0, 10), last.toISOString().slice(0, 10)];
}

function dimensionFilter(rng: Rng): Filter {
  switch (intBetween(rng, 0, 5)) {
    case 0:
      return { field: 'region', operator: 'equals', value: pickOne(rng, REGIONS) };
    case 1:
      return { field: 'region', operator: 'in', value: [pickOne(rng, REGIONS), pickOne(rng, REGIONS)] };
    case 2:
      return { field: 'region', operator: 'notEquals', value: pickOne(rng, REGIONS) };
    case 3:
      return { field: 'status', operator: pickOne(rng, ['isNull', 'notNull']) };
    case 4:
      return { field: 'status', operator: 'notIn', value: [pickOne(rng, STATUSES)] };
    default:
      return { field: 'channel', operator: 'equals', value: pickOne(rng, CHANNELS) };
  }
}

function timeFilter(rng: Rng): Filter {
  switch (intBetween(rng, 0, 4)) {
    case 0: {
      const from = intBetween(rng, -2, 20);
      return { field: 'created_at', operator: 'inDateRange', value: [month(from)[0], month(from + intBetween(rng, 0, 5))[1]] };
    }
    case 1: {
      const from = intBetween(rng, 0, DAYS - 1);
      return { field: 'created_at', operator: 'inDateRange', value: [day(from), day(Math.min(DAYS - 1, from + intBetween(rng, 0, 60)))] };
    }
    case 2:
      return { field: 'created_at', operator: pickOne(rng, ['onOrAfter', 'before']), value: month(intBetween(rng, 0, 23))[0] };
    case 3:
      return { field: 'created_at', operator: 'inThePast', value: `${intBetween(rng, 1, 30)} months` };
    default:
      // Inside a day: no rollup answers it, the source does.
      return { field: 'created_at', operator: 'gte', value: `${day(intBetween(rng, 0, DAYS - 1))}T12:00:00` };
  }
}

function attributesFor(rng: Rng): Record<string, string> {
  const draw = rng();
  if (draw < 0.6) return { region: '*' };
  if (draw < 0.92) return { region: pickOne(rng, REGIONS) };
  return {};
}

/** A query at the exact grain of monthly_region: by region and month, where its distinct count answers. */
function exactGrainQuery(rng: Rng): SemanticQueryInput {
  const measures = ['buyers', ...subset(rng, ['per_buyer', 'revenue', 'avg_amount'], 0.5)];
  const filters = rng() < 0.5 ? [timeFilter(rng)] : [];
  if (rng() < 0.3) filters.push({ field: 'region', operator: 'in', value: [pickOne(rng, REGIONS), pickOne(rng, REGIONS)] });
  return { node: 'orders', measures, dimensions: ['region', 'created_at.month'], filters };
}

/** A query by the date dimension: grouped by it raw (its day) or by a grain, filtered by dates. */
function dateQuery(rng: Rng): SemanticQueryInput {
  const measures = subset(rng, ['revenue', 'order_count', 'units'], 0.5);
  if (measures.length === 0) measures.push('units');
  const dimensions = [pickOne(rng, ['ordered_on', 'ordered_on.week', 'ordered_on.month', 'ordered_on.year']), ...subset(rng, ['channel'], 0.5)];
  const from = intBetween(rng, 0, DAYS - 1);
  const filters: Filter[] = rng() < 0.6 ? [{ field: 'ordered_on', operator: pickOne(rng, ['inDateRange', 'between']), value: [day(from), day(Math.min(DAYS - 1, from + intBetween(rng, 0, 90)))] }] : [];
  return { node: 'orders', measures, dimensions, filters };
}

/** A query in Paris time by region, of what paris_daily holds: buckets and day filters in that zone. */
function parisQuery(rng: Rng): SemanticQueryInput {
  const measures = subset(rng, ['revenue', 'order_count', 'avg_amount'], 0.5);
  if (measures.length === 0) measures.push('order_count');
  const dimensions = [...subset(rng, ['region'], 0.5), pickOne(rng, ['created_at.day', 'created_at.week', 'created_at.month', 'created_at.day_of_week'])];
  const filters = rng() < 0.6 ? [timeFilter(rng)] : [];
  return { node: 'orders', measures, dimensions, filters, timezone: 'Europe/Paris' };
}

/** A query by a timestamp dimension a rollup stores as it is (by_hour): raw, truncated or a part, in UTC or Paris time. */
function storedTimestampQuery(rng: Rng): SemanticQueryInput {
  const dimensions = [pickOne(rng, ['created_hour', 'created_hour.day', 'created_hour.month', 'created_hour.hour_of_day'])];
  const from = intBetween(rng, 0, DAYS - 1);
  const filters: Filter[] = [];
  const draw = rng();
  if (draw < 0.35) filters.push({ field: 'created_hour', operator: 'inDateRange', value: [day(from), day(from + 3)] });
  else if (draw < 0.7) filters.push({ field: 'created_hour', operator: 'gte', value: `${day(from)}T10:30:00` });
  return { node: 'orders', measures: subset(rng, ['order_count', 'units'], 0.7), dimensions, filters, ...(rng() < 0.5 ? { timezone: 'Europe/Paris' } : {}) };
}

export function randomQueries(count: number, seed: number): RandomQuery[] {
  const rng = createRng(seed, 1);
  return Array.from({ length: count }, () => {
    const attributes = attributesFor(rng);
    if (rng() < 0.15) return { query: exactGrainQuery(rng), attributes };
    if (rng() < 0.1) return { query: dateQuery(rng), attributes };
    if (rng() < 0.08) return { query: parisQuery(rng), attributes };
    if (rng() < 0.05) return { query: storedTimestampQuery(rng), attributes: { region: '*' } };
    const measures = subset(rng, MEASURES.filter((m) => m !== 'buyers' && m !== 'per_buyer'), 0.3);
    if (measures.length === 0) measures.push(pickOne(rng, ['revenue', 'order_count', 'avg_amount']));
    const dimensions: string[] = subset(rng, DIMENSIONS, 0.3);
    if (rng() < 0.7) dimensions.push(pickOne(rng, TIME_FIELDS));
    const filters: Filter[] = [];
    if (rng() < 0.5) filters.push(dimensionFilter(rng));
    if (rng() < 0.5) filters.push(timeFilter(rng));
    if (rng() < 0.1) filters.push({ field: 'order_count', operator: 'gt', value: intBetween(rng, 1, 8) });
    const query: SemanticQueryInput = { node: 'orders', measures, dimensions, filters };
    if (rng() < 0.2) query.timezone = 'Europe/Paris';
    if (dimensions.length > 0 && rng() < 0.2) {
      query.sorts = [{ field: pickOne(rng, dimensions), direction: pickOne(rng, ['asc', 'desc'] as const) }];
      query.limit = intBetween(rng, 1, 15);
    }
    return { query, attributes };
  });
}
