// The merge of a composed query's statements (composed-plan.ts) into its answer: each row of the current
// period with its comparison (the same group in the comparison period; with a time grain, the bucket
// the comparison's shift leads back to), its shares of the totals and its ratios; then sorted and cut to
// the limit. Pure: rows in, rows out.
import type { WarehouseRow, WarehouseValue } from '../warehouse/types.js';
import { bucketStart, grainShift, readBucket, shiftWall, writeBucketLike } from './compare-periods.js';
import type { ComparisonPlan, ComposedPlan } from './composed-plan.js';
import { sortRows } from './row-order.js';

/** A row of the answer before its computed columns: its current row (absent when only the comparison period has it) and its comparison. */
interface Paired {
  readonly dimensions: WarehouseRow;
  readonly current: WarehouseRow | undefined;
  readonly comparison: WarehouseRow | undefined;
}

/** The answer's rows from each statement's rows (in the plan's order), and whether the limit cut any. */
export function mergeComposedRows(plan: ComposedPlan, results: ReadonlyArray<readonly WarehouseRow[]>): { rows: WarehouseRow[]; truncated: boolean } {
  const current = results[0] ?? [];
  const paired: Paired[] = plan.comparison
    ? pairPeriods(plan, plan.comparison, current, results[plan.comparison.statement] ?? [])
    : current.map((row) => ({ dimensions: row, current: row, comparison: undefined }));
  const totals = plan.shares.map((share) => indexBy(results[share.statement] ?? [], share.of));
  const measures = plan.measures.map((m) => ({ m, comparison: `${m}.comparison`, change: `${m}.change`, percent: `${m}.change_percent` }));
  const partialOf = plan.comparison ? partiality(plan, plan.comparison) : undefined;

  const rows = paired.map((pair) => {
    const row: WarehouseRow = {};
    for (const d of plan.dimensions) row[d] = pair.dimensions[d] ?? null;
    for (const keys of measures) {
      const value = pair.current?.[keys.m] ?? null;
      row[keys.m] = value;
      if (!plan.comparison) continue;
      const compared = pair.comparison?.[keys.m] ?? null;
      const change = difference(value, compared);
      const base = numberOf(compared);
      row[keys.comparison] = compared;
      row[keys.change] = change;
      row[keys.percent] = base === null ? null : percent(change, Math.abs(base));
    }
    plan.shares.forEach((share, i) => {
      const total = totals[i]!.get(keyOf(row, share.of));
      row[share.key] = ratio(pair.current?.[share.measure] ?? null, total?.[share.measure] ?? null);
    });
    for (const per of plan.per) row[per.key] = ratio(pair.current?.[per.measure] ?? null, pair.current?.[per.by] ?? null);
    if (plan.comparison) row[plan.comparison.partialKey] = partialOf!(row);
    return row;
  });
  const sorted = sortRows(rows, plan.order);
  return { rows: sorted.slice(0, plan.limit), truncated: sorted.length > plan.limit };
}

/**
 * Each current row with the comparison row of the same group (the bucket its shift leads back to, with
 * a grain); then, unless measure filters choose the rows, the comparison rows no current row met, as rows
 * of their own with the bucket moved forwards. Several current buckets may lead back to one (29 and 28
 * February both to the 28th a year before); a comparison bucket that its own shift does not lead back to
 * (that 29 February a year later) has no row of its own.
 */
function pairPeriods(plan: ComposedPlan, comparison: ComparisonPlan, current: readonly WarehouseRow[], compared: readonly WarehouseRow[]): Paired[] {
  const grain = comparison.grain;
  // A bucket's place, as it is or moved back: worked out once per bucket, which many rows share.
  const places = new Map<string, WarehouseValue>();
  const placeOf = (value: WarehouseValue, direction: -1 | 0): WarehouseValue => {
    if (typeof value !== 'string') return value;
    const id = `${direction}${value}`;
    let place = places.get(id);
    if (place === undefined) {
      const wall = readBucket(value);
      place = wall ? (direction === 0 ? wall : shiftWall(wall, grain!.shift, direction)).getTime() : value;
      places.set(id, place);
    }
    return place;
  };
  const keyAt = (row: WarehouseRow, direction: -1 | 0) => {
    let key = '';
    for (const d of plan.dimensions) key += valueKey(d === grain?.id ? placeOf(row[d] ?? null, direction) : (row[d] ?? null));
    return key;
  };
  const byKey = new Map(compared.map((row) => [keyAt(row, 0), row]));
  const met = new Set<WarehouseRow>();
  const paired: Paired[] = current.map((row) => {
    const match = byKey.get(keyAt(row, -1));
    if (match) met.add(match);
    return { dimensions: row, current: row, comparison: match };
  });
  if (!comparison.keepComparisonOnly) return paired;
  for (const row of compared) {
    if (met.has(row)) continue;
    const dimensions = grain ? movedForwards(row, comparison) : row;
    if (dimensions) paired.push({ dimensions, current: undefined, comparison: row });
  }
  return paired;
}

/** A comparison row with its bucket where it belongs in the current period; undefined when it has no place there. */
function movedForwards(row: WarehouseRow, comparison: ComparisonPlan): WarehouseRow | undefined {
  const grain = comparison.grain!;
  const value = row[grain.id];
  const wall = readBucket(value);
  if (!wall || typeof value !== 'string') return row;
  const moved = shiftWall(wall, grain.shift, 1);
  if (shiftWall(moved, grain.shift, -1).getTime() !== wall.getTime()) return undefined;
  const first = bucketStart(grain.granularity, comparison.current.from);
  if (moved.getTime() < first.getTime() || moved.getTime() >= comparison.current.to.getTime()) return undefined;
  return { ...row, [grain.id]: writeBucketLike(moved, value) };
}

/** Whether a row's bucket (with a grain) or the current period (without) ends after the query's now; once per bucket. */
function partiality(plan: ComposedPlan, comparison: ComparisonPlan): (row: WarehouseRow) => boolean | null {
  const now = plan.nowWall.getTime();
  const grain = comparison.grain;
  if (!grain) return () => comparison.current.to.getTime() > now;
  const known = new Map<WarehouseValue, boolean | null>();
  return (row) => {
    const value = row[grain.id] ?? null;
    let partial = known.get(value);
    if (partial === undefined) {
      const start = readBucket(value);
      partial = start ? Math.min(shiftWall(start, grainShift(grain.granularity), 1).getTime(), comparison.current.to.getTime()) > now : null;
      known.set(value, partial);
    }
    return partial;
  };
}

function keyOf(row: WarehouseRow, dimensions: readonly string[]): string {
  let key = '';
  for (const d of dimensions) key += valueKey(row[d] ?? null);
  return key;
}

/** A value's part of a group's key: typed, and text prefixed by its length, so that no two groups share a key. */
function valueKey(value: WarehouseValue): string {
  if (typeof value === 'string') return `s${value.length}:${value}`;
  if (value === null) return 'z';
  return typeof value === 'number' ? `n${value};` : `b${value ? 1 : 0}`;
}

function indexBy(rows: readonly WarehouseRow[], dimensions: readonly string[]): Map<string, WarehouseRow> {
  return new Map(rows.map((row) => [keyOf(row, dimensions), row]));
}

/** A measure's value as a number: drivers give numbers, and decimal text only beyond 2^53. */
function numberOf(value: WarehouseValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  }
  return null;
}

function difference(a: WarehouseValue, b: WarehouseValue): number | null {
  const x = numberOf(a);
  const y = numberOf(b);
  return x === null || y === null ? null : finite(x - y);
}

/** a ÷ b, null when either is null or b is 0. */
function ratio(a: WarehouseValue, b: WarehouseValue): number | null {
  const x = numberOf(a);
  const y = numberOf(b);
  return x === null || y === null || y === 0 ? null : finite(x / y);
}

function percent(change: number | null, base: number): number | null {
  return change === null || base === 0 ? null : finite((change / base) * 100);
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
