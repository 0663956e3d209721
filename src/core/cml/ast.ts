// The syntax tree the parser builds: what was written, where, and nothing resolved. The parser does not
// know which properties a block allows; the linker checks every property against the block's schema, so
// the grammar stays small and one kind of mistake is reported in one place.
import type { SourceSpan } from '../semantic/model.js';

export interface Name {
  readonly name: string;
  readonly span: SourceSpan;
}

/** `"text"` or `"""text"""` (decoded). */
export interface StringValue {
  readonly kind: 'string';
  readonly value: string;
  readonly span: SourceSpan;
}

export interface NumberValue {
  readonly kind: 'number';
  readonly value: string;
  readonly span: SourceSpan;
}

/** One name or a dotted path: `commerce`, `true`, `shop.orders`, `orders.created_at`. */
export interface PathValue {
  readonly kind: 'path';
  readonly segments: readonly Name[];
  readonly span: SourceSpan;
}

export type ListItem = StringValue | NumberValue | PathValue;

export interface ListValue {
  readonly kind: 'list';
  readonly items: readonly ListItem[];
  readonly span: SourceSpan;
}

/** `${TABLE}`, `${field}`, `${node.field}`: one or two segments. */
export interface SqlReference {
  readonly kind: 'ref';
  readonly segments: readonly Name[];
  readonly span: SourceSpan;
}

export type SqlChunk = { readonly kind: 'text'; readonly text: string } | SqlReference;

/** The value of `sql:`, `filter:`, `on:` and `expr:`, read by the SQL rules of the lexer. */
export interface SqlValue {
  readonly kind: 'sql';
  readonly chunks: readonly SqlChunk[];
  readonly span: SourceSpan;
}

/** One `key: value` of a map; the key is a name, a number or a "string", read as text. */
export interface MapEntry {
  readonly key: { readonly value: string; readonly span: SourceSpan };
  /** A list (`[Texas, "Tejas"]`) or a single item (`Texas`). */
  readonly value: ListValue | ListItem;
}

/** `{ TX: [Texas]  CA: [California, "Kalifornien"] }`: keys with lists, over any number of lines. */
export interface MapValue {
  readonly kind: 'map';
  readonly entries: readonly MapEntry[];
  readonly span: SourceSpan;
}

export type Value = StringValue | NumberValue | PathValue | ListValue | MapValue | SqlValue;

export interface Property {
  readonly key: Name;
  /** Undefined when the value was missing or unreadable (already reported). */
  readonly value: Value | undefined;
}

export const MEMBER_KINDS = ['dimension', 'measure', 'join', 'data_key', 'rollup', 'metric'] as const;
export type MemberKind = (typeof MEMBER_KINDS)[number];

/** `dimension x { ... }`, `measure`, `join`, `data_key`, `rollup` inside a node; `metric` inside a reveal. */
export interface MemberDecl {
  readonly kind: MemberKind;
  /** For a join, its alias: the role name in `join ship_to: regions`, else the joined node's name. */
  readonly name: Name;
  /** `regions` in `join ship_to: regions`: the node a role-playing join joins. */
  readonly target?: Name;
  readonly properties: readonly Property[];
  readonly span: SourceSpan;
}

export interface TopDecl {
  readonly kind: 'node' | 'reveal';
  readonly name: Name;
  readonly properties: readonly Property[];
  readonly members: readonly MemberDecl[];
  readonly span: SourceSpan;
}

export interface CmlDocument {
  readonly file: string;
  readonly declarations: readonly TopDecl[];
}
