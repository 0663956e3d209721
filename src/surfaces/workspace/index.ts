// Surface B, mounted at /api/v1: workspace keys, HTTPS only, Team plan, 60 requests per minute per key.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../../core/errors.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { resultRowsSchema } from '../../http/schemas.js';
import { nodesOfProject } from '../../modeling/node-catalog.js';
import type { Services } from '../../services.js';

/** Rows a raw query may return on this surface, whatever limit is asked for (spec 4.2). */
export const WORKSPACE_QUERY_MAX_ROWS = 1000;

const workspaceSchema = z.object({ id: z.string(), name: z.string(), plan: z.string(), created_at: z.string() });
const projectSchema = z.object({ id: z.string(), name: z.string(), slug: z.string(), created_at: z.string() });
const nodeDetail = z.object({ id: z.string(), name: z.string(), content: z.string(), cml: z.string(), created_at: z.string() });
const nodeListItem = nodeDetail.extend({ status: z.literal('active') });
const policy = { config: SURFACE_POLICY.workspace };

const tags = ['B. workspace'];

export const workspaceSurface: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  async function nodesOf(workspaceId: string, slug: string) {
    const project = await services.projects.findProject(workspaceId, slug);
    if (!project) throw new NotFoundError(`Unknown project "${slug}"`, 'unknown_project');
    return nodesOfProject(await services.models.live(workspaceId), workspaceId, slug);
  }

  app.get(
    '/workspace',
    { ...policy, schema: { tags, operationId: 'getWorkspace', summary: "The key's workspace", response: { 200: z.object({ workspace: workspaceSchema }) } } },
    async (request) => {
      const row = await services.members.getWorkspace(request.principal!.workspace.id);
      if (!row) throw new NotFoundError('Workspace not found');
      return { workspace: { id: row.id, name: row.name, plan: row.plan, created_at: row.created_at.toISOString() } };
    },
  );

  app.get(
    '/projects',
    { ...policy, schema: { tags, operationId: 'listProjects', summary: 'Projects of the workspace', response: { 200: z.object({ projects: z.array(projectSchema) }) } } },
    async (request) => {
      const rows = await services.projects.listProjects(request.principal!.workspace.id);
      return { projects: rows.map((p) => ({ id: p.id, name: p.name, slug: p.slug, created_at: p.created_at.toISOString() })) };
    },
  );

  app.get(
    '/projects/:slug/nodes',
    {
      ...policy,
      schema: {
        tags,
        operationId: 'listProjectNodes',
        summary: 'Deployed nodes of a project, with their CML',
        errors: { 404: 'No such project in your workspace (`unknown_project`)' },
        params: z.object({ slug: z.string().min(1).max(100) }),
        response: { 200: z.object({ nodes: z.array(nodeListItem) }) },
      },
    },
    async (request) => {
      const nodes = await nodesOf(request.principal!.workspace.id, request.params.slug);
      return {
        nodes: nodes.map((n) => ({ id: n.id, name: n.name, status: 'active' as const, content: n.content, cml: n.content, created_at: n.deployedAt.toISOString() })),
      };
    },
  );

  app.get(
    '/projects/:slug/nodes/:name',
    {
      ...policy,
      schema: {
        tags,
        operationId: 'getProjectNode',
        summary: 'One deployed node of a project',
        errors: { 404: 'No such project or node in your workspace (`unknown_project`, `unknown_node`)' },
        params: z.object({ slug: z.string().min(1).max(100), name: z.string().min(1).max(200) }),
        response: { 200: z.object({ node: nodeDetail }) },
      },
    },
    async (request) => {
      const { slug, name } = request.params;
      const node = (await nodesOf(request.principal!.workspace.id, slug)).find((n) => n.name === name);
      if (!node) throw new NotFoundError(`Unknown node "${name}" in project ${slug}`, 'unknown_node');
      return { node: { id: node.id, name: node.name, content: node.content, cml: node.content, created_at: node.deployedAt.toISOString() } };
    },
  );

  app.post(
    '/query',
    {
      // A statement with NUL reaches the read-only guard, which refuses it and records it in the history.
      config: { ...SURFACE_POLICY.workspace, rawTextFields: ['sql'] },
      schema: {
        tags,
        operationId: 'runWorkspaceQuery',
        summary: 'Runs one read-only statement (SELECT, WITH or EXPLAIN) on a connection of the workspace; at most 1,000 rows',
        errors: {
          400: 'Also: a statement the read-only guard refuses (`read_only_violation`, with `reason`) or the engine rejects (`warehouse_query_failed`)',
          404: 'No such connection in your workspace (`unknown_connection`)',
          ...WAREHOUSE_ERRORS,
        },
        body: z
          .object({
            connection_id: z.uuid(),
            sql: z.string().min(1).max(100_000),
            limit: z.number().int().min(1).default(WORKSPACE_QUERY_MAX_ROWS),
          })
          .strict(),
        response: { 200: z.object({ columns: z.array(z.string()), rows: resultRowsSchema, row_count: z.number().int() }) },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const result = await services.rawSql.run({
        workspaceId: principal.workspace.id,
        userId: principal.user.id,
        connection: { id: request.body.connection_id },
        sql: request.body.sql,
        maxRows: Math.min(request.body.limit, WORKSPACE_QUERY_MAX_ROWS),
        surface: 'workspace_api',
        generations: principal.generations,
      });
      return { columns: result.columns.map((c) => c.name), rows: [...result.rows], row_count: result.rowCount };
    },
  );
};
