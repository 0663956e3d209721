// Members of the signed-in luminary's workspace: GET /api/members, PATCH /api/members/:user_id
// ({role}) and DELETE /api/members/:user_id. A workspace always keeps a luminary (409 last_luminary).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import type { Services } from '../../services.js';
import { ROLES } from '../../store/schema.js';
import { memberParams, memberSchema, presentMember } from '../member-schema.js';

export const LUMINARY_POLICY = { ...SURFACE_POLICY.console, role: 'luminary' } as const;
const tags = ['console'];
const MEMBER_NOT_FOUND = 'No such member in your workspace (`unknown_user`)';
const LAST_LUMINARY = 'The change would leave the workspace without a luminary (`last_luminary`)';

export const memberRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/members',
    {
      config: LUMINARY_POLICY,
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'Members of the workspace, by e-mail (luminary)',
        response: { 200: z.object({ members: z.array(memberSchema) }) },
      },
    },
    async (request) => ({ members: (await services.tenancy.listMembers(request.principal!.workspace.id)).map(presentMember) }),
  );

  app.patch(
    '/members/:user_id',
    {
      config: LUMINARY_POLICY,
      schema: {
        tags,
        operationId: 'setMemberRole',
        summary: "Changes a member's role (luminary). Applies from the member's next request, to sessions and keys, on every instance",
        params: memberParams,
        body: z.object({ role: z.enum(ROLES) }),
        errors: { 404: MEMBER_NOT_FOUND, 409: LAST_LUMINARY },
        response: { 200: z.object({ member: memberSchema }) },
      },
    },
    async (request) => {
      const row = await services.tenancy.setRole(request.principal!.workspace.id, request.params.user_id, request.body.role);
      return { member: presentMember(row) };
    },
  );

  app.delete(
    '/members/:user_id',
    {
      config: LUMINARY_POLICY,
      schema: {
        tags,
        operationId: 'removeMember',
        summary: "Removes a member from the workspace (luminary): their keys of it are deleted and their sessions in it end",
        params: memberParams,
        errors: { 404: MEMBER_NOT_FOUND, 409: LAST_LUMINARY },
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await services.tenancy.removeMember(request.principal!.workspace.id, request.params.user_id);
      return reply.code(204).send(null);
    },
  );
};
