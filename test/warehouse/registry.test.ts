// The registry keeps one Warehouse per connection key and reopens it when the config changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { WarehouseRegistry } from '../../src/core/warehouse/index.js';
import { OPTIONS } from './fixture.js';

describe('WarehouseRegistry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warehouse-registry-'));
  const registry = new WarehouseRegistry();

  afterAll(async () => {
    await registry.closeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  async function databaseFile(name: string, value: number): Promise<string> {
    const path = join(dir, `${name}.duckdb`);
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(`create table t as select ${value} as v`);
    connection.closeSync();
    instance.closeSync();
    return path;
  }

  it('returns the same warehouse for the same key and config, and reopens on a change', async () => {
    const first = await databaseFile('first', 1);
    const second = await databaseFile('second', 2);
    const a = registry.get('conn-1', { engine: 'duckdb', path: first });
    expect(registry.get('conn-1', { path: first, engine: 'duckdb' })).toBe(a);
    expect((await a.run('select v from t', [], OPTIONS)).rows).toEqual([{ v: 1 }]);

    const b = registry.get('conn-1', { engine: 'duckdb', path: second });
    expect(b).not.toBe(a);
    expect((await b.run('select v from t', [], OPTIONS)).rows).toEqual([{ v: 2 }]);

    const other = registry.get('conn-2', { engine: 'duckdb', path: first });
    expect(other).not.toBe(b);
    await registry.closeAll();
    expect(registry.get('conn-1', { engine: 'duckdb', path: second })).not.toBe(b);
  });
});
