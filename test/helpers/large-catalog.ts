// A catalog of more than 500 metrics for prompt-size checks (planner tests, `npm run bench ask`): the
// demo model grown by 50 reveals of 10 metrics each, whose label words overlap so retrieval has to choose.
import type { Reveal, SemanticModel } from '../../src/core/semantic/model.js';

/** Words of metric labels in the generated catalog: shared words make retrieval choose among many. */
const MEASURE_WORDS = ['revenue', 'orders', 'refunds', 'visits', 'signups', 'returns', 'margin', 'tickets', 'shipments', 'discounts'];

/** The demo model grown to 50 more reveals of 10 metrics each (500 metrics more), all over the orders node. */
export function largeModel(demo: SemanticModel): SemanticModel {
  const sales = demo.reveals.get('sales')!;
  const template = sales.metrics.get('revenue')!;
  const reveals = new Map<string, Reveal>(demo.reveals);
  for (let r = 0; r < 50; r++) {
    const name = `line_${r}`;
    const metrics = new Map(
      MEASURE_WORDS.map((word) => {
        const metric = { ...template, reveal: name, name: `line_${r}_${word}`, label: `Line ${r} ${word}`, description: `The ${word} of product line ${r}.`, synonyms: [`l${r} ${word}`] };
        return [metric.name, metric] as const;
      }),
    );
    reveals.set(name, { ...sales, name, label: `Product line ${r}`, metrics });
  }
  return { nodes: demo.nodes, reveals };
}

