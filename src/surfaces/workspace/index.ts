// Surface B, mounted at /api/v1: workspace keys, HTTPS only, Team plan, 60 requests per minute per key.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../../core/errors.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import type { Services } from '../../services.js';

const workspaceSchema = z.object({ id: z.string(), name: z.string(), plan: z.string(), created_at: z.string() });

export const workspaceSurface: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/workspace',
    {
      config: SURFACE_POLICY.workspace,
      schema: {
        tags: ['B. workspace'],
        summary: "The key's workspace",
        security: [{ workspaceKey: [] }],
        response: { 200: z.object({ workspace: workspaceSchema }) },
      },
    },
    async (request) => {
      const row = await services.members.getWorkspace(request.principal!.workspace.id);
      if (!row) throw new NotFoundError('Workspace not found');
      return { workspace: { id: row.id, name: row.name, plan: row.plan, created_at: row.created_at.toISOString() } };
    },
  );
};
