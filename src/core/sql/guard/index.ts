// The read-only guard: every raw SQL statement a user sends passes here before it reaches a
// warehouse. It allows one SELECT, WITH or EXPLAIN statement and refuses everything else, failing
// closed: whatever cannot be read with certainty is refused. It is the first line only; the drivers'
// read-only transactions and the connection's least-privilege role are the next ones (see CONTEXT.md).
import { BoundedMemo } from '../../bounded-memo.js';
import type { WarehouseEngine } from '../../warehouse/types.js';
import { checkDuckDb } from './duckdb.js';
import { checkInput } from './input.js';
import { checkMysql } from './mysql.js';
import { checkPostgres } from './postgres.js';
import { checkSnowflake } from './snowflake.js';
import { REASONS, refuse } from './reasons.js';
import { ReadOnlyViolation } from './violation.js';

export { READ_ONLY_MESSAGE, ReadOnlyViolation } from './violation.js';
export { MAX_SQL_LENGTH, REASONS, type Reason } from './reasons.js';

const accepted = new BoundedMemo<true>(1_000, 8_000);

/**
 * Resolves when `sql` is a single read statement for `engine`; throws ReadOnlyViolation otherwise
 * (and for anything the guard cannot check: it never throws another error).
 */
export async function assertReadOnly(engine: WarehouseEngine, sql: string): Promise<void> {
  // The verdict depends on the engine and the text alone: a statement accepted once is accepted again
  // without parsing it again. Refusals are not kept (they throw, and cost nothing to the warehouse).
  const key = `${engine}\u0000${sql}`;
  if (accepted.get(key)) return;
  try {
    const text = checkInput(sql);
    switch (engine) {
      case 'postgres':
        await checkPostgres(text);
        break;
      case 'duckdb':
        await checkDuckDb(text);
        break;
      case 'mysql':
        checkMysql(text);
        break;
      case 'snowflake':
        checkSnowflake(text);
        break;
      default:
        refuse(REASONS.unknownEngine);
    }
    accepted.set(key, true);
  } catch (error) {
    if (error instanceof ReadOnlyViolation) throw error;
    // A parser crash or an unavailable parser: refuse rather than let the statement through.
    throw new ReadOnlyViolation(REASONS.uncheckable.text);
  }
}
