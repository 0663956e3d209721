// The same small table on every engine, and what reading it must give: identical normalised values
// whatever the engine. Row 1 holds a bigint beyond 2^53, which must come back as text.
import { expect } from 'vitest';
import { WarehouseError } from '../../src/core/warehouse/errors.js';
import type { RunOptions, Warehouse } from '../../src/core/warehouse/types.js';

export const ROWS = Array.from({ length: 10 }, (_, i) => {
  const id = i + 1;
  return {
    id,
    big: id === 1 ? '9007199254740993' : String(id * 1_000_000_000_000),
    price: `${id * 10}.25`,
    name: `item ${id}`,
    active: id % 2 === 1,
    day: `2024-02-${String(id + 19).padStart(2, '0')}`,
    seen_at: `2024-02-${String(id + 19).padStart(2, '0')} 13:45:30.${String(id * 100 + 23).padStart(3, '0').slice(-3)}`,
  };
});

/** Column definitions per engine for: id int, big bigint, price decimal, name varchar, active boolean, day date, seen_at timestamp. */
export const ITEMS_DDL = {
  postgres: 'create table items (id integer, big bigint, price numeric(10,2), name varchar(50), active boolean, day date, seen_at timestamp(3))',
  mysql: 'create table items (id int, big bigint, price decimal(10,2), name varchar(50), active boolean, day date, seen_at datetime(3))',
  duckdb: 'create table items (id integer, big bigint, price decimal(10,2), name varchar, active boolean, day date, seen_at timestamp)',
} as const;

/** One INSERT with literal values, valid on all three engines. */
export function itemsInsertSql(): string {
  const values = ROWS.map(
    (r) => `(${r.id}, ${r.big}, ${r.price}, '${r.name}', ${r.active}, '${r.day}', '${r.seen_at}')`,
  );
  return `insert into items values ${values.join(', ')}`;
}

/** What run() must return for `select * from items order by id`. */
export const EXPECTED_ROWS = ROWS.map((r) => ({
  id: r.id,
  big: r.id === 1 ? r.big : Number(r.big),
  price: Number(r.price),
  name: r.name,
  active: r.active,
  day: r.day,
  seen_at: r.seen_at.replace(' ', 'T'),
}));

export const OPTIONS: RunOptions = { maxRows: 1000, timeoutMs: 5000 };

/** Expects a WarehouseError with one of the given statuses; returns it for further checks. */
export async function expectRefused(promise: Promise<unknown>, statuses: number[] = [400], label = 'the statement'): Promise<WarehouseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${label} should have been refused`).toBeInstanceOf(WarehouseError);
  expect(statuses).toContain((error as WarehouseError).status);
  return error as WarehouseError;
}

/** The row cap: 10 rows with maxRows 5 are truncated; exactly 5 rows are not. */
export async function checkRowCaps(warehouse: Warehouse): Promise<void> {
  const capped = await warehouse.run('select id from items order by id', [], { maxRows: 5, timeoutMs: 5000 });
  expect(capped.rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  expect(capped.rowCount).toBe(5);
  expect(capped.truncated).toBe(true);

  const exact = await warehouse.run('select id from items where id <= 5 order by id', [], { maxRows: 5, timeoutMs: 5000 });
  expect(exact.rowCount).toBe(5);
  expect(exact.truncated).toBe(false);
}

/** Runs a slow statement and checks it is stopped near the limit, then that the warehouse still works. */
export async function checkTimeout(warehouse: Warehouse, slowSql: string, timeoutMs = 1000): Promise<number> {
  const started = performance.now();
  const error = await expectRefused(warehouse.run(slowSql, [], { maxRows: 10, timeoutMs }), [408, 504]);
  const elapsed = performance.now() - started;
  expect(error.message).toContain(`${timeoutMs} ms`);
  expect(elapsed).toBeGreaterThanOrEqual(timeoutMs * 0.9);
  expect(elapsed).toBeLessThan(timeoutMs + 1500);
  const after = await warehouse.run('select 1 as one', [], OPTIONS);
  expect(after.rows).toEqual([{ one: 1 }]);
  return elapsed;
}
