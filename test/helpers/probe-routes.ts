// One no-op route per surface, mounted with exactly the policy that surface's real routes use, so that
// the shared hooks are tested (and benchmarked) independently of any one feature.
import type { FastifyInstance } from 'fastify';
import { SURFACE_POLICY } from '../../src/http/route-policy.js';

export const PROBES = {
  question: '/api/v1/probe/question',
  workspace: '/api/v1/probe/workspace',
  structured: '/v1/probe/structured',
  structuredUsers: '/v1/probe/structured-users',
  studio: '/api/studio/probe',
} as const;

export async function probeRoutes(app: FastifyInstance): Promise<void> {
  // Test scaffolding, not part of the product: kept out of /openapi.json.
  const hidden = { hide: true };
  const echo = async (request: { principal?: { workspace: { id: string }; user: { id: string } } }) => ({
    workspace_id: request.principal?.workspace.id,
    user_id: request.principal?.user.id,
  });
  app.get(PROBES.question, { config: SURFACE_POLICY.question, schema: hidden }, echo);
  app.get(PROBES.workspace, { config: SURFACE_POLICY.workspace, schema: hidden }, echo);
  app.get(PROBES.structured, { config: { ...SURFACE_POLICY.structured, scope: 'query' }, schema: hidden }, echo);
  app.get(PROBES.structuredUsers, { config: { ...SURFACE_POLICY.structured, scope: 'users:read', role: 'luminary' }, schema: hidden }, echo);
  app.get(PROBES.studio, { config: SURFACE_POLICY.studio, schema: hidden }, echo);
  app.get('/probe/boom', { config: SURFACE_POLICY.public, schema: hidden }, async () => {
    throw new Error('secret internal detail: select * from api_keys');
  });
  app.post('/probe/echo', { config: SURFACE_POLICY.public, schema: hidden }, async (request) => ({ body: request.body ?? null }));
}
