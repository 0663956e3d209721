// Reads the value a signal watches, as its owner would see it: their data keys and the workspace time
// zone, through the one governed path (origin `signal:<id>`, never from or into the result cache: an
// alert must look at fresh data, read with its owner's keys). A query with `compare` runs there as any
// composed query does (one statement per period, each with the same keys), so a comparison never shows
// a figure its owner's keys would hide. A query the model no longer serves (an unknown node, a field a
// deploy removed) is an error the evaluation records, as any other.
import type { Clock } from '../clock.js';
import { isComposedQuery } from '../core/semantic/composed-plan.js';
import type { WarehouseRow } from '../core/warehouse/types.js';
import type { SceneService } from '../content/scene-service.js';
import type { Principal } from '../identity/principal.js';
import type { GovernedQueryResult, GovernedQueryService } from '../querying/governed-query-service.js';
import type { SignalWatch } from './signal-definition.js';
import { watchQuery } from './signal-watch-query.js';

/**
 * With a comparison, the watched measure in both periods: what an evaluation records beside its value
 * (which is their change, or any column of a scene's first row), so that both numbers are kept.
 */
export interface ComparedValues {
  /** The measure over the current period (null when it has none). */
  readonly current: number | null;
  /** The measure over the comparison period (null when it has none). */
  readonly comparison: number | null;
  /** The current period, [from, to), as wall times of the workspace zone. */
  readonly range: [string, string];
  readonly comparison_range: [string, string];
}

export interface WatchedReading {
  readonly value: number;
  readonly compared: ComparedValues | null;
}

/** A value that cannot be read: the evaluation records the message (and what was compared) and the signal goes to `error`. */
export class SignalValueError extends Error {
  constructor(
    message: string,
    readonly compared: ComparedValues | null = null,
  ) {
    super(message);
  }
}

/** A warehouse value as a number (drivers give decimal text beyond 2^53), or null. */
function numberOf(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** The watched column's measure in both periods, when the answer compares periods and has that measure's comparison. */
function comparedValues(result: GovernedQueryResult, row: WarehouseRow | undefined, key: string): ComparedValues | null {
  if (!result.comparison || !row) return null;
  const column = result.outputColumns.find((c) => c.key === key);
  const measure = column?.kind === 'measure' ? key : column?.measure;
  if (measure === undefined || !(`${measure}.comparison` in row)) return null;
  return {
    current: numberOf(row[measure]),
    comparison: numberOf(row[`${measure}.comparison`]),
    range: [...result.comparison.range] as [string, string],
    comparison_range: [...result.comparison.comparisonRange] as [string, string],
  };
}

/** Why the watched column is null: with a comparison, what the comparison period lacked. */
function noValue(key: string, row: WarehouseRow | undefined, compared: ComparedValues | null): string {
  if (!row) return 'No value: the query returned no rows';
  if (!(key in row)) return `No value: the answer has no column ${key}`;
  if (compared && compared.comparison === null) return `No value for ${key}: the comparison period [${compared.comparison_range.join(', ')}) has no value`;
  if (compared && compared.comparison === 0 && key.endsWith('.change_percent')) {
    return `No value for ${key}: the value of the comparison period [${compared.comparison_range.join(', ')}) is 0, and a change from 0 has no percentage`;
  }
  if (compared && compared.current === null) return `No value for ${key}: the current period [${compared.range.join(', ')}) has no value`;
  return `No value: the query returned null for ${key}`;
}

export async function readWatchedValue(
  deps: { governed: GovernedQueryService; scenes: SceneService; clock: Clock },
  principal: Principal,
  signalId: string,
  watch: SignalWatch,
): Promise<WatchedReading> {
  const { query, key } = await watchQuery(deps.scenes, principal, watch, deps.clock.now());
  const result = await deps.governed.query({
    principal,
    query: { kind: 'node', query },
    cache: 'off',
    surface: 'structured_api',
    origin: `signal:${signalId}`,
    maxRows: 1,
  });
  const row = result.rows[0] as WarehouseRow | undefined;
  const compared = comparedValues(result, row, key);
  // A plain query's columns are its fields in order: its first measure follows the dimensions.
  const plainFirst = !isComposedQuery(query) && key === query.measures[0];
  const raw = row ? (row[key] ?? (plainFirst ? Object.values(row).at(query.dimensions.length) : undefined)) : undefined;
  if (raw === undefined || raw === null) throw new SignalValueError(noValue(key, row, compared), compared);
  const value = numberOf(raw);
  if (value === null) throw new SignalValueError(`The value of ${key} is not a number (${String(raw)})`, compared);
  return { value, compared };
}

/** What an evaluation read: the value and what was compared, or the error that kept it from reading one. */
export interface ReadOutcome {
  readonly value: number | null;
  readonly compared: ComparedValues | null;
  readonly error: string | null;
}

/** readWatchedValue, with a failure as the outcome's error (and what was compared before it failed, if anything). */
export async function readOutcome(deps: Parameters<typeof readWatchedValue>[0], principal: Principal, signalId: string, watch: SignalWatch): Promise<ReadOutcome> {
  try {
    return { ...(await readWatchedValue(deps, principal, signalId, watch)), error: null };
  } catch (caught) {
    const compared = caught instanceof SignalValueError ? caught.compared : null;
    return { value: null, compared, error: caught instanceof Error ? caught.message : String(caught) };
  }
}
