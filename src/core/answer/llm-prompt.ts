// What the language model is sent: a short instruction, the question, the retrieved candidates, and
// one JSON schema (a tool, or the response format on servers without tools) that enumerates every
// name it may use. Servers that constrain decoding with the schema (llama.cpp, vLLM) then cannot even
// produce an unknown name; the others are validated.
import type { StructuredRequest } from './llm-client.js';
import type { Retrieval } from './llm-candidates.js';

export const PLAN_TOOL = 'plan_query';
/** Values of a field shown to the model: enough to recognise a filter, not a dump of the data. */
const VALUES_SHOWN = 5;
export const MAX_LIMIT = 100;

const INSTRUCTIONS = [
  `Turn the question into ${PLAN_TOOL} arguments over the governed catalog below.`,
  'Use only the listed reveals, metrics and fields; all metrics come from one reveal, the headline first.',
  'Periods and dates are resolved elsewhere: ignore them. Do not compute or invent numbers.',
  'Filter only on values the question names; set exclude on a filter whose value is left out ("excluding", "not", "other than").',
  'Use sort and limit only for "top N"-style questions.',
  'For "X per Y" set per to the metric Y (X is the one metric). For "what share of X were V" set share to the field and value V; for "the share of each D in X", share {} with D as the dimension.',
  'A comparison of two periods is read elsewhere: plan the metric as for one period.',
  'If nothing listed answers the question, set no_match true with a short reason.',
].join('\n');

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** The candidates as compact lines: `reveal sales (Sales)`, its metrics, then its fields with a few values. */
export function describeCandidates(retrieval: Retrieval): string {
  const lines: string[] = [];
  for (const reveal of retrieval.reveals) {
    lines.push(`reveal ${reveal.name} (${reveal.label})`);
    const metrics = retrieval.metrics.filter((metric) => metric.reveal === reveal.name);
    lines.push(`  metrics: ${metrics.map((metric) => `${metric.name} (${metric.label})`).join('; ')}`);
    const fields = reveal.dimensions.map((field) => {
      const shown = (reveal.values.get(field) ?? []).slice(0, VALUES_SHOWN);
      return shown.length > 0 ? `${field} [${shown.join(', ')}]` : field;
    });
    lines.push(`  fields: ${fields.join('; ')}`);
  }
  return lines.join('\n');
}

function planParameters(retrieval: Retrieval): Record<string, unknown> {
  const fields = unique(retrieval.reveals.flatMap((reveal) => reveal.dimensions));
  const filterFields = unique(retrieval.reveals.flatMap((reveal) => reveal.filterFields));
  const name = (values: readonly string[]) => (values.length > 0 ? { type: 'string', enum: values } : { type: 'string' });
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      no_match: { type: 'boolean' },
      reason: { type: 'string', description: 'Why nothing answers, when no_match.' },
      reveal: name(retrieval.reveals.map((reveal) => reveal.name)),
      metrics: { type: 'array', minItems: 1, items: name(unique(retrieval.metrics.map((metric) => metric.name))) },
      dimensions: { type: 'array', items: name(fields) },
      filters: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: { field: name(filterFields), value: { type: 'string' }, exclude: { type: 'boolean', description: 'The value is left out.' } },
          required: ['field', 'value'],
        },
      },
      per: { ...name(unique(retrieval.metrics.map((metric) => metric.name))), description: 'X per Y: the metric Y the headline is divided by.' },
      share: {
        type: 'object',
        additionalProperties: false,
        description: 'A share of the headline: of the rows where field is value, or {} for each group of the dimensions.',
        properties: { field: name(filterFields), value: { type: 'string' } },
      },
      sort: {
        type: 'object',
        additionalProperties: false,
        properties: { field: { type: 'string', description: 'A chosen metric or dimension.' }, direction: { type: 'string', enum: ['asc', 'desc'] } },
        required: ['field', 'direction'],
      },
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
    },
    required: ['no_match'],
  };
}

export function planRequest(question: string, retrieval: Retrieval): StructuredRequest {
  return {
    system: INSTRUCTIONS,
    user: `Question: ${question.trim()}\n\nCatalog:\n${describeCandidates(retrieval)}`,
    name: PLAN_TOOL,
    description: 'Plan a governed query for the question.',
    parameters: planParameters(retrieval),
  };
}
