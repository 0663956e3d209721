// What one value index covers and how it is read. A scope is (workspace, model version, connection, the
// values of the data-key attributes of the nodes whose values it holds): two askers whose attributes
// differ only where no data key looks share one index, and no value read under one set of attributes is
// ever served under another. Values are read through the semantic compiler with the scope's attributes,
// so data keys apply exactly as they do to the asker's own queries.
import { sha256 } from '../crypto/digest.js';
import { reachableNodes, type CatalogIndex } from '../core/answer/catalog-index.js';
import { ValueStore, type ValueColumn } from '../core/answer/value-index.js';
import { ALL_ROWS, compileQuery } from '../core/semantic/compile.js';
import type { SemanticModel } from '../core/semantic/model.js';
import { DIALECTS } from '../core/sql/dialects.js';
import type { Warehouse } from '../core/warehouse/types.js';
import type { ConnectionView } from '../connections/connection-service.js';

/** The nodes and string fields one connection's value index reads: per base node, its fields. */
export interface ScopePlan {
  readonly connection: string;
  /** Data-key attributes of every node whose rows the index reads (bases and joined nodes). */
  readonly attributes: readonly string[];
  /** Field ids relative to each base node, as the planner names them. */
  readonly fields: ReadonlyMap<string, readonly string[]>;
}

/** Per connection, what its index reads: the string dimensions each reveal's base reaches. */
export function scopePlans(model: SemanticModel, index: CatalogIndex): ScopePlan[] {
  const byConnection = new Map<string, { attributes: Set<string>; fields: Map<string, Set<string>> }>();
  for (const indexed of index.reveals) {
    const reveal = model.reveals.get(indexed.name);
    const base = reveal ? model.nodes.get(reveal.base) : undefined;
    if (!reveal || !base) continue;
    const plan = byConnection.get(base.connection) ?? { attributes: new Set<string>(), fields: new Map<string, Set<string>>() };
    byConnection.set(base.connection, plan);
    for (const { node } of reachableNodes(model, base.name)) for (const key of node.dataKeys) plan.attributes.add(key.attribute);
    const fields = plan.fields.get(base.name) ?? new Set<string>();
    plan.fields.set(base.name, fields);
    for (const dimension of indexed.dimensions) if (dimension.type === 'string') fields.add(dimension.field);
  }
  return [...byConnection].map(([connection, plan]) => ({
    connection,
    attributes: [...plan.attributes].sort(),
    fields: new Map([...plan.fields].map(([base, fields]) => [base, [...fields]])),
  }));
}

/** The attributes an asker's values depend on: only those a data key of the scope reads. */
export function scopeAttributes(plan: ScopePlan, attributes: Readonly<Record<string, string>>): Record<string, string> {
  const relevant: Record<string, string> = {};
  for (const name of plan.attributes) if (attributes[name] !== undefined) relevant[name] = attributes[name];
  return relevant;
}

/** Attributes that grant every row of every data key: the scope of the unrestricted asker. */
export function unrestrictedAttributes(plan: ScopePlan): Record<string, string> {
  return Object.fromEntries(plan.attributes.map((name) => [name, ALL_ROWS]));
}

export function scopeKey(workspace: string, version: number, connection: string, attributes: Readonly<Record<string, string>>): string {
  const sorted = Object.keys(attributes)
    .sort()
    .map((name) => [name, attributes[name]]);
  const digest = sha256(JSON.stringify(sorted), 'hex').slice(0, 24);
  return `${workspace}:${version}:${connection}:${digest}`;
}

export interface ReadOptions {
  readonly model: SemanticModel;
  readonly plan: ScopePlan;
  readonly attributes: Readonly<Record<string, string>>;
  readonly connection: ConnectionView;
  readonly warehouse: Warehouse;
  readonly now: Date;
  /** Distinct values read per field at most. */
  readonly perField: number;
  readonly timeoutMs: number;
  /** A field that could not be read; the others are still indexed. */
  readonly onFieldError: (field: string, error: unknown) => void;
}

/** One store per base node; fails only when every field failed (the warehouse is likely down). */
export async function readScope(options: ReadOptions): Promise<Map<string, ValueStore>> {
  const stores = new Map<string, ValueStore>();
  let failed = 0;
  let read = 0;
  let firstError: unknown;
  for (const [base, fields] of options.plan.fields) {
    const columns: ValueColumn[] = [];
    for (const field of fields) {
      try {
        columns.push({ field, values: await readField(options, base, field) });
        read++;
      } catch (error) {
        failed++;
        firstError ??= error;
        options.onFieldError(`${base}.${field}`, error);
      }
    }
    stores.set(base, ValueStore.build(columns));
  }
  if (read === 0 && failed > 0) throw firstError;
  return stores;
}

async function readField(options: ReadOptions, base: string, field: string): Promise<string[]> {
  const compiled = compileQuery(
    options.model,
    { node: base, dimensions: [field], measures: [], filters: [{ field, operator: 'notNull' }], sorts: [{ field, direction: 'asc' }], limit: options.perField },
    { dialect: DIALECTS[options.connection.engine], attributes: options.attributes, now: options.now },
  );
  const { rows } = await options.warehouse.run(compiled.sql, compiled.params, { maxRows: options.perField, timeoutMs: options.timeoutMs });
  const key = compiled.columns[0]!.key;
  const values: string[] = [];
  for (const row of rows) {
    const value = row[key];
    if (typeof value === 'string' && value.trim() !== '') values.push(value);
  }
  return values;
}
