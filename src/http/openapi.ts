// OpenAPI generated from the routes' zod schemas, served at /openapi.json, with a docs page at /docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DOCS_PREFIX } from './guard.js';

export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Governed Analytics Service',
          version: '1',
          description:
            'A: question API (/api/v1, svc_sk_ keys). B: workspace API (/api/v1, svc_ + 64 hex keys, HTTPS, Team plan). ' +
            'C: structured API (/v1, svc_api_ keys). D: SQL editor backend (/api/studio, session). Console: /api (session).',
        },
        components: {
          securitySchemes: {
            questionKey: { type: 'http', scheme: 'bearer', description: 'svc_sk_…' },
            workspaceKey: { type: 'http', scheme: 'bearer', description: 'svc_ followed by 64 hex characters' },
            structuredKey: { type: 'http', scheme: 'bearer', description: 'svc_api_…' },
            session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
  },
  { name: 'openapi' },
);
