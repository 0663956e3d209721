// Role-playing joins end to end: one node (regions) joined twice under two role names (ship_from,
// ship_to), compiled from CML, run on DuckDB and compared with hand-written SQL. Unaliased joins keep
// their node's name; a role is a separate table alias, filtered, grouped and data-keyed on its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { compileQuery } from '../../src/core/semantic/compile.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import type { SemanticQueryInput } from '../../src/core/semantic/query.js';
import { semanticQuerySchema } from '../../src/core/semantic/query.js';
import { compileRevealQuery, type RevealQuery } from '../../src/core/semantic/reveal.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { FREIGHT_CML } from './freight-model.js';

const NOW = new Date('2025-06-18T10:00:00Z');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-roles-'));
const file = path.join(dir, 'roles.duckdb');
let warehouse: Warehouse;
let model: SemanticModel;

const SETUP = `
CREATE SCHEMA freight;
CREATE TABLE freight.countries (id INTEGER, name VARCHAR);
INSERT INTO freight.countries VALUES (1, 'USA'), (2, 'Mexico');
CREATE TABLE freight.regions (id INTEGER, code VARCHAR, name VARCHAR, country_id INTEGER, zone VARCHAR);
INSERT INTO freight.regions VALUES (1, 'TX', 'Texas', 1, 'south'), (2, 'CA', 'California', 1, 'west'), (3, 'NL', 'Nuevo Leon', 2, 'south');
CREATE TABLE freight.carriers (id INTEGER, name VARCHAR);
INSERT INTO freight.carriers VALUES (1, 'Acme'), (2, 'Bolt');
CREATE TABLE freight.shipments (id INTEGER, from_region_id INTEGER, to_region_id INTEGER, carrier_id INTEGER, weight_kg DOUBLE, shipped_at TIMESTAMP);
INSERT INTO freight.shipments VALUES
  (1, 1, 2, 1, 10, '2025-06-01'), (2, 1, 2, 2, 20, '2025-06-02'), (3, 2, 1, 1, 5, '2025-06-03'),
  (4, 3, 1, 1, 7, '2025-06-04'), (5, 1, 3, 2, 11, '2025-06-05'), (6, 2, 3, 2, 13, '2025-06-06'),
  (7, 1, NULL, 1, 3, '2025-06-07');
`;

beforeAll(async () => {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  for (const statement of SETUP.split(';').map((s) => s.trim()).filter(Boolean)) await connection.run(statement);
  connection.closeSync();
  instance.closeSync();
  warehouse = openWarehouse({ engine: 'duckdb', path: file });
  const result = compileModel([{ path: 'freight.cml', content: FREIGHT_CML }]);
  expect(result.diagnostics).toEqual([]);
  model = result.model!;
});
afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ALL = { zone: '*' };

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return [...(await warehouse.run(sql, [], { maxRows: 1000, timeoutMs: 10_000 })).rows];
}

async function query(input: SemanticQueryInput, attributes: Record<string, string> = ALL) {
  const compiled = compileQuery(model, semanticQuerySchema.parse(input), { dialect: DIALECTS.duckdb, attributes, now: NOW });
  return { compiled, rows: [...(await warehouse.run(compiled.sql, compiled.params, { maxRows: 1000, timeoutMs: 10_000 })).rows] };
}

async function reveal(input: Partial<RevealQuery>, attributes: Record<string, string> = ALL) {
  const compiled = compileRevealQuery(model, { reveal: 'freight', metrics: [], dimensions: [], filters: [], sorts: [], ...input }, { dialect: DIALECTS.duckdb, attributes, now: NOW });
  return [...(await warehouse.run(compiled.sql, compiled.params, { maxRows: 1000, timeoutMs: 10_000 })).rows];
}

describe('role-playing joins in the linked model', () => {
  it('keep the joined node as `to` and the role as `alias`; a join without a role has no alias', () => {
    const joins = model.nodes.get('shipments')!.joins;
    expect(joins.map((j) => ({ to: j.to, alias: j.alias, synonyms: j.synonyms }))).toEqual([
      { to: 'regions', alias: 'ship_from', synonyms: ['origin', 'Herkunft'] },
      { to: 'regions', alias: 'ship_to', synonyms: ['destination', 'Ziel'] },
      { to: 'carriers', alias: undefined, synonyms: undefined },
    ]);
    // The condition names the joined node by its node; the query binds it to the role's alias.
    expect(joins[1]!.on).toContainEqual({ kind: 'dimension', node: 'regions', name: 'id' });
  });

  it('carry the role of a metric measured on a role', () => {
    expect(model.reveals.get('freight')!.metrics.get('destination_regions')!.measure).toEqual({ node: 'regions', name: 'region_count', role: 'ship_to' });
  });
});

describe('role-playing joins compiled and run on DuckDB', () => {
  it('group by both roles: one table alias per role', async () => {
    const { compiled, rows: got } = await query({ node: 'shipments', dimensions: ['ship_from.code', 'ship_to.code'], measures: ['shipment_count'], sorts: [{ field: 'ship_from.code' }, { field: 'ship_to.code' }] });
    expect(compiled.sql).toMatch(/freight\.regions AS "ship_from"/);
    expect(compiled.sql).toMatch(/freight\.regions AS "ship_to"/);
    expect(compiled.nodes).toEqual(['shipments', 'regions']);
    const expected = await rows(`SELECT f.code AS "ship_from.code", t.code AS "ship_to.code", count(*) AS shipment_count
      FROM freight.shipments s LEFT JOIN freight.regions f ON s.from_region_id = f.id LEFT JOIN freight.regions t ON s.to_region_id = t.id
      GROUP BY 1, 2 ORDER BY 1 NULLS LAST, 2 NULLS LAST`);
    expect(got.map((r) => ({ ...r, shipment_count: Number(r.shipment_count) }))).toEqual(expected.map((r) => ({ ...r, shipment_count: Number(r.shipment_count) })));
  });

  it('filter each role on its own: "from TX to CA" is not "TX or CA"', async () => {
    const { rows: got } = await query({
      node: 'shipments',
      measures: ['weight'],
      filters: [
        { field: 'ship_from.code', operator: 'equals', value: 'TX' },
        { field: 'ship_to.name', operator: 'equals', value: 'California' },
      ],
    });
    const [expected] = await rows(`SELECT sum(weight_kg) AS w FROM freight.shipments WHERE from_region_id = 1 AND to_region_id = 2`);
    expect(Number(got[0]!.weight)).toBe(Number(expected!.w));
    expect(Number(got[0]!.weight)).toBe(30);
  });

  it('follow joins beyond a role under the role: countries of the destination', async () => {
    // Both roles reach `countries` at the same distance: naming it is refused rather than guessed.
    expect(() => compileQuery(model, semanticQuerySchema.parse({ node: 'shipments', dimensions: ['countries.name'], measures: ['shipment_count'] }), { dialect: DIALECTS.duckdb, attributes: ALL, now: NOW })).toThrow(
      expect.objectContaining({ code: 'ambiguous_join' }),
    );
  });

  it('refuse the node name of a node joined only in roles, naming the roles', () => {
    const run = () => compileQuery(model, semanticQuerySchema.parse({ node: 'shipments', dimensions: ['regions.name'], measures: ['shipment_count'] }), { dialect: DIALECTS.duckdb, attributes: ALL, now: NOW });
    expect(run).toThrow(expect.objectContaining({ code: 'ambiguous_join' }));
    expect(run).toThrow(/ship_from.*ship_to/);
  });

  it('keep joins without a role exactly as before: the node name is the alias', async () => {
    const { compiled, rows: got } = await query({ node: 'shipments', dimensions: ['carriers.name'], measures: ['shipment_count'], sorts: [{ field: 'carriers.name' }] });
    expect(compiled.sql).toMatch(/freight\.carriers AS "carriers"/);
    expect(got.map((r) => [r['carriers.name'], Number(r.shipment_count)])).toEqual([
      ['Acme', 4],
      ['Bolt', 3],
    ]);
  });

  it('apply a data key once per role', async () => {
    // zone "south": TX and Nuevo Leon. Both roles must be in the zone.
    const { rows: got } = await query({ node: 'shipments', measures: ['shipment_count'] }, { zone: 'south' });
    const [expected] = await rows(`SELECT count(*) AS n FROM freight.shipments s LEFT JOIN freight.regions f ON s.from_region_id = f.id LEFT JOIN freight.regions t ON s.to_region_id = t.id
      WHERE f.zone = 'south' AND t.zone = 'south'`);
    // A role the query does not touch is not joined, so only roles read count; this query reads none.
    expect(Number(got[0]!.shipment_count)).toBe(7);
    const { rows: both } = await query({ node: 'shipments', dimensions: ['ship_from.code', 'ship_to.code'], measures: ['shipment_count'] }, { zone: 'south' });
    expect(both.reduce((sum, r) => sum + Number(r.shipment_count), 0)).toBe(Number(expected!.n));
  });

  it('answer reveal queries with role dimensions, filters and a metric measured on a role', async () => {
    const got = await reveal({ metrics: ['shipments', 'weight'], dimensions: ['ship_to.name'], filters: [{ field: 'ship_from.code', operator: 'in', value: ['TX', 'CA'] }], sorts: [{ field: 'ship_to.name', direction: 'asc' }] });
    const expected = await rows(`SELECT t.name AS "ship_to.name", count(*) AS shipments, sum(s.weight_kg) AS weight
      FROM freight.shipments s LEFT JOIN freight.regions f ON s.from_region_id = f.id LEFT JOIN freight.regions t ON s.to_region_id = t.id
      WHERE f.code IN ('TX', 'CA') GROUP BY 1 ORDER BY 1 NULLS LAST`);
    expect(got.map((r) => [r['ship_to.name'], Number(r.shipments), Number(r.weight)])).toEqual(expected.map((r) => [r['ship_to.name'], Number(r.shipments), Number(r.weight)]));
    const [destinations] = await reveal({ metrics: ['destination_regions'] });
    // A measure of the role is computed over the role's distinct rows: TX, CA and Nuevo Leon.
    expect(Number(destinations!.destination_regions)).toBe(3);
  });
});
