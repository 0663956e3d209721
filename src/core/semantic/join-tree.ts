// The joins a query needs: the shortest path from the queried node to every node instance it touches,
// merged into a tree rooted at the queried node. Instances are named as join-instances.ts reaches them
// (a node's own name, or the alias of a role-playing join), so one node may appear twice under two
// aliases. Each edge knows in which direction it multiplies rows, so the compiler can tell which
// measures a join would count more than once (fan-out).
import { BadRequestError } from '../errors.js';
import { edgeBinding, instancesFrom, rolesOf, type Instance } from './join-instances.js';
import type { SemanticModel, SqlTemplate } from './model.js';

export interface TreeEdge {
  readonly parent: string;
  readonly child: string;
  readonly on: SqlTemplate;
  /** Which instance each node named in `on` stands for. */
  readonly binding: (node: string) => string;
  /** A parent row can meet many child rows. */
  readonly fansOutToChild: boolean;
  /** A child row can meet many parent rows. */
  readonly fansOutToParent: boolean;
}

export interface JoinTree {
  readonly root: string;
  /** Instances in join order: the root first, every other one after its parent. */
  readonly nodes: readonly string[];
  /** The node each instance reads. */
  readonly nodeOf: ReadonlyMap<string, string>;
  /** The edge that brings each non-root instance in. */
  readonly edges: ReadonlyMap<string, TreeEdge>;
}

/** `needed`: instance names (a node's name, or a join alias). Pass `instances` when already computed. */
export function buildJoinTree(model: SemanticModel, root: string, needed: Iterable<string>, instances = instancesFrom(model, root)): JoinTree {
  const edges = new Map<string, TreeEdge>();
  for (const target of needed) {
    if (target === root) continue;
    const found = instances.get(target);
    if (!found || found.ambiguous) {
      const roles = rolesOf(instances, target);
      if (roles.length) {
        throw new BadRequestError(`Node ${target} is joined to ${root} only in roles (${roles.join(', ')}): name the role, e.g. ${roles[0]}.<field>`, 'ambiguous_join');
      }
      if (!found) throw new BadRequestError(`Node ${target} cannot be joined to ${root}: no chain of joins connects them`, 'unjoinable');
    }
    if (found.ambiguous) {
      throw new BadRequestError(`${target} is reached from ${root} through more than one role at the same distance; which one is meant cannot be told`, 'ambiguous_join');
    }
    for (let key = target; key !== root && !edges.has(key); ) {
      const instance: Instance = instances.get(key)!;
      const via = instance.via!;
      const forwardMany = via.join.relationship === 'one_to_many';
      const backwardMany = via.join.relationship === 'many_to_one';
      edges.set(key, {
        parent: via.parent,
        child: key,
        on: via.join.on,
        binding: edgeBinding(via, key),
        fansOutToChild: via.forward ? forwardMany : backwardMany,
        fansOutToParent: via.forward ? backwardMany : forwardMany,
      });
      key = via.parent;
    }
  }
  // Parents before children: order by depth.
  const depth = (key: string): number => instances.get(key)!.depth;
  const nodes = [root, ...[...edges.keys()].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))];
  return { root, nodes, nodeOf: new Map(nodes.map((key) => [key, instances.get(key)!.node])), edges };
}

/** True when some join of the tree, seen from `instance`, can meet one of its rows with many rows. */
export function multipliesRowsOf(tree: JoinTree, instance: string): boolean {
  const ancestors = new Set<string>();
  for (let current = instance; current !== tree.root; current = tree.edges.get(current)!.parent) ancestors.add(current);
  for (const edge of tree.edges.values()) {
    // Seen from `instance`, an edge is crossed towards the parent when it is in the child's subtree.
    const towardsParent = ancestors.has(edge.child);
    if (towardsParent ? edge.fansOutToParent : edge.fansOutToChild) return true;
  }
  return false;
}
