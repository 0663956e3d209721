// An embedded store started from another's archive (StoreLocation `from`): a copy with the original's
// migrations and rows, and from then on a store of its own (what one writes, the other never sees).
import { readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/db.js';
import { migrate, MIGRATIONS_DIR } from '../src/store/migrate.js';
import { openMigratedPglite } from './helpers/app.js';

describe('an embedded store started from an archive', () => {
  const opened: Store[] = [];
  afterAll(async () => {
    for (const store of opened) await store.close();
  });

  it("is a copy of the original's schema and rows, and apart from it afterwards", async () => {
    const original = await openStore({ kind: 'pglite' });
    opened.push(original);
    await migrate(original);
    await original.db.insertInto('workspaces').values({ name: 'Before the copy', plan: 'team' }).execute();
    const copy = await openStore({ kind: 'pglite', from: await original.dumpDataDir!() });
    opened.push(copy);

    const names = async (store: Store) => (await store.db.selectFrom('workspaces').select('name').orderBy('name').execute()).map((row) => row.name);
    expect(await names(copy)).toEqual(['Before the copy']);
    await copy.db.insertInto('workspaces').values({ name: 'Only in the copy', plan: 'team' }).execute();
    await original.db.insertInto('workspaces').values({ name: 'Only in the original', plan: 'team' }).execute();
    expect(await names(copy)).toEqual(['Before the copy', 'Only in the copy']);
    expect(await names(original)).toEqual(['Before the copy', 'Only in the original']);
  });

  it('the tests start each embedded store already migrated, with no rows of another test', async () => {
    const first = await openMigratedPglite();
    opened.push(first);
    await first.db.insertInto('workspaces').values({ name: 'First store', plan: 'team' }).execute();
    const second = await openMigratedPglite();
    opened.push(second);
    const applied = await sql<{ n: number }>`select count(*)::int as n from schema_migrations`.execute(second.db);
    expect(applied.rows[0]!.n).toBe(readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.sql')).length);
    expect(await second.db.selectFrom('workspaces').select('name').execute()).toEqual([]);
  });
});
