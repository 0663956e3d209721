// Checks the properties of one block against its schema (unknown, duplicated, wrong kind of value, not
// one of the allowed names) and hands the linker typed accessors over what survived. A property that
// was written but invalid still counts as present, so "missing property" never piles onto an error
// already reported for the same line.
import type { SourceSpan } from '../semantic/model.js';
import type { ListItem, Name, Property, SqlValue, Value } from './ast.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { BlockSchema, PropertySpec, ValueKind } from './schema.js';
import { didYouMean } from './suggest.js';
import { looksLikeUnit, unitNames } from '../semantic/units.js';

const EXPECTED: Record<ValueKind, string> = {
  text: 'a "quoted string"',
  name: 'a name',
  word: 'a name or a "quoted string"',
  ref: '`name` or `node.name`',
  table: 'a table name such as `shop.orders` (or a "quoted string")',
  boolean: '`true` or `false`',
  list: 'a list such as `[a, b]`',
  map: 'a map such as `{ TX: [Texas]  CA: [California, "Kalifornien"] }`',
  synonyms: 'a list such as `[sales, turnover]`, or one per language: `{ en: [sales]  de: [Umsatz] }`',
  sql: 'SQL',
};

export class PropertyBag {
  constructor(
    private readonly valid: ReadonlyMap<string, { key: Name; value: Value }>,
    private readonly present: ReadonlySet<string>,
  ) {}

  /** Written in the block, valid or not. */
  has(key: string): boolean {
    return this.present.has(key);
  }

  keySpan(key: string): SourceSpan | undefined {
    return this.valid.get(key)?.key.span;
  }

  valueSpan(key: string): SourceSpan | undefined {
    return this.valid.get(key)?.value.span;
  }

  text(key: string): string | undefined {
    const value = this.valid.get(key)?.value;
    return value?.kind === 'string' ? value.value : undefined;
  }

  name(key: string): Name | undefined {
    const value = this.valid.get(key)?.value;
    return value?.kind === 'path' ? value.segments[0] : undefined;
  }

  /** A name or a string, as text. */
  word(key: string): string | undefined {
    const value = this.valid.get(key)?.value;
    if (value?.kind === 'string') return value.value;
    return value?.kind === 'path' ? value.segments[0]!.name : undefined;
  }

  ref(key: string): readonly Name[] | undefined {
    const value = this.valid.get(key)?.value;
    return value?.kind === 'path' ? value.segments : undefined;
  }

  table(key: string): string | undefined {
    const value = this.valid.get(key)?.value;
    if (value?.kind === 'string') return value.value;
    return value?.kind === 'path' ? value.segments.map((s) => s.name).join('.') : undefined;
  }

  bool(key: string): boolean | undefined {
    const value = this.valid.get(key)?.value;
    return value?.kind === 'path' ? value.segments[0]!.name === 'true' : undefined;
  }

  list(key: string): string[] | undefined {
    const value = this.valid.get(key)?.value;
    if (value?.kind !== 'list') return undefined;
    return value.items.map((item) => (item.kind === 'path' ? item.segments[0]!.name : item.value));
  }

  /** The items of a list with where each was written, so a mistake in one can point at it. */
  names(key: string): Name[] | undefined {
    const value = this.valid.get(key)?.value;
    if (value?.kind !== 'list') return undefined;
    return value.items.map((item) => ({ name: item.kind === 'path' ? item.segments[0]!.name : item.value, span: item.span }));
  }

  /**
   * Synonyms, by language: a plain list is filed under `''` (no language said), a map under its
   * language codes. Undefined when not written.
   */
  synonyms(key: string): Map<string, string[]> | undefined {
    const value = this.valid.get(key)?.value;
    if (value?.kind === 'list') return new Map([['', this.list(key)!]]);
    return this.map(key);
  }

  /** A map's keys with their words (a single word becomes a list of one). */
  map(key: string): Map<string, string[]> | undefined {
    const value = this.valid.get(key)?.value;
    if (value?.kind !== 'map') return undefined;
    const words = (item: ListItem) => (item.kind === 'path' ? item.segments[0]!.name : item.value);
    return new Map(value.entries.map((entry) => [entry.key.value, entry.value.kind === 'list' ? entry.value.items.map(words) : [words(entry.value)]]));
  }

  sql(key: string): SqlValue | undefined {
    const value = this.valid.get(key)?.value;
    return value?.kind === 'sql' ? value : undefined;
  }
}

/** `what` names the block for messages, e.g. "a dimension". */
export function readBlock(properties: readonly Property[], schema: BlockSchema, what: string, sink: DiagnosticSink): PropertyBag {
  const valid = new Map<string, { key: Name; value: Value }>();
  const present = new Map<string, Name>();
  for (const { key, value } of properties) {
    const spec = Object.hasOwn(schema, key.name) ? schema[key.name] : undefined;
    if (!spec) {
      sink.report('CML101', key.span, `unknown property \`${key.name}\` in ${what}${didYouMean(key.name, Object.keys(schema))}`);
      continue;
    }
    const earlier = present.get(key.name);
    if (earlier) {
      sink.report('CML106', key.span, `\`${key.name}\` is already set in this block (line ${earlier.span.line})`);
      continue;
    }
    present.set(key.name, key);
    if (value && checkValue(key, spec, value, sink)) valid.set(key.name, { key, value });
  }
  return new PropertyBag(valid, new Set(present.keys()));
}

function checkValue(key: Name, spec: PropertySpec, value: Value, sink: DiagnosticSink): boolean {
  if (!hasKind(spec.kind, value)) {
    sink.report('CML102', value.span, `\`${key.name}\` wants ${EXPECTED[spec.kind]}, found ${describeValue(value)}`);
    return false;
  }
  if (value.kind === 'list') return checkItems(key, value.items, sink);
  if (value.kind === 'map') {
    let ok = true;
    const seen = new Map<string, number>();
    for (const entry of value.entries) {
      const earlier = seen.get(entry.key.value);
      if (earlier !== undefined) {
        sink.report('CML106', entry.key.span, `\`${entry.key.value}\` is already listed in \`${key.name}\` (line ${earlier})`);
        ok = false;
      }
      seen.set(entry.key.value, entry.key.span.line);
      const items = entry.value.kind === 'list' ? entry.value.items : [entry.value];
      if (!checkItems(key, items, sink)) ok = false;
    }
    return ok;
  }
  if (spec.oneOf && value.kind === 'path') {
    const name = value.segments[0]!.name;
    if (!spec.oneOf.includes(name)) {
      sink.report('CML103', value.span, `\`${name}\` is not allowed for \`${key.name}\`: use one of ${spec.oneOf.join(', ')}${didYouMean(name, spec.oneOf)}`);
      return false;
    }
  }
  return true;
}

function checkItems(key: Name, items: readonly ListItem[], sink: DiagnosticSink): boolean {
  let ok = true;
  for (const item of items) {
    if (item.kind === 'string' || (item.kind === 'path' && item.segments.length === 1)) continue;
    sink.report('CML102', item.span, `items of \`${key.name}\` are names or "quoted strings", found ${describeValue(item)}`);
    ok = false;
  }
  return ok;
}

function hasKind(kind: ValueKind, value: Value): boolean {
  const singleName = value.kind === 'path' && value.segments.length === 1;
  switch (kind) {
    case 'text':
      return value.kind === 'string';
    case 'name':
      return singleName;
    case 'word':
      return singleName || value.kind === 'string';
    case 'ref':
      return value.kind === 'path' && value.segments.length <= 2;
    case 'table':
      return value.kind === 'path' || value.kind === 'string';
    case 'boolean':
      return singleName && (value.segments[0]!.name === 'true' || value.segments[0]!.name === 'false');
    case 'list':
      return value.kind === 'list';
    case 'map':
      return value.kind === 'map';
    case 'synonyms':
      return value.kind === 'list' || value.kind === 'map';
    case 'sql':
      return value.kind === 'sql';
  }
}

function describeValue(value: Value): string {
  switch (value.kind) {
    case 'string':
      return 'a string';
    case 'number':
      return `the number ${value.value}`;
    case 'path':
      return `\`${value.segments.map((s) => s.name).join('.')}\``;
    case 'list':
      return 'a list';
    case 'map':
      return 'a map';
    case 'sql':
      return 'SQL';
  }
}

/** The label a name gets when none is written: `order_count` → "Order count". */
export function labelFromName(name: string): string {
  const words = name.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The `unit:` of a metric or measure. A unit the product does not know is kept (it is written after
 * the number as it is); when it looks like a unit rather than a thing counted (`kgs`, not `tickets`)
 * it is warned about, with the known units: a misspelt unit would otherwise be shown to every reader.
 */
export function checkedUnit(props: PropertyBag, sink: DiagnosticSink): string | undefined {
  const unit = props.word('unit');
  if (unit === undefined || !looksLikeUnit(unit)) return unit;
  const names = unitNames();
  sink.report(
    'CML601',
    props.valueSpan('unit')!,
    `unknown unit \`${unit}\`: it will be written after numbers as it is${didYouMean(unit.toLowerCase(), names)}; known units: ${names.join(', ')}`,
  );
  return unit;
}

/** All synonyms of a block, whatever their language, and the same by language when any is said. */
export function readSynonyms(props: PropertyBag): { all: string[]; byLanguage: Map<string, string[]> | undefined } {
  const byLanguage = props.synonyms('synonyms');
  const all = [...new Set([...(byLanguage?.values() ?? [])].flat())];
  const tagged = byLanguage && [...byLanguage.keys()].some((language) => language !== '');
  return { all, byLanguage: tagged ? byLanguage : undefined };
}
