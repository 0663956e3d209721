// Last-used times of credentials (API keys, OAuth grants), written in the batches that
// identity/last-used.ts gathers in memory.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Sets each row's last_used_at; never moves a time backwards (batches of two instances may cross). */
export async function writeLastUsed(db: Kysely<Database>, table: 'api_keys' | 'oauth_grants', entries: ReadonlyMap<string, Date>): Promise<void> {
  for (const [id, at] of entries) {
    await db
      .updateTable(table)
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  }
}
