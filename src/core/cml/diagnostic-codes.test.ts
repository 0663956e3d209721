// One case per diagnostic code: the exact diagnostics a small mistake produces, with line and column.
// Asserting the full list (not just "contains") also proves recovery: one slip, no cascade.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModel, DIAGNOSTIC_CODES } from './index.js';
import { at, expectCase, positions, shop, SHOP, type DiagnosticCase } from './test-helpers.js';

const CASES: DiagnosticCase[] = [
  // Syntax.
  { code: 'CML001', name: 'a character no token starts with', source: shop('dimension odd { type: string  @ }'), expect: [['CML001', '@']] },
  {
    code: 'CML001',
    name: 'a name with letters outside a-z',
    source: shop('', 'reveal r { domain: d  base: orders\n  metric m { measure: order_count  synonyms: [Käufer] } }'),
    expect: [['CML001', 'K|äufer']],
    message: /Käufer/,
  },
  { code: 'CML002', name: 'an unterminated string', source: shop('dimension s { type: string\n  label: "Status\n }'), expect: [['CML002', '"Status']] },
  { code: 'CML002', name: 'an unterminated """', source: shop('', 'node x { connection: w\n sql: """ select 1 \n'), expect: [['CML005', 'node x |{'], ['CML002', '"""']] },
  { code: 'CML003', name: 'a reference with three parts', source: shop('dimension x { type: string  sql: ${orders.status.x} }'), expect: [['CML003', '${orders.status.x}']] },
  { code: 'CML003', name: 'an empty reference', source: shop('dimension x { type: string  sql: upper(${ }) }'), expect: [['CML003', '${ }']] },
  { code: 'CML004', name: 'a misspelled top-level keyword', source: `nod orders {\n  connection: w\n}\n`, expect: [['CML004', 'nod']], message: /did you mean `node`/ },
  {
    code: 'CML004',
    name: 'a property without its colon',
    source: shop('dimension x { type text }'),
    expect: [['CML104', 'dimension |x {'], ['CML004', 'text }']],
  },
  {
    code: 'CML005',
    name: 'a member block that is never closed',
    source: shop('dimension x { type: string\n  dimension y { type: string }'),
    expect: [['CML005', 'dimension x |{']],
  },
  { code: 'CML005', name: 'a list that is never closed', source: shop('', 'node t { connection: w  table: t\n  tags: [a, b\n  label: "T"\n}'), expect: [['CML005', '[a']] },
  { code: 'CML006', name: 'a property without a value', source: shop('dimension x { type: string\n  label:\n }'), expect: [['CML006', 'label:']] },
  { code: 'CML006', name: 'sql without SQL', source: shop('dimension x { type: string  sql: }'), expect: [['CML006', 'sql: }']] },
  {
    code: 'CML007',
    name: 'a property after one-line SQL',
    source: shop('measure total { type: sum  sql: ${amount}  format: currency }'),
    expect: [['CML007', 'format:']],
  },

  // Properties.
  { code: 'CML101', name: 'an unknown property', source: shop('dimension x { type: string  lable: "X" }'), expect: [['CML101', 'lable']], message: /did you mean `label`/ },
  { code: 'CML102', name: 'a name where true/false is wanted', source: shop('dimension x { type: string  hidden: yes }'), expect: [['CML102', 'yes']] },
  { code: 'CML102', name: 'a name where a string is wanted', source: shop('dimension x { type: string  label: Status }'), expect: [['CML102', 'Status']] },
  { code: 'CML103', name: 'an unknown dimension type', source: shop('dimension x { type: strng }'), expect: [['CML103', 'strng']], message: /did you mean `string`/ },
  { code: 'CML103', name: 'an unknown relationship', source: shop('', 'node t { connection: warehouse  table: t\n  dimension id { type: number }\n  join orders { relationship: many_to_many  on: ${t.id} = ${orders.id} }\n}'), expect: [['CML103', 'many_to_many']] },
  { code: 'CML104', name: 'a node without connection', source: shop('', 'node t {\n  table: t\n}'), expect: [['CML104', 'node |t {']] },
  { code: 'CML104', name: 'a sum measure without sql', source: shop('measure total { type: sum }'), expect: [['CML104', 'total']] },
  { code: 'CML104', name: 'a metric without measure or expr', source: shop('', 'reveal r { domain: d  base: orders\n  metric m { label: "M" } }'), expect: [['CML104', 'metric |m {']] },
  { code: 'CML105', name: 'a node with table and sql', source: shop('', 'node t { connection: w  table: t\n  sql: select 1\n}'), expect: [['CML105', 'sql: select']] },
  {
    code: 'CML105',
    name: 'a metric with measure and expr',
    source: shop('', 'reveal r { domain: d  base: orders\n  metric m { measure: order_count\n    expr: ${order_count} } }'),
    expect: [['CML105', 'expr:']],
  },
  { code: 'CML106', name: 'a property set twice', source: shop('dimension x { type: string  label: "A"  label: "B" }'), expect: [['CML106', ['label', 2]]] },
  {
    code: 'CML104',
    name: 'a ratio without its denominator',
    source: shop('measure share { type: ratio  numerator: revenue }'),
    expect: [['CML104', 'measure |share']],
    message: /needs `denominator:`/,
  },
  {
    code: 'CML104',
    name: 'a ratio without numerator nor denominator',
    source: shop('measure share { type: ratio  format: percent }'),
    expect: [
      ['CML104', 'measure |share'],
      ['CML104', 'measure |share'],
    ],
    message: /needs `numerator:`/,
  },
  {
    code: 'CML107',
    name: 'a ratio with sql',
    source: shop('measure share { type: ratio  numerator: revenue  denominator: order_count\n    sql: ${revenue} / ${order_count}\n  }'),
    expect: [['CML107', 'sql: ${revenue}']],
    message: /takes no `sql:`.*`type: number`/,
  },
  {
    code: 'CML107',
    name: 'a numerator on a measure that is not a ratio',
    source: shop('measure share { type: sum  numerator: revenue  sql: ${amount} }'),
    expect: [['CML107', 'numerator:']],
    message: /`numerator:` is for `type: ratio`/,
  },

  // Names.
  { code: 'CML203', name: 'a measure named like a dimension', source: shop('measure status { type: count }'), expect: [['CML203', 'measure |status']] },
  {
    code: 'CML204',
    name: 'a metric declared twice',
    source: shop('', 'reveal r { domain: d  base: orders\n  metric m { measure: order_count }\n  metric m { measure: revenue } }'),
    expect: [['CML204', ['metric |m {', 2]]],
  },
  { code: 'CML205', name: 'a node joining the same node twice', source: shop('join customers { relationship: many_to_one  on: ${customer_id} = ${customers.id} }'), expect: [['CML205', ['join |customers {', 2]]] },
  {
    code: 'CML205',
    name: 'two join roles with one name',
    source: shop('join buyer: customers { relationship: many_to_one  on: ${customer_id} = ${buyer.id} }\n  join buyer: customers { relationship: many_to_one  on: ${customer_id} = ${buyer.id} }'),
    expect: [['CML205', ['join |buyer:', 2]]],
    message: /own name/,
  },
  {
    code: 'CML205',
    name: 'a join role named like another join of the node',
    source: shop('join customers: accounts { relationship: many_to_one  on: ${customer_id} = ${customers.id} }', 'node accounts { connection: warehouse  table: t\n  dimension id { type: number } }'),
    expect: [['CML205', 'join |customers: accounts']],
  },
  {
    code: 'CML205',
    name: 'a node joined twice without roles, with how to name them',
    source: shop('join customers { relationship: many_to_one  on: ${customer_id} = ${customers.id} }'),
    expect: [['CML205', ['join |customers {', 2]]],
    message: /join ship_from: customers/,
  },
  {
    code: 'CML206',
    name: 'a join role that names another node',
    source: shop('join accounts: customers { relationship: many_to_one  on: ${customer_id} = ${accounts.id} }', 'node accounts { connection: warehouse  table: t\n  dimension id { type: number } }'),
    expect: [['CML206', 'join |accounts:']],
    message: /another node/,
  },
  {
    code: 'CML206',
    name: 'a join role called TABLE',
    source: shop('join TABLE: customers { relationship: many_to_one  on: ${customer_id} = ${customers.id} }'),
    expect: [['CML206', 'join |TABLE']],
  },
  {
    code: 'CML004',
    name: 'a role name on a member that is not a join',
    source: shop('dimension kind: string { type: string }'),
    expect: [['CML004', 'kind|: string']],
    message: /only a join takes a role/,
  },
  {
    code: 'CML004',
    name: 'a join role without its node',
    source: shop('join buyer: { relationship: many_to_one }'),
    expect: [['CML004', 'buyer: |{']],
  },
  { code: 'CML205', name: 'a data key declared twice', source: shop('data_key k { dimension: status  attribute: s }\n  data_key k { dimension: status  attribute: t }'), expect: [['CML205', ['data_key |k {', 2]]] },

  // References.
  {
    code: 'CML301',
    name: 'a join role to an unknown node',
    source: shop('join buyer: custmers { relationship: many_to_one  on: ${customer_id} = ${buyer.id} }'),
    expect: [['CML301', 'buyer: |custmers']],
    message: /did you mean `customers`/,
  },
  {
    code: 'CML307',
    name: 'a join condition naming a role that is not declared',
    source: shop('join buyer: customers { relationship: many_to_one  on: ${customer_id} = ${buyr.id} AND ${buyer.id} > 0 }'),
    expect: [['CML307', 'buyr']],
    message: /did you mean `buyer`/,
  },
  {
    code: 'CML307',
    name: 'a metric naming a role the base does not reach',
    source: shop('join buyer: customers { relationship: many_to_one  on: ${customer_id} = ${buyer.id} }', 'reveal r { domain: d  base: orders\n  metric m { measure: buyr.customer_count } }'),
    expect: [['CML307', 'buyr']],
    message: /did you mean `buyer`/,
  },
  {
    code: 'CML504',
    name: 'a metric on a node two roles reach at one distance',
    source: SHOP.replace('join customers {', 'join buyer: customers {')
      .replace('#ORDERS#', 'join payer: customers { relationship: many_to_one  on: ${customer_id} = ${payer.id} }')
      .replace('measure customer_count { type: count }', 'measure customer_count { type: count }\n  dimension country_id { type: number }\n  join countries { relationship: many_to_one  on: ${country_id} = ${countries.id} }')
      .replace('#END#', 'node countries { connection: warehouse  table: t\n  dimension id { type: number }\n  measure n { type: count } }\nreveal r { domain: d  base: orders\n  metric m { measure: countries.n } }'),
    expect: [['CML504', 'countries.n']],
    message: /more than one join role/,
  },
  {
    code: 'CML504',
    name: 'a metric naming by its node a node joined only in roles',
    source: SHOP.replace('join customers {', 'join buyer: customers {').replace('#ORDERS#', '').replace('#END#', 'reveal r { domain: d  base: orders\n  metric m { measure: customers.customer_count } }'),
    expect: [['CML504', 'customers.customer_count']],
    message: /only in roles \(buyer\)/,
  },
  { code: 'CML301', name: 'a join to an unknown node', source: shop('join custmers { relationship: many_to_one  on: ${customer_id} = 1 }'), expect: [['CML301', 'custmers']], message: /did you mean `customers`/ },
  { code: 'CML301', name: 'a reveal on an unknown base', source: shop('', 'reveal r { domain: d  base: order }'), expect: [['CML301', 'base: |order }']], message: /did you mean `orders`/ },
  {
    code: 'CML302',
    name: 'a column that is not a declared dimension',
    source: shop('', 'node t { connection: warehouse  table: t\n  dimension id { type: number }\n  join orders { relationship: many_to_one  on: ${t.order_id} = ${orders.id} }\n}'),
    expect: [['CML302', '${t.|order_id}']],
    message: /declare `dimension order_id/,
  },
  { code: 'CML302', name: 'a data key on an unknown dimension', source: shop('data_key region { dimension: regoin  attribute: region }'), expect: [['CML302', 'regoin']] },
  {
    code: 'CML303',
    name: 'an unknown name in a metric expr',
    source: shop('', 'reveal r { domain: d  base: orders\n  metric m { expr: ${revenu} / 2 } }'),
    expect: [['CML303', '${|revenu}']],
    message: /did you mean `revenue`/,
  },
  { code: 'CML304', name: 'a measure in a dimension', source: shop('dimension x { type: number  sql: ${revenue} + 1 }'), expect: [['CML304', '${|revenue} + 1']] },
  { code: 'CML304', name: 'another node in a dimension', source: shop('dimension x { type: string  sql: ${customers.region} }'), expect: [['CML304', '${customers.region} }']] },
  { code: 'CML304', name: 'a dimension in a number measure', source: shop('measure x { type: number  sql: ${amount} / 2 }'), expect: [['CML304', '${|amount} / 2']] },
  {
    code: 'CML302',
    name: 'a ratio of an unknown measure',
    source: shop('measure share { type: ratio  numerator: revenu  denominator: order_count }'),
    expect: [['CML302', 'revenu  denominator']],
    message: /no measure `revenu`; did you mean `revenue`/,
  },
  {
    code: 'CML304',
    name: "a ratio of another node's measure",
    source: shop('measure share { type: ratio  numerator: order_count  denominator: customers.customer_count }'),
    expect: [['CML304', 'customers.customer_count }']],
    message: /its own node `orders`/,
  },
  { code: 'CML304', name: 'a reference in a node sql source', source: shop('', 'node t { connection: warehouse\n  sql: select * from ${orders.TABLE}\n}'), expect: [['CML304', '${orders.TABLE}']] },
  { code: 'CML305', name: 'a metric reading a dimension', source: shop('', 'reveal r { domain: d  base: orders\n  metric m { measure: orders.status } }'), expect: [['CML305', 'orders.|status }']] },
  {
    code: 'CML306',
    name: 'dimensions referencing each other',
    source: shop('dimension a { type: number  sql: ${b} + 1 }\n  dimension b { type: number  sql: ${a} - 1 }'),
    expect: [['CML306', '${a}']],
    message: /`a` → `b` → `a`/,
  },
  {
    code: 'CML305',
    name: 'a ratio over a dimension',
    source: shop('measure share { type: ratio  numerator: revenue  denominator: amount }'),
    expect: [['CML305', 'amount }']],
    message: /`amount` is a dimension/,
  },
  {
    code: 'CML306',
    name: 'a ratio of itself',
    source: shop('measure share { type: ratio  numerator: share  denominator: order_count }'),
    expect: [['CML306', 'numerator: |share']],
    message: /`share` → `share`/,
  },
  {
    code: 'CML306',
    name: 'two ratios dividing each other',
    source: shop('measure a { type: ratio  numerator: b  denominator: order_count }\n  measure b { type: ratio  numerator: revenue  denominator: a }'),
    expect: [['CML306', 'denominator: |a }']],
    message: /`a` → `b` → `a`/,
  },
  {
    code: 'CML306',
    name: 'metrics referencing each other',
    source: shop('', 'reveal r { domain: d  base: orders\n  metric m { expr: ${n} }\n  metric n { expr: ${m} * 2 } }'),
    expect: [['CML306', '${m} * 2']],
  },

  // Types.
  { code: 'CML401', name: 'a sum of a string dimension', source: shop('measure x { type: sum  sql: ${status} }'), expect: [['CML401', '${status} }']] },
  {
    code: 'CML402',
    name: 'a filter on a number measure',
    source: shop('measure x {\n    type: number\n    sql: ${revenue} / 2\n    filter: ${status} = \'x\'\n  }'),
    expect: [['CML402', 'filter:']],
  },
  {
    code: 'CML402',
    name: 'a filter on a ratio',
    source: shop("measure share { type: ratio  numerator: revenue  denominator: order_count\n    filter: ${status} = 'x'\n  }"),
    expect: [['CML402', 'filter:']],
  },
  { code: 'CML403', name: 'a time dimension that is a string', source: shop('', 'reveal r { domain: d  base: orders  time: orders.status }'), expect: [['CML403', 'orders.|status }']] },
  {
    code: 'CML404',
    name: 'a stock in a reveal without a time dimension',
    source: shop('', 'reveal r { domain: d  base: orders\n  metric m { measure: order_count  time_scope: stock } }'),
    expect: [['CML404', 'stock }']],
    message: /`time_scope: stock` needs the reveal's `time:`/,
  },
  {
    code: 'CML404',
    name: '`snapshot: false` in a reveal without a time dimension',
    source: shop('', 'reveal r { domain: d  base: orders\n  metric m { measure: order_count  snapshot: false } }'),
    expect: [['CML404', 'false }']],
  },
  {
    code: 'CML405',
    name: 'a ratio of the latest time',
    source: shop('measure latest { type: max  sql: ${created_at} }\n  measure odd { type: ratio  numerator: latest  denominator: order_count }'),
    expect: [['CML405', 'numerator: |latest']],
    message: /`latest` is the max of the timestamp dimension `created_at`, not a number/,
  },
  {
    code: 'CML103',
    name: 'an unknown time scope',
    source: shop('', 'reveal r { domain: d  base: orders  time: created_at\n  metric m { measure: order_count  time_scope: stocks } }'),
    expect: [['CML103', 'stocks }']],
    message: /did you mean `stock`/,
  },
  {
    code: 'CML105',
    name: '`snapshot: true` beside another time scope',
    source: shop('', 'reveal r { domain: d  base: orders  time: created_at\n  metric m {\n    measure: order_count\n    snapshot: true\n    time_scope: flow\n  }\n}'),
    expect: [['CML105', 'time_scope: flow']],
  },

  // Joins and reveals.
  { code: 'CML501', name: 'a join condition that ignores the joined node', source: shop('', 'node t { connection: warehouse  table: t\n  dimension id { type: number }\n  join orders { relationship: many_to_one  on: ${t.id} = 1 }\n}'), expect: [['CML501', '${t.id} = 1']] },
  {
    code: 'CML502',
    name: 'a join across connections',
    source: shop('', 'node t { connection: lake  table: t\n  dimension id { type: number }\n  join orders { relationship: many_to_one  on: ${t.id} = ${orders.id} }\n}'),
    expect: [['CML502', 'join |orders { relationship']],
  },
  { code: 'CML503', name: 'a node joining itself', source: shop('join orders { relationship: one_to_one  on: ${id} = ${orders.id} }'), expect: [['CML503', 'join |orders { relationship']] },
  {
    code: 'CML504',
    name: 'a metric on a node the base does not reach',
    source: shop('', 'reveal r { domain: d  base: customers\n  metric m { measure: orders.revenue } }'),
    expect: [['CML504', 'orders.revenue }']],
  },
];

describe('diagnostic codes', () => {
  for (const c of CASES) {
    it(`${c.code}: ${c.name}`, () => expectCase(c));
  }

  it('CML201 and CML202: nodes and reveals declared twice across files, each at the second name', () => {
    const a = shop('', 'reveal sales { domain: d  base: orders }');
    const b = 'node orders { connection: warehouse  table: t }\nreveal sales { domain: d  base: orders }\n';
    const result = compileModel([
      { path: 'a.cml', content: a },
      { path: 'b.cml', content: b },
    ]);
    expect(result.model).toBeUndefined();
    expect(result.diagnostics.map(({ code, file, line, column }) => ({ code, file, line, column }))).toEqual([
      { code: 'CML201', file: 'b.cml', line: 1, column: 6 },
      { code: 'CML202', file: 'b.cml', line: 2, column: 8 },
    ]);
    expect(result.diagnostics[0]!.message).toContain('a.cml:10');
  });

  it('CML505: metrics on both sides of a one_to_many join warn, and the model still compiles', () => {
    const source = shop(
      'join items { relationship: one_to_many  on: ${orders.id} = ${items.order_id} }',
      'node items { connection: warehouse  table: shop.order_items\n  dimension order_id { type: number }\n  measure item_count { type: count }\n}\n' +
        'reveal r { domain: d  base: orders\n  metric orders { measure: order_count }\n  metric items { measure: items.item_count } }',
    );
    const result = compileModel([{ path: 'model.cml', content: source }]);
    expect(positions(result.diagnostics)).toEqual([{ code: 'CML505', ...at(source, 'items.item_count') }]);
    expect(result.diagnostics[0]!.severity).toBe('warning');
    expect(result.model?.reveals.get('r')?.metrics.size).toBe(2);
  });

  it('every code has a case here and a section in docs/cml.md', () => {
    // CML601 is tested in src/core/semantic/units.test.ts, beside the list of units; CML602-605 in
    // src/core/answer/vocabulary-check.test.ts, beside the planner's normalisation; CML207 and
    // CML701-707 in rollup-diagnostics.test.ts, beside the other rollup mistakes.
    const rollups = ['CML207', 'CML701', 'CML702', 'CML703', 'CML704', 'CML705', 'CML706', 'CML707'];
    const covered = new Set([...CASES.map((c) => c.code), ...rollups, 'CML201', 'CML202', 'CML505', 'CML601', 'CML602', 'CML603', 'CML604', 'CML605']);
    const docs = readFileSync(path.resolve(import.meta.dirname, '../../../docs/cml.md'), 'utf8');
    for (const code of Object.keys(DIAGNOSTIC_CODES)) {
      expect(covered, code).toContain(code);
      expect(docs, code).toMatch(new RegExp(`^### ${code}\\b`, 'm'));
    }
  });
});
