// Which nodes a reveal can reach from its base, following joins in the direction they are declared
// (a join belongs to the node that declares it, as in an explore). A node is "fanned" when every way
// to it crosses a one_to_many join: reading it multiplies the base's rows, so measures of the base
// combined with it would be counted more than once.
import type { Relationship } from '../semantic/model.js';

export interface Reach {
  readonly reachable: ReadonlySet<string>;
  /** Reachable only through a one_to_many join. */
  readonly fanned: ReadonlySet<string>;
}

export class JoinGraph {
  private readonly edges = new Map<string, { to: string; relationship: Relationship }[]>();
  private readonly cache = new Map<string, Reach>();

  addJoin(from: string, to: string, relationship: Relationship): void {
    const list = this.edges.get(from);
    if (list) list.push({ to, relationship });
    else this.edges.set(from, [{ to, relationship }]);
  }

  reachFrom(base: string): Reach {
    let reach = this.cache.get(base);
    if (!reach) {
      const reachable = this.walk(base, () => true);
      const unfanned = this.walk(base, (relationship) => relationship !== 'one_to_many');
      reach = { reachable, fanned: new Set([...reachable].filter((n) => !unfanned.has(n))) };
      this.cache.set(base, reach);
    }
    return reach;
  }

  private walk(base: string, follow: (relationship: Relationship) => boolean): Set<string> {
    const seen = new Set([base]);
    const queue = [base];
    for (let i = 0; i < queue.length; i++) {
      for (const edge of this.edges.get(queue[i]!) ?? []) {
        if (!seen.has(edge.to) && follow(edge.relationship)) {
          seen.add(edge.to);
          queue.push(edge.to);
        }
      }
    }
    return seen;
  }
}
