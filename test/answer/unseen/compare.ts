// Whether a governed answer states the expected numbers: the headline value for a single-number
// question, the rows for a breakdown (in any order) and for a top-N (in rank order), both periods and
// the change for a comparison, each group's fraction for shares.
//
// A group may go by more than one label (a state's code and its name): every column of an expected
// row but the last is one accepted label of that group, and an answer's row matches the group when
// each of its label columns holds one of them.
import type { Answer } from '../../../src/answering/answer.js';
import { toKey, toNumber, type ExpectedResult, type Key, type ResultRow } from './expected.js';

const RELATIVE_TOLERANCE = 1e-6;

export function sameNumber(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Keys the semantic layer computes beside a measure (docs/queries.md: `m.comparison`, `m.change`,
 * `m.change_percent`, `m.share`, `m.per.other`, `dimension.partial`): numbers, never a group's label.
 */
const DERIVED_KEY = /\.(comparison|change|change_percent|share|partial)$|\.per\./;

/**
 * The rows of an answer as labels (every column that is neither a metric of its reveal nor computed
 * beside one) and a number: the headline metric's, or the column named by `numberKey`.
 */
export function answerRows(answer: Answer, metricNames: ReadonlySet<string>, numberKey?: (metric: string) => string): ResultRow[] {
  const metric = answer.data.metric;
  if (!metric) return [];
  const labelColumns = answer.data.columns.filter((column) => !metricNames.has(column) && column !== metric && !DERIVED_KEY.test(column));
  const key = numberKey?.(metric) ?? metric;
  return answer.data.rows.map((row) => ({ keys: labelColumns.map((column) => toKey(row[column])), value: toNumber(row[key]) }));
}

/** A share is read from the metric's share column when the answer has one, else from the metric itself. */
const shareKey = (answer: Answer) => (metric: string) => (answer.data.columns.includes(`${metric}.share`) ? `${metric}.share` : metric);

/** One row holding the current value, the comparison period's and the change between them. */
function sameComparison(answer: Answer, current: number | null, comparison: number | null): boolean {
  const metric = answer.data.metric;
  if (!metric || answer.data.rows.length !== 1 || current === null || comparison === null) return false;
  const row = answer.data.rows[0]!;
  return (
    sameNumber(current, toNumber(row[metric])) &&
    sameNumber(comparison, toNumber(row[`${metric}.comparison`])) &&
    sameNumber(current - comparison, toNumber(row[`${metric}.change`]))
  );
}

const isNothing = (value: number | null): boolean => value === null || value === 0;
const isNullGroup = (row: ResultRow): boolean => row.keys.some((key) => key === null);

function sameGroup(expected: ResultRow, actual: ResultRow): boolean {
  const labels = new Set<Key>(expected.keys);
  return actual.keys.length > 0 && actual.keys.every((key) => labels.has(key));
}

/** Every expected group once with its number; a group whose number is 0 or empty may be left out by either side. */
function sameRows(expected: readonly ResultRow[], actual: readonly ResultRow[]): boolean {
  const unmatched = [...actual];
  for (const row of expected) {
    const at = unmatched.findIndex((candidate) => sameGroup(row, candidate));
    if (at < 0) {
      if (isNothing(row.value)) continue;
      return false;
    }
    if (!sameNumber(row.value, unmatched[at]!.value)) return false;
    unmatched.splice(at, 1);
  }
  return unmatched.every((row) => isNothing(row.value));
}

/**
 * Rank order counts; groups tied on the number may come in either order. A NULL group shown beside
 * the N members is tolerated (labelled apart); one ranked instead of a member is not.
 */
function sameRanking(expected: readonly ResultRow[], actual: readonly ResultRow[]): boolean {
  const members = actual.filter((row) => !isNullGroup(row));
  if (members.length !== expected.length) return false;
  return expected.every((row, i) => {
    const member = members[i]!;
    if (!sameNumber(row.value, member.value)) return false;
    return expected.some((other) => sameNumber(other.value, row.value) && sameGroup(other, member));
  });
}

export function matchesExpected(answer: Answer, expected: ExpectedResult, metricNames: ReadonlySet<string>): boolean {
  if (expected.kind === 'value') {
    const value = answer.data.value ?? (answer.data.rows.length === 0 ? null : Number.NaN);
    return sameNumber(expected.value, value);
  }
  if (expected.kind === 'compared') return sameComparison(answer, expected.current, expected.comparison);
  const actual = answerRows(answer, metricNames, expected.kind === 'shares' ? shareKey(answer) : undefined);
  if (actual.length === 0 || actual[0]!.keys.length === 0) return false;
  return expected.kind === 'ranked' ? sameRanking(expected.rows, actual) : sameRows(expected.rows, actual);
}
