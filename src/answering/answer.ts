// The answer object of POST /api/v1/ask (spec 2.3), plus the parts documented in docs/answers.md:
// `provenance.assumptions` always, `no_match` when nothing could answer, `raw_sql` when the SQL
// fallback answered.
import { noMatchProse } from '../core/answer/prose.js';
import type { NoMatch } from '../core/answer/plan.js';
import type { StatementRole } from '../core/semantic/composed-plan.js';
import type { PresentedRollup } from '../querying/rollup-presented.js';
import type { Assumption } from './assumptions.js';

/**
 * The statements of a governed answer: the headline (its value and freshness), the breakdown (its rows),
 * and for a comparison, a share or a ratio the statements of its composed query (the current period,
 * the comparison period, the shares' totals).
 */
export type AnswerStatement = 'headline' | 'breakdown' | StatementRole;

export interface Answer {
  answer: string;
  data: { rows: Record<string, unknown>[]; columns: string[]; metric?: string; value?: number; period?: string };
  provenance: {
    source: 'semantic layer' | 'raw SQL';
    reveal?: string;
    reveal_backed: boolean;
    freshness: string | null;
    confidence: 'high' | 'medium';
    /** What the answer took for granted; empty when nothing. */
    assumptions: Assumption[];
    /**
     * For a reveal whose base node has rollups: each statement of the answer (the headline, the
     * breakdown when it is another query, a composed query's statements) with the rollup that
     * answered it, or why none did.
     */
    rollups?: Array<{ statement: AnswerStatement } & PresentedRollup>;
  };
  usage: { tokens_used: number; latency_ms: number };
  /** Only when nothing answers: why, and what comes closest. */
  no_match?: { reason: string; closest: Array<{ reveal: string; metric: string; label: string }>; suggestions?: NonNullable<NoMatch['suggestions']>[number][] };
  /** Only when the SQL fallback answered: the statement that ran, and where. */
  raw_sql?: { sql: string; connection: string };
}

/** `data.period` of an answer about snapshot metrics: the state when the question was asked, over all rows. */
export const AS_OF_NOW = 'as_of_now';
/** `data.period` of an answer about a stock when the question named no period: every row, all time. */
export const ALL_TIME = 'all_time';

/**
 * The one shape of "no governed answer", whichever path declined (the planners, a snapshot asked for a
 * period, an empty workspace, a failed SQL fallback): nothing in it can be read as a governed number.
 * The semantic layer is the source that declined; nothing is reveal-backed; no value, no reveal, no
 * freshness. Confidence is `medium`, the lower of the spec's two values, because the field is always
 * present and `high` would vouch for a number that is not there.
 */
export function noMatchAnswer(reason: string, closest: NoMatch['closest'], suggestions: NoMatch['suggestions'] = []): Omit<Answer, 'usage'> {
  return {
    answer: noMatchProse(reason, closest),
    data: { rows: [], columns: [] },
    provenance: { source: 'semantic layer', reveal_backed: false, freshness: null, confidence: 'medium', assumptions: [] },
    no_match: { reason, closest: [...closest], ...(suggestions.length > 0 ? { suggestions: [...suggestions] } : {}) },
  };
}
