// A field id in words, for prose: `customers.ship_region` → "ship region", `ship_to.city` → "ship to city".
import type { SemanticModel } from '../core/semantic/model.js';

export function fieldWords(field: string, model: SemanticModel): string {
  const path = field.split('.');
  const name = path.at(-1)!.replaceAll('_', ' ');
  // A role of a node joined twice ("ship_to.city") names which city: keep it. A node's own name does not.
  const via = path.at(-2);
  return via !== undefined && !model.nodes.has(via) ? `${via.replaceAll('_', ' ')} ${name}` : name;
}
