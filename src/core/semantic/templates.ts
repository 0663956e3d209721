// Turns resolved CML templates into SQL tree expressions: table references become the alias of the
// node instance they stand for, dimension references expand to the dimension's own expression, measure
// references (inside derived measures) to the referenced measure's aggregate. An instance is a node
// read under its own name or under a join alias (`ship_to` for `join ship_to: regions`): a part's
// `role` names it, else the binding of the template being expanded does, else the node's own name.
import { col, raw, type Expr } from '../sql/ast.js';
import type { Dimension, Measure, SemanticModel, SqlPart, SqlTemplate } from './model.js';

const MAX_DEPTH = 32; // the linker rejects cycles; this only stops a malformed model from recursing forever

/** Which instance each node named in a template stands for. */
export type Binding = (node: string) => string;

export const OWN_NAMES: Binding = (node) => node;

/** `node` read as `instance`; every other node under its own name. */
export function bindNode(node: string, instance: string): Binding {
  return instance === node ? OWN_NAMES : (name) => (name === node ? instance : name);
}

export class TemplateExpander {
  constructor(
    private readonly model: SemanticModel,
    /** How a measure reference renders (its aggregate, or a column of an inner query), per instance. */
    private readonly measureRef: (measure: Measure, instance: string) => Expr = () => {
      throw new Error('Measure references are not allowed here');
    },
  ) {}

  expand(template: SqlTemplate, depth = 0, binding: Binding = OWN_NAMES): Expr {
    if (depth > MAX_DEPTH) throw new Error('SQL template nesting too deep');
    const instance = (part: Extract<SqlPart, { node: string }>) => part.role ?? binding(part.node);
    const items: Expr[] = template.map((part) => {
      switch (part.kind) {
        case 'text':
          return raw(part.text);
        case 'table':
          return col(undefined, instance(part));
        case 'dimension':
          return { kind: 'paren', expr: this.expand(this.dimension(part.node, part.name).sql, depth + 1, bindNode(part.node, instance(part))) };
        case 'measure':
          return { kind: 'paren', expr: this.measureRef(this.measure(part.node, part.name), instance(part)) };
        case 'metric':
          throw new Error('Metric references are compiled by the reveal compiler');
      }
    });
    return items.length === 1 ? items[0]! : { kind: 'seq', items };
  }

  dimension(node: string, name: string): Dimension {
    const found = this.model.nodes.get(node)?.dimensions.get(name);
    if (!found) throw new Error(`Model references unknown dimension ${node}.${name}`);
    return found;
  }

  measure(node: string, name: string): Measure {
    const found = this.model.nodes.get(node)?.measures.get(name);
    if (!found) throw new Error(`Model references unknown measure ${node}.${name}`);
    return found;
  }
}
