// Shared by the CML tests: a small valid model to change, and positions found by searching the source,
// so expected lines and columns never depend on the code under test.
import { expect } from 'vitest';
import { compileModel, DIAGNOSTIC_CODES, type Diagnostic } from './index.js';

export const SHOP = `node customers {
  connection: warehouse
  table: shop.customers
  dimension id { type: number  primary_key: true }
  dimension region { type: string }
  dimension signup_at { type: timestamp }
  measure customer_count { type: count }
}

node orders {
  connection: warehouse
  table: shop.orders
  dimension id { type: number  primary_key: true }
  dimension customer_id { type: number  hidden: true }
  dimension status { type: string }
  dimension amount { type: number }
  dimension created_at { type: timestamp }
  measure order_count { type: count }
  measure revenue { type: sum  sql: \${amount} }
  join customers { relationship: many_to_one  on: \${orders.customer_id} = \${customers.id} }
  #ORDERS#
}
#END#
`;

/** The shop model with `inOrders` inside the orders node and `after` after it. */
export function shop(inOrders = '', after = ''): string {
  return SHOP.replace('#ORDERS#', inOrders).replace('#END#', after);
}

/**
 * 1-based line and column of the `nth` occurrence of `needle` in `source`. A `|` in the needle marks
 * the position wanted inside it: `at(src, 'node |t {')` is where `t` is.
 */
export function at(source: string, marked: string, nth = 1): { line: number; column: number } {
  const offset = Math.max(0, marked.indexOf('|'));
  const needle = marked.replace('|', '');
  let index = -1;
  for (let i = 0; i < nth; i++) {
    index = source.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`test source has no occurrence ${nth} of ${JSON.stringify(needle)}`);
  }
  index += offset;
  const before = source.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

export function diagnosticsOf(source: string, path = 'model.cml'): Diagnostic[] {
  return compileModel([{ path, content: source }]).diagnostics;
}

/** Code, line and column only: what the position tests compare. */
export function positions(diagnostics: readonly Diagnostic[]): { code: string; line: number; column: number }[] {
  return diagnostics.map(({ code, line, column }) => ({ code, line, column }));
}

/** One diagnostic-code case: a small mistake and the exact diagnostics it produces. */
export interface DiagnosticCase {
  code: keyof typeof DIAGNOSTIC_CODES;
  name: string;
  source: string;
  /** Needles whose first occurrence (or `[needle, nth]`) is where each diagnostic must point, in order. */
  expect: Array<[string, string | [string, number]]>;
  message?: RegExp;
}

/**
 * Asserts the full list of diagnostics of a case (not just "contains"), which also proves recovery:
 * one slip, no cascade.
 */
export function expectCase(c: DiagnosticCase): void {
  const diagnostics = diagnosticsOf(c.source);
  const expected = c.expect.map(([code, needle]) => ({ code, ...(typeof needle === 'string' ? at(c.source, needle) : at(c.source, ...needle)) }));
  expect(positions(diagnostics)).toEqual(expected);
  const own = diagnostics.find((d) => d.code === c.code)!;
  expect(own.severity).toBe(DIAGNOSTIC_CODES[c.code].severity);
  if (c.message) expect(own.message).toMatch(c.message);
}
