// Catalog columns PostgreSQL renamed, read under their new names. psql picks its catalog queries by the
// server's version and knows none after its own: psql 15 and 16 send `d.daticulocale` for \l and
// `c.colliculocale` for \dO to any server from 15 on, and PostgreSQL 17 renamed both, so against this
// server (18, like any 17 or later) those commands failed with 42703. A column reference to an old name
// (which no relation of the mirror has) is rewritten to the new one, on PostgreSQL's own parse tree and
// tokens: a string literal, a comment or an alias spelled the same is left alone. A reference that is a
// whole result column keeps its old name as the column's (`datlocale AS daticulocale`), so the client
// reads the column it asked for.
import { scanSync, type Node } from 'libpg-query';
import { quoteIdentifier } from '../../core/sqlapi/pg-ast.js';

/** Old name → new name, as PostgreSQL's release notes give them. */
export const RENAMED_COLUMNS: ReadonlyMap<string, string> = new Map([
  // pg_database, PostgreSQL 17
  ['daticulocale', 'datlocale'],
  // pg_collation, PostgreSQL 17
  ['colliculocale', 'colllocale'],
]);

const OLD_NAMES = new RegExp([...RENAMED_COLUMNS.keys()].join('|'), 'i');

/** False when the text cannot refer to a renamed column (it is then run as it is). */
export function mayNameRenamedColumn(sql: string): boolean {
  return OLD_NAMES.test(sql);
}

/** A replacement of the text between two byte offsets. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

interface ColumnReference {
  /** Byte offset of the reference's first token. */
  readonly location: number;
  readonly fields: readonly string[];
}

/** What a statement's tree says about the old names: where it refers to them, and whether it defines them. */
export interface RenameScan {
  readonly references: ColumnReference[];
  /** Old names the statement itself defines (an alias, a column list): references to them are its own. */
  readonly defined: Set<string>;
  /** Where result columns that are a bare column reference start: such a reference names its column. */
  readonly resultColumns: Set<number>;
}

export function newRenameScan(): RenameScan {
  return { references: [], defined: new Set(), resultColumns: new Set() };
}

/** Records one node of the tree (the walk of statement-analysis.ts visits each once). */
export function scanForRenames(scan: RenameScan, kind: string, node: Record<string, unknown>): void {
  switch (kind) {
    case 'ColumnRef': {
      const fields = (node.fields as Node[] | undefined)?.map((f) => ('String' in f ? f.String.sval : undefined));
      const last = fields?.at(-1);
      if (last !== undefined && RENAMED_COLUMNS.has(last) && fields!.every((f) => f !== undefined) && typeof node.location === 'number') {
        scan.references.push({ location: node.location, fields: fields as string[] });
      }
      return;
    }
    case 'ResTarget': {
      const name = node.name as string | undefined;
      if (name !== undefined && RENAMED_COLUMNS.has(name)) scan.defined.add(name);
      const column = (node.val as Node | undefined) && 'ColumnRef' in (node.val as Node) ? (node.val as { ColumnRef: { location?: number } }).ColumnRef : undefined;
      if (name === undefined && column?.location !== undefined) scan.resultColumns.add(column.location);
      return;
    }
    case 'Alias':
    case 'CommonTableExpr':
    case 'ColumnDef': {
      const names = [...((node.colnames ?? node.aliascolnames ?? []) as Node[]).map((n) => ('String' in n ? n.String.sval : undefined)), node.colname as string | undefined];
      for (const name of names) if (name !== undefined && RENAMED_COLUMNS.has(name)) scan.defined.add(name);
      return;
    }
  }
}

/** An identifier token as the name it means: folded to lower case, or as quoted. */
function identifierName(token: string): string {
  return token.startsWith('"') ? token.slice(1, -1).replaceAll('""', '"') : token.toLowerCase();
}

/**
 * The edits that read the old names as the new ones, or none. Each reference's last field is found
 * among the tokens from where the reference starts (`d . daticulocale`); a reference whose tokens are
 * not as expected is left as it is, and PostgreSQL reports it.
 */
export function renameEdits(sql: string, scan: RenameScan): TextEdit[] {
  const references = scan.references.filter((r) => !scan.defined.has(r.fields.at(-1)!));
  if (references.length === 0) return [];
  const tokens = scanSync(sql).tokens.filter((t) => t.tokenName !== 'C_COMMENT' && t.tokenName !== 'SQL_COMMENT');
  const edits: TextEdit[] = [];
  for (const reference of references) {
    const first = tokens.findIndex((t) => t.start === reference.location);
    if (first < 0) continue;
    const lastIndex = first + 2 * (reference.fields.length - 1);
    const last = tokens[lastIndex];
    const dotted = reference.fields.every((_, i) => i === 0 || tokens[first + 2 * i - 1]?.text === '.');
    const old = reference.fields.at(-1)!;
    if (!last || !dotted || identifierName(last.text) !== old) continue;
    const renamed = RENAMED_COLUMNS.get(old)!;
    const namesResult = scan.resultColumns.has(reference.location);
    edits.push({ start: last.start, end: last.end, text: namesResult ? `${renamed} AS ${quoteIdentifier(old)}` : renamed });
  }
  return edits.sort((a, b) => a.start - b.start);
}

/** The text with the edits made (byte offsets of `sql`, in order, not overlapping). */
export function applyEdits(sql: string, edits: readonly TextEdit[]): string {
  if (edits.length === 0) return sql;
  const bytes = Buffer.from(sql, 'utf8');
  const parts: string[] = [];
  let at = 0;
  for (const edit of edits) {
    parts.push(bytes.subarray(at, edit.start).toString('utf8'), edit.text);
    at = edit.end;
  }
  parts.push(bytes.subarray(at).toString('utf8'));
  return parts.join('');
}

/**
 * A position PostgreSQL gave in the edited text (1-based, in characters, as ErrorResponse counts) as
 * the position in the client's text: a client points at what it sent. Inside an edit, its start.
 */
export function originalPosition(sql: string, edits: readonly TextEdit[], position: number): number {
  let shift = 0;
  for (const edit of edits) {
    const start = charCount(sql, 0, edit.start);
    const oldLength = charCount(sql, edit.start, edit.end);
    const editedStart = start + shift;
    if (position - 1 < editedStart) break;
    if (position - 1 < editedStart + edit.text.length) return start + 1;
    shift += edit.text.length - oldLength;
  }
  return position - shift;
}

/** Characters (code points, as PostgreSQL counts them) between two byte offsets of `sql`. */
function charCount(sql: string, from: number, to: number): number {
  return [...Buffer.from(sql, 'utf8').subarray(from, to).toString('utf8')].length;
}
