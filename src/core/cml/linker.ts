// Links the syntax trees of all files into one SemanticModel. Three passes, so declaration order and
// file boundaries never matter: declare every node (names, properties, members), then resolve each
// node's SQL against all nodes, then link reveals over the join graph (and infer the time scopes no
// metric wrote, which needs every reveal). Everything is reported, nothing stops early; the caller
// drops the model when any error was reported.
import type { Reveal, SemanticModel, SemanticNode } from '../semantic/model.js';
import type { CmlDocument, TopDecl } from './ast.js';
import type { DiagnosticSink } from './diagnostics.js';
import { JoinGraph } from './join-graph.js';
import { declareNode, toSemanticNode, type NodeDraft } from './node-drafts.js';
import { resolveNode } from './node-sql.js';
import { linkReveal } from './reveal-linker.js';
import { linkRollup } from './rollups.js';
import { inferTimeScopes } from './time-scope.js';

export function link(documents: readonly CmlDocument[], sink: DiagnosticSink): SemanticModel {
  const nodeDecls = new Map<string, TopDecl>();
  const revealDecls = new Map<string, TopDecl>();
  const duplicates: TopDecl[] = [];
  for (const document of documents) {
    for (const decl of document.declarations) {
      const seen = decl.kind === 'node' ? nodeDecls : revealDecls;
      const earlier = seen.get(decl.name.name);
      if (!earlier) {
        seen.set(decl.name.name, decl);
        continue;
      }
      const where = `${earlier.name.span.file}:${earlier.name.span.line}`;
      sink.report(decl.kind === 'node' ? 'CML201' : 'CML202', decl.name.span, `${decl.kind} \`${decl.name.name}\` is already declared at ${where}`);
      duplicates.push(decl);
    }
  }

  const nodes = new Map<string, NodeDraft>();
  for (const [name, decl] of nodeDecls) nodes.set(name, declareNode(decl, sink));
  // A duplicate is still checked on its own, so its mistakes show up now rather than after a rename.
  const duplicateNodes = duplicates.filter((d) => d.kind === 'node').map((d) => declareNode(d, sink));
  for (const node of [...nodes.values(), ...duplicateNodes]) {
    resolveNode(node, nodes, sink);
    for (const rollup of node.rollups) linkRollup(rollup, node, sink);
  }

  const graph = new JoinGraph();
  for (const node of nodes.values()) {
    for (const join of node.joins) if (join.connects && join.relationship) graph.addJoin(node.name, join.alias.name, join.target.name, join.relationship);
  }
  const linkedReveals = new Map<string, Reveal>();
  const unwritten = new Map<string, ReadonlySet<string>>();
  for (const [name, decl] of revealDecls) {
    const linkedReveal = linkReveal(decl, nodes, graph, sink);
    linkedReveals.set(name, linkedReveal.reveal);
    unwritten.set(name, linkedReveal.unwritten);
  }
  for (const decl of duplicates) if (decl.kind === 'reveal') linkReveal(decl, nodes, graph, sink);
  const reveals = inferTimeScopes(linkedReveals, unwritten, graph);

  const linked = new Map<string, SemanticNode>();
  if (!sink.hasErrors) for (const [name, node] of nodes) linked.set(name, toSemanticNode(node));
  return { nodes: linked, reveals };
}
