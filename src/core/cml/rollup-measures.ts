// What a measure needs stored in a rollup, and whether stored groups can be combined into coarser ones
// exactly. Sums and counts add up, minimums and maximums of minimums and maximums are exact; an average
// is kept as its sum and its count; a distinct count does not add up (a customer buying on two days is
// one customer in the month), so it is kept but answers only at the rollup's own grain and dimensions.
// Measures computed from others (`number`, ratio) are recomputed from their inputs read back from the
// rollup, so they fit when their inputs do and inherit "exact grain only" from any of them. One thing
// cannot be recomputed: a formula that itself aggregates source rows (`${revenue} / count(*)`).
import { AGGREGATE_CALL } from '../semantic/aggregate-calls.js';
import type { RollupColumn, RollupMeasure } from '../semantic/rollup-model.js';
import type { MeasureDraft, NodeDraft } from './node-drafts.js';

export type MeasureColumn = Extract<RollupColumn, { kind: 'measure' }>;

export interface StoredMeasures {
  /** Listed measures, then the inputs they use, each once. */
  readonly measures: RollupMeasure[];
  readonly columns: MeasureColumn[];
}

/** Why a measure cannot be in a rollup: the measure at fault (the listed one or an input) and the reason. */
export interface Refusal {
  readonly measure: string;
  readonly why: string;
}

export class RollupMeasureReader {
  private readonly measures = new Map<string, RollupMeasure>();
  private readonly columns: MeasureColumn[] = [];
  private readonly refused = new Map<string, Refusal>();
  /** Listed measures in the order written (an input may be stored before it is listed). */
  private readonly listed: string[] = [];

  constructor(private readonly node: NodeDraft) {}

  /** Adds a listed measure (with the inputs it uses); returns why it cannot be stored, if so. */
  add(name: string): Refusal | undefined {
    const refusal = this.visit(name, true, new Set());
    if (!refusal) this.listed.push(name);
    return refusal;
  }

  stored(): StoredMeasures {
    const listed = this.listed.map((name) => this.measures.get(name)!);
    return { measures: [...listed, ...[...this.measures.values()].filter((m) => !m.listed)], columns: this.columns };
  }

  private visit(name: string, listed: boolean, path: Set<string>): Refusal | undefined {
    const known = this.measures.get(name);
    if (known) {
      if (listed && !known.listed) this.measures.set(name, { ...known, listed: true });
      return undefined;
    }
    const refused = this.refused.get(name);
    if (refused) return refused;
    const measure = this.node.measures.get(name);
    // A cycle or a measure without a type is reported where it is declared; nothing more to say here.
    if (!measure?.type || path.has(name)) return { measure: name, why: '' };
    const refusal = this.store(name, measure, listed, new Set([...path, name]));
    if (refusal) this.refused.set(name, refusal);
    return refusal;
  }

  private store(name: string, measure: MeasureDraft, listed: boolean, path: Set<string>): Refusal | undefined {
    switch (measure.type) {
      case 'sum':
      case 'count':
      case 'min':
      case 'max':
        this.column(name, name, measure.type, measure.type === 'count' ? 'sum' : measure.type);
        this.measures.set(name, { name, listed, exactGrainOnly: false, read: { kind: 'column', column: name } });
        return undefined;
      case 'count_distinct':
        this.column(name, name, 'count_distinct', 'none');
        this.measures.set(name, { name, listed, exactGrainOnly: true, read: { kind: 'column', column: name } });
        return undefined;
      case 'avg':
        this.column(`${name}__sum`, name, 'sum', 'sum');
        this.column(`${name}__count`, name, 'count', 'sum');
        this.measures.set(name, { name, listed, exactGrainOnly: false, read: { kind: 'average', sum: `${name}__sum`, count: `${name}__count` } });
        return undefined;
      default:
        return this.derived(name, measure, listed, path);
    }
  }

  /** A `number` or ratio measure: its inputs must fit, and its own text must not aggregate rows. */
  private derived(name: string, measure: MeasureDraft, listed: boolean, path: Set<string>): Refusal | undefined {
    const template = measure.sql ?? [];
    const text = template.map((part) => (part.kind === 'text' ? part.text : ' ')).join('');
    const call = AGGREGATE_CALL.exec(text);
    if (call) {
      return {
        measure: name,
        why: `its formula calls \`${call[1]}(…)\` over the source rows itself, which stored groups cannot redo; make that aggregate a measure of the node and use it in the formula`,
      };
    }
    const inputs = [...new Set(template.flatMap((part) => (part.kind === 'measure' && part.node === this.node.name ? [part.name] : [])))];
    for (const input of inputs) {
      const refusal = this.visit(input, false, path);
      if (refusal) return refusal;
    }
    const exactGrainOnly = inputs.some((input) => this.measures.get(input)?.exactGrainOnly === true);
    this.measures.set(name, { name, listed, exactGrainOnly, read: { kind: 'derived', inputs } });
    return undefined;
  }

  private column(column: string, measure: string, aggregate: MeasureColumn['aggregate'], reaggregate: MeasureColumn['reaggregate']): void {
    this.columns.push({ kind: 'measure', name: column, measure, aggregate, reaggregate });
  }
}
