// Surface C, mounted at /v1: structured API keys with scopes; 1000 requests per minute per workspace.
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { modelRoutes } from './model-routes.js';
import { nodeRoutes } from './node-routes.js';
import { queryRoutes } from './query-routes.js';
import { userRoutes } from './user-routes.js';
import { structuredPlace } from '../content/content-policy.js';
import { mosaicRoutes } from '../content/mosaic-routes.js';
import { sceneRoutes } from '../content/scene-routes.js';
import { signalRoutes } from '../content/signal-routes.js';

export const structuredSurface: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(queryRoutes, { services });
  await app.register(nodeRoutes, { services });
  await app.register(modelRoutes, { services });
  await app.register(userRoutes, { services });
  await app.register(sceneRoutes, structuredPlace(services));
  await app.register(mosaicRoutes, structuredPlace(services));
  await app.register(signalRoutes, structuredPlace(services));
};
