// Reference cycles among fields of one kind (dimension → dimension, measure → measure, metric → metric).
// Each cycle is reported once, at the reference that closes it, with the whole loop spelled out.
import type { SourceSpan } from '../semantic/model.js';
import type { DiagnosticSink } from './diagnostics.js';

export interface Edge {
  readonly to: string;
  /** Where the reference is written. */
  readonly span: SourceSpan;
}

/** `what` is the kind of thing in the graph, e.g. "dimension". Returns the names that sit on a cycle. */
export function reportCycles(graph: ReadonlyMap<string, readonly Edge[]>, what: string, sink: DiagnosticSink): Set<string> {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const onCycle = new Set<string>();

  const visit = (name: string): void => {
    state.set(name, 'open');
    path.push(name);
    for (const edge of graph.get(name) ?? []) {
      const seen = state.get(edge.to);
      if (seen === 'open') {
        const loop = [...path.slice(path.indexOf(edge.to)), edge.to];
        for (const member of loop) onCycle.add(member);
        sink.report('CML306', edge.span, `${what} cycle: ${loop.map((n) => `\`${n}\``).join(' → ')}`);
      } else if (seen === undefined && graph.has(edge.to)) visit(edge.to);
    }
    path.pop();
    state.set(name, 'done');
  };

  for (const name of graph.keys()) if (!state.has(name)) visit(name);
  return onCycle;
}
