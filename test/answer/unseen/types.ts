// What an unseen evaluation domain is made of: tables to load, a CML model, and questions with the
// answer a careful analyst would give, written as SQL over the tables (never through the compiler).

export type ColumnType = 'INTEGER' | 'DOUBLE' | 'VARCHAR' | 'TIMESTAMP' | 'DATE' | 'DECIMAL(12,2)';

/**
 * A cell as the generator writes it: TIMESTAMP cells are epoch milliseconds (UTC), DATE cells are
 * 'YYYY-MM-DD', DECIMAL(12,2) cells are integer cents; null is SQL NULL.
 */
export type Cell = number | string | null;

export interface TableData {
  readonly name: string;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: ColumnType }>;
  readonly primaryKey: string;
  readonly rows: readonly (readonly Cell[])[];
}

export type Language = 'en' | 'es' | 'fr' | 'de' | 'pt' | 'it';

/** What a question exercises; one question usually has several. */
export type Trait =
  | 'simple'
  | 'breakdown'
  | 'time_grain'
  | 'filter'
  | 'stop_word_value'
  | 'casing'
  | 'multi_word_value'
  | 'joined_value'
  | 'direction'
  | 'top_n'
  | 'bottom_n'
  | 'null_group'
  | 'period_half'
  | 'period_range'
  | 'period'
  | 'no_period'
  | 'verb'
  | 'derived_form'
  | 'snapshot'
  | 'synonym'
  // Classes of question the planner is taught one by one (test/answer/classes/):
  /** Two periods set side by side: "how many more … in 2024 than in 2023", "growth … last month". */
  | 'comparison'
  /** A part over its whole: "what share of … were …", "share of each … in …". */
  | 'share'
  /** One metric over another: "revenue per trip", "fees per sender". */
  | 'per'
  /** A value left out: "excluding", "except", "other than", "not", "without". */
  | 'negation'
  /** Two or more filters on one metric. */
  | 'multi_filter'
  /** A verb binding a value to its role: "left / sent from" against "arrived / received in". */
  | 'direction_verb'
  /** Asked in a language the model has no synonyms in. */
  | 'foreign_language';

/**
 * The expected answer, as SQL over the domain's DuckDB tables with literal UTC date bounds:
 * - `value`: one row, one column: the headline number (a share, "what share of X were Y", is a
 *   fraction from 0 to 1, as the semantic layer returns shares and percentages);
 * - `rows`: one row per group, the number last; the columns before it are labels the group goes by
 *   (one, or alternatives such as a state's code and its name); compared without regard to order;
 * - `ranked`: the same shape, in rank order (top-N / bottom-N, ending in LIMIT n); NULL groups left out;
 * - `compared`: two periods side by side, each SQL one row of one column: the current period's value
 *   and the comparison period's. A governed answer states both and the change (current less
 *   comparison), as the semantic layer's `compare` returns them (docs/queries.md);
 * - `shares`: the shape of `rows`, with each group's fraction (0 to 1) of the total as its number.
 */
export type Expected =
  | { readonly value: string }
  | { readonly rows: string }
  | { readonly ranked: string }
  | { readonly compared: { readonly current: string; readonly comparison: string } }
  | { readonly shares: string };

/** Why a question must not get a governed number. */
export type DeclineKind =
  /** Nothing in the model measures it. */
  | 'out_of_scope'
  /** The metric exists, but a restriction or shape of the question is one the model cannot express. */
  | 'inexpressible'
  /** Two readings give two different numbers (a value that may play either of two roles). */
  | 'ambiguous';

export interface InScopeQuestion {
  readonly question: string;
  readonly lang: Language;
  /**
   * For a question in another language: the English a competent translator who knows the model's
   * words would give. The evaluation with translation has a language model answer with it.
   */
  readonly english?: string;
  readonly traits: readonly Trait[];
  readonly expect: Expected;
}

export interface DeclineQuestion {
  readonly question: string;
  readonly lang: Language;
  /** As for an in-scope question. */
  readonly english?: string;
  readonly traits: readonly Trait[];
  readonly decline: DeclineKind;
  readonly why: string;
}

export type UnseenQuestion = InScopeQuestion | DeclineQuestion;

export interface UnseenDomain {
  readonly name: string;
  /** The DuckDB schema the tables live in (the model's `table:` names use it). */
  readonly schema: string;
  /** Directory of the domain's `*.cml` files. */
  readonly modelDir: string;
  readonly tables: () => readonly TableData[];
  readonly questions: readonly UnseenQuestion[];
}

export const isDecline = (q: UnseenQuestion): q is DeclineQuestion => 'decline' in q;

/** The fixed "now" of every unseen set: Wednesday 2025-06-18, 15:00 UTC; workspaces run in UTC. */
export const UNSEEN_NOW = new Date('2025-06-18T15:00:00Z');
