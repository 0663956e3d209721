// The catalog an agent reads before it queries: reveals and their metric definitions (surface A's
// /reveals and /metrics), nodes and their fields (surface C's /nodes), and the values of a field the
// caller may see. All need `models:read`.
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { nodeDetail, nodeSummary, revealMetrics, revealSummaries } from '../../modeling/catalog-views.js';
import { governedQuery } from '../governed-calls.js';
import { defineTool } from '../tool.js';

const CATALOG = { scope: 'models:read' } as const;
const name = z.string().min(1).max(200);

export const listReveals = defineTool({
  name: 'list_reveals',
  title: 'List reveals',
  description: 'Governed reveals (named metric sets) with their metric names. Start here.',
  needs: CATALOG,
  input: z.object({}).strict(),
  output: z.object({ reveals: z.array(z.object({ name: z.string(), domain: z.string(), description: z.string(), metrics: z.array(z.string()) })) }),
  async run({ services, principal }) {
    const reveals = revealSummaries((await services.models.live(principal.workspace.id)).model);
    return { structured: { reveals }, text: reveals.map((r) => `${r.name} (${r.domain}): ${r.metrics.join(', ')}`).join('\n') || 'No reveals deployed.' };
  },
});

export const getMetrics = defineTool({
  name: 'get_metrics',
  title: 'Metric definitions',
  description: "One reveal's metric definitions: label, description, unit.",
  needs: CATALOG,
  input: z.object({ reveal: name }).strict(),
  output: z.object({ reveal: z.string(), domain: z.string(), metrics: z.array(z.object({ name: z.string(), label: z.string(), description: z.string(), unit: z.string() })) }),
  async run({ services, principal }, { reveal }) {
    const answer = revealMetrics((await services.models.live(principal.workspace.id)).model, reveal);
    return { structured: answer, text: answer.metrics.map((m) => `${m.name}: ${m.label} (${m.unit}) ${m.description}`).join('\n') };
  },
});

export const listNodes = defineTool({
  name: 'list_nodes',
  title: 'List nodes',
  description: 'Queryable nodes (modeled tables); tags keeps nodes with any of them.',
  needs: CATALOG,
  input: z.object({ tags: z.array(z.string().min(1).max(100)).max(50).optional() }).strict(),
  output: z.object({ nodes: z.array(z.object({ id: z.string(), label: z.string(), description: z.string(), tags: z.array(z.string()) })) }),
  async run({ services, principal }, { tags }) {
    const { model } = await services.models.live(principal.workspace.id);
    const nodes = [...model.nodes.values()]
      .filter((n) => !tags?.length || n.tags.some((t) => tags.includes(t)))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(nodeSummary);
    return { structured: { nodes }, text: nodes.map((n) => `${n.id}: ${n.label}`).join('\n') || 'No nodes deployed.' };
  },
});

export const getNode = defineTool({
  name: 'get_node',
  title: 'Node fields',
  description: 'A node: dimensions and measures (label, type, unit, format, description, synonyms), joins.',
  needs: CATALOG,
  input: z.object({ node: name }).strict(),
  output: z.object({ node: z.record(z.string(), z.any()) }),
  async run({ services, principal }, { node: id }) {
    const live = await services.models.live(principal.workspace.id);
    const node = live.model.nodes.get(id);
    if (!node) throw new NotFoundError(`Unknown node "${id}"`, 'unknown_node');
    const detail = nodeDetail(node, live.projectOf.get(id) ?? null);
    const fields = [...detail.dimensions.filter((d) => !d.hidden).map((d) => d.id), ...detail.measures.filter((m) => !m.hidden).map((m) => m.id)];
    return { structured: { node: detail }, text: `${detail.id}: ${fields.join(', ')}` };
  },
});

export const searchValues = defineTool({
  name: 'search_values',
  title: 'Search values',
  description: "Values of a node's dimension containing text, among rows your data keys let you see.",
  needs: CATALOG,
  input: z.object({ node: name, field: name, text: z.string().max(200).default(''), limit: z.number().int().min(1).max(100).default(20) }).strict(),
  output: z.object({ values: z.array(z.any()), truncated: z.boolean() }),
  async run({ services, principal }, { node, field, text, limit }) {
    const { model } = await services.models.live(principal.workspace.id);
    if (model.nodes.get(node)?.measures.has(field)) throw new BadRequestError(`"${field}" is a measure: search_values reads dimensions`, 'unknown_field');
    // A governed query: the principal's data keys filter the rows before any value is read. One row
    // more than asked says whether there are more.
    const query = { node, dimensions: [field], measures: [], filters: text ? [{ field, operator: 'contains', value: text }] : [], sorts: [{ field, direction: 'asc' as const }], limit: limit + 1 };
    const { answer } = await governedQuery(services, principal, query, 'use');
    const values = answer.data.map((row: Record<string, unknown>) => row[field]);
    return { structured: { values: values.slice(0, limit), truncated: values.length > limit }, text: values.slice(0, limit).join(', ') || 'No values.' };
  },
});
