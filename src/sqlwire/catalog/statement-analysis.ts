// A catalog statement read once, on PostgreSQL's own parse tree, for what the mirror needs to know of
// it: the text to run (renamed catalog columns read under their new names, renamed-columns.ts), and
// how its answer can change (catalog-facts.ts):
//   fixed     the same statement, parameters and settings always get the same answer from a mirror,
//             whose contents never change: the answer may be kept;
//   varying   it reads the clock, the transaction or the backend (now(), CURRENT_DATE, 'today',
//             pg_backend_pid(), the statistics views): run every time;
//   volatile  it calls a volatile function (random(), pg_advisory_lock(), query_to_xml(), nextval()…),
//             or one nothing is known of, or it is not a SELECT (PREPARE, EXPLAIN, a transaction's
//             COMMIT): run every time, and the session reset after it.
// The analysis depends on the text alone, so it is kept per text (a client sends the same few).
import { parseSync, type Node } from 'libpg-query';
import { LRUCache } from 'lru-cache';
import { mostVolatile, type CatalogFacts, type Volatility } from './catalog-facts.js';
import { applyEdits, newRenameScan, originalPosition, renameEdits, scanForRenames, type TextEdit } from './renamed-columns.js';

export interface StatementAnalysis {
  /** The text the mirror runs. */
  readonly text: string;
  readonly volatility: Volatility;
  /** A position PostgreSQL gives in `text`, as a position in the client's text. */
  originalPosition(position: number): number;
}

/** Date and time input that reads the clock: `'now'::timestamptz`, `date 'today'`, a parameter 'tomorrow'. */
const CLOCK_WORDS = /\b(now|today|tomorrow|yesterday)\b/i;

/** The date and time types a text can be read as (by the cast's input function). */
const DATETIME_TYPES = new Set(['date', 'time', 'timetz', 'timestamp', 'timestamptz']);

/** True when a parameter's text would read the clock if the statement reads it as a date or time. */
export function readsClock(value: string | null): boolean {
  return value !== null && CLOCK_WORDS.test(value);
}

function stringsOf(list: unknown): string[] {
  return Array.isArray(list) ? list.flatMap((item: Node) => ('String' in item ? [item.String.sval ?? ''] : [])) : [];
}

/** How one node of the tree can change the answer, by its kind (the walk visits every node). */
function nodeVolatility(kind: string, node: Record<string, unknown>, facts: CatalogFacts): Volatility {
  if (kind.endsWith('Stmt') && kind !== 'SelectStmt') return 'volatile';
  switch (kind) {
    case 'FuncCall':
      return facts.function(stringsOf(node.funcname).at(-1) ?? '');
    case 'RangeTableSample':
      // The sampling method is a function too (system, bernoulli: volatile).
      return facts.function(stringsOf(node.method).at(-1) ?? '');
    case 'ColumnRef':
      // `t.f` may be f(t): every name after the first may be a function (column notation).
      return stringsOf(node.fields)
        .slice(1)
        .reduce<Volatility>((most, name) => mostVolatile(most, facts.columnOrFunction(name)), 'fixed');
    case 'A_Indirection':
      return stringsOf(node.indirection).reduce<Volatility>((most, name) => mostVolatile(most, facts.columnOrFunction(name)), 'fixed');
    case 'RangeVar':
      return facts.relation(node.schemaname as string | undefined, (node.relname as string | undefined) ?? '');
    case 'SQLValueFunction':
      // CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME, LOCALTIMESTAMP; not CURRENT_USER and the like.
      return /DATE|TIME/.test(String(node.op)) ? 'varying' : 'fixed';
    case 'A_Const': {
      const text = (node.sval as { sval?: string } | undefined)?.sval;
      return text !== undefined && CLOCK_WORDS.test(text) ? 'varying' : 'fixed';
    }
    case 'TypeCast': {
      // A constant's text is checked as a constant; any other text read as a date or time may say 'now'.
      const type = stringsOf((node.typeName as { names?: unknown } | undefined)?.names).at(-1) ?? '';
      return DATETIME_TYPES.has(type) && !(node.arg && 'A_Const' in (node.arg as Node)) ? 'varying' : 'fixed';
    }
    default:
      return 'fixed';
  }
}

/** The analysis of one statement's text. */
export function analyzeStatement(sql: string, facts: CatalogFacts): StatementAnalysis {
  let stmts: ReturnType<typeof parseSync>['stmts'];
  try {
    stmts = parseSync(sql).stmts;
  } catch {
    stmts = undefined;
  }
  // Not one statement PostgreSQL's parser reads: run as it is (PostgreSQL reports what is wrong), never kept.
  if (stmts?.length !== 1) return { text: sql, volatility: 'volatile', originalPosition: (p) => p };
  const renames = newRenameScan();
  let volatility: Volatility = 'fixed';
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const fields = value as Record<string, unknown>;
    for (const key in fields) {
      const child = fields[key];
      if (child === null || typeof child !== 'object') continue;
      // A node is `{ Kind: fields }` (a capital first); an Alias is held by its owner's `alias` field as it is.
      const code = key.charCodeAt(0);
      if (code >= 65 && code <= 90 && !Array.isArray(child)) {
        volatility = mostVolatile(volatility, nodeVolatility(key, child as Record<string, unknown>, facts));
        scanForRenames(renames, key, child as Record<string, unknown>);
      } else if (key === 'alias') {
        scanForRenames(renames, 'Alias', child as Record<string, unknown>);
      }
      visit(child);
    }
  };
  const top = stmts[0]!.stmt;
  if (!top || !('SelectStmt' in top) || top.SelectStmt.intoClause) volatility = 'volatile';
  visit(top);
  let edits: TextEdit[];
  try {
    edits = renameEdits(sql, renames);
  } catch {
    // The scanner refused a text the parser read (not met): run as it is, PostgreSQL reports the column.
    edits = [];
  }
  return {
    text: applyEdits(sql, edits),
    volatility,
    originalPosition: edits.length === 0 ? (p) => p : (p) => originalPosition(sql, edits, p),
  };
}

/** Statements analysed at most, and their text kept at most (characters). */
const MAX_ANALYSES = 2_000;
const MAX_ANALYSIS_CHARS = 4_000_000;

/** The analyses of the statements sent to the mirrors of one template (its facts), kept per text. */
export class CatalogStatements {
  private readonly analyses = new LRUCache<string, StatementAnalysis>({
    max: MAX_ANALYSES,
    maxSize: MAX_ANALYSIS_CHARS,
    sizeCalculation: (analysis, sql) => sql.length + (analysis.text === sql ? 0 : analysis.text.length) + 1,
  });

  constructor(private readonly facts: CatalogFacts) {}

  /** The analysis of a text analysed before, if it still is kept. */
  known(sql: string): StatementAnalysis | undefined {
    return this.analyses.get(sql);
  }

  analysis(sql: string): StatementAnalysis {
    let analysis = this.analyses.get(sql);
    if (!analysis) {
      analysis = analyzeStatement(sql, this.facts);
      this.analyses.set(sql, analysis);
    }
    return analysis;
  }
}
