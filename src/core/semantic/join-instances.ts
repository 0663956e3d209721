// The nodes a query can read from a root node, each under the name it is reached by. A join without an
// alias reaches its node under the node's own name, as it always has; a role-playing join
// (`join ship_to: regions`) reaches it under the alias, so one node can be read twice in one query
// (`ship_from.name`, `ship_to.name`) under two table aliases. Breadth-first, so each name is reached
// by a shortest chain of joins; ties between two chains keep the first declared, except when a chain
// crosses a role: then the name is ambiguous (which role's `countries`?) and naming it is refused.
import type { Join, SemanticModel } from './model.js';

export interface Instance {
  /** The name fields are reached by (`ship_to` in `ship_to.name`) and the table alias in SQL. */
  readonly key: string;
  readonly node: string;
  readonly depth: number;
  /** How it is reached: absent for the root. */
  readonly via?: InstanceEdge;
  /** Reached at the same depth through two chains, at least one through a role. */
  readonly ambiguous: boolean;
}

export interface InstanceEdge {
  readonly parent: string;
  readonly join: Join;
  /** Followed in its declared direction (from `join.from` to `join.to`). */
  readonly forward: boolean;
}

/** The name a join reaches its node by: its alias, or the node's own name. */
export function joinAlias(join: Join): string {
  return join.alias ?? join.to;
}

/** True when the join names a role (its alias differs from the node it joins). */
export function isRoleJoin(join: Join): boolean {
  return joinAlias(join) !== join.to;
}

interface Step {
  readonly key: string;
  readonly node: string;
  readonly join: Join;
  readonly forward: boolean;
}

/**
 * Per node, the joins that leave it, in the order the model declares them (forward entries on the
 * declaring node, reverse entries on the joined one). A role join is followed only forward: seen from
 * `regions`, `orders` would be reached through `ship_from` or `ship_to`, and guessing would be wrong.
 */
function steps(model: SemanticModel): Map<string, Step[]> {
  const graph = new Map<string, Step[]>();
  const add = (from: string, step: Step) => graph.set(from, [...(graph.get(from) ?? []), step]);
  for (const node of model.nodes.values()) {
    for (const join of node.joins) {
      add(join.from, { key: joinAlias(join), node: join.to, join, forward: true });
      if (!isRoleJoin(join)) add(join.to, { key: join.from, node: join.from, join, forward: false });
    }
  }
  return graph;
}

interface Draft {
  key: string;
  node: string;
  depth: number;
  via?: InstanceEdge;
  ambiguous: boolean;
  /** The chain from the root crosses a role join. */
  viaRole: boolean;
}

export function instancesFrom(model: SemanticModel, root: string): ReadonlyMap<string, Instance> {
  const graph = steps(model);
  const found = new Map<string, Draft>([[root, { key: root, node: root, depth: 0, ambiguous: false, viaRole: false }]]);
  const queue = [root];
  // Every instance of depth d is found while instances of depth d-1 are expanded, before any instance
  // of depth d is: an ambiguity is known before its instance's own joins are followed.
  for (let i = 0; i < queue.length; i++) {
    const current = found.get(queue[i]!)!;
    for (const step of graph.get(current.node) ?? []) {
      const viaRole = current.viaRole || (step.forward && isRoleJoin(step.join));
      const seen = found.get(step.key);
      if (seen) {
        const tie = seen.depth === current.depth + 1 && seen.via?.parent !== current.key;
        if (tie && (seen.viaRole || viaRole)) seen.ambiguous = true;
        continue;
      }
      found.set(step.key, {
        key: step.key,
        node: step.node,
        depth: current.depth + 1,
        via: { parent: current.key, join: step.join, forward: step.forward },
        ambiguous: current.ambiguous,
        viaRole,
      });
      queue.push(step.key);
    }
  }
  return new Map([...found].map(([key, { viaRole: _viaRole, ...instance }]) => [key, instance]));
}

/** How the join condition of `edge` names its two nodes: each node → the instance it stands for. */
export function edgeBinding(edge: InstanceEdge, child: string): (node: string) => string {
  const fromKey = edge.forward ? edge.parent : child;
  const toKey = edge.forward ? child : edge.parent;
  return (node) => (node === edge.join.from ? fromKey : node === edge.join.to ? toKey : node);
}

/** Names the roles a node is reached in, when it is not reached under its own name. */
export function rolesOf(instances: ReadonlyMap<string, Instance>, node: string): string[] {
  return [...instances.values()].filter((i) => i.node === node && i.key !== node).map((i) => i.key);
}
