// Surface C, mounted at /v1: structured API keys with scopes; 1000 requests per minute per workspace.
// The console mounts the same routes at /api for the signed-in user (see ../console/index.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { modelRoutes } from './model-routes.js';
import { nodeRoutes } from './node-routes.js';
import { queryRoutes } from './query-routes.js';
import { rollupRoutes } from './rollup-routes.js';
import { userRoutes } from './user-routes.js';
import { structuredPlace, type ContentPlace } from '../content/content-policy.js';
import { mosaicRoutes } from '../content/mosaic-routes.js';
import { sceneRoutes } from '../content/scene-routes.js';
import { signalRoutes } from '../content/signal-routes.js';
import { deliveryScheduleRoutes } from '../content/delivery-schedule-routes.js';

/** Queries, nodes, the model and its rollups, users and content, with the policies of the place they are mounted in. */
export const structuredRoutes: FastifyPluginAsync<ContentPlace> = async (app, place) => {
  await app.register(queryRoutes, place);
  await app.register(nodeRoutes, place);
  await app.register(modelRoutes, place);
  await app.register(rollupRoutes, place);
  await app.register(userRoutes, place);
  await app.register(sceneRoutes, place);
  await app.register(mosaicRoutes, place);
  await app.register(signalRoutes, place);
  await app.register(deliveryScheduleRoutes, place);
};

export const structuredSurface: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(structuredRoutes, structuredPlace(services));
};
