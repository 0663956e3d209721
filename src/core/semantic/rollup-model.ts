// Rollups (pre-aggregations) in the linked model: what CML's `rollup` blocks link to. Plain data, like
// model.ts. A rollup names what it holds (dimensions, measures, a time bucket) and, derived by the
// linker, the columns a stored table of it needs and how each measure is read back from them, so that a
// builder can create and fill the table and a compiler can answer queries from it without looking at
// CML again. Which rollup answers a query is decided by rollup-match.ts.
import type { SourceSpan } from './model.js';

/** Grains a rollup buckets time by. */
export const ROLLUP_GRAINS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];

/** Grains a rollup's stored table is partitioned by. */
export const PARTITION_GRAINS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type PartitionGrain = (typeof PARTITION_GRAINS)[number];

/** Units of a `last N <unit>` build range. */
export const RANGE_UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type RangeUnit = (typeof RANGE_UNITS)[number];

/** When the stored table is rebuilt: every so often, on a cron in the rollup's zone, or at each deploy of the model. */
export type RollupRefresh =
  | { readonly kind: 'interval'; readonly seconds: number; readonly text: string }
  | { readonly kind: 'cron'; readonly expression: string }
  | { readonly kind: 'deploy' };

/**
 * Which rows of the source a build reads, by the time dimension: all of them; those from a date on
 * (wall date in the rollup's zone); or those of the last `amount` complete units and the current one.
 */
export type RollupBuildRange =
  | { readonly kind: 'all' }
  | { readonly kind: 'from'; readonly date: string }
  | { readonly kind: 'last'; readonly amount: number; readonly unit: RangeUnit };

/** How stored values of one column combine when a query groups several stored rows into one. */
export type Reaggregation = 'sum' | 'min' | 'max' | 'none';

/** The stored column of a group's latest source time (see RollupColumn `latest`): a stable name, outside the fields' namespace. */
export const LATEST_SOURCE_TIME = '__source_max_time';

/**
 * A column of the stored table:
 * - `dimension`: the value of a dimension of the node;
 * - `time`: the time dimension truncated to the rollup's grain (in the rollup's zone);
 * - `latest`: the latest value of the time dimension among a group's source rows, as the source's
 *   driver writes it (fixed-width text, so the greatest text is the latest time): the greatest over the
 *   groups a query reads is the latest source time of the rows it reads (an answer's freshness);
 * - `measure`: an aggregate over the source rows of a group, built as `aggregate` of the measure's own
 *   `sql` (and `filter`), read back with `reaggregate` (`none`: only as stored, see `exactGrainOnly`).
 *   An average is stored as two of these, its sum and its count (of the rows where its `sql` is not
 *   null, after its `filter`), both re-aggregated by sum.
 */
export type RollupColumn =
  | { readonly kind: 'dimension'; readonly name: string; readonly dimension: string }
  | { readonly kind: 'time'; readonly name: string; readonly dimension: string; readonly grain: RollupGrain }
  | { readonly kind: 'latest'; readonly name: string; readonly dimension: string }
  | {
      readonly kind: 'measure';
      readonly name: string;
      readonly measure: string;
      readonly aggregate: 'sum' | 'count' | 'min' | 'max' | 'count_distinct';
      readonly reaggregate: Reaggregation;
    };

/**
 * How a measure is read back from stored columns:
 * - `column`: the re-aggregated column (sum, count, min, max) or, at the exact grain, the stored one
 *   (count_distinct);
 * - `average`: the sum of its sums over the sum of its counts;
 * - `derived`: its own formula (`number` and ratio measures) over the measures it uses, each read back
 *   from the rollup in turn (they are in `Rollup.measures`, listed or not).
 */
export type RollupMeasureRead =
  | { readonly kind: 'column'; readonly column: string }
  | { readonly kind: 'average'; readonly sum: string; readonly count: string }
  | { readonly kind: 'derived'; readonly inputs: readonly string[] };

export interface RollupMeasure {
  readonly name: string;
  /** Written in the rollup's `measures:`; false for a measure only stored because a listed one uses it. */
  readonly listed: boolean;
  /**
   * True for a distinct count, and for what is computed from one: its groups do not add up, so it
   * answers only a query at the rollup's own grain and dimensions.
   */
  readonly exactGrainOnly: boolean;
  readonly read: RollupMeasureRead;
}

export interface Rollup {
  readonly node: string;
  readonly name: string;
  /** Dimensions of the node, as written (without the time dimension). */
  readonly dimensions: readonly string[];
  readonly time?: { readonly dimension: string; readonly grain: RollupGrain };
  /** Stored tables are split by this grain of the time dimension; absent: one table. */
  readonly partition?: PartitionGrain;
  /** IANA zone time is bucketed in (and a cron read in). */
  readonly timezone: string;
  readonly refresh: RollupRefresh;
  readonly buildRange: RollupBuildRange;
  /** Listed measures first, in the order written, then the measures they use. */
  readonly measures: readonly RollupMeasure[];
  /** Dimension columns, the time column, measure columns, then (with a time dimension) its latest source time. */
  readonly columns: readonly RollupColumn[];
  readonly span: SourceSpan;
}
