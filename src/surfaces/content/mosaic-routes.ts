// Mosaics: GET /mosaics (filters vault, q; cursor pages), GET /mosaics/:mosaic_id (tiles resolved),
// POST /mosaics, PATCH /mosaics/:mosaic_id (If-Match optional), DELETE /mosaics/:mosaic_id, and on
// surface C POST /mosaics/:mosaic_id/run. Mounted like the scene routes (content-policy.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { mosaicInputSchema, mosaicPatchSchema, mosaicRunSchema as mosaicRunBody } from '../../content/mosaic-definition.js';
import { operationId, PAGE_LIMIT, type ContentPlace } from './content-policy.js';
import { mosaicRunSchema, mosaicSchema, mosaicSummarySchema, presentMosaic, presentMosaicRun, presentMosaicSummary } from './mosaic-schema.js';

const params = z.object({ mosaic_id: z.uuid().describe("the mosaic's id") });
const NOT_FOUND = 'No such mosaic, or one in a vault you may not see (`unknown_mosaic`)';
const NO_EDIT = "You see the mosaic's vault but lack `edit` access to it (`vault_access_required`)";
const INVALID =
  'Also: tiles off the 12-column grid, overlapping or with duplicate ids, a scene tile naming a scene you may not see (`unknown_scene`), a filter naming a tile the mosaic lacks (`unknown_tile`)';
const ifMatch = z
  .object({ 'if-match': z.string().max(100).optional().describe('the version (or updated_at) you read: the change applies only if the mosaic is still at it') })
  .loose();

export const mosaicRoutes: FastifyPluginAsyncZod<ContentPlace> = async (app, place) => {
  const { services, tags } = place;
  const id = (name: string) => operationId(place, name);

  app.get(
    '/mosaics',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('listMosaics'),
        summary: 'Mosaics in the vaults you may see, oldest first; pass next_cursor back as cursor',
        querystring: z
          .object({
            vault: z.uuid().optional().describe('only this vault'),
            q: z.string().min(1).max(200).optional().describe('words in the name or description'),
            limit: z.coerce.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default),
            cursor: z.string().max(500).optional(),
          })
          .strict(),
        errors: { 400: 'Also: a cursor that is not a next_cursor of a previous page (`invalid_cursor`)', 404: 'A vault you may not see (`unknown_vault`)' },
        response: { 200: z.object({ mosaics: z.array(mosaicSummarySchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { mosaics, nextCursor } = await services.mosaics.list(request.principal!, request.query);
      return { mosaics: mosaics.map(presentMosaicSummary), next_cursor: nextCursor };
    },
  );

  app.get(
    '/mosaics/:mosaic_id',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('getMosaic'),
        summary: 'One mosaic with its tiles and filters; a tile whose scene you may not see is `{kind: "hidden"}`',
        params,
        errors: { 404: NOT_FOUND },
        response: { 200: z.object({ mosaic: mosaicSchema }) },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const mosaic = await services.mosaics.get(principal, request.params.mosaic_id);
      void reply.header('ETag', `"${mosaic.version}"`);
      return { mosaic: presentMosaic(mosaic, await services.mosaics.resolveTiles(principal, mosaic)) };
    },
  );

  app.post(
    '/mosaics',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('createMosaic'),
        summary: 'Saves a mosaic (editor or above, `edit` on the vault)',
        body: mosaicInputSchema,
        errors: { 400: INVALID, 403: NO_EDIT, 404: 'A vault you may not see (`unknown_vault`)' },
        response: { 201: z.object({ mosaic: mosaicSchema }) },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const mosaic = await services.mosaics.create(principal, request.body);
      return reply
        .code(201)
        .header('ETag', `"${mosaic.version}"`)
        .send({ mosaic: presentMosaic(mosaic, await services.mosaics.resolveTiles(principal, mosaic)) });
    },
  );

  app.patch(
    '/mosaics/:mosaic_id',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('updateMosaic'),
        summary: 'Changes the fields given (tiles and filters are replaced whole); the last write wins unless If-Match names the version',
        params,
        headers: ifMatch,
        body: mosaicPatchSchema,
        errors: { 400: INVALID, 403: NO_EDIT, 404: NOT_FOUND, 412: 'If-Match does not name the current version (`version_mismatch`)' },
        response: { 200: z.object({ mosaic: mosaicSchema }) },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const mosaic = await services.mosaics.update(principal, request.params.mosaic_id, request.body, request.headers['if-match']);
      void reply.header('ETag', `"${mosaic.version}"`);
      return { mosaic: presentMosaic(mosaic, await services.mosaics.resolveTiles(principal, mosaic)) };
    },
  );

  app.delete(
    '/mosaics/:mosaic_id',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('deleteMosaic'),
        summary: 'Deletes a mosaic (its scenes stay)',
        params,
        errors: { 403: NO_EDIT, 404: NOT_FOUND },
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await services.mosaics.remove(request.principal!, request.params.mosaic_id);
      return reply.code(204).send(null);
    },
  );

  if (!place.runs) return;
  app.post(
    '/mosaics/:mosaic_id/run',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('runMosaic'),
        summary: "Runs every scene tile fresh with your data keys, a few at a time; each tile answers its result or its own error",
        params,
        body: mosaicRunBody.nullish().describe('optional: filters added to the mosaic filters, a time zone'),
        errors: { 404: NOT_FOUND },
        response: { 200: mosaicRunSchema },
      },
    },
    async (request) => {
      const options = request.body ?? mosaicRunBody.parse({});
      const { mosaic, tiles } = await services.mosaics.run(request.principal!, request.params.mosaic_id, options);
      return presentMosaicRun(mosaic, tiles);
    },
  );
};
