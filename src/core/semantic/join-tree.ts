// The joins a query needs: the shortest path from the queried node to every node it touches, merged
// into a tree rooted at the queried node. Each edge knows in which direction it multiplies rows, so the
// compiler can tell which measures a join would count more than once (fan-out).
import { BadRequestError } from '../errors.js';
import type { SemanticModel, SqlTemplate } from './model.js';

export interface TreeEdge {
  readonly parent: string;
  readonly child: string;
  readonly on: SqlTemplate;
  /** A parent row can meet many child rows. */
  readonly fansOutToChild: boolean;
  /** A child row can meet many parent rows. */
  readonly fansOutToParent: boolean;
}

export interface JoinTree {
  readonly root: string;
  /** Nodes in join order: the root first, every other node after its parent. */
  readonly nodes: readonly string[];
  /** The edge that brings each non-root node in. */
  readonly edges: ReadonlyMap<string, TreeEdge>;
}

interface Neighbour {
  node: string;
  on: SqlTemplate;
  toMany: boolean;
  fromMany: boolean;
}

function neighbours(model: SemanticModel): Map<string, Neighbour[]> {
  const graph = new Map<string, Neighbour[]>();
  const add = (from: string, entry: Neighbour) => graph.set(from, [...(graph.get(from) ?? []), entry]);
  for (const node of model.nodes.values()) {
    for (const join of node.joins) {
      const forwardMany = join.relationship === 'one_to_many';
      const backwardMany = join.relationship === 'many_to_one';
      add(join.from, { node: join.to, on: join.on, toMany: forwardMany, fromMany: backwardMany });
      add(join.to, { node: join.from, on: join.on, toMany: backwardMany, fromMany: forwardMany });
    }
  }
  return graph;
}

export function buildJoinTree(model: SemanticModel, root: string, needed: Iterable<string>): JoinTree {
  const graph = neighbours(model);
  // Breadth-first from the root: the first path found to each node is a shortest one.
  const via = new Map<string, { from: string; edge: Neighbour }>();
  const seen = new Set([root]);
  const queue = [root];
  while (queue.length) {
    const current = queue.shift()!;
    for (const next of graph.get(current) ?? []) {
      if (seen.has(next.node)) continue;
      seen.add(next.node);
      via.set(next.node, { from: current, edge: next });
      queue.push(next.node);
    }
  }

  const edges = new Map<string, TreeEdge>();
  for (const target of needed) {
    if (target === root) continue;
    if (!seen.has(target)) {
      throw new BadRequestError(`Node ${target} cannot be joined to ${root}: no chain of joins connects them`, 'unjoinable');
    }
    for (let node = target; node !== root && !edges.has(node); ) {
      const step = via.get(node)!;
      edges.set(node, {
        parent: step.from,
        child: node,
        on: step.edge.on,
        fansOutToChild: step.edge.toMany,
        fansOutToParent: step.edge.fromMany,
      });
      node = step.from;
    }
  }
  // Parents before children: order by depth.
  const depth = (node: string): number => (node === root ? 0 : 1 + depth(edges.get(node)!.parent));
  const nodes = [root, ...[...edges.keys()].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))];
  return { root, nodes, edges };
}

/** True when some join of the tree, seen from `node`, can meet one of its rows with many rows. */
export function multipliesRowsOf(tree: JoinTree, node: string): boolean {
  const ancestors = new Set<string>();
  for (let current = node; current !== tree.root; current = tree.edges.get(current)!.parent) ancestors.add(current);
  for (const edge of tree.edges.values()) {
    // Seen from `node`, an edge is crossed towards the parent when `node` is in the child's subtree.
    const towardsParent = ancestors.has(edge.child);
    if (towardsParent ? edge.fansOutToParent : edge.fansOutToChild) return true;
  }
  return false;
}
