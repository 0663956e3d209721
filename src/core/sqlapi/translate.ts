// A governed SELECT → the semantic query the governed path runs (data keys, cache, limits), and what
// the client is told about it: its columns, and the types of its parameters. Pure: no I/O, no clock;
// the PostgreSQL parser must be loaded (loadSqlParser) before statements are classified.
import { bindPlan, type GovernedSelect } from './bind-values.js';
import type { GovernedStatement } from './classify.js';
import { planSelect } from './select-plan.js';
import type { ParamType } from './select-plan-types.js';
import type { SqlTable } from './tables.js';

export type { GovernedSelect } from './bind-values.js';
export type { GovernedColumn, ParamType, SelectPlan } from './select-plan-types.js';
export { bindPlan } from './bind-values.js';
export { planSelect } from './select-plan.js';

/**
 * The semantic query of a governed SELECT, with `params` (`$1` is params[0], as text, null for NULL).
 * Throws SqlStateError with PostgreSQL's SQLSTATE, message, hint and position in the statement's text.
 */
export function translateSelect(statement: GovernedStatement, params: readonly (string | null)[], tables: readonly SqlTable[]): GovernedSelect {
  return bindPlan(planSelect(statement, tables), params);
}

/**
 * The type of each `$n` (index n - 1), for ParameterDescription: the type of what it is compared
 * with, int8 for LIMIT, text when the statement does not say. Its length is the highest `$n` used.
 */
export function describeParams(statement: GovernedStatement, tables: readonly SqlTable[]): ParamType[] {
  return [...planSelect(statement, tables).params];
}
