// Scenes (saved structured queries) and mosaics (dashboards): rows, keyset pages and versioned writes.
import type { Kysely } from 'kysely';
import { emptyPage, readPage, type Page, type PageRequest } from './keyset-page.js';
import type { Database, SceneStatus, VaultAccess } from './schema.js';

export interface SceneRow {
  id: string;
  workspace_id: string;
  vault_id: string;
  name: string;
  description: string;
  node: string;
  query: unknown;
  visualization: unknown;
  status: SceneStatus;
  broken_reason: string | null;
  version: number;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface MosaicRow {
  id: string;
  workspace_id: string;
  vault_id: string;
  name: string;
  description: string;
  tiles: unknown;
  filters: unknown;
  version: number;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ContentPage extends PageRequest {
  /** Only these vaults; undefined for every vault of the workspace (a luminary). */
  vaultIds?: readonly string[];
  vaultId?: string;
  /** Case-insensitive substring of the name or description. */
  q?: string;
}

/** A write that only applies when the row is still at `expectedVersion` (If-Match). */
export type VersionGuard = { expectedVersion?: number };

type ContentTable = 'scenes' | 'mosaics';

function contentRepo<Row>(db: Kysely<Database>, table: ContentTable) {
  return {
    async get(workspaceId: string, id: string): Promise<Row | undefined> {
      return db.selectFrom(table).selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst() as Promise<Row | undefined>;
    },

    /** A page in (created_at, id) order: content saved while someone pages lands after every page read. */
    async page(workspaceId: string, page: ContentPage & { node?: string }): Promise<Page<Row>> {
      if (page.vaultIds && page.vaultIds.length === 0) return emptyPage(page);
      let query = db.selectFrom(table).selectAll().where('workspace_id', '=', workspaceId);
      if (page.vaultIds) query = query.where('vault_id', 'in', [...page.vaultIds]);
      if (page.vaultId) query = query.where('vault_id', '=', page.vaultId);
      if (page.node && table === 'scenes') query = query.where('node' as never, '=', page.node as never);
      if (page.q) {
        const pattern = `%${page.q.replaceAll(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('description', 'ilike', pattern)]));
      }
      return readPage(query, { time: 'created_at', id: 'id', direction: 'asc' }, page) as Promise<Page<Row>>;
    },

    async remove(workspaceId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom(table).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export function scenesRepo(db: Kysely<Database>) {
  return {
    ...contentRepo<SceneRow>(db, 'scenes'),

    /** The scene with what decides who sees it (its vault's owner, the user's membership), in one query. */
    async getWithAccess(workspaceId: string, id: string, userId: string): Promise<(SceneRow & { personal_user_id: string | null; access: VaultAccess | null }) | undefined> {
      return db
        .selectFrom('scenes as s')
        .innerJoin('vaults as v', 'v.id', 's.vault_id')
        .leftJoin('vault_members as m', (join) => join.onRef('m.vault_id', '=', 's.vault_id').on('m.user_id', '=', userId))
        .selectAll('s')
        .select(['v.personal_user_id', 'm.access'])
        .where('s.workspace_id', '=', workspaceId)
        .where('s.id', '=', id)
        .executeTakeFirst();
    },

    async all(workspaceId: string): Promise<SceneRow[]> {
      return db.selectFrom('scenes').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
    },

    async byIds(workspaceId: string, ids: readonly string[]): Promise<SceneRow[]> {
      if (!ids.length) return [];
      return db.selectFrom('scenes').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
    },

    async insert(values: {
      workspaceId: string;
      vaultId: string;
      name: string;
      description: string;
      node: string;
      query: unknown;
      visualization: unknown;
      userId: string;
      at: Date;
    }): Promise<SceneRow> {
      return db
        .insertInto('scenes')
        .values({
          workspace_id: values.workspaceId,
          vault_id: values.vaultId,
          name: values.name,
          description: values.description,
          node: values.node,
          query: JSON.stringify(values.query),
          visualization: JSON.stringify(values.visualization),
          created_by: values.userId,
          updated_by: values.userId,
          created_at: values.at,
          updated_at: values.at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Replaces the definition; undefined when the row is gone or not at the expected version. */
    async update(
      workspaceId: string,
      id: string,
      values: { vaultId: string; name: string; description: string; node: string; query: unknown; visualization: unknown; userId: string; at: Date },
      guard: VersionGuard,
    ): Promise<SceneRow | undefined> {
      let query = db
        .updateTable('scenes')
        .set((eb) => ({
          vault_id: values.vaultId,
          name: values.name,
          description: values.description,
          node: values.node,
          query: JSON.stringify(values.query),
          visualization: JSON.stringify(values.visualization),
          status: 'ok',
          broken_reason: null,
          updated_by: values.userId,
          updated_at: values.at,
          version: eb('version', '+', 1),
        }))
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id);
      if (guard.expectedVersion !== undefined) query = query.where('version', '=', guard.expectedVersion);
      return query.returningAll().executeTakeFirst();
    },

    /** A deploy's verdict on a scene; the definition and its version are left alone. */
    async setStatus(id: string, status: SceneStatus, reason: string | null): Promise<void> {
      await db.updateTable('scenes').set({ status, broken_reason: reason }).where('id', '=', id).execute();
    },
  };
}

export function mosaicsRepo(db: Kysely<Database>) {
  return {
    ...contentRepo<MosaicRow>(db, 'mosaics'),

    async insert(values: { workspaceId: string; vaultId: string; name: string; description: string; tiles: unknown; filters: unknown; userId: string; at: Date }): Promise<MosaicRow> {
      return db
        .insertInto('mosaics')
        .values({
          workspace_id: values.workspaceId,
          vault_id: values.vaultId,
          name: values.name,
          description: values.description,
          tiles: JSON.stringify(values.tiles),
          filters: JSON.stringify(values.filters),
          created_by: values.userId,
          updated_by: values.userId,
          created_at: values.at,
          updated_at: values.at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async update(
      workspaceId: string,
      id: string,
      values: { vaultId: string; name: string; description: string; tiles: unknown; filters: unknown; userId: string; at: Date },
      guard: VersionGuard,
    ): Promise<MosaicRow | undefined> {
      let query = db
        .updateTable('mosaics')
        .set((eb) => ({
          vault_id: values.vaultId,
          name: values.name,
          description: values.description,
          tiles: JSON.stringify(values.tiles),
          filters: JSON.stringify(values.filters),
          updated_by: values.userId,
          updated_at: values.at,
          version: eb('version', '+', 1),
        }))
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id);
      if (guard.expectedVersion !== undefined) query = query.where('version', '=', guard.expectedVersion);
      return query.returningAll().executeTakeFirst();
    },
  };
}

export type ScenesRepo = ReturnType<typeof scenesRepo>;
export type MosaicsRepo = ReturnType<typeof mosaicsRepo>;
