// After every deploy, every scene of the workspace is checked against the new model: a scene whose
// node or field is gone becomes `broken` with the reason, a broken one that runs again becomes `ok`.
// The same check answers "which scenes would this deploy break?" before deploying.
import type { SemanticModel } from '../core/semantic/model.js';
import type { DeployListener } from '../modeling/model-service.js';
import type { ContentGeneration } from './content-generation.js';
import type { SceneRow, ScenesRepo } from '../store/scenes-repo.js';
import type { Visualization } from './scene-definition.js';
import { savedQueryOf } from './scene-service.js';
import { sceneProblem } from './scene-validation.js';

export interface SceneVerdict {
  id: string;
  name: string;
  vault_id: string;
  reason: string;
}

export interface RevalidationReport {
  /** Scenes that ran before and do not on the new model. */
  broken_scenes: SceneVerdict[];
  /** Scenes that were broken and run again. */
  repaired_scenes: Array<Omit<SceneVerdict, 'reason'>>;
}

function problemOf(model: SemanticModel, scene: SceneRow): string | undefined {
  return sceneProblem(model, scene.node, savedQueryOf(scene), scene.visualization as Visualization);
}

/** Which of the workspace's scenes `model` would break (without changing anything). */
export async function scenesBrokenBy(scenes: ScenesRepo, workspaceId: string, model: SemanticModel): Promise<SceneVerdict[]> {
  const verdicts: SceneVerdict[] = [];
  for (const scene of await scenes.all(workspaceId)) {
    const reason = problemOf(model, scene);
    if (reason) verdicts.push({ id: scene.id, name: scene.name, vault_id: scene.vault_id, reason });
  }
  return verdicts;
}

/** The after-deploy step: records each scene's verdict and reports the changes. */
export function sceneRevalidation(scenes: ScenesRepo, generation: ContentGeneration): DeployListener {
  return async ({ workspaceId, live }): Promise<Record<string, unknown>> => {
    const report: RevalidationReport = { broken_scenes: [], repaired_scenes: [] };
    let changed = false;
    for (const scene of await scenes.all(workspaceId)) {
      const reason = problemOf(live.model, scene);
      if (reason && (scene.status !== 'broken' || scene.broken_reason !== reason)) {
        await scenes.setStatus(scene.id, 'broken', reason);
        changed = true;
        if (scene.status !== 'broken') report.broken_scenes.push({ id: scene.id, name: scene.name, vault_id: scene.vault_id, reason });
      } else if (!reason && scene.status === 'broken') {
        await scenes.setStatus(scene.id, 'ok', null);
        changed = true;
        report.repaired_scenes.push({ id: scene.id, name: scene.name, vault_id: scene.vault_id });
      }
    }
    if (changed) await generation.bump(workspaceId);
    return { ...report };
  };
}
