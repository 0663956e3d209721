// Which user attributes decide the rows a model shows, and whether two users see the same rows. A value
// read with one user's attributes may be shown to another only when every attribute a data key of the
// model compares is the same for both: then the compiler adds the same row conditions for either of
// them, whatever the query. Comparing every data key of the model (not only those of the nodes one
// query reads) keeps the rule independent of the query, at the cost of hiding a value a little more
// often in models whose data keys use several attributes.
import type { SemanticModel } from './model.js';

/** The attributes data keys of the model compare, each once, in a fixed order. */
export function dataKeyAttributes(model: SemanticModel): string[] {
  const names = new Set<string>();
  for (const node of model.nodes.values()) for (const key of node.dataKeys) names.add(key.attribute);
  return [...names].sort();
}

/** True when data keys give users with attributes `a` and `b` exactly the same rows of every node. */
export function sameDataKeyRows(model: SemanticModel, a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  // Own properties only: an attribute is absent (fail closed) or a string, never inherited.
  const valueOf = (attributes: Readonly<Record<string, string>>, name: string) => (Object.hasOwn(attributes, name) ? attributes[name] : undefined);
  return dataKeyAttributes(model).every((name) => valueOf(a, name) === valueOf(b, name));
}
