// What a planner (offline or language model) makes of a question: a governed plan over one reveal,
// or an honest "no governed match". Plans name things only; dates are resolved on the server and
// numbers come from the warehouse, never from a planner.

/** A period resolved on the server: half-open [start, end) in the workspace time zone. */
export interface ResolvedPeriod {
  /** Stable token, e.g. `last_week`, `last_30_days`, `2024_q2`, `2025_03`, `2024`, `year_to_date`. */
  readonly token: string;
  /** `YYYY-MM-DD`, inclusive. */
  readonly start: string;
  /** `YYYY-MM-DD`, exclusive. */
  readonly end: string;
  /** The words of the question that named it, as written. */
  readonly phrase: string;
}

export interface GovernedPlan {
  readonly kind: 'governed';
  readonly reveal: string;
  /** Metric names of the reveal; the first is the headline metric. */
  readonly metrics: readonly string[];
  /** Field ids relative to the reveal's base node (`channel`, `customers.segment`). */
  readonly dimensions: readonly string[];
  /** Filters on dimension values found in the question. */
  readonly filters: ReadonlyArray<{
    readonly field: string;
    /** `notEquals` / `notIn`: the values are left out ("excluding OTA"); rows without a value are kept. */
    readonly operator: 'equals' | 'in' | 'notEquals' | 'notIn';
    readonly value: string | readonly string[];
    /** The value was found through a typo-corrected word ("Chicgo" → 'Chicago'): an assumption to state. */
    readonly near?: boolean;
  }>;
  /**
   * "X per Y": the headline metric divided by the metric `by` of the same reveal. The server answers
   * with the ratio metric the model declares for the two, or with the semantic layer's `per`.
   */
  readonly per?: { readonly by: string };
  /**
   * A part over its whole. With `part` ("what share of trips were electric"): the headline metric where
   * `part.field` is `part.value`, over the metric for every row the other filters keep. Without it
   * ("share of each rider type in fare revenue"): each group's share of the total over every group.
   */
  readonly share?: { readonly part?: { readonly field: string; readonly value: string } };
  /**
   * Two periods side by side ("how many more … in 2024 than in 2023", "growth … last month"). Planners
   * only say so: both periods are read from the question and resolved on the server.
   */
  readonly compare?: true;
  readonly sort?: { readonly field: string; readonly direction: 'asc' | 'desc' };
  readonly limit?: number;
  /** How the headline metric was recognised: only name, label or synonym may give high confidence. */
  readonly matchedBy: 'name' | 'label' | 'synonym' | 'description';
}

/** The two periods of a comparison, resolved on the server: the current one and the one it is set beside. */
export interface ComparedPeriods {
  readonly current: ResolvedPeriod;
  readonly comparison: ResolvedPeriod;
}

export interface NoMatch {
  readonly kind: 'no_match';
  /** Plain words for the person who asked. */
  readonly reason: string;
  /** The closest governed metrics, to suggest. */
  readonly closest: ReadonlyArray<{ readonly reveal: string; readonly metric: string; readonly label: string }>;
  /**
   * What the model's editor could add so that such a question is answered: a synonym (a word of the
   * question, as typed) for a metric, written in CML at `file`:`line` (measurement-words.ts).
   */
  readonly suggestions?: ReadonlyArray<{
    readonly action: 'add_synonym';
    readonly reveal: string;
    readonly metric: string;
    readonly synonym: string;
    readonly file: string;
    readonly line: number;
  }>;
}

export type AnswerPlan = GovernedPlan | NoMatch;
