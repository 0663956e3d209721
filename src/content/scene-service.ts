// Scenes: saved structured queries kept in vaults. Saves are checked against the live model (400
// naming the unknown field); reads and writes follow the vault's access rules (404 for a scene in a
// vault the principal cannot see); runs go through the one governed path with the caller's data keys,
// never from or into the result cache.
import type { Clock } from '../clock.js';
import { AppError, ConflictError, NotFoundError, PreconditionFailedError } from '../core/errors.js';
import { DEFAULT_QUERY_LIMIT, type Filter, type SemanticQuery } from '../core/semantic/query.js';
import type { Principal } from '../identity/principal.js';
import type { GovernedQueryResult, GovernedQueryService } from '../querying/governed-query-service.js';
import type { SceneRow, ScenesRepo } from '../store/scenes-repo.js';
import type { SavedQuery, SceneInput, ScenePatch, SceneRunOptions, Visualization } from './scene-definition.js';
import { assertSceneValid, sceneProblem } from './scene-validation.js';
import type { ContentGeneration } from './content-generation.js';
import { effectiveAccess } from './vault-access.js';
import type { VaultService } from './vault-service.js';

export interface SceneListOptions {
  vault?: string | undefined;
  node?: string | undefined;
  q?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export interface SceneRun {
  scene: SceneRow;
  /** The query that ran: the saved one with the run's filters, limit and time zone. */
  query: SemanticQuery;
  result: GovernedQueryResult;
}

export function sceneNotFound(id: string): NotFoundError {
  return new NotFoundError(`No scene "${id}" in your workspace`, 'unknown_scene');
}

export function savedQueryOf(row: SceneRow): SavedQuery {
  return row.query as SavedQuery;
}

/** An If-Match value: a version ("3", "\"3\"", W/"3") or the updated_at it was read at. */
export function expectedVersionOf(ifMatch: string | undefined, row: Pick<SceneRow, 'version' | 'updated_at'>): number | undefined {
  if (ifMatch === undefined) return undefined;
  const value = ifMatch.trim().replace(/^W\//, '').replaceAll('"', '');
  if (/^\d+$/.test(value)) return Number(value);
  const at = new Date(value);
  // An updated_at stands for the version the row had then: the current one if it matches, else none.
  if (!Number.isNaN(at.getTime()) && at.getTime() === row.updated_at.getTime()) return row.version;
  return -1;
}

export class SceneService {
  constructor(
    private readonly scenes: ScenesRepo,
    private readonly vaults: VaultService,
    private readonly governed: GovernedQueryService,
    private readonly clock: Clock,
    private readonly generation: ContentGeneration,
  ) {}

  /** A page of the scenes the principal may see, oldest first: scenes saved meanwhile never shift a page. */
  async list(principal: Principal, options: SceneListOptions): Promise<{ scenes: SceneRow[]; nextCursor: string | null }> {
    if (options.vault) await this.vaults.require(principal, options.vault);
    const vaultIds = await this.vaults.visibleIds(principal);
    const { rows, nextCursor } = await this.scenes.page(principal.workspace.id, {
      ...(vaultIds ? { vaultIds } : {}),
      ...(options.vault ? { vaultId: options.vault } : {}),
      ...(options.node ? { node: options.node } : {}),
      ...(options.q ? { q: options.q } : {}),
      cursor: options.cursor,
      limit: options.limit,
    });
    return { scenes: rows, nextCursor };
  }

  /** The scene, when the principal may see its vault (404 otherwise). */
  async get(principal: Principal, id: string): Promise<SceneRow> {
    // One query: scene runs read it on every call, and it decides visibility as VaultService.require does.
    const found = await this.generation.cached(principal.workspace.id, `scene:${id}:${principal.user.id}`, () =>
      this.scenes.getWithAccess(principal.workspace.id, id, principal.user.id),
    );
    if (!found) throw sceneNotFound(id);
    const { personal_user_id: personalUserId, access, ...row } = found;
    if (!effectiveAccess(principal, { personal_user_id: personalUserId }, access ?? undefined)) throw sceneNotFound(id);
    return row;
  }

  /** The scenes of `ids` the principal may see (the others are left out). */
  async visibleByIds(principal: Principal, ids: readonly string[]): Promise<Map<string, SceneRow>> {
    const rows = await this.scenes.byIds(principal.workspace.id, ids);
    const vaultIds = await this.vaults.visibleIds(principal);
    const visible = vaultIds ? rows.filter((r) => vaultIds.includes(r.vault_id)) : rows;
    return new Map(visible.map((r) => [r.id, r]));
  }

  async create(principal: Principal, input: SceneInput): Promise<SceneRow> {
    const vault = input.vault ? await this.vaults.require(principal, input.vault, 'edit') : await this.vaults.personal(principal);
    const query = savedOf(input);
    const live = await this.governed.live(principal);
    assertSceneValid(live.model, input.node, query, input.visualization);
    return this.scenes.insert({
      workspaceId: principal.workspace.id,
      vaultId: vault.id,
      name: input.name,
      description: input.description,
      node: input.node,
      query,
      visualization: input.visualization,
      userId: principal.user.id,
      at: this.clock.now(),
    });
  }

  /**
   * Applies the fields of `patch`. Without `ifMatch` the last write wins; with it, the write applies
   * only to the version it names (412 otherwise).
   */
  async update(principal: Principal, id: string, patch: ScenePatch, ifMatch?: string): Promise<SceneRow> {
    const current = await this.get(principal, id);
    await this.vaults.require(principal, current.vault_id, 'edit');
    const vaultId = patch.vault ?? current.vault_id;
    if (vaultId !== current.vault_id) await this.vaults.require(principal, vaultId, 'edit');
    const saved = savedQueryOf(current);
    const limit = patch.limit === null ? undefined : (patch.limit ?? saved.limit);
    const query = composedParts(
      {
        dimensions: patch.dimensions ?? saved.dimensions,
        measures: patch.measures ?? saved.measures,
        filters: patch.filters ?? saved.filters,
        sorts: patch.sorts ?? saved.sorts,
        ...(limit !== undefined ? { limit } : {}),
      },
      {
        compare: patch.compare === null ? undefined : (patch.compare ?? saved.compare),
        shares: patch.shares === null ? undefined : (patch.shares ?? saved.shares),
        per: patch.per === null ? undefined : (patch.per ?? saved.per),
      },
    );
    const node = patch.node ?? current.node;
    const visualization = patch.visualization ?? (current.visualization as Visualization);
    const live = await this.governed.live(principal);
    assertSceneValid(live.model, node, query, visualization);
    const expectedVersion = expectedVersionOf(ifMatch, current);
    const row = await this.scenes.update(
      principal.workspace.id,
      id,
      {
        vaultId,
        name: patch.name ?? current.name,
        description: patch.description ?? current.description,
        node,
        query,
        visualization,
        userId: principal.user.id,
        at: this.clock.now(),
      },
      expectedVersion !== undefined ? { expectedVersion } : {},
    );
    if (row) {
      await this.generation.bump(principal.workspace.id);
      return row;
    }
    if (!(await this.scenes.get(principal.workspace.id, id))) throw sceneNotFound(id);
    throw new PreconditionFailedError(`Scene "${current.name}" was changed since the version you read; fetch it again and reapply your change`, 'version_mismatch');
  }

  async remove(principal: Principal, id: string): Promise<void> {
    const row = await this.get(principal, id);
    await this.vaults.require(principal, row.vault_id, 'edit');
    await this.scenes.remove(principal.workspace.id, id);
    await this.generation.bump(principal.workspace.id);
  }

  /** Runs a scene the principal may see, fresh, with their data keys; `origin` records what asked. */
  async run(principal: Principal, id: string, options: SceneRunOptions, origin: string = `scene:${id}`): Promise<SceneRun> {
    return this.runRow(principal, await this.get(principal, id), options, origin);
  }

  /** Runs an already fetched (and access-checked) scene row. */
  async runRow(principal: Principal, scene: SceneRow, options: SceneRunOptions, origin: string): Promise<SceneRun> {
    const saved = savedQueryOf(scene);
    const query: SemanticQuery = {
      node: scene.node,
      dimensions: saved.dimensions,
      measures: saved.measures,
      filters: [...saved.filters, ...(options.filters as Filter[])],
      sorts: saved.sorts,
      limit: options.limit ?? saved.limit ?? DEFAULT_QUERY_LIMIT,
      ...(options.timezone ? { timezone: options.timezone } : {}),
      ...composedParts({}, saved),
    };
    const result = await this.governed.query({
      principal,
      query: { kind: 'node', query },
      // A scene reads with its reader's data keys: never from or into the result cache (see governed-query.ts).
      cache: 'off',
      surface: 'structured_api',
      origin,
      maxRows: query.limit!,
      // When the saved query itself no longer compiles the model moved on (409); otherwise the run's
      // own filters or time zone are at fault (the compiler's 400).
      onCompileError: (error, model) => {
        const problem = error instanceof AppError && error.status < 500 ? sceneProblem(model, scene.node, saved) : undefined;
        return problem ? brokenScene(scene, problem) : undefined;
      },
    });
    return { scene, query, result };
  }
}

function brokenScene(scene: SceneRow, reason: string): ConflictError {
  return new ConflictError(`Scene "${scene.name}" does not run on the live model: ${reason}`, 'scene_broken');
}

function savedOf(input: SceneInput): SavedQuery {
  return composedParts(
    {
      dimensions: input.dimensions,
      measures: input.measures,
      filters: input.filters,
      sorts: input.sorts,
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
    },
    input,
  );
}

/** `query` with the comparison, shares and ratios of `parts` that a query would act on (empty lists are none). */
function composedParts<T extends object>(query: T, parts: Pick<SavedQuery, 'compare' | 'shares' | 'per'>): T & Pick<SavedQuery, 'compare' | 'shares' | 'per'> {
  return {
    ...query,
    ...(parts.compare ? { compare: parts.compare } : {}),
    ...(parts.shares?.length ? { shares: parts.shares } : {}),
    ...(parts.per?.length ? { per: parts.per } : {}),
  };
}
