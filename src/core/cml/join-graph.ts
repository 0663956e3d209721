// Which nodes a reveal can reach from its base, following joins in the direction they are declared
// (a join belongs to the node that declares it, as in an explore). A node is reached under the name of
// the join that reaches it: its own name, or the role of a role-playing join (`ship_to` for
// `join ship_to: regions`), so one node reached in two roles is two reachable names. A name is
// "fanned" when every way to it crosses a one_to_many join: reading it multiplies the base's rows, so
// measures of the base combined with it would be counted more than once. Both rules hold per role.
import type { Relationship } from '../semantic/model.js';

export interface Reach {
  /** Name reached (a node's own name or a join role) → the node it reads. */
  readonly reachable: ReadonlyMap<string, string>;
  /** Reachable only through a one_to_many join. */
  readonly fanned: ReadonlySet<string>;
  /**
   * Reached by two chains of joins of one length, one of them through a role (both `ship_from` and
   * `ship_to` join on to `countries`), or beyond such a name: which role is meant cannot be told.
   */
  readonly ambiguous: ReadonlySet<string>;
}

interface Edge {
  readonly alias: string;
  readonly to: string;
  readonly relationship: Relationship;
}

export class JoinGraph {
  private readonly edges = new Map<string, Edge[]>();
  private readonly cache = new Map<string, Reach>();

  /** `alias`: the name the joined node is reached by (its own name when the join names no role). */
  addJoin(from: string, alias: string, to: string, relationship: Relationship): void {
    const list = this.edges.get(from);
    if (list) list.push({ alias, to, relationship });
    else this.edges.set(from, [{ alias, to, relationship }]);
  }

  reachFrom(base: string): Reach {
    let reach = this.cache.get(base);
    if (!reach) {
      const ambiguous = new Set<string>();
      const reachable = this.walk(base, () => true, ambiguous);
      const unfanned = this.walk(base, (relationship) => relationship !== 'one_to_many', new Set());
      reach = { reachable, fanned: new Set([...reachable.keys()].filter((n) => !unfanned.has(n))), ambiguous };
      this.cache.set(base, reach);
    }
    return reach;
  }

  /**
   * The names reached from `base` through many_to_one joins only (`base` itself included), each with
   * the node it reads: the things the base's rows point at, as an order points at its customer.
   */
  manyToOneFrom(base: string): ReadonlyMap<string, string> {
    return this.walk(base, (relationship) => relationship === 'many_to_one', new Set());
  }

  /** Breadth-first, as the query compiler joins: the first chain of joins found to a name is a shortest one. */
  private walk(base: string, follow: (relationship: Relationship) => boolean, ambiguous: Set<string>): Map<string, string> {
    const seen = new Map([[base, base]]);
    const info = new Map([[base, { depth: 0, parent: '', viaRole: false }]]);
    const queue = [base];
    for (let i = 0; i < queue.length; i++) {
      const key = queue[i]!;
      const at = info.get(key)!;
      for (const edge of this.edges.get(seen.get(key)!) ?? []) {
        if (!follow(edge.relationship)) continue;
        const viaRole = at.viaRole || edge.alias !== edge.to;
        const earlier = info.get(edge.alias);
        if (earlier) {
          if (earlier.depth === at.depth + 1 && earlier.parent !== key && (earlier.viaRole || viaRole)) ambiguous.add(edge.alias);
          continue;
        }
        seen.set(edge.alias, edge.to);
        info.set(edge.alias, { depth: at.depth + 1, parent: key, viaRole });
        if (ambiguous.has(key)) ambiguous.add(edge.alias);
        queue.push(edge.alias);
      }
    }
    return seen;
  }
}
