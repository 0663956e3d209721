import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { authRoutes } from './auth-routes.js';
import { connectionRoutes } from './connection-routes.js';
import { historyRoutes } from './history-routes.js';
import { keyRoutes } from './key-routes.js';
import { memberRoutes } from './member-routes.js';
import { vaultRoutes } from './vault-routes.js';
import { consolePlace } from '../content/content-policy.js';
import { mosaicRoutes } from '../content/mosaic-routes.js';
import { sceneRoutes } from '../content/scene-routes.js';
import { signalRoutes } from '../content/signal-routes.js';
import { webhookRoutes } from './webhook-routes.js';
import { workspaceRoutes } from './workspace-routes.js';

/** The admin console's session-authenticated API, mounted at /api. */
export const consoleSurface: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  // Pass only the services on: re-passing the whole options object would apply the prefix twice.
  await app.register(authRoutes, { services });
  await app.register(keyRoutes, { services });
  await app.register(connectionRoutes, { services });
  await app.register(memberRoutes, { services });
  await app.register(workspaceRoutes, { services });
  await app.register(historyRoutes, { services });
  await app.register(webhookRoutes, { services });
  await app.register(vaultRoutes, { services });
  await app.register(sceneRoutes, consolePlace(services));
  await app.register(mosaicRoutes, consolePlace(services));
  await app.register(signalRoutes, consolePlace(services));
};
