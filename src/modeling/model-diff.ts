// Which nodes a deploy changes: added, removed, or defined differently (locations aside).
import type { SemanticModel, SemanticNode } from '../core/semantic/model.js';

function fingerprint(node: SemanticNode): string {
  return JSON.stringify(node, (key, value: unknown) => {
    if (key === 'span' || key === 'file') return undefined;
    if (value instanceof Map) return Object.fromEntries(value);
    return value;
  });
}

export function changedNodes(before: SemanticModel, after: SemanticModel): string[] {
  const names = new Set([...before.nodes.keys(), ...after.nodes.keys()]);
  return [...names]
    .filter((name) => {
      const a = before.nodes.get(name);
      const b = after.nodes.get(name);
      return !a || !b || fingerprint(a) !== fingerprint(b);
    })
    .sort();
}
