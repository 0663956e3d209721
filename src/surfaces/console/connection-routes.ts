// Warehouse connections for the console: GET/POST /api/connections, GET/PATCH/DELETE
// /api/connections/:id and POST /api/connections/:id/test. Luminaries only: a connection reaches the
// workspace's data with the credentials saved in it. Passwords are write-only: no answer carries one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONNECTION_SETTINGS } from '../../connections/connection-service.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { ENGINES } from '../../store/schema.js';
import type { Services } from '../../services.js';

const POLICY = { ...SURFACE_POLICY.console, role: 'luminary' } as const;

const connectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  engine: z.enum(ENGINES),
  settings: z.record(z.string(), z.unknown()),
  has_password: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const name = z.string().min(1).max(100).describe('Letters, digits, "_" or "-", not starting with "-" nor with "_svc_"');
const password = z.string().min(1).max(1024).describe('Sealed at rest and never returned');

// One branch per engine, so that /openapi.json shows each engine's settings and a wrong field is named
// by the validator. The service checks again: it is also called from the CLI.
const createBody = z.discriminatedUnion('engine', [
  z.object({ name, engine: z.literal('postgres'), settings: CONNECTION_SETTINGS.postgres, password: password.optional() }),
  z.object({ name, engine: z.literal('mysql'), settings: CONNECTION_SETTINGS.mysql, password: password.optional() }),
  z.object({ name, engine: z.literal('snowflake'), settings: CONNECTION_SETTINGS.snowflake, password: password.optional() }),
  // A password here is refused by the service (DuckDB takes none) rather than silently dropped.
  z.object({
    name,
    engine: z.literal('duckdb'),
    settings: CONNECTION_SETTINGS.duckdb.describe("path: a file relative to the workspace's own directory (<data dir>/workspaces/<workspace id>/), without '..'"),
    password: password.optional(),
  }),
]);

const patchBody = z.object({
  name: name.optional(),
  // The engine is the saved connection's, so the shape is checked against it by the service.
  settings: z.record(z.string(), z.unknown()).describe("All the settings, replacing the saved ones; checked against the connection's engine").optional(),
  password: password.nullable().describe('A new password; null removes it; omitted keeps it').optional(),
});

const idParams = z.object({ id: z.string() });
const UNKNOWN_CONNECTION = 'No such connection in your workspace: an unknown id, an id that is not a UUID, another workspace’s or an internal connection (`unknown_connection`)';

const privilegeFlag = z.boolean().nullable();
const testResultSchema = z.object({
  ok: z.boolean(),
  engine: z.enum(ENGINES),
  duration_ms: z.number().optional(),
  instance: z.string().describe('the instance that tested (SVC_INSTANCE_NAME): what one instance reaches, another may not'),
  error: z.string().optional(),
  missing_file: z
    .string()
    .describe("a DuckDB file this instance does not find in the workspace's directory: instances must share the workspaces directory (docs/operations.md)")
    .optional(),
  privileges: z
    .object({ superuser: privilegeFlag, can_write: privilegeFlag, reads_credentials: privilegeFlag, reads_server_files: privilegeFlag })
    .describe("What the connection's role can do beyond reading, from the warehouse's own catalogs; null when it could not be told")
    .optional(),
  warnings: z
    .array(z.object({ code: z.string(), message: z.string() }))
    .describe('Why the role should be narrower (superuser, can_write, reads_credentials, reads_server_files, privileges_unknown) or what the server lacks (time_zone_tables_missing)')
    .optional(),
});

export const connectionRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const connections = services.connections;

  app.get(
    '/connections',
    {
      config: POLICY,
      schema: {
        tags: ['console'],
        operationId: 'listConnections',
        summary: "Lists the workspace's warehouse connections (never a password)",
        response: { 200: z.object({ connections: z.array(connectionSchema) }) },
      },
    },
    async (request) => ({ connections: await connections.list(request.principal!.workspace.id) }),
  );

  app.post(
    '/connections',
    {
      config: POLICY,
      schema: {
        tags: ['console'],
        operationId: 'createConnection',
        summary: 'Creates a warehouse connection; the password is sealed and never shown again',
        body: createBody,
        response: { 201: z.object({ connection: connectionSchema }) },
        errors: {
          400: 'Also: a bad or reserved name, a DuckDB file outside the workspace’s directory, or a password for DuckDB (`invalid_connection`)',
          409: 'The workspace already has a connection of that name (`connection_exists`)',
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const connection = await connections.create(request.principal!.workspace.id, {
        name: body.name,
        engine: body.engine,
        settings: body.settings,
        password: body.password,
      });
      return reply.code(201).send({ connection });
    },
  );

  app.get(
    '/connections/:id',
    {
      config: POLICY,
      schema: {
        tags: ['console'],
        operationId: 'getConnection',
        summary: 'One warehouse connection',
        params: idParams,
        response: { 200: z.object({ connection: connectionSchema }) },
        errors: { 404: UNKNOWN_CONNECTION },
      },
    },
    async (request) => ({ connection: await connections.get(request.principal!.workspace.id, request.params.id) }),
  );

  app.patch(
    '/connections/:id',
    {
      config: POLICY,
      schema: {
        tags: ['console'],
        operationId: 'updateConnection',
        summary: 'Renames a connection, replaces its settings, or sets or removes its password; the next run uses the change',
        params: idParams,
        body: patchBody,
        response: { 200: z.object({ connection: connectionSchema }) },
        errors: {
          400: 'Also: settings that do not fit the connection’s engine, or a bad or reserved name (`invalid_connection`)',
          404: UNKNOWN_CONNECTION,
          409: 'Renaming onto a name the workspace already uses (`connection_exists`)',
        },
      },
    },
    async (request) => ({
      connection: await connections.update(request.principal!.workspace.id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/connections/:id',
    {
      config: POLICY,
      schema: {
        tags: ['console'],
        operationId: 'deleteConnection',
        summary: 'Deletes a connection and closes its pooled driver',
        params: idParams,
        response: { 204: z.null() },
        errors: { 404: UNKNOWN_CONNECTION },
      },
    },
    async (request, reply) => {
      await connections.delete(request.principal!.workspace.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/connections/:id/test',
    {
      config: POLICY,
      schema: {
        tags: ['console'],
        operationId: 'testConnection',
        summary:
          'Checks that the warehouse answers SELECT 1 with the saved settings, then what the role can do beyond reading, with warnings; a failure is 200 with ok false',
        params: idParams,
        response: { 200: testResultSchema },
        errors: { 404: UNKNOWN_CONNECTION },
      },
    },
    async (request) => connections.test(request.principal!.workspace.id, request.params.id, {}, request.principal!.workspace.timezone),
  );
};
