import type { Kysely } from 'kysely';
import { MEMBER_COLUMNS, type MemberRow } from './members.js';
import type { Database, KeySurface } from './schema.js';
import { readPage, type Page, type PageRequest } from './keyset-page.js';
import { writeLastUsed } from './last-used-writes.js';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  surface: KeySurface;
  prefix: string;
  scopes: string[];
  rate_limit: number | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export type ResolvedKeyRow = MemberRow & {
  key_id: string;
  surface: KeySurface;
  scopes: string[];
  rate_limit: number | null;
  expires_at: Date | null;
  revoked_at: Date | null;
};

const KEY_COLUMNS = [
  'k.id',
  'k.workspace_id',
  'k.user_id',
  'k.name',
  'k.surface',
  'k.prefix',
  'k.scopes',
  'k.rate_limit',
  'k.created_at',
  'k.last_used_at',
  'k.expires_at',
  'k.revoked_at',
] as const;

export function apiKeysRepo(db: Kysely<Database>) {
  const keysOf = (workspaceId: string, userId: string | undefined) => {
    const query = db.selectFrom('api_keys as k').select(KEY_COLUMNS).where('k.workspace_id', '=', workspaceId);
    return userId ? query.where('k.user_id', '=', userId) : query;
  };
  return {
    async insert(values: {
      workspaceId: string;
      userId: string;
      name: string;
      surface: KeySurface;
      prefix: string;
      secretHash: string;
      scopes: string[];
      rateLimit: number | null;
      expiresAt: Date | null;
    }): Promise<ApiKeyRow> {
      const { id } = await db
        .insertInto('api_keys')
        .values({
          workspace_id: values.workspaceId,
          user_id: values.userId,
          name: values.name,
          surface: values.surface,
          prefix: values.prefix,
          secret_hash: values.secretHash,
          scopes: JSON.stringify(values.scopes),
          rate_limit: values.rateLimit,
          expires_at: values.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return (await this.get(values.workspaceId, id))!;
    },

    /** The key with its member, by the hash of its full value; undefined when no key has that hash. */
    async findByHash(secretHash: string): Promise<ResolvedKeyRow | undefined> {
      return db
        .selectFrom('api_keys as k')
        .innerJoin('memberships as m', (j) => j.onRef('m.workspace_id', '=', 'k.workspace_id').onRef('m.user_id', '=', 'k.user_id'))
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
        .select(MEMBER_COLUMNS)
        .select(['k.id as key_id', 'k.surface', 'k.scopes', 'k.rate_limit', 'k.expires_at', 'k.revoked_at'])
        .where('k.secret_hash', '=', secretHash)
        .executeTakeFirst();
    },

    /** Keys of a workspace, newest first; only one user's keys when `userId` is given. */
    async list(workspaceId: string, userId?: string): Promise<ApiKeyRow[]> {
      return keysOf(workspaceId, userId).orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').execute();
    },

    /** A page of list(): newest first, the cursor of a previous page continuing it. */
    async page(workspaceId: string, userId: string | undefined, page: PageRequest): Promise<Page<ApiKeyRow>> {
      return readPage(keysOf(workspaceId, userId), { time: 'k.created_at', id: 'k.id', direction: 'desc' }, page);
    },

    /** A key of this workspace; a key of another workspace is as absent as an unknown one. */
    async get(workspaceId: string, id: string): Promise<ApiKeyRow | undefined> {
      return db
        .selectFrom('api_keys as k')
        .select(KEY_COLUMNS)
        .where('k.workspace_id', '=', workspaceId)
        .where('k.id', '=', id)
        .executeTakeFirst();
    },

    async revoke(workspaceId: string, id: string, at: Date): Promise<void> {
      await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /** Writes last-used times gathered in memory; never moves a time backwards. */
    recordLastUsed: (entries: ReadonlyMap<string, Date>) => writeLastUsed(db, 'api_keys', entries),
  };
}

export type ApiKeysRepo = ReturnType<typeof apiKeysRepo>;
