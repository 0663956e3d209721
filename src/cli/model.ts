// svc model validate | deploy.
import path from 'node:path';
import { vocabularyWarnings } from '../core/answer/vocabulary-check.js';
import { type CmlFile, formatDiagnostic, sortDiagnostics, validateDirectory } from '../core/cml/index.js';
import { readModelDir } from '../demo-setup.js';
import { ModelValidationError } from '../modeling/model-service.js';
import type { Services } from '../services.js';
import { need, optional, print, type Options } from './common.js';
import { out } from './output.js';
import { actorFor } from './keys.js';
import { scenesBrokenBy } from '../content/scene-revalidation.js';
import { principalOf } from '../identity/principal.js';
import { memberRowOf } from '../store/members.js';

export async function validateModel(dir: string): Promise<number> {
  const { files, diagnostics: compiled, model } = await validateDirectory(dir);
  const diagnostics = model ? sortDiagnostics([...compiled, ...vocabularyWarnings(model, files)]) : compiled;
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  for (const d of diagnostics) out(`${formatDiagnostic({ ...d, file: path.join(dir, d.file) })}\n`);
  out(`${files.length} file(s), ${errors} error(s), ${diagnostics.length - errors} warning(s)\n`);
  return errors ? 1 : 0;
}

/** `files` are those of `dir`, when already read (a command sent to the running server brings them). */
export async function deployModel(services: Services, dir: string, values: Options, given?: CmlFile[]): Promise<number> {
  const actor = await actorFor(services, need(values, 'email'), optional(values, 'workspace'));
  const files = given ?? (await readModelDir(dir));
  try {
    const deployment = await services.models.deploy(
      { workspaceId: actor.workspace.id, userId: actor.user.id, email: actor.user.email },
      need(values, 'project'),
      files,
      { message: optional(values, 'message'), prUrl: optional(values, 'pr-url') },
    );
    return print(`Deployed ${files.length} file(s) to ${values.project}; changed nodes: ${deployment.changed_nodes.join(', ') || 'none'}`, 0);
  } catch (error) {
    if (!(error instanceof ModelValidationError)) throw error;
    for (const d of error.diagnostics) out(`${formatDiagnostic({ ...d, file: path.join(dir, d.file) })}\n`);
    return print(error.message, 1);
  }
}

/**
 * `svc model validate DIR --against-content --project SLUG --email E`: the checks of a deploy without
 * deploying: the files' diagnostics in the workspace model, then each scene the deploy would break
 * among those E may see (give a luminary's e-mail to check every scene).
 * Exit 1 when the files have errors or would break a scene.
 */
export async function validateAgainstContent(services: Services, dir: string, values: Options, given?: CmlFile[]): Promise<number> {
  const actor = await actorFor(services, need(values, 'email'), optional(values, 'workspace'));
  const files = given ?? (await readModelDir(dir));
  const { model, diagnostics } = await services.models.preview(actor.workspace.id, need(values, 'project'), files);
  for (const d of diagnostics) out(`${formatDiagnostic({ ...d, file: path.join(dir, d.file) })}\n`);
  if (!model) return print(`${diagnostics.filter((d) => d.severity === 'error').length} error(s); scenes were not checked`, 1);
  // Only the scenes the member may see: the others do not exist for them, here as everywhere else.
  const member = await memberRowOf(services.store.db, actor.workspace.id, actor.user.id);
  const all = await scenesBrokenBy(services.sceneRows, actor.workspace.id, model);
  const visible = await services.scenes.visibleByIds(principalOf(member!, 'session'), all.map((s) => s.id));
  const broken = all.filter((s) => visible.has(s.id));
  for (const scene of broken) out(`scene ${scene.id} "${scene.name}" would break: ${scene.reason}\n`);
  return print(`${files.length} file(s), 0 error(s); ${broken.length} scene(s) would break`, broken.length ? 1 : 0);
}
