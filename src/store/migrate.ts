// Applies the SQL files in migrations/ in name order, each once, recorded in schema_migrations.
// All pending files run in one transaction under an advisory lock, so two instances starting at once
// neither race nor leave a half-applied schema.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Store } from './db.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
const LOCK_ID = 7_345_001; // any constant; it names "the migration lock" for this service

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(store: Store, dir: string = MIGRATIONS_DIR): Promise<MigrationReport> {
  const files = (await readdir(dir)).filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name)).sort();
  const scripts = await Promise.all(files.map(async (name) => ({ name, text: await readFile(`${dir}/${name}`, 'utf8') })));

  return store.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);
    await sql`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`.execute(trx);
    const done = new Set((await trx.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name));
    const applied: string[] = [];
    for (const script of scripts) {
      if (done.has(script.name)) continue;
      await sql.raw(script.text).execute(trx);
      await trx.insertInto('schema_migrations').values({ name: script.name }).execute();
      applied.push(script.name);
    }
    return { applied, alreadyApplied: done.size };
  });
}
