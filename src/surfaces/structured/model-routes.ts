// The model: POST /model/validate and POST /model/deploy (422 with line-and-column diagnostics when the
// model has errors; nothing changes then), and the deployment history GET /model/deployments. Mounted
// on C at /v1 (scopes models:read and models:write) and in the console at /api, where the signed-in
// user is the deployer; deploying needs the editor role in both.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RevalidationReport } from '../../content/scene-revalidation.js';
import type { SceneService } from '../../content/scene-service.js';
import type { Principal } from '../../identity/principal.js';
import type { DeploymentRow, ListedDeploymentRow } from '../../store/models-repo.js';
import { historyPageQuery } from '../history-page.js';
import { operationId, type RoutePlace } from '../route-place.js';

/** Model files travel in one body; larger than the default limit of other routes. */
const MODEL_BODY_LIMIT = 10 * 1024 * 1024;
const diagnostic = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int(),
  end_column: z.number().int(),
  code: z.string(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});
const files = z
  .array(z.object({ path: z.string().min(1).max(500).regex(/\.cml$/, 'must end in .cml'), content: z.string().max(2_000_000) }).strict())
  .min(1)
  .max(500)
  // A project holds one file per path: a second one would be a conflict in the store, not a model.
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((file, index) => {
      if (seen.has(file.path)) ctx.addIssue({ code: 'custom', path: [index, 'path'], message: `${JSON.stringify(file.path)} appears more than once` });
      seen.add(file.path);
    });
  });
const project = z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'must be lower-case letters, digits and dashes');

function present(d: { file: string; line: number; column: number; endLine: number; endColumn: number; code: string; severity: 'error' | 'warning'; message: string }) {
  return { file: d.file, line: d.line, column: d.column, end_line: d.endLine, end_column: d.endColumn, code: d.code, severity: d.severity, message: d.message };
}

/**
 * What the after-deploy scene check reported, as the deploy answer shows it: only the scenes the
 * deployer may see. A scene in a vault they may not see does not exist for them (404 everywhere else),
 * so the answer names neither it nor its vault, nor counts it.
 */
async function sceneReport(scenes: SceneService, principal: Principal, reports: Record<string, unknown>) {
  const { broken_scenes: broken = [], repaired_scenes: repaired = [] } = reports as Partial<RevalidationReport>;
  const visible = await scenes.visibleByIds(principal, [...broken, ...repaired].map((s) => s.id));
  return {
    broken_scenes: broken.filter((s) => visible.has(s.id)).map((s) => ({ id: s.id, name: s.name, vault: s.vault_id, reason: s.reason })),
    repaired_scenes: repaired.filter((s) => visible.has(s.id)).map((s) => ({ id: s.id, name: s.name, vault: s.vault_id })),
  };
}

const deploymentSchema = z.object({
  id: z.string(),
  deployed_at: z.string(),
  deployed_by: z.string().describe("the deployer's e-mail"),
  changed_nodes: z.array(z.string()),
  pr_url: z.string().nullable(),
  message: z.string().nullable(),
});
const listedDeployment = deploymentSchema.extend({ project: z.string().describe("the project's slug") });

function presentDeployment(d: DeploymentRow): z.infer<typeof deploymentSchema> {
  return {
    id: d.id,
    deployed_at: d.deployed_at.toISOString(),
    deployed_by: d.deployed_by_email,
    changed_nodes: d.changed_nodes,
    pr_url: d.pr_url,
    message: d.message,
  };
}

function presentListed(d: ListedDeploymentRow): z.infer<typeof listedDeployment> {
  return { ...presentDeployment(d), project: d.project };
}

export const modelRoutes: FastifyPluginAsyncZod<RoutePlace> = async (app, place) => {
  const { services, tags } = place;
  const id = (name: string) => operationId(place, name);

  app.post(
    '/model/validate',
    {
      bodyLimit: MODEL_BODY_LIMIT,
      config: place.policy({ scope: 'models:read' }),
      schema: {
        tags,
        operationId: id('validateModel'),
        summary: "Validates a project's CML files against the workspace model, without deploying",
        body: z.object({ project, files }).strict(),
        response: { 200: z.object({ valid: z.boolean(), diagnostics: z.array(diagnostic) }) },
      },
    },
    async (request) => {
      const result = await services.models.validate(request.principal!.workspace.id, request.body.project, request.body.files);
      return { valid: result.valid, diagnostics: result.diagnostics.map(present) };
    },
  );

  app.post(
    '/model/deploy',
    {
      bodyLimit: MODEL_BODY_LIMIT,
      config: place.policy({ scope: 'models:write', role: 'editor' }),
      schema: {
        tags,
        operationId: id('deployModel'),
        summary: "Replaces a project's CML files and makes them live, atomically; 422 with diagnostics when the model has errors",
        errors: { 422: 'The model has errors; nothing was deployed (`cml_invalid`, with `diagnostics`)' },
        body: z
          .object({ project, files, message: z.string().max(2000).optional(), pr_url: z.url().max(2000).optional() })
          .strict(),
        response: {
          200: z.object({
            deployment: deploymentSchema,
            broken_scenes: z
              .array(z.object({ id: z.string(), name: z.string(), vault: z.string(), reason: z.string() }))
              .describe('scenes you may see that ran before this deploy and no longer do (now `broken`, with the reason)'),
            repaired_scenes: z.array(z.object({ id: z.string(), name: z.string(), vault: z.string() })).describe('broken scenes you may see that this deploy made run again'),
          }),
        },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const deployment = await services.models.deploy(
        { workspaceId: principal.workspace.id, userId: principal.user.id, email: principal.user.email },
        request.body.project,
        request.body.files,
        { message: request.body.message, prUrl: request.body.pr_url },
      );
      return { deployment: presentDeployment(deployment), ...(await sceneReport(services.scenes, principal, deployment.reports)) };
    },
  );

  app.get(
    '/model/deployments',
    {
      config: place.policy({ scope: 'models:read' }),
      schema: {
        tags,
        operationId: id('listModelDeployments'),
        summary: 'Deployments of the workspace, newest first, with who deployed what; pass next_cursor back as cursor',
        errors: { 400: 'Also: a cursor that is not a next_cursor of a previous page (`invalid_cursor`)' },
        querystring: historyPageQuery.strict(),
        response: { 200: z.object({ deployments: z.array(listedDeployment), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const { rows, nextCursor } = await services.projects.listDeployments(request.principal!.workspace.id, { limit, cursor });
      return { deployments: rows.map(presentListed), next_cursor: nextCursor };
    },
  );
};
