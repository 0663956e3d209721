// GET /api/keys/examples: what the Keys page needs to print "Try it" lines that work as printed: the
// certificate curl must trust (`--cacert`, as the start-up banner prints it), and a structured query and
// a question about the workspace's own live model rather than names it may not have.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SemanticModel, SemanticNode } from '../../core/semantic/model.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { certificateFile } from '../../runtime-files.js';
import type { Services } from '../../services.js';

const examplesSchema = z.object({
  ca_file: z.string().nullable().describe("the server's certificate file for `curl --cacert`; null when TLS is off (served behind a proxy)"),
  structured_query: z
    .object({ node: z.string(), dimensions: z.array(z.string()), measures: z.array(z.string()) })
    .nullable()
    .describe('a POST /v1/query body over the live model; null when no node has a measure'),
  question: z.string().nullable().describe("a question about a reveal's first metric; null without reveals"),
});

/** A reveal's base node first (what the model is about), then the others in order: the first with a measure. */
function exampleQuery(model: SemanticModel): z.infer<typeof examplesSchema>['structured_query'] {
  const bases = [...model.reveals.values()].map((r) => model.nodes.get(r.base)).filter((n): n is SemanticNode => n !== undefined);
  for (const node of [...bases, ...model.nodes.values()]) {
    const measure = [...node.measures.values()].find((m) => !m.hidden);
    if (!measure) continue;
    const dimension = [...node.dimensions.values()].find((d) => !d.hidden && d.type === 'string');
    return { node: node.name, dimensions: dimension ? [dimension.name] : [], measures: [measure.name] };
  }
  return null;
}

function exampleQuestion(model: SemanticModel): string | null {
  for (const reveal of model.reveals.values()) {
    const metric = reveal.metrics.values().next().value;
    if (metric) return reveal.time ? `What was ${metric.label.toLowerCase()} last month?` : `What is the total of ${metric.label.toLowerCase()}?`;
  }
  return null;
}

export const keyExampleRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/keys/examples',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'getKeyExamples',
        summary: "What a new key's `curl` lines need: the certificate to trust, and a query and a question over the live model",
        response: { 200: examplesSchema },
      },
    },
    async (request) => {
      const { model } = await services.models.live(request.principal!.workspace.id);
      return { ca_file: certificateFile(services.config) ?? null, structured_query: exampleQuery(model), question: exampleQuestion(model) };
    },
  );
};
