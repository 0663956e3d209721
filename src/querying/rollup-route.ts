// Node queries (a reveal query as its base node's, with derived outputs) answered from a rollup on the
// governed path, when one can answer and its build records
// cover what the query reads; otherwise the reason each rollup was not used, so the answer says why it
// came from the source. The matcher (rollup-match.ts) decides which rollup could answer; this module
// adds what only the build records know:
// - a rollup without `partition` must have been built whole (a record with empty bounds);
// - a partitioned one must have every partition the query reads recorded: from the partition of the
//   first time it reads (its lower time bound, else the build range's start, else the first partition
//   ever built) to the partition holding now, in the rollup's zone. The query's upper bound is not
//   trusted to end earlier: a missing recent partition falls back to the source (`partial`), never to
//   an answer short of rows.
// The caller's data keys are applied by the rollup's own statement (rollup-answer-sql.ts); the matcher
// refuses a rollup lacking a data key's field (`lacks_data_key_field`).
import type { CompileOptions } from '../core/semantic/compile.js';
import { rangeStart, matchRollup, type RollupMissCode } from '../core/semantic/rollup-match.js';
import type { Rollup } from '../core/semantic/rollup-model.js';
import { rollupQueryOf } from '../core/semantic/rollup-query.js';
import { rollupTableName } from '../core/semantic/rollup-table.js';
import type { SemanticModel } from '../core/semantic/model.js';
import type { SemanticQuery } from '../core/semantic/query.js';
import { addUnits, formatWall, startOf, wallClock } from '../core/semantic/time.js';
import type { WarehouseEngine } from '../core/warehouse/types.js';
import { answerFromRollup, type RollupAnswer } from '../rollups/answer-from-rollup.js';
import type { RollupStorage } from '../rollups/rollup-storage.js';
import type { GenerationSnapshot } from '../shared-state/shared-state.js';
import type { RollupPartitionRow } from '../store/rollup-partitions-repo.js';

/** The rollup that answered: its stored table, when its oldest used partition was built, and the latest source time those partitions hold. */
export interface RollupUsed {
  readonly name: string;
  readonly table: string;
  readonly partitionsBuiltAt: string;
  /** As the source wrote it (its time column's text); null for a rollup without time, or with no rows. */
  readonly dataThrough: string | null;
}

/** A matcher's code, or why the rollup that could answer did not: never built, a partition missing, its stored table unreadable. */
export type RollupCandidateCode = RollupMissCode | 'not_built' | 'partial' | 'unreadable';

export interface RollupCandidate {
  readonly name: string;
  readonly reasonCode: RollupCandidateCode;
  readonly reason: string;
}

/** Whether a rollup answered a node query, and if none did, why each of the node's rollups was not used. */
export type RollupReport = { readonly used: RollupUsed } | { readonly used: null; readonly candidates: readonly RollupCandidate[] };

/** What routing needs of the service: where the node's rollups are stored (when anything is) and their build records. */
export interface RollupRouting {
  /** The storage of the rollups of `connection`'s nodes: its rollup schema, else the workspace's file when there is one. */
  existing(workspaceId: string, connection: string, generations?: GenerationSnapshot): Promise<RollupStorage | undefined>;
  /** `generations`: the request's admission snapshot, for records kept in process (rollup-partition-cache.ts). */
  partitions(workspaceId: string, table: string, generations?: GenerationSnapshot): Promise<readonly RollupPartitionRow[]>;
  /**
   * The workspace's rollups generation, moved by every build record written: named in the result cache's
   * key of a query of a node with rollups, so that a kept answer never outlives a newer build.
   */
  generation(workspaceId: string, generations?: GenerationSnapshot): Promise<number> | number;
  /** Counts what routing decided for a node with rollups (rollup-answer-counts.ts). */
  answered?(workspaceId: string, node: string, report: RollupReport): void;
}

export interface RollupRouteInput {
  readonly workspaceId: string;
  readonly model: SemanticModel;
  readonly query: SemanticQuery;
  readonly sourceEngine: WarehouseEngine;
  readonly attributes: Readonly<Record<string, string>>;
  readonly now: Date;
  readonly timezone: string;
  readonly maxRows: number;
  readonly generations?: GenerationSnapshot;
  /** Extra outputs after the measures: a reveal's metrics and the facts a question reads (row-facts.ts). */
  readonly derived?: CompileOptions['derived'];
}

type Refused = { readonly answer?: undefined; readonly report: RollupReport | undefined; readonly failed?: { readonly error: unknown; readonly rollup: string; readonly table: string } };
export type RollupRoute = { readonly answer: Extract<RollupAnswer, { answered: true }>; readonly report: { readonly used: RollupUsed }; readonly failed?: undefined } | Refused;

/** Partitions enumerated at most for one query (ten years of days): beyond, the source answers. */
const MAX_PARTITIONS = 3660;

/** The rollup chosen with its build records covering the query, or why none can answer. */
type Choice = { readonly rollup: Rollup; readonly table: string; readonly store: RollupStorage; readonly used: readonly RollupPartitionRow[]; readonly refuse: (reasonCode: 'not_built' | 'unreadable', reason: string) => Refused } | Refused;

/** Answers `input.query` from a rollup when one can and is built for what it reads; `report` undefined when the node has no rollups. */
export async function routeToRollup(routing: RollupRouting, input: RollupRouteInput): Promise<RollupRoute> {
  const choice = await chooseRollup(routing, input);
  if (!('rollup' in choice)) return choice;
  const { rollup, table, store, refuse } = choice;
  let answer: RollupAnswer;
  try {
    answer = await answerFromRollup({ ...input, store });
  } catch (error) {
    // A stored table the statement cannot read (changed under the service, a broken file): the source
    // still answers; the failure is the caller's to record.
    return { ...refuse('unreadable', 'the stored table of the rollup could not be read'), failed: { error, rollup: rollup.name, table } };
  }
  // The matcher is pure: it picks the same rollup again; a table dropped meanwhile answers from the source.
  if (!answer.answered) return refuse('not_built', 'the rollup has no stored table');
  return { answer, report: { used: usedOf(rollup.name, table, choice.used) } };
}

/** What routing would decide for `input.query` now, without reading the stored table (`explain`). */
export async function rollupRouteOf(routing: RollupRouting, input: RollupRouteInput): Promise<RollupReport | undefined> {
  const choice = await chooseRollup(routing, input);
  return 'rollup' in choice ? { used: usedOf(choice.rollup.name, choice.table, choice.used) } : choice.report;
}

async function chooseRollup(routing: RollupRouting, input: RollupRouteInput): Promise<Choice> {
  const node = input.model.nodes.get(input.query.node);
  if (!node || node.rollups.length === 0) return { report: undefined };
  // Comparisons, shares and ratios come here once per plain statement (composed-query.ts).
  if (input.query.compare || input.query.shares?.length || input.query.per?.length) return { report: undefined };
  const options = { attributes: input.attributes, now: input.now, timezone: input.timezone, ...(input.derived ? { derived: input.derived } : {}) };
  const rollupQuery = rollupQueryOf(input.model, input.query, options);
  const match = matchRollup(node.rollups, rollupQuery);
  const misses: RollupCandidate[] = match.misses.map((miss) => ({ name: miss.rollup, reasonCode: miss.code, reason: miss.reason }));
  const rollup = match.rollup;
  if (!rollup) return { report: { used: null, candidates: misses } };
  const table = rollupTableName(input.model, rollup);
  const refuse = (reasonCode: 'not_built' | 'partial' | 'unreadable', reason: string): Refused => ({ report: { used: null, candidates: [...misses, { name: rollup.name, reasonCode, reason }] } });
  const store = await routing.existing(input.workspaceId, node.connection, input.generations);
  const records = store ? await routing.partitions(input.workspaceId, table, input.generations) : [];
  if (!store || records.length === 0) return refuse('not_built', 'the rollup can answer the query but has not been built');
  const covered = coverage(rollup, records, rollupQuery.readsFrom.get(rollup.time?.dimension ?? ''), input.now);
  if ('missing' in covered) return refuse(covered.missing === undefined ? 'not_built' : 'partial', covered.missing === undefined ? 'the rollup has not been built whole' : `partition from ${covered.missing} of the rollup has not been built`);
  return { rollup, table, store, used: covered.used, refuse };
}

type Coverage = { readonly used: readonly RollupPartitionRow[] } | { readonly missing: string | undefined };

/** The records of the partitions the query reads, or the first one missing (undefined: a whole build is needed). */
function coverage(rollup: Rollup, records: readonly RollupPartitionRow[], readsFrom: Date | undefined, now: Date): Coverage {
  const whole = records.find((record) => record.partition_start === '');
  if (whole) return { used: [whole] };
  if (!rollup.partition || !rollup.time) return { missing: undefined };
  const byStart = new Map(records.filter((r) => r.partition_start !== '').map((r) => [wallMs(r.partition_start), r]));
  const earliestBuilt = Math.min(...byStart.keys());
  const floor = rollup.buildRange.kind === 'all' ? undefined : rangeStart(rollup.buildRange, now, rollup.timezone);
  const from = readsFrom ?? floor ?? new Date(earliestBuilt);
  const first = startOf(rollup.partition, from);
  const last = startOf(rollup.partition, wallClock(now, rollup.timezone));
  const used: RollupPartitionRow[] = [];
  let start = first;
  for (let i = 0; i < MAX_PARTITIONS && (i === 0 || start.getTime() <= last.getTime()); i++, start = addUnits(rollup.partition, start, 1)) {
    const record = byStart.get(start.getTime());
    if (!record) return { missing: formatWall(start) };
    used.push(record);
  }
  if (start.getTime() <= last.getTime()) return { missing: formatWall(start) };
  return { used };
}

/** A recorded partition start (`YYYY-MM-DD HH:mm:ss.SSS`, a wall time) as the milliseconds of the same wall time in UTC. */
function wallMs(text: string): number {
  return new Date(`${text.trim().replace(' ', 'T')}${/Z$/.test(text) ? '' : 'Z'}`).getTime();
}

function usedOf(name: string, table: string, records: readonly RollupPartitionRow[]): RollupUsed {
  const builtAt = records.map((r) => r.built_at.getTime()).reduce((a, b) => Math.min(a, b));
  const times = records.map((r) => r.source_max_time).filter((t): t is string => t !== null);
  return { name, table, partitionsBuiltAt: new Date(builtAt).toISOString(), dataThrough: times.length > 0 ? times.reduce((a, b) => (b > a ? b : a)) : null };
}
