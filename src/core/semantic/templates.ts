// Turns resolved CML templates into SQL tree expressions: table references become the node's alias,
// dimension references expand to the dimension's own expression, measure references (inside derived
// measures) to the referenced measure's aggregate.
import { col, raw, type Expr } from '../sql/ast.js';
import type { Dimension, Measure, SemanticModel, SqlTemplate } from './model.js';

const MAX_DEPTH = 32; // the linker rejects cycles; this only stops a malformed model from recursing forever

export class TemplateExpander {
  constructor(
    private readonly model: SemanticModel,
    /** How a measure reference renders (its aggregate, or a column of an inner query). */
    private readonly measureRef: (measure: Measure) => Expr = () => {
      throw new Error('Measure references are not allowed here');
    },
  ) {}

  expand(template: SqlTemplate, depth = 0): Expr {
    if (depth > MAX_DEPTH) throw new Error('SQL template nesting too deep');
    const items: Expr[] = template.map((part) => {
      switch (part.kind) {
        case 'text':
          return raw(part.text);
        case 'table':
          return col(undefined, part.node);
        case 'dimension':
          return { kind: 'paren', expr: this.expand(this.dimension(part.node, part.name).sql, depth + 1) };
        case 'measure':
          return { kind: 'paren', expr: this.measureRef(this.measure(part.node, part.name)) };
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
