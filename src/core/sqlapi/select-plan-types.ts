// The meaning of a governed SELECT before its parameters are known: which fields it reads, its
// conditions with their values still as written (a literal, or `$n`), its order and its limit. A
// prepared statement is planned once (its parameter types answer Describe) and bound per execution.
import type { DimensionType, MeasureType } from '../semantic/model.js';
import type { FilterOperator } from '../semantic/query.js';

/** The type a client is told a `$n` has (ParameterDescription), by what it is compared with. */
export type ParamType = 'text' | 'numeric' | 'bool' | 'date' | 'timestamp' | 'int8';

/** What a value is compared with: a dimension's type, or `number` for a measure. */
export type ValueType = DimensionType;

export type ValueSlot = (
  /** `literal` is the constant's PostgreSQL kind: a quoted string is `unknown`, read as the column's type. */
  | { readonly kind: 'literal'; readonly value: string | number | boolean; readonly literal: 'unknown' | 'integer' | 'numeric' | 'boolean'; readonly position?: number }
  | { readonly kind: 'param'; readonly number: number; readonly position?: number }
) & {
  /**
   * A time constant typed by a cast (`DATE '…'`, `$1::timestamp`): read as that type rather than the
   * column's, as PostgreSQL casts it before comparing (a date is its day's midnight).
   */
  readonly cast?: 'date' | 'timestamp';
};

/** How a LIKE pattern meets the column: as written, ILIKE, or over LOWER()/UPPER() of the column. */
export type LikeMode = 'like' | 'ilike' | 'lower' | 'upper';

export interface LeafCondition {
  readonly field: string;
  /** The column's name as the statement wrote it, for messages. */
  readonly column: string;
  readonly type: ValueType;
  readonly place: 'dimension' | 'measure';
  readonly operator: FilterOperator;
  readonly values: readonly ValueSlot[];
  /** The SQL operator as PostgreSQL would name it in `operator does not exist: text = integer`. */
  readonly symbol: string;
  /** A LIKE: the operator is decided by the pattern once its value is known. */
  readonly like?: { readonly mode: LikeMode; readonly negate: boolean };
}

export type Condition = LeafCondition | { readonly and: readonly Condition[] } | { readonly or: readonly Condition[] };

export interface GovernedColumn {
  /** The column's name as the client sees it: its alias, else PostgreSQL's default name (see select-plan.ts). */
  readonly name: string;
  readonly field: string;
  readonly kind: 'dimension' | 'measure';
  readonly type: DimensionType | 'number';
  readonly measureType?: MeasureType;
}

export interface SelectPlan {
  readonly node: string;
  readonly columns: readonly GovernedColumn[];
  readonly dimensions: readonly string[];
  readonly measures: readonly string[];
  /** Conditions on dimensions, all of which hold (WHERE, and HAVING conditions on grouped dimensions). */
  readonly where: readonly Condition[];
  /** Conditions on measures, all of which hold (HAVING). */
  readonly having: readonly Condition[];
  readonly sorts: ReadonlyArray<{ readonly field: string; readonly direction: 'asc' | 'desc' }>;
  /** LIMIT's value; absent without LIMIT or with LIMIT ALL. */
  readonly limit?: ValueSlot;
  readonly limitGiven: boolean;
  /** The type of each `$n`, at index n - 1: what it is compared with (`text` when unused). */
  readonly params: readonly ParamType[];
}
