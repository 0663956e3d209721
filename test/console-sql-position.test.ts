// Where an engine's error message points in the statement, as the console's SQL editor reads it: the
// studio's error body carries only the engine's message, so the position comes from its text.
import { describe, expect, it } from 'vitest';
import { errorPosition } from '../web/src/pages/sql-position.js';

describe('errorPosition', () => {
  it("reads DuckDB's LINE n: with the caret line under it", () => {
    const message = 'DuckDB: Binder Error: Referenced column "nosuchcol" not found in FROM clause!\n\nLINE 2:   nosuchcol FROM shop.orders\n          ^';
    expect(errorPosition(message)).toEqual({ line: 2, column: 3 });
  });

  it("reads MySQL's at line n, and line/column pairs", () => {
    expect(errorPosition("mysql: You have an error in your SQL syntax; check the manual near 'FORM t' at line 3")).toEqual({ line: 3 });
    expect(errorPosition('snowflake: SQL compilation error: syntax error line 4 at position 7 unexpected')).toEqual({ line: 4, column: 7 });
  });

  it('says nothing when the message names no position', () => {
    expect(errorPosition('postgres: column "x" does not exist')).toBeUndefined();
    expect(errorPosition('Only SELECT, WITH and EXPLAIN statements are allowed')).toBeUndefined();
  });
});
