// Completion of bare column names in the SQL editor: the columns of the tables the statement names
// (after FROM or JOIN, and in a FROM list), offered as a word is typed. lang-sql completes a column
// only after a table or alias and a dot; this adds the bare `status` in `SELECT status FROM orders`.
// The statement is read with a few patterns, not parsed: it is only completion, and a table it misses
// leaves the other completions as they were.
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';

export interface SchemaTable {
  schema: string;
  name: string;
  columns: Array<{ name: string; type: string }>;
}

const IDENT = String.raw`(?:"[^"]+"|\`[^\`]+\`|[A-Za-z_][\w$]*)`;
const QUALIFIED = new RegExp(String.raw`^\s*(${IDENT}(?:\s*\.\s*${IDENT}){0,2})`);
const FROM_OR_JOIN = /\b(?:from|join)\b/gi;
// Words that end a table reference instead of naming its alias.
const NOT_ALIAS = new Set(['where', 'group', 'order', 'having', 'limit', 'join', 'on', 'using', 'union', 'left', 'right', 'inner', 'outer', 'cross', 'full', 'natural', 'window', 'qualify', 'offset', 'fetch', 'except', 'intersect', 'lateral', 'select']);

const unquote = (part: string) => part.trim().replace(/^["`]|["`]$/g, '');

/** The tables a statement reads, as written (`shop.orders`, `orders`), without its aliases. */
export function tablesNamed(sql: string): string[] {
  const found: string[] = [];
  for (const keyword of sql.matchAll(FROM_OR_JOIN)) {
    let rest = sql.slice(keyword.index + keyword[0].length);
    for (;;) {
      const name = QUALIFIED.exec(rest);
      if (!name) break;
      found.push(name[1]!.split('.').map(unquote).join('.'));
      rest = rest.slice(name[0].length);
      // An alias (with or without AS), then a comma for the next table of a FROM list.
      const alias = /^\s+(?:as\s+)?([A-Za-z_][\w$]*|"[^"]+")/i.exec(rest);
      if (alias && !NOT_ALIAS.has(alias[1]!.toLowerCase())) rest = rest.slice(alias[0].length);
      const comma = /^\s*,/.exec(rest);
      if (!comma) break;
      rest = rest.slice(comma[0].length);
    }
  }
  return [...new Set(found)];
}

/** The schema's tables a name given in SQL means: `schema.table`, or `table` in any schema; any case. */
function tablesMeant(name: string, tables: readonly SchemaTable[]): SchemaTable[] {
  const parts = name.toLowerCase().split('.');
  const table = parts.at(-1)!;
  const schema = parts.length > 1 ? parts.at(-2) : undefined;
  return tables.filter((t) => t.name.toLowerCase() === table && (schema === undefined || t.schema.toLowerCase() === schema));
}

/** The columns to offer for a statement: one option per name, saying which tables have it. */
export function columnOptions(sql: string, tables: readonly SchemaTable[]): Completion[] {
  const byName = new Map<string, { type: string; tables: string[] }>();
  for (const name of tablesNamed(sql)) {
    for (const table of tablesMeant(name, tables)) {
      for (const column of table.columns) {
        const entry = byName.get(column.name) ?? { type: column.type, tables: [] };
        entry.tables.push(table.name);
        byName.set(column.name, entry);
      }
    }
  }
  // Ranked above keywords and table names: in a statement that names its tables, a column is the likelier word.
  return [...byName].map(([label, { type, tables: from }]) => ({ label, type: 'property', detail: `${type.toLowerCase()} · ${[...new Set(from)].join(', ')}`, boost: 1 }));
}

/** The completion source: bare words only; after a dot, lang-sql's own table and alias completion answers. */
export function bareColumnCompletion(tables: () => readonly SchemaTable[]): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[\w$]+/);
    const from = word ? word.from : context.pos;
    if (!word && !context.explicit) return null;
    const before = context.state.sliceDoc(Math.max(0, from - 1), from);
    if (before === '.' || before === '"' || before === "'") return null;
    const options = columnOptions(context.state.doc.toString(), tables());
    return options.length ? { from, options, validFor: /^[\w$]*$/ } : null;
  };
}
