// GET /api/model/projects: every project of the workspace with its deployed CML files, so the console's
// model editor opens what is live and deploys it back through POST /api/model/deploy (same paths).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { operationId, type RoutePlace } from '../route-place.js';

const projectFilesSchema = z.object({
  project: z.string().describe("the project's slug, as deploys name it"),
  files: z.array(z.object({ path: z.string(), content: z.string() })).describe('the deployed files, by path'),
});

export const modelProjectRoutes: FastifyPluginAsyncZod<RoutePlace> = async (app, place) => {
  const { services, tags } = place;
  app.get(
    '/model/projects',
    {
      config: place.policy({ scope: 'models:read' }),
      schema: {
        tags,
        operationId: operationId(place, 'listModelProjects'),
        summary: 'Projects of the workspace with their deployed CML files, by slug and path',
        response: { 200: z.object({ projects: z.array(projectFilesSchema) }) },
      },
    },
    async (request) => {
      const workspaceId = request.principal!.workspace.id;
      const [projects, files] = await Promise.all([services.projects.listProjects(workspaceId), services.projects.workspaceFiles(workspaceId)]);
      return {
        projects: projects
          .map((p) => ({ project: p.slug, files: files.filter((f) => f.project_id === p.id).map((f) => ({ path: f.path, content: f.content })) }))
          .sort((a, b) => a.project.localeCompare(b.project)),
      };
    },
  );
};
