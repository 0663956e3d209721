// The signed-in member's workspace: GET /api/workspace (any member), PATCH /api/workspace ({plan?,
// name?}, luminary). A plan change applies to the workspace's keys from their next request.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import type { Services } from '../../services.js';
import type { WorkspaceRow } from '../../store/members-repo.js';
import { PLANS } from '../../store/schema.js';
import { LUMINARY_POLICY } from './member-routes.js';

const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  plan: z.enum(PLANS),
  timezone: z.string(),
  created_at: z.string(),
});

const patchBody = z
  .object({
    plan: z.enum(PLANS).optional(),
    name: z.string().trim().min(1).max(200).optional(),
  })
  .refine((body) => body.plan !== undefined || body.name !== undefined, { error: 'give plan, name or both' });

function present(row: WorkspaceRow): z.infer<typeof workspaceSchema> {
  return { id: row.id, name: row.name, plan: row.plan, timezone: row.timezone, created_at: row.created_at.toISOString() };
}

export const workspaceRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/workspace',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'getConsoleWorkspace',
        summary: "The signed-in member's workspace",
        response: { 200: z.object({ workspace: workspaceSchema }) },
      },
    },
    async (request) => ({ workspace: present(await services.tenancy.workspace(request.principal!.workspace.id)) }),
  );

  app.patch(
    '/workspace',
    {
      config: LUMINARY_POLICY,
      schema: {
        tags: ['console'],
        operationId: 'updateConsoleWorkspace',
        summary: "Changes the workspace's plan and/or name (luminary). A plan change applies to its keys from their next request, on every instance",
        body: patchBody,
        response: { 200: z.object({ workspace: workspaceSchema }) },
      },
    },
    async (request) => ({ workspace: present(await services.tenancy.updateWorkspace(request.principal!.workspace.id, request.body)) }),
  );
};
