// The catalog of the live model as the APIs show it: reveals with their metric names, one reveal's
// metric definitions, a node's summary. Written once for every surface that shows them (A's /reveals and
// /metrics, C's /nodes, the MCP catalog tools), so an agent reads exactly what the REST API says.
import { instancesFrom, type Instance } from '../core/semantic/join-instances.js';
import type { SemanticModel, SemanticNode } from '../core/semantic/model.js';
import { findReveal } from '../core/semantic/reveal.js';

export interface RevealSummary {
  name: string;
  domain: string;
  description: string;
  metrics: string[];
}

export interface MetricDefinition {
  name: string;
  label: string;
  description: string;
  unit: string;
}

/** Every reveal, by domain then name. */
export function revealSummaries(model: SemanticModel): RevealSummary[] {
  const reveals = [...model.reveals.values()].sort((a, b) => a.domain.localeCompare(b.domain) || a.name.localeCompare(b.name));
  return reveals.map((r) => ({ name: r.name, domain: r.domain, description: r.description, metrics: [...r.metrics.keys()] }));
}

/** One reveal's metric definitions; an unknown name is a 404 (`unknown_reveal`). */
export function revealMetrics(model: SemanticModel, name: string): { reveal: string; domain: string; metrics: MetricDefinition[] } {
  const reveal = findReveal(model, name);
  return {
    reveal: reveal.name,
    domain: reveal.domain,
    metrics: [...reveal.metrics.values()].map((m) => ({ name: m.name, label: m.label, description: m.description, unit: m.unit })),
  };
}

export function nodeSummary(node: SemanticNode) {
  return { id: node.name, label: node.label, description: node.description, tags: [...node.tags] };
}

/** A node's full metadata: every field with label, type, unit, format, description and synonyms, joins, data keys. */
export function nodeDetail(node: SemanticNode, project: string | null) {
  return {
    ...nodeSummary(node),
    domain: node.domain ?? null,
    connection: node.connection,
    source: node.source.kind === 'table' ? { table: node.source.table } : { sql: node.source.sql },
    project,
    file: node.file.slice(node.file.indexOf('/') + 1),
    dimensions: [...node.dimensions.values()].map((d) => ({
      id: d.name,
      label: d.label,
      description: d.description,
      type: d.type,
      primary_key: d.primaryKey,
      hidden: d.hidden,
      synonyms: [...(d.synonyms ?? [])],
    })),
    measures: [...node.measures.values()].map((m) => ({
      id: m.name,
      label: m.label,
      description: m.description,
      type: m.type,
      format: m.format ?? null,
      unit: m.unit ?? null,
      hidden: m.hidden,
    })),
    // A role-playing join also gives its role: the name its fields are reached by (`ship_to.name`).
    // Synonyms too, when the join has any (the words a question may use for it).
    joins: node.joins.map((j) => ({ node: j.to, relationship: j.relationship, ...(j.alias ? { role: j.alias } : {}), ...(j.synonyms?.length ? { synonyms: [...j.synonyms] } : {}) })),
    data_keys: node.dataKeys.map((k) => ({ name: k.name, dimension: k.dimension, attribute: k.attribute })),
  };
}

export interface ReachedNode {
  /** The name its fields are reached by in a query (`customers.country`, `ship_to.name`). */
  name: string;
  node: string;
  label: string;
  /** The role it is joined as, when the join names one. */
  role: string | null;
  depth: number;
  /** The instances crossed from the queried node to it, itself last. */
  path: Array<{ name: string; node: string; label: string }>;
  /** Every join of the chain is followed from the node that declares it. */
  declared: boolean;
}

/**
 * The nodes a query on `root` can read, nearest first, as the query compiler reaches them
 * (join-instances.ts): each by the name fields of it are written with, and the chain of joins to it.
 * A name reached by two chains through a role cannot be queried and is left out.
 */
export function nodeReach(model: SemanticModel, root: string, maxDepth: number): ReachedNode[] {
  const instances = instancesFrom(model, root);
  const labelOf = (node: string) => model.nodes.get(node)?.label ?? node;
  const chainOf = (instance: Instance): Instance[] => (instance.via ? [...chainOf(instances.get(instance.via.parent)!), instance] : []);
  return [...instances.values()]
    .filter((i) => i.depth > 0 && i.depth <= maxDepth && !i.ambiguous)
    .sort((a, b) => a.depth - b.depth)
    .map((i) => {
      const chain = chainOf(i);
      return {
        name: i.key,
        node: i.node,
        label: labelOf(i.node),
        role: i.key === i.node ? null : i.key,
        depth: i.depth,
        path: chain.map((c) => ({ name: c.key, node: c.node, label: labelOf(c.node) })),
        declared: chain.every((c) => c.via!.forward),
      };
    });
}
