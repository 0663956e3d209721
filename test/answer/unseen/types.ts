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

export type Language = 'en' | 'es' | 'fr' | 'de' | 'pt';

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
  | 'synonym';

/**
 * The expected answer, as SQL over the domain's DuckDB tables with literal UTC date bounds:
 * - `value`: one row, one column: the headline number;
 * - `rows`: one row per group, the number last; the columns before it are labels the group goes by
 *   (one, or alternatives such as a state's code and its name); compared without regard to order;
 * - `ranked`: the same shape, in rank order (top-N / bottom-N, ending in LIMIT n); NULL groups left out.
 */
export type Expected = { readonly value: string } | { readonly rows: string } | { readonly ranked: string };

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
  readonly traits: readonly Trait[];
  readonly expect: Expected;
}

export interface DeclineQuestion {
  readonly question: string;
  readonly lang: Language;
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
