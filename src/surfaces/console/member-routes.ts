// Members of the signed-in luminary's workspace: GET /api/members, POST /api/members (invite: a new
// user gets a generated password, answered once), PATCH /api/members/:user_id ({role}) and
// DELETE /api/members/:user_id. A workspace always keeps a luminary (409 last_luminary).
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

  app.post(
    '/members',
    {
      config: LUMINARY_POLICY,
      schema: {
        tags,
        operationId: 'inviteMember',
        summary:
          'Adds a member with a role (luminary). A new user is created with a generated password, answered once as `one_time_password` ' +
          'for the luminary to pass on (as `svc users create` does); an existing user joins with their own password (`one_time_password` null)',
        body: z
          .object({
            email: z.email({ error: 'email must be an e-mail address' }).max(320),
            name: z.string().trim().min(1).max(200).optional(),
            role: z.enum(ROLES),
          })
          .strict(),
        errors: { 409: 'Already a member of the workspace (`already_member`): change a role with PATCH' },
        response: { 201: z.object({ member: memberSchema, new_user: z.boolean(), one_time_password: z.string().nullable() }) },
      },
    },
    async (request, reply) => {
      const added = await services.tenancy.addMember({
        email: request.body.email,
        name: request.body.name,
        role: request.body.role,
        workspace: { id: request.principal!.workspace.id },
      });
      return reply.code(201).send({ member: presentMember(added.member), new_user: added.newUser, one_time_password: added.generatedPassword ?? null });
    },
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
