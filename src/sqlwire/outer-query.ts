// An outer query over governed SELECTs (post-processing: arithmetic on measures, CASE, window functions,
// ORDER BY an expression) as the catalog mirror's PostgreSQL runs it. Each governed part has been
// answered on the governed path; in the statement's text its SELECT is replaced by one that reads those
// rows from a JSON parameter, typed as the part's columns are typed everywhere else:
//   (SELECT g.c1 AS "channel", g.c2 AS "revenue" FROM pg_catalog.json_to_recordset($3) AS g(c1 text, c2 numeric))
// so the rest of the statement is PostgreSQL's own to answer, with PostgreSQL's semantics (integer
// division, NULL ordering, window frames) and under the connection's settings, in the mirror's read-only
// transaction: nothing is written, and the warehouse is read only by the governed parts.
import type { OuterStatement } from '../core/sqlapi/classify.js';
import type { GovernedColumn } from '../core/sqlapi/translate.js';
import type { WarehouseRow } from '../core/warehouse/types.js';
import { mirrorColumnType, quoteIdentifier } from './catalog/mirror-schema.js';
import { JSON_OID } from './type-oids.js';

export interface OuterSql {
  /** The statement with each part read from its parameter. */
  readonly sql: string;
  /** The number of each part's JSON parameter, in the order of the parts. */
  readonly partParams: readonly number[];
  /** A 1-based position in `sql` as a position in the statement's own text (a part's start when inside one). */
  readonly originalPosition: (position: number | undefined) => number | undefined;
}

/** The `$n` numbers a statement (or a part of one) uses. */
export function paramNumbers(node: unknown, into = new Set<number>()): Set<number> {
  if (Array.isArray(node)) node.forEach((item) => paramNumbers(item, into));
  else if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'ParamRef') into.add((child as { number?: number }).number ?? 0);
      else paramNumbers(child, into);
    }
  }
  return into;
}

/**
 * The statement to run over the parts' rows. The parts' parameters come after every parameter the
 * client may send (`paramCount`: the most of the statement's highest `$n` and the types it declared).
 */
export function outerSql(statement: OuterStatement, partColumns: ReadonlyArray<readonly GovernedColumn[]>, paramCount: number): OuterSql {
  const partParams = statement.parts.map((_, i) => paramCount + i + 1);
  const replaced = statement.parts.map((part, i) => ({ ...part.span, text: partSelect(partColumns[i]!, partParams[i]!) }));
  let sql = '';
  let at = 0;
  for (const part of replaced) {
    sql += statement.text.slice(at, part.from) + part.text;
    at = part.to;
  }
  sql += statement.text.slice(at);
  return { sql, partParams, originalPosition: (position) => position && originalPosition(position, replaced) };
}

function originalPosition(position: number, replaced: ReadonlyArray<{ from: number; to: number; text: string }>): number {
  let shift = 0;
  for (const part of replaced) {
    const start = part.from + shift; // where the replacement starts in the rewritten text, 0-based
    if (position - 1 < start) break;
    if (position - 1 < start + part.text.length) return part.from + 1;
    shift += part.text.length - (part.to - part.from);
  }
  return position - shift;
}

function partSelect(columns: readonly GovernedColumn[], param: number): string {
  // Positional names inside, the client's names outside: a part may name two columns alike.
  const outputs = columns.map((c, i) => `g.c${i + 1} AS ${quoteIdentifier(c.name)}`);
  const definitions = columns.map((c, i) => `c${i + 1} ${mirrorColumnType(c).name}`);
  return `SELECT ${outputs.join(', ')} FROM pg_catalog.json_to_recordset($${param}::pg_catalog.json) AS g(${definitions.join(', ')})`;
}

/** A part's rows as its JSON parameter: objects keyed by position, values as the warehouse gave them. */
export function partRowsJson(columns: readonly GovernedColumn[], rows: readonly WarehouseRow[]): string {
  return JSON.stringify(rows.map((row) => Object.fromEntries(columns.map((c, i) => [`c${i + 1}`, row[c.field] ?? null]))));
}

/**
 * The type OIDs the mirror is told for the statement's parameters: each client parameter's as given
 * (0: PostgreSQL infers it from the outer query), then the parts' JSON.
 */
export function outerParamTypes(clientTypes: readonly number[], paramCount: number, parts: number): number[] {
  return [...Array.from({ length: paramCount }, (_, i) => clientTypes[i] ?? 0), ...Array.from({ length: parts }, () => JSON_OID)];
}
