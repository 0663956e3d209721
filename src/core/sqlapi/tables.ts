// The model as a SQL client sees it over the PostgreSQL protocol: every node is a table, in `public` and
// in the schema of its domain; its visible dimensions and measures are columns, and so are the fields
// of the nodes it reaches through joins, named as C names them (`customers.region`, a quoted
// identifier). Measures are columns too: read through MEASURE(m) or the aggregate of their type.
// One description serves the statement translator (what a column means) and the catalog (what
// pg_catalog and information_schema list).
import { instancesFrom } from '../semantic/join-instances.js';
import type { DimensionType, MeasureType, SemanticModel, SemanticNode } from '../semantic/model.js';

export interface SqlColumn {
  /** The column's name as clients write it: `status`, or `customers.region` for a joined node's field. */
  readonly name: string;
  readonly kind: 'dimension' | 'measure';
  /** The field as a semantic query names it (C's `dimensions`/`measures` ids): equal to `name`. */
  readonly field: string;
  /** A dimension's type, or `number` for a measure. */
  readonly type: DimensionType | 'number';
  readonly measureType?: MeasureType;
  readonly label: string;
  readonly description: string;
}

export interface SqlTable {
  /** `public`, or a node's domain. */
  readonly schema: string;
  /** The node's name. */
  readonly name: string;
  readonly node: string;
  readonly description: string;
  readonly columns: readonly SqlColumn[];
}

/** The schema every node is listed in, whatever its domain. */
export const PUBLIC_SCHEMA = 'public';

function columnsOf(model: SemanticModel, node: SemanticNode): SqlColumn[] {
  const columns: SqlColumn[] = [];
  const add = (owner: SemanticNode, prefix: string) => {
    for (const d of owner.dimensions.values()) {
      if (d.hidden) continue;
      columns.push({ name: prefix + d.name, kind: 'dimension', field: prefix + d.name, type: d.type, label: d.label, description: d.description });
    }
    for (const m of owner.measures.values()) {
      if (m.hidden) continue;
      columns.push({ name: prefix + m.name, kind: 'measure', field: prefix + m.name, type: 'number', measureType: m.type, label: m.label, description: m.description });
    }
  };
  add(node, '');
  for (const instance of instancesFrom(model, node.name).values()) {
    // The root itself, and instances reached two ways (a query must name which way: C refuses them too).
    if (instance.depth === 0 || instance.ambiguous) continue;
    const joined = model.nodes.get(instance.node);
    if (joined) add(joined, `${instance.key}.`);
  }
  return columns;
}

/** Every node of the model as a table: once in `public`, and once more in its domain's schema when it has one. */
export function sqlTablesOf(model: SemanticModel): SqlTable[] {
  const tables: SqlTable[] = [];
  for (const node of model.nodes.values()) {
    const columns = columnsOf(model, node);
    const table = { name: node.name, node: node.name, description: node.description, columns };
    tables.push({ schema: PUBLIC_SCHEMA, ...table });
    if (node.domain && node.domain !== PUBLIC_SCHEMA) tables.push({ schema: node.domain, ...table });
  }
  return tables;
}
