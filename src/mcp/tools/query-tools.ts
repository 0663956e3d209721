// Structured queries for agents: `query` answers what C's POST /v1/query answers for the same body and
// principal (data, sql, metadata; the same result cache) plus provenance and a truncated flag;
// `explain_query` compiles without running. Both need the `query` scope.
import { z } from 'zod';
import { semanticQuerySchema } from '../../core/semantic/query.js';
import { queryAnswerSchema } from '../../surfaces/structured/query-routes.js';
import { explainQuery, explanationSchema, governedQuery, provenanceSchema } from '../governed-calls.js';
import { AGENT_ROWS, defineTool } from '../tool.js';

/** C's query body, with the agents' row cap. */
const agentQuerySchema = semanticQuerySchema.extend({ limit: z.number().int().min(1).max(AGENT_ROWS.max).default(AGENT_ROWS.default) });

export const query = defineTool({
  name: 'query',
  title: 'Query a node',
  description: `Query a node (POST /v1/query body) with your data keys: rows, SQL, provenance. truncated when rows reach limit (default ${AGENT_ROWS.default}).`,
  needs: { scope: 'query' },
  input: agentQuerySchema,
  output: queryAnswerSchema.extend({ truncated: z.boolean(), provenance: provenanceSchema }),
  async run({ services, principal }, body) {
    const { answer, provenance } = await governedQuery(services, principal, body, 'use');
    const truncated = answer.metadata.truncated || answer.data.length >= body.limit;
    const preview = answer.data.slice(0, 5).map((row) => JSON.stringify(row)).join('\n');
    return {
      structured: { ...answer, truncated, provenance },
      text: `${answer.metadata.row_count} rows from ${answer.metadata.node}${truncated ? ' (truncated)' : ''}; model v${provenance.model_version}, ran ${provenance.freshness}, cache ${provenance.cache}${provenance.rollup ? `, from rollup ${provenance.rollup}` : ''}\n${preview}`,
    };
  },
});

export const explain = defineTool({
  name: 'explain_query',
  title: 'Explain a query',
  description: 'The SQL `query` would run for the same arguments, its connection, whether cached. Runs nothing.',
  needs: { scope: 'query' },
  input: agentQuerySchema,
  sameInputAs: 'query',
  output: explanationSchema,
  async run({ services, principal }, body) {
    const explanation = await explainQuery(services, principal, body);
    return { structured: explanation, text: `${explanation.engine} on ${explanation.connection}${explanation.cached ? ' (cached)' : ''}:\n${explanation.sql}` };
  },
});
