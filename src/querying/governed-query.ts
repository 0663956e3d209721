// The words of a governed query: what a caller asks (a query on a node, or on a reveal), how it may use
// the result cache, and what it gets back: the rows, the SQL that read them, and their provenance
// (which model, which SQL, whether the cache answered, and as of when). Every entry point speaks these
// words, whatever its own answer looks like; see governed-query-service.ts for the path itself.
import type { CompileOptions } from '../core/semantic/compile.js';
import type { ResultColumn, StatementRole } from '../core/semantic/composed-plan.js';
import type { SemanticModel } from '../core/semantic/model.js';
import type { SemanticQuery } from '../core/semantic/query.js';
import type { RevealQuery } from '../core/semantic/reveal.js';
import type { RunResult } from '../core/warehouse/types.js';
import type { Principal } from '../identity/principal.js';
import type { LiveModel } from '../modeling/model-service.js';
import type { HistoryOrigin, HistorySurface } from '../store/schema.js';
import type { RollupReport } from './rollup-route.js';

/**
 * A query on the semantic layer: on a node's dimensions and measures (C's body, a scene, a signal), or
 * on a reveal's metrics (the editor's CML builder, a question's plan). A reveal query may add derived
 * outputs (a question's freshness column) and answer as of a given instant (the question's).
 */
export type SemanticRequest =
  | { readonly kind: 'node'; readonly query: SemanticQuery }
  | { readonly kind: 'reveal'; readonly query: RevealQuery; readonly derived?: CompileOptions['derived']; readonly now?: Date };

/**
 * How a query may use the result cache:
 * - `use`: a stored answer is returned if there is one (no compilation, no warehouse); otherwise the
 *   query runs and its answer is kept;
 * - `bypass`: the asker wants the warehouse now (Cache-Control: no-cache): neither read nor kept;
 * - `off`: this path never caches (stored definitions, signals, questions, the editor): they read
 *   fresh with their reader's or owner's keys, and their entries would only fill the cache with other
 *   principals' rows that nothing reads back.
 */
export type CachePolicy = 'use' | 'bypass' | 'off';

/** What the cache did for a result: answered it (`hit`), or the warehouse did after a `miss`, a `bypass` or with the cache `off`. */
export const CACHE_STATES = ['hit', 'miss', 'bypass', 'off'] as const;
export type CacheState = (typeof CACHE_STATES)[number];

export interface GovernedQueryRequest {
  readonly principal: Principal;
  readonly query: SemanticRequest;
  readonly cache: CachePolicy;
  /** Where the run is recorded in the query history, and what asked for it (see HistoryOrigin). */
  readonly surface: HistorySurface;
  readonly origin: HistoryOrigin;
  /** Rows kept at most; the result says when there were more (`truncated`). */
  readonly maxRows: number;
  /**
   * A stored definition's own verdict on a query that does not compile on the live model (a scene a
   * deploy broke is a 409, not the compiler's 400): the error to throw instead, or undefined to throw
   * the compiler's. Called for an unknown node or reveal too, with the live model it was compiled on.
   */
  readonly onCompileError?: (error: Error, model: SemanticModel) => Error | undefined;
  /**
   * The live model the caller already planned with (a question's plan): the query compiles on that one,
   * not on a newer one a deploy may have brought in meanwhile. Default: the workspace's live model now.
   */
  readonly live?: LiveModel;
  /**
   * The caller's cancel (a SQL client's CancelRequest): stops this request's run on the warehouse, which
   * then fails with `warehouse_canceled` and is not cached. It stops nothing else: identical requests
   * are not coalesced, so each caller's run is its own.
   */
  readonly signal?: AbortSignal;
}

/** Where the answer comes from: the model, the statement, the cache and the instant the warehouse answered. */
export interface GovernedProvenance {
  /** The live model's version when the query was compiled (it moves with every deploy to the workspace). */
  readonly modelVersion: number;
  readonly sql: string;
  readonly cache: CacheState;
  /**
   * When the warehouse answered: for a cache hit, when the stored answer was made; for an answer from a
   * rollup, the latest source time the rollup's partitions used hold (as the source wrote it), or when
   * they were built for a rollup without time.
   */
  readonly freshAsOf: string;
  /** The rollup that answered, by name (see GovernedQueryResult.rollup). */
  readonly rollup?: string;
}

/** What the compiler made of a request for this principal, and where it runs. */
export interface GovernedStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** The node the query reads from (a reveal's base for a reveal query). */
  readonly node: string;
  /** The connection that serves it, by name. */
  readonly connection: string;
  readonly outputColumns: readonly ResultColumn[];
  /** Every node the query reads (joins included). */
  readonly nodesRead: readonly string[];
  /** For a reveal query: the reveal, as the model names it. */
  readonly reveal?: { readonly name: string; readonly domain: string };
  /** For a query with `compare`: the periods it compares. */
  readonly comparison?: ComparisonSummary;
  /**
   * For a query with `compare`, `shares` or `per` of a node with rollups: each plain statement it is
   * made of (in the plan's order) with the rollup that answered it (or would, for `explain`), or why none did.
   */
  readonly statementRollups?: ReadonlyArray<{ readonly role: StatementRole; readonly rollup: RollupReport }>;
}

/**
 * The periods of a comparison, as wall times of the query's zone (`YYYY-MM-DDTHH:mm:ss.SSS`), half-open;
 * `partial` when the current period ends after the query's now.
 */
export interface ComparisonSummary {
  readonly dimension: string;
  readonly to: 'previous_period' | 'previous_year' | 'range';
  readonly range: readonly [string, string];
  readonly comparisonRange: readonly [string, string];
  readonly partial: boolean;
}

export interface GovernedQueryResult extends RunResult, GovernedStatement {
  /** When the warehouse answered (for a cache hit, when the stored answer was made). */
  readonly ranAt: string;
  /**
   * For a query of a node with rollups (a reveal query: of its base node): the rollup that answered,
   * or (`used: null`) why each rollup could not (rollup-route.ts). Absent for a node without rollups, a
   * composed query (each of its statements is routed on its own) and with SVC_ROLLUPS=off.
   */
  readonly rollup?: RollupReport;
  readonly provenance: GovernedProvenance;
  /**
   * The rows as JSON text, when the path already holds it (a result kept in or read from the cache):
   * an answer may embed it as it is rather than write the rows again. On a cache hit the rows are
   * parsed from it only when first read.
   */
  readonly rowsJson?: string;
}

/** A compiled query that was not run: its statement, and whether the cache holds an answer for it now. */
export interface GovernedExplanation extends GovernedStatement {
  readonly modelVersion: number;
  readonly engine: string;
  /** `hit` when a stored answer would be returned now, `miss` when not; `bypass` or `off` as the policy says. */
  readonly cache: CacheState;
  /** As GovernedQueryResult's: the rollup that would answer now (its partitions built for what the query reads), or why none would. */
  readonly rollup?: RollupReport;
}
