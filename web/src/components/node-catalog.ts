// The fields Explore offers for a node, grouped by node: the node's own visible dimensions and measures,
// then those of each node its joins reach, directly or through one more join (GET /api/nodes/:id gives a
// node's fields, formats, units and joins; GET /api/nodes/:id/reach the nodes reached and their paths).
// A joined node's field is addressed as the query language writes it, `customers.segment`, or by the
// join's role when it has one (`ship_to.name`).
import { get } from '../api';
import type { FieldInfo } from './filter-editor';
import type { FieldFormat } from './result-format';

interface DetailField { id: string; label: string; type: string; hidden: boolean; format?: string | null; unit?: string | null }
interface NodeDetail { id: string; label: string; dimensions: DetailField[]; measures: DetailField[] }

export interface MeasureInfo extends FieldInfo, FieldFormat {}

export interface FieldGroup {
  /** The node, or the role it is joined as. */
  name: string;
  label: string;
  joined: boolean;
  /** Ids as queries write them (`customers.segment`); labels as the node names them (`Segment`). */
  dimensions: FieldInfo[];
  measures: MeasureInfo[];
}

const detailOf = async (id: string) => (await get<{ node: NodeDetail }>(`/api/nodes/${encodeURIComponent(id)}`)).node;

function groupOf(node: NodeDetail, prefix: string, label: string, joined: boolean): FieldGroup {
  const id = (field: string) => (prefix ? `${prefix}.${field}` : field);
  return {
    name: prefix || node.id,
    label,
    joined,
    dimensions: node.dimensions.filter((d) => !d.hidden).map((d) => ({ id: id(d.id), label: d.label, type: d.type })),
    measures: node.measures.filter((m) => !m.hidden).map((m) => ({ id: id(m.id), label: m.label, type: m.type, format: m.format ?? null, unit: m.unit ?? null })),
  };
}

interface Reached { name: string; node: string; label: string; role: string | null; depth: number; path: Array<{ name: string; node: string; label: string }>; declared: boolean }

/** Joins crossed at most: a node's joins and theirs (`orders` → `customers` → `regions`). */
export const JOIN_DEPTH = 2;

/** How a step of a join path reads: the node's label, with the role it is joined as ("Regions (ship_to)"). */
const stepLabel = (step: { name: string; node: string; label: string }) => (step.name === step.node ? step.label : `${step.label} (${step.name})`);

/**
 * The node's own group first, then one per node its joins reach within JOIN_DEPTH joins, nearest first
 * (GET /api/nodes/:id/reach names them as the compiler does). A node two joins away is labelled by its
 * path ("Customers › Regions"). Only joins followed as the model declares them are offered, as a
 * node's own joins always were.
 */
export async function loadFieldGroups(nodeId: string): Promise<FieldGroup[]> {
  const [node, { reach }] = await Promise.all([detailOf(nodeId), get<{ reach: Reached[] }>(`/api/nodes/${encodeURIComponent(nodeId)}/reach?depth=${JOIN_DEPTH}`)]);
  const offered = reach.filter((r) => r.declared);
  const details = new Map(await Promise.all([...new Set(offered.map((r) => r.node))].map(async (id) => [id, await detailOf(id)] as const)));
  return [groupOf(node, '', node.label, false), ...offered.map((r) => groupOf(details.get(r.node)!, r.name, r.path.map(stepLabel).join(' › '), true))];
}

/** Every field of the groups with a label that names its node when it is joined ("Customers: Segment"). */
export function flatFields(groups: FieldGroup[]): { dimensions: FieldInfo[]; measures: MeasureInfo[] } {
  const named = <T extends FieldInfo>(g: FieldGroup, f: T): T => (g.joined ? { ...f, label: `${g.label}: ${f.label}` } : f);
  return { dimensions: groups.flatMap((g) => g.dimensions.map((f) => named(g, f))), measures: groups.flatMap((g) => g.measures.map((f) => named(g, f))) };
}
