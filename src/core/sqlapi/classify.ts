// What each statement a client sends is, before anything answers it: a session command (SET, SHOW,
// BEGIN…), a catalog query (pg_catalog, information_schema, or no table at all: `SELECT version()`),
// a governed SELECT over the model's tables, an outer query over governed SELECTs (governed-parts.ts),
// or a COPY … TO STDOUT of one of those. Everything else is
// refused here with PostgreSQL's SQLSTATE: a write or a definition with 25006 (the interface is a
// read-only transaction), a statement that mixes catalog and model tables or is not understood with
// 0A000. Each statement keeps its own text, parsed again on its own, so that the positions of later
// errors count from the start of the statement; `start` says where that text begins in the input.
import { scanSync, type CopyStmt, type Node, type RangeVar, type RawStmt, type SelectStmt } from 'libpg-query';
import { copyOptionsOf, type CopyOptions } from './copy-options.js';
import { governedParts, type PartSpan } from './governed-parts.js';
import { charsBefore, kindOf, nodeAs, parseStatements, positionAt, sliceBytes } from './pg-ast.js';
import { sessionCommandOf, type SessionCommand } from './session-commands.js';
import { FEATURE_NOT_SUPPORTED, INSUFFICIENT_PRIVILEGE, SqlStateError, SYNTAX_ERROR } from './sql-state-error.js';
import { refuseWrite, writeCommandOf } from './write-commands.js';

interface StatementText {
  /** The statement's text, without the `;` that ends it or the blanks around it. */
  readonly text: string;
  /** The character offset of `text` in the input it came from (0 for the first statement). */
  readonly start: number;
}

export type SessionStatement = StatementText & { readonly kind: 'session'; readonly command: SessionCommand };
export type CatalogStatement = StatementText & { readonly kind: 'catalog' };
export type GovernedStatement = StatementText & { readonly kind: 'governed'; readonly ast: SelectStmt };
/** A governed SELECT inside an outer query, and where its text is in the outer query's. */
export interface GovernedPart {
  readonly statement: GovernedStatement;
  readonly span: PartSpan;
}
/** A query over governed SELECTs (post-processing): its parts are answered on the governed path, the rest over their rows. */
export type OuterStatement = StatementText & { readonly kind: 'outer'; readonly ast: SelectStmt; readonly parts: readonly GovernedPart[] };
export type CopyStatement = StatementText & { readonly kind: 'copy'; readonly inner: CatalogStatement | GovernedStatement | OuterStatement; readonly options: CopyOptions };
export type ClassifiedStatement = SessionStatement | CatalogStatement | GovernedStatement | OuterStatement | CopyStatement;

/** Schemas whose relations the catalog mirror answers; unqualified `pg_*` names count as pg_catalog. */
const CATALOG_SCHEMAS = new Set(['pg_catalog', 'information_schema']);

const ACCEPTED = 'This interface answers SELECT over the model\'s tables (and queries over such SELECTs), catalog queries, COPY (SELECT …) TO STDOUT, SET, SHOW and transaction statements.';

/**
 * The statements of a simple-protocol query string, in order; empty input (or only `;` and comments)
 * gives none. Throws the first statement's refusal: a string with a refused statement runs none of
 * its statements, as an error in PostgreSQL's implicit transaction undoes the ones before it.
 */
export function classifyStatements(sql: string): ClassifiedStatement[] {
  return parseStatements(sql).map((raw) => classifyRaw(sql, raw));
}

/**
 * The one statement of an extended-protocol Parse message, or undefined for an empty one (answered
 * with EmptyQueryResponse); several statements are 42601 as PostgreSQL says it.
 */
export function classifyStatement(sql: string): ClassifiedStatement | undefined {
  const raws = parseStatements(sql);
  if (raws.length > 1) throw new SqlStateError(SYNTAX_ERROR, 'cannot insert multiple commands into a prepared statement');
  return raws.length === 0 ? undefined : classifyRaw(sql, raws[0]!);
}

/**
 * A statement starting at the input's first character has its tree's locations counted from its own
 * start already, so it is classified from that tree; any other is parsed again on its own.
 */
function classifyRaw(sql: string, raw: RawStmt): ClassifiedStatement {
  const statement = statementText(sql, raw);
  return classifyText(statement, statement.start === 0 ? raw.stmt : undefined);
}

/** The text of one parsed statement (byte offsets in `sql`), trimmed, and where it starts. */
function statementText(sql: string, raw: RawStmt): StatementText {
  const from = raw.stmt_location ?? 0;
  const slice = sliceBytes(sql, from, raw.stmt_len ? from + raw.stmt_len : undefined);
  const leading = slice.length - slice.trimStart().length;
  return { text: slice.trim(), start: charsBefore(sql, from) + leading };
}

function classifyText(statement: StatementText, parsed?: Node): ClassifiedStatement {
  // Parsed again on its own: its tree's locations are then offsets in its own text.
  const stmt = parsed ?? parseStatements(statement.text)[0]?.stmt;
  if (!stmt) throw new SqlStateError(SYNTAX_ERROR, 'syntax error');
  const command = sessionCommandOf(stmt);
  if (command) return { kind: 'session', ...statement, command };
  const select = nodeAs(stmt, 'SelectStmt');
  if (select) return classifySelect(select, statement);
  const copy = nodeAs(stmt, 'CopyStmt');
  if (copy) return classifyCopy(copy, statement);
  const explain = nodeAs(stmt, 'ExplainStmt');
  if (explain) return classifyExplain(explain.query, statement);
  const write = writeCommandOf(stmt);
  if (write) refuseWrite(write);
  return refuseStatement(stmt);
}

const UNSUPPORTED: Partial<Record<string, [command: string, hint: string]>> = {
  PrepareStmt: ['PREPARE', 'Prepare statements with the extended query protocol (Parse, Bind, Execute), as drivers do.'],
  ExecuteStmt: ['EXECUTE', 'Prepare statements with the extended query protocol (Parse, Bind, Execute), as drivers do.'],
  DeclareCursorStmt: ['DECLARE CURSOR', 'Run the SELECT itself; the extended protocol can fetch its rows in batches.'],
  FetchStmt: ['FETCH', 'Run the SELECT itself; the extended protocol can fetch its rows in batches.'],
  ListenStmt: ['LISTEN', 'Notifications are not sent on this interface.'],
  UnlistenStmt: ['UNLISTEN', 'Notifications are not sent on this interface.'],
  NotifyStmt: ['NOTIFY', 'Notifications are not sent on this interface.'],
  CheckPointStmt: ['CHECKPOINT', ACCEPTED],
  LockStmt: ['LOCK TABLE', ACCEPTED],
  ConstraintsSetStmt: ['SET CONSTRAINTS', ACCEPTED],
};

function refuseStatement(stmt: Node): never {
  const kind = kindOf(stmt);
  const [command, hint] = UNSUPPORTED[kind] ?? [
    kind
      .replace(/Stmt$/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toUpperCase(),
    ACCEPTED,
  ];
  throw new SqlStateError(FEATURE_NOT_SUPPORTED, `${command} is not supported`, hint);
}

const LOCK_NAMES: Record<string, string> = {
  LCS_FORKEYSHARE: 'SELECT FOR KEY SHARE',
  LCS_FORSHARE: 'SELECT FOR SHARE',
  LCS_FORNOKEYUPDATE: 'SELECT FOR NO KEY UPDATE',
  LCS_FORUPDATE: 'SELECT FOR UPDATE',
};

/**
 * The relations a SELECT reads anywhere inside it. A name a WITH clause defines is not a relation where
 * that clause is in scope: in the statement's body and in the later CTEs' bodies (in every one, the
 * CTE's own included, with RECURSIVE); in its own body, a non-recursive CTE's name is the table's.
 */
function relationsOf(select: SelectStmt): RangeVar[] {
  const relations: RangeVar[] = [];
  const visit = (value: unknown, ctes: ReadonlySet<string>): void => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item, ctes));
    if (value === null || typeof value !== 'object') return;
    const fields = value as Record<string, unknown>;
    const withClause = fields.withClause as SelectStmt['withClause'];
    if (withClause) {
      const defined = (withClause.ctes ?? []).map((node) => nodeAs(node, 'CommonTableExpr'));
      const names = defined.map((cte) => cte?.ctename ?? '');
      defined.forEach((cte, i) => visit(cte?.ctequery, new Set([...ctes, ...(withClause.recursive ? names : names.slice(0, i))])));
      ctes = new Set([...ctes, ...names]);
    }
    for (const [key, child] of Object.entries(fields)) {
      if (key === 'withClause') continue;
      if (key.endsWith('Stmt') && key !== 'SelectStmt') refuseWrite(writeCommandOf({ [key]: child } as Node) ?? key.replace(/Stmt$/, '').toUpperCase());
      if (key === 'intoClause') refuseWrite('SELECT INTO');
      if (key === 'lockingClause' && Array.isArray(child) && child.length > 0) {
        refuseWrite(LOCK_NAMES[nodeAs(child[0] as Node, 'LockingClause')?.strength ?? ''] ?? 'SELECT FOR UPDATE');
      }
      if (key === 'RangeVar') {
        const relation = child as RangeVar;
        if (relation.schemaname !== undefined || !ctes.has(relation.relname ?? '')) relations.push(relation);
        continue;
      }
      visit(child, ctes);
    }
  };
  visit(select, new Set());
  return relations;
}

function isCatalogRelation(relation: RangeVar): boolean {
  if (relation.schemaname !== undefined) return CATALOG_SCHEMAS.has(relation.schemaname);
  return (relation.relname ?? '').startsWith('pg_');
}

function classifySelect(select: SelectStmt, statement: StatementText): CatalogStatement | GovernedStatement | OuterStatement {
  const named = relationsOf(select);
  const model = named.filter((r) => !isCatalogRelation(r));
  if (model.length === 0) return { kind: 'catalog', ...statement };
  if (model.length < named.length) {
    throw new SqlStateError(
      FEATURE_NOT_SUPPORTED,
      'a statement cannot read both catalog relations and model tables',
      'Query pg_catalog and information_schema in one statement and the model\'s tables in another.',
      positionAt(statement.text, model[0]!.location),
    );
  }
  const spans = governedParts(statement.text, model.map((r) => r.location ?? 0));
  if (!spans) return { kind: 'governed', ...statement, ast: select };
  const parts = spans.map((span): GovernedPart => {
    const slice = statement.text.slice(span.from, span.to);
    const leading = slice.length - slice.trimStart().length;
    const part = classifyText({ text: slice.trim(), start: statement.start + span.from + leading });
    // Innermost around a model table, a part reads one; what it reads decides its kind.
    if (part.kind !== 'governed') throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'a subquery over model tables must be a SELECT over one of them', ACCEPTED);
    return { statement: part, span };
  });
  return { kind: 'outer', ...statement, ast: select, parts };
}

function classifyExplain(query: Node | undefined, statement: StatementText): CatalogStatement {
  const select = nodeAs(query, 'SelectStmt');
  if (select) {
    if (classifySelect(select, statement).kind === 'catalog') return { kind: 'catalog', ...statement };
    throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'EXPLAIN of a query over model tables is not supported', 'Run the SELECT itself: EXPLAIN answers catalog queries only here.');
  }
  const write = query && writeCommandOf(query);
  if (write) refuseWrite(write);
  throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'EXPLAIN is supported for SELECT over catalog relations only', ACCEPTED);
}

function classifyCopy(copy: CopyStmt, statement: StatementText): CopyStatement {
  if (copy.is_from) refuseWrite('COPY FROM');
  if (copy.is_program) {
    throw new SqlStateError(INSUFFICIENT_PRIVILEGE, 'must be superuser or have privileges of the pg_execute_server_program role to COPY to or from an external program', 'COPY … TO STDOUT sends the rows to the client (psql: \\copy).');
  }
  if (copy.filename !== undefined) {
    throw new SqlStateError(INSUFFICIENT_PRIVILEGE, 'must be superuser or have privileges of the pg_write_server_files role to COPY to a file', 'COPY … TO STDOUT sends the rows to the client (psql: \\copy).');
  }
  if (!copy.query) {
    const table = copy.relation?.relname ?? 'table';
    throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'COPY of a table is not supported', `Copy a query: COPY (SELECT … FROM ${table} GROUP BY …) TO STDOUT.`, positionAt(statement.text, copy.relation?.location));
  }
  const select = nodeAs(copy.query, 'SelectStmt');
  if (!select) refuseWrite(writeCommandOf(copy.query) ?? 'COPY');
  const options = copyOptionsOf(copy.options);
  const innerText = parenthesized(statement);
  const inner = parseStatements(innerText.text)[0]?.stmt;
  return { kind: 'copy', ...statement, inner: classifySelect(nodeAs(inner, 'SelectStmt')!, innerText), options };
}

/** The text between the first `(` of a statement and its matching `)`: COPY's query. */
function parenthesized(statement: StatementText): StatementText {
  const tokens = scanSync(statement.text).tokens;
  const open = tokens.findIndex((t) => t.text === '(');
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i]!.text === '(') depth++;
    if (tokens[i]!.text === ')' && --depth === 0) {
      const from = tokens[open]!.end;
      const slice = sliceBytes(statement.text, from, tokens[i]!.start);
      const leading = slice.length - slice.trimStart().length;
      return { text: slice.trim(), start: statement.start + charsBefore(statement.text, from) + leading };
    }
  }
  throw new SqlStateError(SYNTAX_ERROR, 'syntax error in COPY');
}
