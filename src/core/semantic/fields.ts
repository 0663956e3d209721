// Resolves the field ids of a query against the model: `field` (the queried node's own),
// `node.field`, and for time dimensions `field.granularity`, `node.field.granularity` or a date part.
import { BadRequestError } from '../errors.js';
import { DATE_PARTS, type DatePart } from '../sql/ast.js';
import { GRANULARITIES, type Dimension, type Granularity, type Measure, type SemanticModel, type SemanticNode } from './model.js';

export interface DimensionRef {
  readonly id: string;
  readonly dimension: Dimension;
  readonly granularity?: Granularity;
  readonly part?: DatePart;
}

export interface MeasureRef {
  readonly id: string;
  readonly measure: Measure;
}

const TIME_TYPES = new Set(['date', 'timestamp']);

export class FieldResolver {
  constructor(
    private readonly model: SemanticModel,
    private readonly base: SemanticNode,
  ) {}

  dimension(id: string): DimensionRef {
    const parts = id.split('.');
    const attempts: Array<{ node: SemanticNode | undefined; field: string; modifier?: string }> = [];
    if (parts.length === 1) attempts.push({ node: this.base, field: parts[0]! });
    if (parts.length === 2) {
      attempts.push({ node: this.model.nodes.get(parts[0]!), field: parts[1]! });
      attempts.push({ node: this.base, field: parts[0]!, modifier: parts[1]! });
    }
    if (parts.length === 3) attempts.push({ node: this.model.nodes.get(parts[0]!), field: parts[1]!, modifier: parts[2]! });

    for (const attempt of attempts) {
      const dimension = attempt.node?.dimensions.get(attempt.field);
      if (!dimension) continue;
      if (!attempt.modifier) return { id, dimension };
      if (!TIME_TYPES.has(dimension.type)) {
        throw new BadRequestError(`Dimension ${dimension.node}.${dimension.name} is of type ${dimension.type}: "${attempt.modifier}" applies only to date and timestamp dimensions`, 'invalid_field');
      }
      if ((GRANULARITIES as readonly string[]).includes(attempt.modifier)) return { id, dimension, granularity: attempt.modifier as Granularity };
      if ((DATE_PARTS as readonly string[]).includes(attempt.modifier)) return { id, dimension, part: attempt.modifier as DatePart };
      throw new BadRequestError(
        `Unknown granularity "${attempt.modifier}" in ${id}; use one of ${GRANULARITIES.join(', ')} or a date part: ${DATE_PARTS.join(', ')}`,
        'invalid_granularity',
      );
    }
    const measure = this.tryMeasure(id);
    if (measure) throw new BadRequestError(`${id} is a measure, not a dimension`, 'invalid_field');
    throw new BadRequestError(`Unknown dimension "${id}"${this.suggest(id, 'dimensions')}`, 'unknown_field');
  }

  measure(id: string): MeasureRef {
    const measure = this.tryMeasure(id);
    if (measure) return { id, measure };
    if (this.isDimension(id)) throw new BadRequestError(`${id} is a dimension, not a measure`, 'invalid_field');
    throw new BadRequestError(`Unknown measure "${id}"${this.suggest(id, 'measures')}`, 'unknown_field');
  }

  /** A filter or sort field: a dimension (with optional granularity) or a measure. */
  field(id: string): { dimension: DimensionRef } | { measure: MeasureRef } {
    const measure = this.tryMeasure(id);
    if (measure) return { measure: { id, measure } };
    return { dimension: this.dimension(id) };
  }

  private tryMeasure(id: string): Measure | undefined {
    const parts = id.split('.');
    if (parts.length === 1) return this.base.measures.get(parts[0]!);
    if (parts.length === 2) return this.model.nodes.get(parts[0]!)?.measures.get(parts[1]!);
    return undefined;
  }

  private isDimension(id: string): boolean {
    try {
      this.dimension(id);
      return true;
    } catch {
      return false;
    }
  }

  private suggest(id: string, kind: 'dimensions' | 'measures'): string {
    const last = id.split('.').at(-1)!;
    const [nodeName] = id.includes('.') ? id.split('.') : [this.base.name];
    const node = this.model.nodes.get(nodeName!) ?? this.base;
    const names = [...node[kind].keys()].filter((name) => !node[kind].get(name)!.hidden);
    const close = names.filter((name) => name.includes(last) || last.includes(name) || editDistance(name, last) <= 2);
    const prefix = node === this.base ? '' : `${node.name}.`;
    if (close.length) return `; did you mean ${close.slice(0, 3).map((n) => prefix + n).join(', ')}?`;
    return names.length ? `; ${node.name} has ${kind}: ${names.slice(0, 12).map((n) => prefix + n).join(', ')}` : '';
  }
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
