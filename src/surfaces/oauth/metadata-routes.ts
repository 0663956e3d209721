// Discovery: GET /.well-known/oauth-protected-resource (also with the resource's path, /mcp, appended,
// as RFC 9728 section 3.1 builds it) and GET /.well-known/oauth-authorization-server.
import type { FastifyPluginAsync } from 'fastify';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  authorizationServerMetadata,
  PROTECTED_RESOURCE_METADATA_PATH,
  protectedResourceMetadata,
} from '../../identity/oauth/metadata.js';
import { MCP_RESOURCE_PATH } from '../../identity/oauth/oauth-policy.js';
import { issuerOf } from './issuer.js';

// OAuth's documents describe these routes (and the protocol's own error shape): not in /openapi.json.
const route = { config: SURFACE_POLICY.public, schema: { hide: true } };

export const oauthMetadataRoutes: FastifyPluginAsync = async (app) => {
  for (const path of [PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}${MCP_RESOURCE_PATH}`]) {
    app.get(path, route, async (request) => protectedResourceMetadata(issuerOf(request)));
  }
  app.get(AUTHORIZATION_SERVER_METADATA_PATH, route, async (request) => authorizationServerMetadata(issuerOf(request)));
};
