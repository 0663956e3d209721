// The class domains' models (test/answer/classes/) as the offline planner sees them, with the values
// of their string dimensions read from the domains' seeded tables, as the answer service's value index
// would read them: planner tests over models written apart from the planner, without a warehouse.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildCatalogIndex, type CatalogIndex } from '../../src/core/answer/catalog-index.js';
import { planOffline } from '../../src/core/answer/offline-planner.js';
import type { AnswerPlan } from '../../src/core/answer/plan.js';
import { compileModel } from '../../src/core/cml/index.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { CLASS_DOMAINS } from './classes/domains.js';

export interface ClassCatalog {
  readonly model: SemanticModel;
  readonly index: CatalogIndex;
  readonly values: (reveal: string) => ReadonlyMap<string, readonly string[]>;
  readonly plan: (question: string) => AnswerPlan;
}

function load(name: string): ClassCatalog {
  const domain = CLASS_DOMAINS.find((candidate) => candidate.name === name)!;
  const files = readdirSync(domain.modelDir)
    .filter((file) => file.endsWith('.cml'))
    .map((file) => ({ path: file, content: readFileSync(path.join(domain.modelDir, file), 'utf8') }));
  const model = compileModel(files).model!;
  const index = buildCatalogIndex(model);
  const tables = new Map(domain.tables().map((table) => [table.name, table]));
  const columnValues = (table: string, column: string): string[] => {
    const data = tables.get(table);
    const at = data?.columns.findIndex((c) => c.name === column) ?? -1;
    if (!data || at < 0) return [];
    return [...new Set(data.rows.map((row) => row[at]).filter((cell): cell is string => typeof cell === 'string' && cell !== ''))].sort();
  };
  const byReveal = new Map(
    index.reveals.map((reveal) => [
      reveal.name,
      new Map(
        reveal.dimensions
          .filter((dimension) => dimension.type === 'string')
          .map((dimension) => {
            const node = model.nodes.get(dimension.node)!;
            const table = node.source.kind === 'table' ? node.source.table.split('.').pop()! : '';
            return [dimension.field, columnValues(table, dimension.field.split('.').pop()!)] as const;
          }),
      ),
    ]),
  );
  const values = (reveal: string) => byReveal.get(reveal) ?? new Map<string, readonly string[]>();
  return { model, index, values, plan: (question) => planOffline(question, index, { values }) };
}

const loaded = new Map<string, ClassCatalog>();
/** The catalog of a class domain (bikeshare, hotels, remittance), loaded once. */
export function classCatalog(name: 'bikeshare' | 'hotels' | 'remittance'): ClassCatalog {
  let catalog = loaded.get(name);
  if (!catalog) loaded.set(name, (catalog = load(name)));
  return catalog;
}
