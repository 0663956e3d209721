// What a governed answer took for granted, in `provenance.assumptions`. Confidence follows the spec
// alone (a governed reveal answered: high; raw SQL: medium); these entries carry the finer facts a
// careful reader should weigh, each with a stable code for programs and a sentence for people. The
// codes are part of the API (docs/answers.md, the OpenAPI schema of POST /ask): add, never rename.
import { ALL_ROWS } from '../core/semantic/compile.js';
import type { SemanticModel } from '../core/semantic/model.js';
import { describePeriod } from '../core/answer/prose.js';
import type { ResolvedPeriod } from '../core/answer/plan.js';

export const ASSUMPTION_CODES = [
  /** The question named no period: the default window was used (a flow). */
  'period_assumed',
  /** The question named no period, and the metric counts what exists (a stock): every row was counted, all time. */
  'all_time_assumed',
  /** The question named a period for a stock: only the rows whose time falls in it were counted. */
  'period_applied_to_stock',
  /** The headline metric was recognised only through its description, not its name, label or synonyms. */
  'metric_matched_by_description',
  /** No row the asker may see matches: their data keys restrict what they see, so no number is given. */
  'no_rows_visible',
  /** No row matches the period and filters, and the asker sees every row: a zero is a true zero. */
  'no_rows',
  /** A top-N or bottom-N left out the rows whose ranked dimension is empty (NULL). */
  'null_group_excluded',
  /** A filter value was reached from a misspelt word of the question ("Philadelpia" → 'Philadelphia'). */
  'value_matched_approximately',
  /** The question was in another language: what was answered is its English reading, which the message gives. */
  'question_translated',
] as const;

export type AssumptionCode = (typeof ASSUMPTION_CODES)[number];

export interface Assumption {
  readonly code: AssumptionCode;
  readonly message: string;
}

export function periodAssumed(period: ResolvedPeriod): Assumption {
  return { code: 'period_assumed', message: `The question names no period; the default window, ${describePeriod(period)}, was used.` };
}

export function allTimeAssumed(metricLabel: string): Assumption {
  return {
    code: 'all_time_assumed',
    message: `The question names no period; ${metricLabel} counts what exists rather than what happened in a window, so every row was counted (all time), not only the default window.`,
  };
}

export function periodAppliedToStock(metricLabel: string, timeLabel: string | undefined, period: ResolvedPeriod): Assumption {
  const rows = timeLabel ? `those whose "${timeLabel}" falls in ${describePeriod(period)}` : `those in ${describePeriod(period)}`;
  return {
    code: 'period_applied_to_stock',
    message: `${metricLabel} counts what exists; with the period, only ${rows} are counted, not all that existed then.`,
  };
}

export function matchedByDescription(metricLabel: string): Assumption {
  return {
    code: 'metric_matched_by_description',
    message: `"${metricLabel}" was recognised only from its description, not its name, label or synonyms; check that it is the metric you meant.`,
  };
}

export function nullGroupExcluded(dimensions: readonly string[]): Assumption {
  return { code: 'null_group_excluded', message: `Rows with no ${dimensions.join(' or ')} are not ranked; the total includes them.` };
}

export function valuesMatchedApproximately(values: readonly string[]): Assumption {
  const list = values.map((value) => `"${value}"`).join(', ');
  return { code: 'value_matched_approximately', message: `A word of the question was read as the value ${list}, the nearest stored spelling; check that it is the one meant.` };
}

/**
 * The English a question in another language was answered as: the language model's translation, or
 * the question read with the built-in list of analytical words (its domain words left as typed).
 */
export function questionTranslated(language: string, english: string, by: 'model' | 'word_list'): Assumption {
  const how = by === 'model' ? 'as the language model translated it' : 'as read with the built-in list of analytical words (other words left as typed)';
  return { code: 'question_translated', message: `The question is in ${language}; it was answered in English, ${how}: ${english}` };
}

export function noRows(): Assumption {
  return { code: 'no_rows', message: 'No rows match the period and filters of the question.' };
}

/**
 * The data keys that restrict what this asker sees among `nodes`: every key whose attribute the asker
 * does not hold as "*" (all rows). `missing` lists the attributes the asker has no value for at all,
 * which hide every row of their node.
 */
export function dataKeyRestrictions(model: SemanticModel, nodes: readonly string[], attributes: Readonly<Record<string, string>>): { restricted: boolean; missing: string[] } {
  const keys = nodes.flatMap((name) => model.nodes.get(name)?.dataKeys ?? []).filter((key) => attributes[key.attribute] !== ALL_ROWS);
  return { restricted: keys.length > 0, missing: [...new Set(keys.filter((key) => attributes[key.attribute] === undefined).map((key) => key.attribute))] };
}

export function noRowsVisible(missing: readonly string[]): Assumption {
  const why = missing.length
    ? `your account has no ${missing.map((attribute) => `"${attribute}"`).join(' or ')} attribute, which the data keys need to show you any row`
    : 'your data keys let you see only some rows, and none of them match';
  return { code: 'no_rows_visible', message: `No rows are visible to you for this question: ${why}. No number is given, because it would describe only what you may see.` };
}
