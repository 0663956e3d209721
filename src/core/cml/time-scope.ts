// Infers the time scope of the metrics whose block does not say it (docs/cml.md, "Time scope"). A
// question that names no period gets the default window only for a flow (what happened: orders,
// revenue); a stock (what exists: customers, stations) is counted over all time, since "how many
// customers do we have" asks for every account, not those that signed up lately.
//
// A metric is a stock when everything it reads is a measure of its reveal's base, and that base is an
// entity: a node the rows of some event reveal point at. An event reveal is any reveal with a time
// dimension; its base's rows point, through many_to_one joins, at the nodes they happen to (an order
// at its customer, an observation at its station). A node that holds such a reveal's time is where
// its events happen, not what they happen to (orders for a reveal of order lines timed by
// orders.created_at), so it is no entity. Everything else stays a flow: a model says `time_scope:`
// where this reading is wrong.
import type { Metric, Reveal } from '../semantic/model.js';
import type { JoinGraph } from './join-graph.js';

/** Nodes the rows of an event reveal point at, other than where its time is kept. */
export function entityNodes(reveals: Iterable<Reveal>, graph: JoinGraph): Set<string> {
  const entities = new Set<string>();
  for (const reveal of reveals) {
    if (!reveal.time) continue;
    for (const node of graph.manyToOneFrom(reveal.base).values()) {
      if (node !== reveal.base && node !== reveal.time.node) entities.add(node);
    }
  }
  return entities;
}

/**
 * The reveals with the metrics listed in `unwritten` (by reveal) made stocks where the rule above
 * says so; the others are returned as they are.
 */
export function inferTimeScopes(reveals: ReadonlyMap<string, Reveal>, unwritten: ReadonlyMap<string, ReadonlySet<string>>, graph: JoinGraph): Map<string, Reveal> {
  const entities = entityNodes(reveals.values(), graph);
  const result = new Map<string, Reveal>();
  for (const [name, reveal] of reveals) {
    const open = unwritten.get(name) ?? new Set<string>();
    if (open.size === 0 || !reveal.time || !entities.has(reveal.base)) {
      result.set(name, reveal);
      continue;
    }
    const stock = stockTest(reveal, open);
    const metrics = new Map<string, Metric>();
    for (const [metricName, metric] of reveal.metrics) metrics.set(metricName, open.has(metricName) && stock(metricName) ? { ...metric, timeScope: 'stock' } : metric);
    result.set(name, { ...reveal, metrics });
  }
  return result;
}

/**
 * Whether a metric of `reveal` (whose base is an entity) is a stock: one whose scope is written says
 * so itself; one in `open` when it reads only measures of the base, as the base (not through a role),
 * and only metrics that are stocks.
 */
function stockTest(reveal: Reveal, open: ReadonlySet<string>): (name: string) => boolean {
  const known = new Map<string, boolean>();
  const own = (measure: { readonly node: string; readonly role?: string }) => measure.node === reveal.base && measure.role === undefined;
  const test = (name: string): boolean => {
    const metric = reveal.metrics.get(name);
    if (!metric) return false;
    if (!open.has(name)) return metric.timeScope === 'stock';
    const earlier = known.get(name);
    if (earlier !== undefined) return earlier;
    known.set(name, false); // a cycle (reported by the linker, which then drops the model) is no stock
    const parts = metric.expr ?? [];
    const verdict =
      (!metric.measure || own(metric.measure)) &&
      parts.every((part) => (part.kind === 'measure' ? own(part) : part.kind === 'metric' ? test(part.name) : true));
    known.set(name, verdict);
    return verdict;
  };
  return test;
}
