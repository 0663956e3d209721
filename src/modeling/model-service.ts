// The live semantic model of each workspace: the union of its projects' deployed CML files, linked
// once and cached in memory. A deploy validates the whole workspace model with the new files, writes
// them and a deployment record in one transaction, then bumps the workspace's model generation so
// every instance relinks on its next request. Models are immutable: a query that started on the old
// model finishes on it.
import type { Clock } from '../clock.js';
import { vocabularyWarnings } from '../core/answer/vocabulary-check.js';
import { compileModel, sortDiagnostics, type CmlFile, type Diagnostic } from '../core/cml/index.js';
import { AppError } from '../core/errors.js';
import type { SemanticModel } from '../core/semantic/model.js';
import { modelGeneration } from '../shared-state/request-generations.js';
import { generationIn, type GenerationSnapshot, type SharedState } from '../shared-state/shared-state.js';
import type { Store } from '../store/db.js';
import { modelsRepo, type DeploymentRow, type ModelsRepo, type ProjectFileRow } from '../store/models-repo.js';
import { recordEvent } from '../events/event-record.js';
import { changedNodes } from './model-diff.js';

export interface LiveModel {
  readonly model: SemanticModel;
  /** Which project each node and reveal came from. */
  readonly projectOf: ReadonlyMap<string, string>;
  /** The deployed files, by their path in the model (`<project>/<path>`), with their deploy time. */
  readonly files: ReadonlyMap<string, { content: string; deployedAt: Date }>;
  /** Changes with every deploy to the workspace: part of result cache keys. */
  readonly version: number;
}

export interface Deployer {
  workspaceId: string;
  userId: string | null;
  email: string;
}

/**
 * Told after every deploy, once the new model is live: content that depends on the model re-checks
 * itself (scenes), indexes rebuild. What a listener returns is merged into the deploy's report, so the
 * deploy answer can say what the deploy did to the workspace (the scenes it broke).
 */
export type DeployListener = (deployed: { workspaceId: string; live: LiveModel; deployment: DeploymentRow }) => Promise<Record<string, unknown>>;

/** A deployment and what the after-deploy listeners reported. */
export interface DeployOutcome extends DeploymentRow {
  readonly reports: Record<string, unknown>;
}

const EMPTY: Omit<LiveModel, 'version'> = { model: { nodes: new Map(), reveals: new Map() }, projectOf: new Map(), files: new Map() };

/** 422: the model has error-level diagnostics; nothing was changed. */
export class ModelValidationError extends AppError {
  constructor(readonly diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super(422, 'cml_invalid', `The model has ${errors} error${errors === 1 ? '' : 's'}; nothing was deployed`, {
      diagnostics: diagnostics.map((d) => ({
        file: d.file,
        line: d.line,
        column: d.column,
        end_line: d.endLine,
        end_column: d.endColumn,
        code: d.code,
        severity: d.severity,
        message: d.message,
      })),
    });
  }
}

export class ModelService {
  private readonly cache = new Map<string, { generation: number; live: Promise<LiveModel> }>();
  private readonly repo: ModelsRepo;
  private readonly deployListeners: DeployListener[] = [];

  constructor(
    private readonly store: Store,
    private readonly shared: SharedState,
    private readonly clock: Clock,
  ) {
    this.repo = modelsRepo(store.db);
  }

  /**
   * The workspace's live model (empty before the first deploy); `generations`, the request's snapshot
   * read at admission, confirms the cached model without a round trip.
   */
  async live(workspaceId: string, generations?: GenerationSnapshot): Promise<LiveModel> {
    const generation = await generationIn(this.shared, modelGeneration(workspaceId), generations);
    const cached = this.cache.get(workspaceId);
    if (cached && cached.generation === generation) return cached.live;
    const live = this.load(workspaceId).then((loaded) => ({ ...loaded, version: generation }));
    this.cache.set(workspaceId, { generation, live });
    live.catch(() => this.cache.delete(workspaceId)); // a failed load is retried by the next request
    return live;
  }

  /** Adds a step that runs after every deploy (see DeployListener). */
  onDeploy(listener: DeployListener): void {
    this.deployListeners.push(listener);
  }

  /**
   * The workspace model as it would be with `files` deployed to `projectSlug`: for checks before a
   * deploy (which scenes it would break). Undefined model when the files have errors.
   */
  async preview(workspaceId: string, projectSlug: string, files: CmlFile[]): Promise<{ model: SemanticModel | undefined; diagnostics: Diagnostic[] }> {
    const { model, diagnostics } = await this.compileWith(workspaceId, projectSlug, files);
    return { model: model ?? undefined, diagnostics };
  }

  /** Diagnostics for `files` as they would be deployed to `projectSlug`, other projects included. */
  async validate(workspaceId: string, projectSlug: string, files: CmlFile[]): Promise<{ valid: boolean; diagnostics: Diagnostic[] }> {
    // Validation also warns about the planner's vocabulary (colliding words, missing languages).
    const { diagnostics } = await this.compileWith(workspaceId, projectSlug, files, { vocabulary: true });
    return { valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  }

  /**
   * Validates and writes in one transaction that first locks the workspace: concurrent deploys (from
   * any instance) apply one after the other, each validated against what the previous one left, so two
   * deploys that are each valid alone but clash together never both commit.
   */
  async deploy(
    by: Deployer,
    projectSlug: string,
    files: CmlFile[],
    options: { message?: string | undefined; prUrl?: string | undefined; projectName?: string | undefined } = {},
  ): Promise<DeployOutcome> {
    const now = this.clock.now();
    const deployment = await this.store.db.transaction().execute(async (trx) => {
      const repo = modelsRepo(trx);
      await repo.lockWorkspace(by.workspaceId);
      const current = await repo.workspaceFiles(by.workspaceId);
      const { model, diagnostics } = compileWith(current, projectSlug, files);
      if (!model) throw new ModelValidationError(diagnostics);
      // What the deploy changes is measured against the files as committed, not a possibly older live model.
      const before = (current.length ? compileModel(current.map(asModelFile)).model : undefined) ?? EMPTY.model;
      const project =
        (await repo.findProject(by.workspaceId, projectSlug)) ??
        (await repo.createProject(by.workspaceId, projectSlug, options.projectName ?? projectSlug));
      await repo.replaceProjectFiles(project.id, files, now);
      const row = await repo.insertDeployment({
        workspaceId: by.workspaceId,
        projectId: project.id,
        deployedAt: now,
        deployedBy: by.userId,
        deployedByEmail: by.email,
        message: options.message ?? null,
        prUrl: options.prUrl ?? null,
        changedNodes: changedNodes(before, model),
      });
      // In the deployment's own transaction: a deploy that commits always has its event, and a rolled
      // back one never announces itself.
      await recordEvent(trx, {
        workspaceId: by.workspaceId,
        type: 'model.deployed',
        fields: {
          deployed_at: row.deployed_at.toISOString(),
          deployed_by: row.deployed_by_email,
          changed_nodes: row.changed_nodes,
          pr_url: row.pr_url,
        },
      });
      return row;
    });
    await this.shared.bump(modelGeneration(by.workspaceId));
    // The files are deployed whatever a listener does; a failing listener fails the request, and the
    // next deploy (or the listener's own repair) catches up.
    const live = await this.live(by.workspaceId);
    const reports: Record<string, unknown> = {};
    for (const listener of this.deployListeners) Object.assign(reports, await listener({ workspaceId: by.workspaceId, live, deployment }));
    return { ...deployment, reports };
  }

  private async load(workspaceId: string): Promise<Omit<LiveModel, 'version'>> {
    const rows = await this.repo.workspaceFiles(workspaceId);
    if (!rows.length) return EMPTY;
    const { model } = compileModel(rows.map(asModelFile));
    // Deployed files passed validation when deployed; should they not link now, serve nothing
    // rather than half a model.
    if (!model) return EMPTY;
    const files = new Map(rows.map((r) => [`${r.slug}/${r.path}`, { content: r.content, deployedAt: r.updated_at }]));
    return { model, projectOf: projectsOf(model), files };
  }

  private async compileWith(workspaceId: string, projectSlug: string, files: CmlFile[], options: { vocabulary?: boolean } = {}) {
    return compileWith(await this.repo.workspaceFiles(workspaceId), projectSlug, files, options);
  }
}

function asModelFile(row: ProjectFileRow): CmlFile {
  return { path: `${row.slug}/${row.path}`, content: row.content };
}

/** The workspace model with `files` as project `projectSlug`, the other projects' deployed files beside them. */
function compileWith(deployed: readonly ProjectFileRow[], projectSlug: string, files: CmlFile[], options: { vocabulary?: boolean } = {}) {
  const prefix = `${projectSlug}/`;
  const all = [...deployed.filter((r) => r.slug !== projectSlug).map(asModelFile), ...files.map((f) => ({ path: `${prefix}${f.path}`, content: f.content }))];
  const result = compileModel(all);
  const found = options.vocabulary && result.model ? sortDiagnostics([...result.diagnostics, ...vocabularyWarnings(result.model, all)]) : result.diagnostics;
  // The deploying project's files are reported by their own paths; other projects' keep their slug.
  const diagnostics = found.map((d) => (d.file.startsWith(prefix) ? { ...d, file: d.file.slice(prefix.length) } : d));
  return { model: result.model, diagnostics };
}


function projectsOf(model: SemanticModel): Map<string, string> {
  const map = new Map<string, string>();
  for (const node of model.nodes.values()) map.set(node.name, node.file.split('/')[0]!);
  for (const reveal of model.reveals.values()) map.set(reveal.name, reveal.file.split('/')[0]!);
  return map;
}
