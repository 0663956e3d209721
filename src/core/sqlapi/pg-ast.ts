// PostgreSQL's own parse tree (libpg-query) as the SQL interface reads it: parsing with syntax errors
// as PostgreSQL reports them, typed access to the tree's `{ Kind: fields }` nodes, and positions.
// libpg-query gives node locations in bytes of the UTF-8 text but error cursors in characters;
// PostgreSQL's ErrorResponse counts characters from 1, so both are converted here.
import { parseSync, type Node, type RawStmt } from 'libpg-query';
import { loadPostgresParser } from '../sql/guard/postgres.js';
import { SqlStateError, SYNTAX_ERROR } from './sql-state-error.js';

/** Loads PostgreSQL's parser (WASM) once; the classifier and translator are synchronous after it. */
export const loadSqlParser = loadPostgresParser;

type KindsOf<T> = T extends unknown ? keyof T : never;
export type NodeKind = KindsOf<Node>;
export type NodeOf<K extends NodeKind> = Extract<Node, Record<K, unknown>>[K];

/** The node's fields when it is of `kind`. */
export function nodeAs<K extends NodeKind>(node: Node | undefined, kind: K): NodeOf<K> | undefined {
  return node !== undefined && kind in node ? (node as unknown as Record<K, NodeOf<K>>)[kind] : undefined;
}

export function kindOf(node: Node): NodeKind {
  return Object.keys(node)[0] as NodeKind;
}

/** The strings of a name list (`funcname`, `fields`, `names`); other items (A_Star) as undefined. */
export function namesOf(list: readonly Node[] | undefined): Array<string | undefined> {
  return (list ?? []).map((item) => nodeAs(item, 'String')?.sval);
}

/** The byte offset PostgreSQL's parser gives for a node, when it gives one. */
export function locationOf(node: Node | undefined): number | undefined {
  if (node === undefined) return undefined;
  const fields = Object.values(node)[0] as { location?: unknown } | undefined;
  return typeof fields?.location === 'number' && fields.location >= 0 ? fields.location : undefined;
}

/** True when `text` is all ASCII, where bytes and characters count alike. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The 1-based character position of a byte offset of `text`, as ErrorResponse field P counts. */
export function positionAt(text: string, byteOffset: number | undefined): number | undefined {
  if (byteOffset === undefined) return undefined;
  if (isAscii(text)) return byteOffset + 1;
  const prefix = Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8');
  return [...prefix].length + 1;
}

/** The text between two byte offsets of `text`. */
export function sliceBytes(text: string, start: number, end?: number): string {
  if (isAscii(text)) return text.slice(start, end);
  return Buffer.from(text, 'utf8').subarray(start, end).toString('utf8');
}

/** The character (code point) count of the first `byteOffset` bytes of `text`. */
export function charsBefore(text: string, byteOffset: number): number {
  return positionAt(text, byteOffset)! - 1;
}

interface ParserError {
  message?: string;
  sqlDetails?: { message?: string; cursorPosition?: number };
}

/**
 * The statements of `sql` as PostgreSQL parses them; a syntax error is 42601 at the character
 * PostgreSQL's parser stopped at, and nothing of the text is taken (as PostgreSQL does for a simple
 * query: the whole string is parsed before any statement runs).
 */
export function parseStatements(sql: string): RawStmt[] {
  if (sql.trim() === '') return [];
  try {
    return parseSync(sql).stmts ?? [];
  } catch (error) {
    const details = (error as ParserError).sqlDetails;
    const message = details?.message ?? (error as ParserError).message ?? 'syntax error';
    const cursor = details?.cursorPosition;
    throw new SqlStateError(SYNTAX_ERROR, message, undefined, typeof cursor === 'number' && cursor >= 0 ? cursor + 1 : undefined);
  }
}

/** A PostgreSQL identifier as it must be written to mean `name` (quoted unless plain lower case). */
export function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) && !RESERVED.has(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

// Reserved words a column could plausibly be named: quoted in hints so that the advice parses.
const RESERVED = new Set([
  'all', 'analyse', 'analyze', 'and', 'any', 'array', 'as', 'asc', 'both', 'case', 'cast', 'check', 'collate', 'column',
  'constraint', 'create', 'current_date', 'current_role', 'current_time', 'current_timestamp', 'current_user', 'default',
  'desc', 'distinct', 'do', 'else', 'end', 'except', 'false', 'fetch', 'for', 'foreign', 'from', 'grant', 'group', 'having',
  'in', 'initially', 'intersect', 'into', 'leading', 'limit', 'localtime', 'localtimestamp', 'not', 'null', 'offset', 'on',
  'only', 'or', 'order', 'placing', 'primary', 'references', 'returning', 'select', 'session_user', 'some', 'symmetric',
  'table', 'then', 'to', 'trailing', 'true', 'union', 'unique', 'user', 'using', 'variadic', 'when', 'where', 'window', 'with',
]);
