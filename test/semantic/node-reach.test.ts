// The nodes a query can read from a node, as Explore offers them (GET /nodes/:node_id/reach): nearest
// first, each by the name its fields are written with, with the path of joins to it. A node two joins
// away through one chain is offered (the demo's order_items → orders → customers); one reached through
// two roles at the same distance is not, naming it being refused; every offered name compiles.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { compileQuery } from '../../src/core/semantic/compile.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { semanticQuerySchema } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';
import { nodeReach } from '../../src/modeling/catalog-views.js';
import { FREIGHT_CML } from './freight-model.js';

const freight = compileModel([{ path: 'freight.cml', content: FREIGHT_CML }]).model!;
let demo: SemanticModel;
beforeAll(async () => {
  demo = compileModel(await readModelDir(DEMO_MODEL_DIR)).model!;
});

const compiles = (model: SemanticModel, node: string, dimension: string) => () =>
  compileQuery(model, semanticQuerySchema.parse({ node, dimensions: [dimension] }), { dialect: DIALECTS.duckdb, attributes: {}, now: new Date('2025-06-18T10:00:00Z') });

describe('nodeReach', () => {
  it('offers a node two joins away by its own name, with the path to it', () => {
    const reach = nodeReach(demo, 'order_items', 2);
    expect(reach.map((r) => [r.name, r.depth, r.path.map((p) => p.name).join(' › '), r.declared])).toEqual([
      ['orders', 1, 'orders', true],
      ['products', 1, 'products', true],
      ['customers', 2, 'orders › customers', true],
    ]);
    expect(reach[2]).toMatchObject({ node: 'customers', label: 'Customers', role: null, path: [{ name: 'orders', node: 'orders', label: 'Orders' }, { name: 'customers', node: 'customers', label: 'Customers' }] });
    expect(compiles(demo, 'order_items', 'customers.segment')).not.toThrow();
    expect(nodeReach(demo, 'order_items', 1).map((r) => r.name)).toEqual(['orders', 'products']);
  });

  it('gives a role its name, leaves out a node behind two roles at once, and marks a join followed against its declaration', () => {
    const reach = nodeReach(freight, 'shipments', 2);
    expect(reach.map((r) => [r.name, r.node, r.role])).toEqual([
      ['ship_from', 'regions', 'ship_from'],
      ['ship_to', 'regions', 'ship_to'],
      ['carriers', 'carriers', null],
    ]);
    expect(compiles(freight, 'shipments', 'ship_to.name')).not.toThrow();
    expect(compiles(freight, 'shipments', 'countries.name')).toThrow(/more than one role/);
    // From customers, orders is reached back along the join orders declares.
    expect(nodeReach(demo, 'customers', 1).map((r) => [r.name, r.declared])).toEqual([['orders', false]]);
  });
});
