import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { authRoutes } from './auth-routes.js';
import { connectionRoutes } from './connection-routes.js';
import { historyRoutes } from './history-routes.js';
import { keyExampleRoutes } from './key-examples-routes.js';
import { keyRoutes } from './key-routes.js';
import { memberRoutes } from './member-routes.js';
import { modelProjectRoutes } from './model-project-routes.js';
import { oauthConsoleRoutes } from './oauth-routes.js';
import { vaultRoutes } from './vault-routes.js';
import { consolePlace } from '../content/content-policy.js';
import { questionRoutes } from '../question/question-routes.js';
import { structuredRoutes } from '../structured/index.js';
import { webhookRoutes } from './webhook-routes.js';
import { workspaceRoutes } from './workspace-routes.js';

/**
 * The admin console's session-authenticated API, mounted at /api. Besides its own routes, it mounts the
 * key surfaces' routes for the signed-in user: A's questions and reveals, and C's queries, nodes, model,
 * users, scenes, mosaics and signals, with the same handlers and bodies and the console's policies
 * (see ../route-place.ts).
 */
export const consoleSurface: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  // Pass only the services on: re-passing the whole options object would apply the prefix twice.
  await app.register(authRoutes, { services });
  await app.register(keyRoutes, { services });
  await app.register(keyExampleRoutes, { services });
  await app.register(oauthConsoleRoutes, { services });
  await app.register(connectionRoutes, { services });
  await app.register(memberRoutes, { services });
  await app.register(workspaceRoutes, { services });
  await app.register(historyRoutes, { services });
  await app.register(webhookRoutes, { services });
  await app.register(vaultRoutes, { services });
  const place = consolePlace(services);
  await app.register(structuredRoutes, place);
  await app.register(questionRoutes, place);
  await app.register(modelProjectRoutes, place);
};
