// MySQL / MariaDB optimizer hints: `SELECT /*+ BKA(t1) MAX_EXECUTION_TIME(1000) */ …`. The server
// parses the body of a `/*+ … */` comment with a grammar of its own (MySQL 5.7+, MariaDB 12+; older
// MariaDB reads it as a plain comment), so the guard reads it too and admits an allowlist:
// - hints that only shape the plan (join order, join algorithms, indexes, merging, semijoins,
//   query-block names) are allowed: they change how a read runs, never what it does;
// - MAX_EXECUTION_TIME(N) is allowed: it replaces the session's time limit for the statement, possibly
//   with a longer one, but the driver's watchdog still cancels the statement a second after the
//   service's own limit, whatever the server was told;
// - SET_VAR (session variables for the statement: sql_mode, the time limit, buffer sizes…) and
//   RESOURCE_GROUP (moves the thread to another resource group) are refused, as is any name not on
//   the list, so that a hint added by a later server version is refused until someone reads it.
// The body must be a list of `NAME(arguments)` whose arguments hold only names, numbers, `@`, `.`,
// `,` and backtick-quoted names (balanced): no quote, comment or parenthesis the guard and the
// server's hint parser could read differently, so both agree on where the comment ends.
import { REASONS, refuse } from './reasons.js';

/** Hint names from the MySQL 8.0/8.4 reference ("Optimizer Hints Available") and MariaDB 12. */
const PLAN_HINTS = new Set([
  'BKA', 'NO_BKA',
  'BNL', 'NO_BNL',
  'DERIVED_CONDITION_PUSHDOWN', 'NO_DERIVED_CONDITION_PUSHDOWN',
  'GROUP_INDEX', 'NO_GROUP_INDEX',
  'HASH_JOIN', 'NO_HASH_JOIN',
  'INDEX', 'NO_INDEX',
  'INDEX_MERGE', 'NO_INDEX_MERGE',
  'JOIN_FIXED_ORDER', 'JOIN_ORDER', 'JOIN_PREFIX', 'JOIN_SUFFIX',
  'JOIN_INDEX', 'NO_JOIN_INDEX',
  'MERGE', 'NO_MERGE',
  'MRR', 'NO_MRR',
  'NO_ICP',
  'NO_RANGE_OPTIMIZATION',
  'ORDER_INDEX', 'NO_ORDER_INDEX',
  'QB_NAME',
  'ROWID_FILTER', 'NO_ROWID_FILTER',
  'SEMIJOIN', 'NO_SEMIJOIN',
  'SKIP_SCAN', 'NO_SKIP_SCAN',
  'SUBQUERY',
  'MAX_EXECUTION_TIME',
]);

// One hint: a name, then arguments without quotes, comments, parentheses or Unicode spaces.
const NAME = /[ \t\r\n]*([A-Za-z_][A-Za-z0-9_]*)/y;
const ARGUMENTS = /[ \t\r\n]*\(([\p{L}\p{N}_$@.,` \t\r\n]*)\)/uy;
const BLANK = /^[ \t\r\n]*$/;

/** Checks the body of a `/*+ … *\/` comment (the text after the `+`). */
export function checkOptimizerHints(body: string): void {
  let at = 0;
  while (!BLANK.test(body.slice(at))) {
    NAME.lastIndex = at;
    const name = NAME.exec(body);
    if (!name) refuse(REASONS.unreadableHint);
    if (!PLAN_HINTS.has(name[1]!.toUpperCase())) refuse(REASONS.hint, name[1]!.toUpperCase());
    ARGUMENTS.lastIndex = NAME.lastIndex;
    const args = ARGUMENTS.exec(body);
    if (!args) refuse(REASONS.unreadableHint);
    // An odd number of backticks would leave a quoted name open across the comment's end.
    if ((args[1]!.match(/`/g) ?? []).length % 2 !== 0) refuse(REASONS.unreadableHint);
    at = ARGUMENTS.lastIndex;
  }
}
