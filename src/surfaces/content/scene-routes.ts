// Scenes: GET /scenes (filters vault, node, q; cursor pages), GET /scenes/:scene_id, POST /scenes,
// PATCH /scenes/:scene_id (If-Match optional), DELETE /scenes/:scene_id, and on surface C
// POST /scenes/:scene_id/run. Mounted on C at /v1 and in the console at /api (content-policy.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sceneInputSchema, scenePatchSchema, sceneRunSchema } from '../../content/scene-definition.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import { operationId, PAGE_LIMIT, type ContentPlace } from './content-policy.js';
import { presentScene, presentSceneRun, sceneRunAnswerSchema, sceneSchema } from './scene-schema.js';

const params = z.object({ scene_id: z.uuid().describe("the scene's id") });
const NOT_FOUND = 'No such scene, or one in a vault you may not see (`unknown_scene`)';
const NO_EDIT = "You see the scene's vault but lack `edit` access to it (`vault_access_required`)";
const INVALID = 'Also: a field, filter or sort the live model does not have (`invalid_scene`, the message names it), or a vault you may not see';
const ifMatch = z
  .object({ 'if-match': z.string().max(100).optional().describe('the version (or updated_at) you read: the change applies only if the scene is still at it') })
  .loose();

export const sceneRoutes: FastifyPluginAsyncZod<ContentPlace> = async (app, place) => {
  const { services, tags } = place;
  const id = (name: string) => operationId(place, name);

  app.get(
    '/scenes',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('listScenes'),
        summary: 'Scenes in the vaults you may see, oldest first; pass next_cursor back as cursor (scenes saved meanwhile never shift a page)',
        querystring: z
          .object({
            vault: z.uuid().optional().describe('only this vault'),
            node: z.string().min(1).max(200).optional().describe('only scenes on this node'),
            q: z.string().min(1).max(200).optional().describe('words in the name or description'),
            limit: z.coerce.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default),
            cursor: z.string().max(500).optional(),
          })
          .strict(),
        errors: { 400: 'Also: a cursor that is not a next_cursor of a previous page (`invalid_cursor`)', 404: 'A vault you may not see (`unknown_vault`)' },
        response: { 200: z.object({ scenes: z.array(sceneSchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { scenes, nextCursor } = await services.scenes.list(request.principal!, request.query);
      return { scenes: scenes.map(presentScene), next_cursor: nextCursor };
    },
  );

  app.get(
    '/scenes/:scene_id',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('getScene'),
        summary: 'One scene: its query, visualization and status; the ETag header carries its version',
        params,
        errors: { 404: NOT_FOUND },
        response: { 200: z.object({ scene: sceneSchema }) },
      },
    },
    async (request, reply) => {
      const scene = await services.scenes.get(request.principal!, request.params.scene_id);
      void reply.header('ETag', `"${scene.version}"`);
      return { scene: presentScene(scene) };
    },
  );

  app.post(
    '/scenes',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('createScene'),
        summary: 'Saves a scene (editor or above, `edit` on the vault), checked against the live model',
        body: sceneInputSchema,
        errors: { 400: INVALID, 403: NO_EDIT, 404: 'A vault you may not see (`unknown_vault`)' },
        response: { 201: z.object({ scene: sceneSchema }) },
      },
    },
    async (request, reply) => {
      const scene = await services.scenes.create(request.principal!, request.body);
      return reply.code(201).header('ETag', `"${scene.version}"`).send({ scene: presentScene(scene) });
    },
  );

  app.patch(
    '/scenes/:scene_id',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('updateScene'),
        summary: 'Changes the fields given; the last write wins unless If-Match names the version the change is for',
        params,
        headers: ifMatch,
        body: scenePatchSchema,
        errors: { 400: INVALID, 403: NO_EDIT, 404: NOT_FOUND, 412: 'If-Match does not name the current version: someone changed the scene first (`version_mismatch`)' },
        response: { 200: z.object({ scene: sceneSchema }) },
      },
    },
    async (request, reply) => {
      const scene = await services.scenes.update(request.principal!, request.params.scene_id, request.body, request.headers['if-match']);
      void reply.header('ETag', `"${scene.version}"`);
      return { scene: presentScene(scene) };
    },
  );

  app.delete(
    '/scenes/:scene_id',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('deleteScene'),
        summary: 'Deletes a scene (editor or above, `edit` on its vault); mosaic tiles showing it then fail on their own',
        params,
        errors: { 403: NO_EDIT, 404: NOT_FOUND },
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await services.scenes.remove(request.principal!, request.params.scene_id);
      return reply.code(204).send(null);
    },
  );

  if (!place.runs) return;
  app.post(
    '/scenes/:scene_id/run',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('runScene'),
        summary: "Runs a scene fresh (the result cache is bypassed) with your data keys; answers POST /v1/query's shape plus the scene and the query it ran",
        params,
        body: sceneRunSchema.nullish().describe('optional: filters added to the saved ones, a row limit, a time zone'),
        errors: {
          400: 'Also: a run filter naming an unknown field or operator, or a bad time zone',
          404: NOT_FOUND,
          409: 'The scene does not run on the live model any more (`scene_broken`, with the reason)',
          ...WAREHOUSE_ERRORS,
        },
        response: { 200: sceneRunAnswerSchema },
      },
    },
    async (request) => {
      const options = request.body ?? sceneRunSchema.parse({});
      return presentSceneRun(await services.scenes.run(request.principal!, request.params.scene_id, options));
    },
  );
};
