// Users of the workspace: GET /users, GET /users/:user_id and PATCH /users/:user_id/attributes.
// Luminary only. Mounted on C at /v1 (reading needs users:read, writing users:write) and in the
// console at /api.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { operationId, type RoutePlace } from '../route-place.js';
import { memberParams, memberSchema, presentMember } from '../member-schema.js';

const ATTRIBUTE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_ATTRIBUTE_VALUE_CHARS = 1000;
const MAX_ATTRIBUTES_PER_PATCH = 100;

// Validated by the schema, so the 400 names the bad attribute (`body.<name>: …`) and /openapi.json
// shows the same rules that are enforced.
const attributeValue = z
  .string({ error: 'an attribute value must be a string, or null to remove the attribute' })
  .max(MAX_ATTRIBUTE_VALUE_CHARS, { error: `an attribute value has at most ${MAX_ATTRIBUTE_VALUE_CHARS} characters` })
  .nullable();

const attributePatch = z
  .record(z.string().regex(ATTRIBUTE_NAME), attributeValue, {
    error: (issue) =>
      issue.code === 'invalid_key'
        ? `invalid attribute name ${JSON.stringify(issue.path?.at(-1) ?? issue.input)}: 1 to 64 letters, digits, "_", "." or "-"`
        : undefined,
  })
  .refine((patch) => Object.keys(patch).length <= MAX_ATTRIBUTES_PER_PATCH, {
    error: `at most ${MAX_ATTRIBUTES_PER_PATCH} attributes per request`,
  })
  .describe('Attribute names mapped to their new value; null removes the attribute');

export const userRoutes: FastifyPluginAsyncZod<RoutePlace> = async (app, place) => {
  const { services, tags } = place;
  const readPolicy = place.policy({ scope: 'users:read', role: 'luminary' });
  const writePolicy = place.policy({ scope: 'users:write', role: 'luminary' });
  const id = (name: string) => operationId(place, name);

  app.get(
    '/users',
    {
      config: readPolicy,
      schema: {
        tags,
        operationId: id('listUsers'),
        summary: 'Members of the workspace, by e-mail, with their attributes',
        response: { 200: z.object({ users: z.array(memberSchema) }) },
      },
    },
    async (request) => ({ users: (await services.tenancy.listMembers(request.principal!.workspace.id)).map(presentMember) }),
  );

  app.get(
    '/users/:user_id',
    {
      config: readPolicy,
      schema: {
        tags,
        operationId: id('getUser'),
        summary: 'One member of the workspace',
        errors: { 404: 'No such user in your workspace (`unknown_user`)' },
        params: memberParams,
        response: { 200: z.object({ user: memberSchema }) },
      },
    },
    async (request) => ({ user: presentMember(await services.tenancy.member(request.principal!.workspace.id, request.params.user_id)) }),
  );

  app.patch(
    '/users/:user_id/attributes',
    {
      config: writePolicy,
      schema: {
        tags,
        operationId: id('updateUserAttributes'),
        summary: "Merges attributes into a member's; null removes one. Applies from the member's next request",
        errors: { 404: 'No such user in your workspace (`unknown_user`)' },
        params: memberParams,
        body: attributePatch,
        response: { 200: z.object({ user: memberSchema }) },
      },
    },
    async (request) => {
      // The tenancy service moves the identity generation: keys cache their member's attributes.
      const row = await services.tenancy.patchAttributes(request.principal!.workspace.id, request.params.user_id, request.body);
      return { user: presentMember(row) };
    },
  );
};
