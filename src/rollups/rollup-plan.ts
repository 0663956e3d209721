// Which builds a deployed model's rollups need, and when: pure, on an injected `now`. Each rollup is
// one stored table (named after a hash of its definition, so a changed definition is a new table) made
// of partitions of its partition grain over its build range (without one, from the source's first
// rows, when known) up to the current partition; a rollup without `partition:` is one build of the
// whole table. A build is due:
// - at once when it was never built (a new rollup, a changed definition, a new partition);
// - on refresh, but incrementally: only a partition still open when it was last built (the current one,
//   and the one that just closed, once more, so its last rows are read) is rebuilt on refresh; a
//   partition built after it closed is complete and rebuilt only when it is missing;
// - a whole table is rebuilt on every refresh.
// Refresh is the rollup's rule: an interval after the last build, the cron's next time after it (in the
// rollup's zone), or the next deploy (`on_deploy`, see `dueOnDeploy`).
import { Cron } from 'croner';
import type { SemanticModel } from '../core/semantic/model.js';
import { rangeStart } from '../core/semantic/rollup-match.js';
import type { Rollup } from '../core/semantic/rollup-model.js';
import { rollupTableName } from '../core/semantic/rollup-table.js';
import { addUnits, formatWall, startOf, wallClock } from '../core/semantic/time.js';

/** The partition key of a table built whole. */
export const WHOLE_TABLE = '';

/** Partitions one rollup may be planned with at most: a span read wrong never plans millions of builds. */
export const MAX_PARTITIONS = 5000;

/** The first and last time buckets (wall times, rollup's zone) the source holds rows in. */
export interface SourceSpan {
  readonly first: Date;
  readonly last: Date;
}

/** One build of a rollup: its table and the partition ([start, end) wall times as text, '' for the whole table). */
export interface PlannedBuild {
  readonly rollup: Rollup;
  readonly table: string;
  readonly start: string;
  readonly end: string;
}

/** Every rollup of the model with its stored table. */
export function rollupTables(model: SemanticModel): { rollup: Rollup; table: string }[] {
  return [...model.nodes.values()].flatMap((node) => node.rollups.map((rollup) => ({ rollup, table: rollupTableName(model, rollup) })));
}

/** The builds of one rollup as of `now`: its partitions, oldest first, or one whole-table build. */
export function plannedBuilds(model: SemanticModel, rollup: Rollup, now: Date, span?: SourceSpan): PlannedBuild[] {
  const table = rollupTableName(model, rollup);
  if (!rollup.partition) return [{ rollup, table, start: WHOLE_TABLE, end: WHOLE_TABLE }];
  const grain = rollup.partition;
  const wallNow = wallClock(now, rollup.timezone);
  // Up to the current partition always: an answer from the rollup needs every partition from the first
  // it reads to the one holding now (src/querying/rollup-route.ts), empty ones too. From the build
  // range's start; without one, from the source's first rows, or the current partition when unknown.
  const to = startOf(grain, wallNow);
  const since = rollup.buildRange.kind === 'all' ? span?.first : rangeStart(rollup.buildRange, now, rollup.timezone);
  const first = since && since < wallNow ? startOf(grain, since) : to;
  // With more partitions than allowed, the most recent ones are kept.
  const oldest = addUnits(grain, to, 1 - MAX_PARTITIONS);
  const builds: PlannedBuild[] = [];
  for (let start = first < oldest ? oldest : first; start <= to; start = addUnits(grain, start, 1)) {
    builds.push({ rollup, table, start: formatWall(start), end: formatWall(addUnits(grain, start, 1)) });
  }
  return builds;
}

/** A wall time written by formatWall, back as a wall Date. */
export function parseWall(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}

/** True when the partition had not ended (in the rollup's zone) at `at`; a whole table is always open. */
export function openAt(rollup: Rollup, partitionEnd: string, at: Date): boolean {
  if (partitionEnd === WHOLE_TABLE) return true;
  return wallClock(at, rollup.timezone) < parseWall(partitionEnd);
}

/**
 * When a build last made at `builtAt` is next due: null when the partition was complete then (closed
 * partitions are not refreshed) or when the rollup refreshes only at deploys.
 */
export function nextBuildAfter(rollup: Rollup, partitionEnd: string, builtAt: Date): Date | null {
  if (!openAt(rollup, partitionEnd, builtAt)) return null;
  const refresh = rollup.refresh;
  if (refresh.kind === 'deploy') return null;
  if (refresh.kind === 'interval') return new Date(builtAt.getTime() + refresh.seconds * 1000);
  return new Cron(refresh.expression, { paused: true, timezone: rollup.timezone }).nextRun(builtAt) ?? null;
}

/** Whether a deploy makes a built row due at once: an `on_deploy` rollup's partitions that were open when built. */
export function dueOnDeploy(rollup: Rollup, partitionEnd: string, builtAt: Date | null): boolean {
  return rollup.refresh.kind === 'deploy' && (builtAt === null || openAt(rollup, partitionEnd, builtAt));
}

/** A failed build is retried after 30 s, doubling with each failure in a row, at most an hour later. */
export function retryAfter(attempts: number, now: Date): Date {
  const waitMs = Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
  return new Date(now.getTime() + waitMs);
}
