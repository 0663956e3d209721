// Resolves the field ids of a query against the model: `field` (the queried node's own),
// `node.field` or `role.field` (a node joined under an alias, `ship_to.name`), and for time dimensions
// `field.granularity`, `node.field.granularity` or a date part.
import { BadRequestError } from '../errors.js';
import { DATE_PARTS, type DatePart } from '../sql/ast.js';
import { instancesFrom, rolesOf, type Instance } from './join-instances.js';
import { GRANULARITIES, type Dimension, type Granularity, type Measure, type SemanticModel, type SemanticNode } from './model.js';

export interface DimensionRef {
  readonly id: string;
  readonly dimension: Dimension;
  /** The instance read: the node's own name, or the join alias it is reached by. */
  readonly instance: string;
  readonly granularity?: Granularity;
  readonly part?: DatePart;
}

export interface MeasureRef {
  readonly id: string;
  readonly measure: Measure;
  /** The instance read: the node's own name, or the join alias it is reached by. */
  readonly instance: string;
}

const TIME_TYPES = new Set(['date', 'timestamp']);

export class FieldResolver {
  private reached: ReadonlyMap<string, Instance> | undefined;

  constructor(
    private readonly model: SemanticModel,
    private readonly base: SemanticNode,
  ) {}

  /** Every instance the base reaches, by the name it is reached under. */
  get instances(): ReadonlyMap<string, Instance> {
    this.reached ??= instancesFrom(this.model, this.base.name);
    return this.reached;
  }

  /**
   * The node a prefix names and the instance it reads: a name the base reaches (a join alias or a
   * node's own name), else a node of the model (a query naming one the base cannot reach is refused
   * when the joins are built, with the reason).
   */
  private target(prefix: string): { node: SemanticNode | undefined; instance: string } {
    const reached = this.instances.get(prefix);
    if (reached) return { node: this.model.nodes.get(reached.node), instance: prefix };
    return { node: this.model.nodes.get(prefix), instance: prefix };
  }

  dimension(id: string): DimensionRef {
    const parts = id.split('.');
    const attempts: Array<{ node: SemanticNode | undefined; instance: string; field: string; modifier?: string }> = [];
    const base = { node: this.base, instance: this.base.name };
    if (parts.length === 1) attempts.push({ ...base, field: parts[0]! });
    if (parts.length === 2) {
      attempts.push({ ...this.target(parts[0]!), field: parts[1]! });
      attempts.push({ ...base, field: parts[0]!, modifier: parts[1]! });
    }
    if (parts.length === 3) attempts.push({ ...this.target(parts[0]!), field: parts[1]!, modifier: parts[2]! });

    for (const attempt of attempts) {
      const dimension = attempt.node?.dimensions.get(attempt.field);
      if (!dimension) continue;
      const instance = attempt.instance;
      if (!attempt.modifier) return { id, dimension, instance };
      if (!TIME_TYPES.has(dimension.type)) {
        throw new BadRequestError(`Dimension ${dimension.node}.${dimension.name} is of type ${dimension.type}: "${attempt.modifier}" applies only to date and timestamp dimensions`, 'invalid_field');
      }
      if ((GRANULARITIES as readonly string[]).includes(attempt.modifier)) return { id, dimension, instance, granularity: attempt.modifier as Granularity };
      if ((DATE_PARTS as readonly string[]).includes(attempt.modifier)) return { id, dimension, instance, part: attempt.modifier as DatePart };
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
    const found = this.tryMeasure(id);
    if (found) return { id, ...found };
    if (this.isDimension(id)) throw new BadRequestError(`${id} is a dimension, not a measure`, 'invalid_field');
    throw new BadRequestError(`Unknown measure "${id}"${this.suggest(id, 'measures')}`, 'unknown_field');
  }

  /** A filter or sort field: a dimension (with optional granularity) or a measure. */
  field(id: string): { dimension: DimensionRef } | { measure: MeasureRef } {
    const found = this.tryMeasure(id);
    if (found) return { measure: { id, ...found } };
    return { dimension: this.dimension(id) };
  }

  private tryMeasure(id: string): { measure: Measure; instance: string } | undefined {
    const parts = id.split('.');
    const { node, instance, field } =
      parts.length === 1 ? { node: this.base, instance: this.base.name, field: parts[0]! } : parts.length === 2 ? { ...this.target(parts[0]!), field: parts[1]! } : {};
    const measure = field === undefined ? undefined : node?.measures.get(field);
    return measure && instance ? { measure, instance } : undefined;
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
    const [prefix0] = id.includes('.') ? id.split('.') : [this.base.name];
    const roles = id.includes('.') && !this.instances.has(prefix0!) ? rolesOf(this.instances, prefix0!) : [];
    if (roles.length) return `; ${prefix0} is joined in roles: name one, e.g. ${roles.map((r) => `${r}.${last}`).join(', ')}`;
    const target = this.target(prefix0!);
    const node = target.node ?? this.base;
    const names = [...node[kind].keys()].filter((name) => !node[kind].get(name)!.hidden);
    const close = names.filter((name) => name.includes(last) || last.includes(name) || editDistance(name, last) <= 2);
    const prefix = node === this.base ? '' : `${target.node ? target.instance : node.name}.`;
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
