// The same SQL migrations on embedded PGlite and on PostgreSQL: all tables, idempotent re-runs,
// concurrent starts, and int8 normalised to numbers on both.
import { readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { membersRepo } from '../src/store/members-repo.js';
import { openStore, type Store, type StoreLocation } from '../src/store/db.js';
import { migrate, MIGRATIONS_DIR } from '../src/store/migrate.js';
import { createTestDatabase, hasService } from './helpers/services.js';

const MIGRATION_FILES = readdirSync(MIGRATIONS_DIR).filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name)).sort();
const TABLES = ['api_keys', 'cml_files', 'connections', 'delivery_schedule_runs', 'delivery_schedules', 'deployments', 'events', 'memberships', 'mosaics', 'oauth_clients', 'oauth_grants', 'oauth_tokens', 'projects', 'query_history', 'rollup_answers', 'rollup_builds', 'rollup_partitions', 'scenes', 'scheduled_jobs', 'schema_migrations', 'sessions', 'signal_evaluations', 'signals', 'users', 'vault_members', 'vaults', 'webhook_deliveries', 'webhook_endpoints', 'workspaces'];
const withPostgres = await hasService('postgres');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function tablesOf(store: Store): Promise<string[]> {
  const result = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = 'public' order by table_name`.execute(store.db);
  return result.rows.map((r) => r.table_name);
}

async function checkStore(location: StoreLocation) {
  const store = await openStore(location);
  cleanups.push(() => store.close());
  const first = await migrate(store);
  // Every file of migrations/, in name order, each once.
  expect(first.applied).toEqual(MIGRATION_FILES);
  expect(first.applied.slice(0, 7)).toEqual(['0001_platform.sql', '0002_models.sql', '0003_query_history.sql', '0004_history_question_api.sql', '0005_history_origin.sql', '0006_content.sql', '0007_events.sql']);
  expect(await tablesOf(store)).toEqual(TABLES);

  const again = await migrate(store);
  expect(again).toEqual({ applied: [], alreadyApplied: first.applied.length });

  // count(*) is int8: a number on both stores.
  const members = membersRepo(store.db);
  await members.createWorkspace({ name: 'W', plan: 'free' });
  expect(await members.countWorkspaces()).toBe(1);

  // Constraints hold: plans and roles are closed sets, e-mails are unique and lower case.
  await expect(members.createWorkspace({ name: 'X', plan: 'gold' as never })).rejects.toThrow(/check constraint/);
  await members.createUser({ email: 'Someone@Example.com', name: 'S', passwordHash: null });
  await expect(members.createUser({ email: 'someone@example.com', name: 'T', passwordHash: null })).rejects.toThrow(/unique/);
  return store;
}

describe('migrations', () => {
  it('each has a number of its own, in sequence: two branches cannot both add the same one', () => {
    expect(MIGRATION_FILES.map((name) => name.slice(0, 4))).toEqual(MIGRATION_FILES.map((_, i) => String(i + 1).padStart(4, '0')));
  });

  it('apply on embedded PGlite', async () => {
    await checkStore({ kind: 'pglite' });
  });

  it.runIf(withPostgres)('apply on PostgreSQL', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    await checkStore({ kind: 'postgres', url: db.url });
  });

  it.runIf(withPostgres)('two instances starting at once apply each migration exactly once', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    const stores = await Promise.all([1, 2, 3].map(() => openStore({ kind: 'postgres', url: db.url })));
    cleanups.push(async () => void (await Promise.all(stores.map((s) => s.close()))));
    const reports = await Promise.all(stores.map((s) => migrate(s)));
    expect(reports.map((r) => r.applied.length).sort()).toEqual([0, 0, MIGRATION_FILES.length]);
    expect(await tablesOf(stores[0]!)).toEqual(TABLES);
  });
});
