// Nodes of the live semantic layer: GET /nodes, /nodes/:node_id, /nodes/:node_id/fields, /nodes/:node_id/reach. A node's id is
// its name, the identifier queries use. Mounted on C at /v1 (scope models:read) and in the console at /api.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../../core/errors.js';
import type { SemanticNode } from '../../core/semantic/model.js';
import { nodeDetail, nodeReach, nodeSummary } from '../../modeling/catalog-views.js';
import { operationId, type RoutePlace } from '../route-place.js';

const dimension = z.object({ id: z.string(), label: z.string(), type: z.string() });
const measure = z.object({ id: z.string(), label: z.string(), type: z.string(), format: z.string().nullable() });
const params = z.object({ node_id: z.string().min(1).max(200) });
const pathStep = z.object({ name: z.string(), node: z.string(), label: z.string() });
const reached = z.object({
  name: z.string().describe('the name its fields are written with in a query: `customers.country`'),
  node: z.string(),
  label: z.string(),
  role: z.string().nullable().describe('the role it is joined as, when the join names one'),
  depth: z.number().int().describe('how many joins away'),
  path: z.array(pathStep).describe('the nodes crossed from the queried node, this one last'),
  declared: z.boolean().describe('every join of the path is followed from the node that declares it'),
});

const summary = nodeSummary;

function fields(node: SemanticNode) {
  return {
    node: node.name,
    dimensions: [...node.dimensions.values()].filter((d) => !d.hidden).map((d) => ({ id: d.name, label: d.label, type: d.type })),
    measures: [...node.measures.values()].filter((m) => !m.hidden).map((m) => ({ id: m.name, label: m.label, type: m.type, format: m.format ?? null })),
  };
}

export const nodeRoutes: FastifyPluginAsyncZod<RoutePlace> = async (app, place) => {
  const { services, tags } = place;
  const config = place.policy({ scope: 'models:read' });
  const id = (name: string) => operationId(place, name);

  async function nodeOf(workspaceId: string, id: string) {
    const live = await services.models.live(workspaceId);
    const node = live.model.nodes.get(id);
    if (!node) throw new NotFoundError(`Unknown node "${id}"`, 'unknown_node');
    return { node, project: live.projectOf.get(id) ?? null };
  }

  app.get(
    '/nodes',
    {
      config,
      schema: {
        tags,
        operationId: id('listNodes'),
        summary: 'Nodes of the live model; tags keeps nodes with any of the comma-separated tags, connection those on that connection',
        querystring: z.object({ tags: z.string().max(1000).optional(), connection: z.string().max(100).optional() }).strict(),
        response: { 200: z.object({ nodes: z.array(z.object({ id: z.string(), label: z.string(), description: z.string(), tags: z.array(z.string()) })) }) },
      },
    },
    async (request) => {
      const { model } = await services.models.live(request.principal!.workspace.id);
      const wanted = (request.query.tags ?? '').split(',').map((t) => t.trim()).filter(Boolean);
      const nodes = [...model.nodes.values()]
        .filter((n) => wanted.length === 0 || n.tags.some((t) => wanted.includes(t)))
        .filter((n) => request.query.connection === undefined || n.connection === request.query.connection)
        .sort((a, b) => a.name.localeCompare(b.name));
      return { nodes: nodes.map(summary) };
    },
  );

  app.get(
    '/nodes/:node_id',
    {
      config,
      schema: {
        tags,
        operationId: id('getNode'),
        summary: 'Full metadata of a node: fields, joins, data keys, source',
        params,
        response: { 200: z.object({ node: z.any() }) },
        errors: { 404: 'No such node in the live model of your workspace (`unknown_node`)' },
      },
    },
    async (request) => {
      const { node, project } = await nodeOf(request.principal!.workspace.id, request.params.node_id);
      return { node: nodeDetail(node, project) };
    },
  );

  app.get(
    '/nodes/:node_id/fields',
    {
      config,
      schema: {
        tags,
        operationId: id('getNodeFields'),
        summary: 'Visible dimensions and measures of a node',
        errors: { 404: 'No such node in the live model of your workspace (`unknown_node`)' },
        params,
        response: { 200: z.object({ node: z.string(), dimensions: z.array(dimension), measures: z.array(measure) }) },
      },
    },
    async (request) => fields((await nodeOf(request.principal!.workspace.id, request.params.node_id)).node),
  );

  app.get(
    '/nodes/:node_id/reach',
    {
      config,
      schema: {
        tags,
        operationId: id('getNodeReach'),
        summary: 'The nodes a query on this node can read through its joins, nearest first, each by the name its fields are written with and the path of joins to it',
        params,
        querystring: z.object({ depth: z.coerce.number().int().min(1).max(6).default(2).describe('the most joins to cross') }).strict(),
        errors: { 404: 'No such node in the live model of your workspace (`unknown_node`)' },
        response: { 200: z.object({ node: z.string(), reach: z.array(reached) }) },
      },
    },
    async (request) => {
      const workspace = request.principal!.workspace.id;
      const { node } = await nodeOf(workspace, request.params.node_id);
      const { model } = await services.models.live(workspace);
      return { node: node.name, reach: nodeReach(model, node.name, request.query.depth) };
    },
  );
};
