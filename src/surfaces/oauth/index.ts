// The OAuth 2.1 authorization server for remote agents (docs/oauth.md): discovery documents and the
// protocol endpoints, at the root. The consent page's routes are the console's (../console).
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { oauthMetadataRoutes } from './metadata-routes.js';
import { oauthProtocolRoutes } from './protocol-routes.js';

export const oauthSurface: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(oauthMetadataRoutes);
  await app.register(oauthProtocolRoutes, { services });
};
