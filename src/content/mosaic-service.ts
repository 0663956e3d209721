// Mosaics: dashboards of scene, text and heading tiles kept in vaults. Reading one shows each scene
// tile with its scene's summary, or as `hidden` when the reader may not see that scene; running one
// runs every visible scene tile concurrently (bounded), each with the mosaic filters that apply to
// its node, and answers each tile's result or its own error, so one failing tile fails only itself.
import type { Clock } from '../clock.js';
import { AppError, BadRequestError, NotFoundError, PreconditionFailedError } from '../core/errors.js';
import type { Filter } from '../core/semantic/query.js';
import type { Principal } from '../identity/principal.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import type { MosaicRow, MosaicsRepo, SceneRow } from '../store/scenes-repo.js';
import { mapBounded } from './bounded.js';
import type { MosaicFilter, MosaicInput, MosaicPatch, MosaicRunOptions, Tile } from './mosaic-definition.js';
import { expectedVersionOf, type SceneRun, type SceneService } from './scene-service.js';
import { nodeHasField } from './scene-validation.js';
import type { VaultService } from './vault-service.js';

/** Scene tiles of one mosaic run at most this many at a time. */
export const MOSAIC_TILE_CONCURRENCY = 4;

export type ResolvedTile = { tile: Tile; scene?: SceneRow } | { tile: Pick<Tile, 'id' | 'layout'>; hidden: true };

export type TileOutcome =
  | { tile: Tile; scene: SceneRow; run: SceneRun }
  | { tile: Tile; scene: SceneRow; error: { error: string; code: string; status: number } }
  | { tile: Tile; hidden: true };

export function mosaicNotFound(id: string): NotFoundError {
  return new NotFoundError(`No mosaic "${id}" in your workspace`, 'unknown_mosaic');
}

export class MosaicService {
  constructor(
    private readonly mosaics: MosaicsRepo,
    private readonly vaults: VaultService,
    private readonly scenes: SceneService,
    private readonly governed: GovernedQueryService,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, options: { vault?: string | undefined; q?: string | undefined; cursor?: string | undefined; limit: number }) {
    if (options.vault) await this.vaults.require(principal, options.vault);
    const vaultIds = await this.vaults.visibleIds(principal);
    const { rows, nextCursor } = await this.mosaics.page(principal.workspace.id, {
      ...(vaultIds ? { vaultIds } : {}),
      ...(options.vault ? { vaultId: options.vault } : {}),
      ...(options.q ? { q: options.q } : {}),
      cursor: options.cursor,
      limit: options.limit,
    });
    return { mosaics: rows, nextCursor };
  }

  async get(principal: Principal, id: string): Promise<MosaicRow> {
    const row = await this.mosaics.get(principal.workspace.id, id);
    if (!row) throw mosaicNotFound(id);
    try {
      await this.vaults.require(principal, row.vault_id);
    } catch (error) {
      if (error instanceof NotFoundError) throw mosaicNotFound(id);
      throw error;
    }
    return row;
  }

  /** The mosaic's tiles, scene tiles with the scene when the principal may see it, `hidden` otherwise. */
  async resolveTiles(principal: Principal, mosaic: MosaicRow): Promise<ResolvedTile[]> {
    const tiles = mosaic.tiles as Tile[];
    const visible = await this.scenes.visibleByIds(principal, sceneIdsOf(tiles));
    return tiles.map((tile) => {
      if (tile.kind !== 'scene') return { tile };
      const scene = visible.get(tile.scene_id!);
      return scene ? { tile, scene } : { tile: { id: tile.id, layout: tile.layout }, hidden: true as const };
    });
  }

  async create(principal: Principal, input: MosaicInput): Promise<MosaicRow> {
    const vault = input.vault ? await this.vaults.require(principal, input.vault, 'edit') : await this.vaults.personal(principal);
    await this.checkReferences(principal, input.tiles, input.filters);
    return this.mosaics.insert({
      workspaceId: principal.workspace.id,
      vaultId: vault.id,
      name: input.name,
      description: input.description,
      tiles: input.tiles,
      filters: input.filters,
      userId: principal.user.id,
      at: this.clock.now(),
    });
  }

  /** As for scenes: last write wins, or If-Match names the version the change applies to (412 otherwise). */
  async update(principal: Principal, id: string, patch: MosaicPatch, ifMatch?: string): Promise<MosaicRow> {
    const current = await this.get(principal, id);
    await this.vaults.require(principal, current.vault_id, 'edit');
    const vaultId = patch.vault ?? current.vault_id;
    if (vaultId !== current.vault_id) await this.vaults.require(principal, vaultId, 'edit');
    const tiles = patch.tiles ?? (current.tiles as Tile[]);
    const filters = patch.filters ?? (current.filters as MosaicFilter[]);
    // Only newly placed scenes must be visible to the editor: tiles someone else added stay as they are.
    const before = new Set(sceneIdsOf(current.tiles as Tile[]));
    await this.checkReferences(principal, tiles.filter((t) => !(t.scene_id && before.has(t.scene_id))), filters, tiles);
    const expectedVersion = expectedVersionOf(ifMatch, current);
    const row = await this.mosaics.update(
      principal.workspace.id,
      id,
      { vaultId, name: patch.name ?? current.name, description: patch.description ?? current.description, tiles, filters, userId: principal.user.id, at: this.clock.now() },
      expectedVersion !== undefined ? { expectedVersion } : {},
    );
    if (row) return row;
    if (!(await this.mosaics.get(principal.workspace.id, id))) throw mosaicNotFound(id);
    throw new PreconditionFailedError(`Mosaic "${current.name}" was changed since the version you read; fetch it again and reapply your change`, 'version_mismatch');
  }

  async remove(principal: Principal, id: string): Promise<void> {
    const row = await this.get(principal, id);
    await this.vaults.require(principal, row.vault_id, 'edit');
    await this.mosaics.remove(principal.workspace.id, id);
  }

  /** Runs every scene tile the principal may see, at most MOSAIC_TILE_CONCURRENCY at a time. */
  async run(principal: Principal, id: string, options: MosaicRunOptions): Promise<{ mosaic: MosaicRow; tiles: TileOutcome[] }> {
    const mosaic = await this.get(principal, id);
    const resolved = (await this.resolveTiles(principal, mosaic)).filter((r) => 'hidden' in r || r.tile.kind === 'scene');
    const filters = [...(mosaic.filters as MosaicFilter[]), ...options.filters];
    const live = await this.governed.live(principal);
    const tiles = await mapBounded(resolved, MOSAIC_TILE_CONCURRENCY, async (entry): Promise<TileOutcome> => {
      if ('hidden' in entry) return { tile: entry.tile as Tile, hidden: true };
      const scene = entry.scene!;
      const applied: Filter[] = filters
        .filter((f) => (f.tiles === undefined || f.tiles.includes(entry.tile.id)) && nodeHasField(live.model, scene.node, f.field))
        .map((f) => ({ field: f.field, operator: f.operator, ...(f.value !== undefined ? { value: f.value } : {}) }));
      try {
        const run = await this.scenes.runRow(principal, scene, { filters: applied, ...(options.timezone ? { timezone: options.timezone } : {}) }, `mosaic:${mosaic.id}`);
        return { tile: entry.tile, scene, run };
      } catch (error) {
        if (error instanceof AppError) return { tile: entry.tile, scene, error: { error: error.message, code: error.code, status: error.status } };
        return { tile: entry.tile, scene, error: { error: 'The tile failed to run', code: 'internal_error', status: 500 } };
      }
    });
    return { mosaic, tiles };
  }

  /** Scene tiles must name scenes the principal may see; filters must name existing tiles. */
  private async checkReferences(principal: Principal, placed: readonly Tile[], filters: readonly MosaicFilter[], all: readonly Tile[] = placed): Promise<void> {
    const ids = sceneIdsOf(placed);
    const visible = await this.scenes.visibleByIds(principal, ids);
    const missing = ids.find((sceneId) => !visible.has(sceneId));
    if (missing) throw new BadRequestError(`Unknown scene "${missing}" in a tile`, 'unknown_scene');
    const tileIds = new Set(all.map((t) => t.id));
    for (const filter of filters) {
      const stray = filter.tiles?.find((t) => !tileIds.has(t));
      if (stray) throw new BadRequestError(`The filter on "${filter.field}" names tile "${stray}", which the mosaic does not have`, 'unknown_tile');
    }
  }
}

function sceneIdsOf(tiles: readonly Tile[]): string[] {
  return [...new Set(tiles.flatMap((t) => (t.kind === 'scene' && t.scene_id ? [t.scene_id] : [])))];
}
