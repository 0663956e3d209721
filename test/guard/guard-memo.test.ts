// The guard keeps the statements it accepted, by engine and exact text, and parses them once: a kept
// verdict never lets through a refused statement, another engine's, or a text that differs at all.
import { describe, expect, it } from 'vitest';
import { assertReadOnly, ReadOnlyViolation } from '../../src/core/sql/guard/index.js';

describe('the guard memo', () => {
  it('accepts a statement again, and keeps refusing a refused one', async () => {
    const read = 'SELECT id, status FROM shop.orders WHERE id = 42';
    for (let i = 0; i < 3; i++) await expect(assertReadOnly('postgres', read)).resolves.toBeUndefined();
    const write = 'DELETE FROM shop.orders WHERE id = 42';
    for (let i = 0; i < 3; i++) await expect(assertReadOnly('postgres', write)).rejects.toBeInstanceOf(ReadOnlyViolation);
  });

  it('keys the verdict by the exact text: a write appended after an accepted statement is refused', async () => {
    const read = 'SELECT 1 AS one';
    await assertReadOnly('postgres', read);
    await expect(assertReadOnly('postgres', `${read}; DROP TABLE shop.orders`)).rejects.toBeInstanceOf(ReadOnlyViolation);
    await expect(assertReadOnly('postgres', `${read} `)).resolves.toBeUndefined();
  });

  it('keys the verdict by engine: what one engine accepts is checked again for another', async () => {
    // LOAD_FILE reads server files on MySQL and is an unknown function to PostgreSQL; read_csv reads
    // files on DuckDB only.
    for (let i = 0; i < 2; i++) {
      await expect(assertReadOnly('postgres', "SELECT LOAD_FILE('/etc/passwd')")).resolves.toBeUndefined();
      await expect(assertReadOnly('mysql', "SELECT LOAD_FILE('/etc/passwd')")).rejects.toBeInstanceOf(ReadOnlyViolation);
      await expect(assertReadOnly('postgres', "SELECT * FROM read_csv('/etc/passwd')")).resolves.toBeUndefined();
      await expect(assertReadOnly('duckdb', "SELECT * FROM read_csv('/etc/passwd')")).rejects.toBeInstanceOf(ReadOnlyViolation);
    }
  });
});
