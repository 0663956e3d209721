// Which properties each kind of block takes, and what kind of value each one wants. The parser only
// needs SQL_KEYS (their values are read by the SQL rules); everything else is checked by the linker.
import { DIMENSION_TYPES, MEASURE_TYPES, RELATIONSHIPS, TIME_SCOPES } from '../semantic/model.js';
import { PARTITION_GRAINS, ROLLUP_GRAINS } from '../semantic/rollup-model.js';

/**
 * - text: a quoted string;  name: one bare name;  word: a bare name or a quoted string;
 * - ref: `name` or `node.name`;  table: a dotted name or a quoted string;  boolean: `true` / `false`;
 * - list: `[a, "b c"]` of names or strings;  sql: SQL text with `${...}` references;
 * - map: `{ TX: [Texas]  CA: [California, "Kalifornien"] }`, keys with lists (or one word) of words;
 * - synonyms: a list, or a map from language codes to lists (`{ en: [sales]  de: [Umsatz] }`).
 */
export type ValueKind = 'text' | 'name' | 'word' | 'ref' | 'table' | 'boolean' | 'list' | 'map' | 'synonyms' | 'sql';

export interface PropertySpec {
  readonly kind: ValueKind;
  /** When set, the value must be one of these names. */
  readonly oneOf?: readonly string[];
}

export type BlockSchema = Readonly<Record<string, PropertySpec>>;

export const FORMATS = ['number', 'currency', 'percent'] as const;

const described = { label: { kind: 'text' }, description: { kind: 'text' } } as const satisfies BlockSchema;

export const NODE_SCHEMA: BlockSchema = {
  ...described,
  domain: { kind: 'name' },
  connection: { kind: 'name' },
  table: { kind: 'table' },
  sql: { kind: 'sql' },
  tags: { kind: 'list' },
};

export const DIMENSION_SCHEMA: BlockSchema = {
  ...described,
  type: { kind: 'name', oneOf: DIMENSION_TYPES },
  sql: { kind: 'sql' },
  primary_key: { kind: 'boolean' },
  hidden: { kind: 'boolean' },
  synonyms: { kind: 'synonyms' },
  values: { kind: 'map' },
};

/**
 * The measure types CML takes: the model's, and `ratio`, which the model holds as a `number` measure
 * with its two measures (see `Measure.ratio` in ../semantic/model.ts).
 */
export const CML_MEASURE_TYPES = [...MEASURE_TYPES, 'ratio'] as const;
export type CmlMeasureType = (typeof CML_MEASURE_TYPES)[number];

export const MEASURE_SCHEMA: BlockSchema = {
  ...described,
  type: { kind: 'name', oneOf: CML_MEASURE_TYPES },
  sql: { kind: 'sql' },
  numerator: { kind: 'ref' },
  denominator: { kind: 'ref' },
  filter: { kind: 'sql' },
  format: { kind: 'name', oneOf: FORMATS },
  unit: { kind: 'word' },
  hidden: { kind: 'boolean' },
};

export const JOIN_SCHEMA: BlockSchema = {
  synonyms: { kind: 'synonyms' },
  relationship: { kind: 'name', oneOf: RELATIONSHIPS },
  on: { kind: 'sql' },
};

export const DATA_KEY_SCHEMA: BlockSchema = {
  dimension: { kind: 'name' },
  attribute: { kind: 'word' },
};

/** `refresh` and `build_range` are read by rollup-rules.ts, which explains what it refuses. */
export const ROLLUP_SCHEMA: BlockSchema = {
  ...described,
  dimensions: { kind: 'list' },
  measures: { kind: 'list' },
  time: { kind: 'name' },
  grain: { kind: 'name', oneOf: ROLLUP_GRAINS },
  partition: { kind: 'name', oneOf: PARTITION_GRAINS },
  timezone: { kind: 'text' },
  refresh: { kind: 'word' },
  build_range: { kind: 'text' },
};

export const REVEAL_SCHEMA: BlockSchema = {
  ...described,
  domain: { kind: 'name' },
  base: { kind: 'name' },
  time: { kind: 'ref' },
  languages: { kind: 'list' },
};

export const METRIC_SCHEMA: BlockSchema = {
  ...described,
  unit: { kind: 'word' },
  synonyms: { kind: 'synonyms' },
  snapshot: { kind: 'boolean' },
  time_scope: { kind: 'name', oneOf: TIME_SCOPES },
  format: { kind: 'name', oneOf: FORMATS },
  measure: { kind: 'ref' },
  expr: { kind: 'sql' },
};

/** Properties whose value is SQL: the lexer reads them with the SQL rules, not as tokens. */
export const SQL_KEYS: ReadonlySet<string> = new Set(['sql', 'filter', 'on', 'expr']);

/** Every property name of every block: `key:` inside one-line SQL is almost surely a misplaced property. */
export const ALL_PROPERTY_KEYS: ReadonlySet<string> = new Set(
  [NODE_SCHEMA, DIMENSION_SCHEMA, MEASURE_SCHEMA, JOIN_SCHEMA, DATA_KEY_SCHEMA, ROLLUP_SCHEMA, REVEAL_SCHEMA, METRIC_SCHEMA].flatMap((s) => Object.keys(s)),
);
