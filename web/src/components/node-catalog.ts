// The fields Explore offers for a node, grouped by node: the node's own visible dimensions and measures,
// then those of each node it joins (GET /api/nodes/:id gives a node's fields, formats, units and joins).
// A joined node's field is addressed as the query language writes it, `customers.segment`, or by the
// join's role when it has one (`ship_to.name`).
import { get } from '../api';
import type { FieldInfo } from './filter-editor';
import type { FieldFormat } from './result-format';

interface DetailField { id: string; label: string; type: string; hidden: boolean; format?: string | null; unit?: string | null }
interface NodeDetail { id: string; label: string; dimensions: DetailField[]; measures: DetailField[]; joins: Array<{ node: string; role?: string }> }

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

/** The node's own group first, then one per join (directly joined nodes), in the model's order. */
export async function loadFieldGroups(nodeId: string): Promise<FieldGroup[]> {
  const node = await detailOf(nodeId);
  const joined = await Promise.all(node.joins.map(async (j) => ({ join: j, detail: await detailOf(j.node) })));
  return [
    groupOf(node, '', node.label, false),
    ...joined.map(({ join, detail }) => groupOf(detail, join.role ?? join.node, join.role ? `${detail.label} (${join.role})` : detail.label, true)),
  ];
}

/** Every field of the groups with a label that names its node when it is joined ("Customers: Segment"). */
export function flatFields(groups: FieldGroup[]): { dimensions: FieldInfo[]; measures: MeasureInfo[] } {
  const named = <T extends FieldInfo>(g: FieldGroup, f: T): T => (g.joined ? { ...f, label: `${g.label}: ${f.label}` } : f);
  return { dimensions: groups.flatMap((g) => g.dimensions.map((f) => named(g, f))), measures: groups.flatMap((g) => g.measures.map((f) => named(g, f))) };
}
