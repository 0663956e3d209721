// Records of built rollup partitions, on both metadata stores: a build of a partition replaces its
// record, partitions of a table are listed in time order, and one workspace never sees another's.
import { afterAll, describe, expect, it } from 'vitest';
import { membersRepo } from '../../src/store/members-repo.js';
import { openStore, type StoreLocation } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { rollupPartitionsRepo, type RollupPartitionRow } from '../../src/store/rollup-partitions-repo.js';
import { TEST_NOW } from '../helpers/clock.js';
import { createTestDatabase, hasService } from '../helpers/services.js';

const withPostgres = await hasService('postgres');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function check(location: StoreLocation) {
  const store = await openStore(location);
  cleanups.push(() => store.close());
  await migrate(store);
  const members = membersRepo(store.db);
  const mine = await members.createWorkspace({ name: 'Mine', plan: 'free' });
  const theirs = await members.createWorkspace({ name: 'Theirs', plan: 'free' });
  const repo = rollupPartitionsRepo(store.db);
  const partition = (start: string, end: string, rows: number, workspace = mine.id): RollupPartitionRow => ({
    workspace_id: workspace,
    table_name: 'orders__daily__0123456789abcdef',
    node: 'orders',
    rollup: 'daily',
    partition_start: start,
    partition_end: end,
    row_count: rows,
    built_at: TEST_NOW,
    source_max_time: '2024-03-31T23:59:00.000',
    duration_ms: 12,
  });
  await repo.record(partition('2024-03-01 00:00:00.000', '2024-04-01 00:00:00.000', 31));
  await repo.record(partition('2024-02-01 00:00:00.000', '2024-03-01 00:00:00.000', 29));
  await repo.record(partition('2024-03-01 00:00:00.000', '2024-04-01 00:00:00.000', 30_000_000_000));
  await repo.record(partition('2024-03-01 00:00:00.000', '2024-04-01 00:00:00.000', 7, theirs.id));
  const listed = await repo.list(mine.id, 'orders__daily__0123456789abcdef');
  expect(listed.map((row) => [row.partition_start, row.row_count])).toEqual([
    ['2024-02-01 00:00:00.000', 29],
    ['2024-03-01 00:00:00.000', 30_000_000_000],
  ]);
  expect(listed[0]!.built_at.getTime()).toBe(TEST_NOW.getTime());
  await expect(repo.record({ ...partition('', '', 1), row_count: -1 })).rejects.toThrow(/check constraint/);
}

describe('rollup partition records', () => {
  it('are kept on embedded PGlite', async () => {
    await check({ kind: 'pglite' });
  });

  it.runIf(withPostgres)('are kept on PostgreSQL', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    await check({ kind: 'postgres', url: db.url });
  });
});
