// fast-check arbitraries built from the served OpenAPI document: a valid-looking value for a schema
// (so requests get past validation into the handlers), and hostile variants of it (wrong types,
// missing and extra fields, NUL and other control characters, lone surrogates, huge strings, deep
// nesting, numbers out of range).
import fc from 'fast-check';

export type Schema = Record<string, unknown>;
export type Components = Record<string, Schema>;

/** Values a field of this name takes in the seeded workspace, so generated requests reach real data. */
export type KnownValues = Record<string, readonly unknown[]>;

const MAX_REF_DEPTH = 3;

export const HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f\u007f',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\u202eevil',
  '\ufeff\u200b',
  '../../../etc/passwd',
  '..\\..\\windows',
  '%00',
  "'; DROP TABLE users; --",
  '${orders.amount}',
  '{{7*7}}',
  'e\u0301',
  '💥'.repeat(50),
  ' ',
  '',
  'x'.repeat(70_000),
];

const HOSTILE_NUMBERS: readonly number[] = [-1, 0, 1.5, -0.5, 2 ** 53, -(2 ** 53), 1e308, -1e308, 5e-324, 2 ** 31, 10_001, 50_001];

/** A deeply nested array or object, or an and-group of filters nested past the semantic limit. */
export const deepValue = fc.oneof(
  fc.integer({ min: 20, max: 2000 }).map((depth) => nest(depth, (inner) => [inner], 1)),
  fc.integer({ min: 20, max: 2000 }).map((depth) => nest(depth, (inner) => ({ a: inner }), 'x')),
  fc
    .oneof(fc.integer({ min: 9, max: 40 }), fc.integer({ min: 500, max: 2000 }))
    .map((depth) => nest(depth, (inner) => ({ and: [inner] }), { field: 'status', operator: 'equals', value: 'x' })),
);

function nest(depth: number, wrap: (inner: unknown) => unknown, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  // fast-check prints values recursively (in reports, and while shrinking): this one prints short.
  Object.defineProperty(value, fc.toStringMethod, { value: () => `<nested ${depth} deep>` });
  return value;
}

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 2 },
  { arbitrary: fc.constantFrom(...HOSTILE_NUMBERS), weight: 2 },
  { arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [1, 'a'], { a: { b: null } }), weight: 2 },
  { arbitrary: deepValue, weight: 1 },
);

/** A value that fits `schema`, mostly; known values of a field are preferred when there are some. */
export function validish(schema: Schema, components: Components, known: KnownValues, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const knownValues = name ? known[name] : undefined;
  const fitting = fitSchema(schema, components, known, depth);
  if (knownValues && knownValues.length > 0) {
    return fc.oneof({ arbitrary: fc.constantFrom(...knownValues), weight: 3 }, { arbitrary: fitting, weight: 1 });
  }
  return fitting;
}

function fitSchema(schema: Schema, components: Components, known: KnownValues, depth: number): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.replace('#/components/schemas/', '')];
    if (!target || depth >= MAX_REF_DEPTH) return fc.constant(undefined);
    return fitSchema(target, components, known, depth + 1);
  }
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union) {
    // Past the recursion limit only branches without references are taken, so generation ends.
    const branches = depth >= MAX_REF_DEPTH ? union.filter((branch) => !JSON.stringify(branch).includes('$ref')) : union;
    return fc.oneof(...(branches.length > 0 ? branches : union.slice(-1)).map((branch) => fitSchema(branch, components, known, depth)));
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const base = fitType(schema, components, known, depth);
  return schema.nullable === true ? fc.option(base, { nil: null, freq: 8 }) : base;
}

function fitType(schema: Schema, components: Components, known: KnownValues, depth: number): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case 'string':
      return fitString(schema);
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, min + 100_000) : min + 100_000;
      return schema.type === 'integer' ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      const maxLength = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, 3);
      const minLength = Math.min(typeof schema.minItems === 'number' ? schema.minItems : 0, maxLength);
      return fc.array(fitSchema(items, components, known, depth), { minLength, maxLength });
    }
    case 'object':
      return fitObject(schema, components, known, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function fitString(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.max(minLength, Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 40, 40));
  return fc.string({ minLength, maxLength });
}

function fitObject(schema: Schema, components: Components, known: KnownValues, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  if (names.length === 0) {
    const values = typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Schema) : {};
    // Mostly names that look like identifiers, which such maps usually require (attribute names).
    const key = fc.oneof({ arbitrary: fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/), weight: 4 }, { arbitrary: fc.string({ minLength: 1, maxLength: 12 }), weight: 1 });
    return fc.dictionary(key, fitSchema(values, components, known, depth), { maxKeys: 3 });
  }
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) record[name] = validish(properties[name]!, components, known, name, depth);
  return fc.record(record, { requiredKeys: names.filter((name) => required.has(name)) });
}

/** Paths of every value inside `value` (objects and arrays), the root included. */
export function pathsOf(value: unknown): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [[]];
  const stack: Array<[unknown, Array<string | number>]> = [[value, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== 'object' || path.length > 8) continue;
    for (const [key, child] of Object.entries(node)) {
      const childPath = [...path, Array.isArray(node) ? Number(key) : key];
      paths.push(childPath);
      stack.push([child, childPath]);
    }
  }
  return paths;
}

/** A copy of `value` with the value at `path` replaced (or removed when `replacement` is `REMOVE`). */
export const REMOVE = Symbol('remove');
export function replaceAt(value: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement === REMOVE ? undefined : replacement;
  const copy: Record<string | number, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
  const [head, ...rest] = path;
  const inner = replaceAt((copy as Record<string | number, unknown>)[head!], rest, replacement);
  if (inner === undefined && rest.length === 0 && replacement === REMOVE) {
    if (Array.isArray(copy)) copy.splice(Number(head), 1);
    else delete (copy as Record<string | number, unknown>)[head!];
  } else {
    (copy as Record<string | number, unknown>)[head!] = inner;
  }
  return copy;
}

/** Characters no store keeps, or that trip parsers: put inside an otherwise fine string. */
const POISON = ['\u0000', '\ud800', '\udc00', '\u0001', '\u001b', '\u007f', '\u202e', '\ufffe'];

function stringPaths(value: unknown): Array<Array<string | number>> {
  return pathsOf(value).filter((path) => typeof valueAt(value, path) === 'string');
}

function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  return path.reduce<unknown>((node, segment) => (node as Record<string | number, unknown>)[segment], value);
}

/** `value`, or a hostile variant of it: a field replaced, poisoned, deepened, removed or added. */
export function hostileVariant(value: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(value);
  const strings = stringPaths(value);
  const containers = paths.filter((path) => Array.isArray(valueAt(value, path)));
  const variants: Array<fc.WeightedArbitrary<unknown>> = [
    { arbitrary: fc.constant(value), weight: 2 },
    { arbitrary: fc.tuple(fc.constantFrom(...paths), hostileValue).map(([path, bad]) => replaceAt(value, path, bad)), weight: 4 },
    { arbitrary: fc.constantFrom(...paths).map((path) => replaceAt(value, path, REMOVE)), weight: 1 },
    {
      arbitrary: fc.tuple(fc.constantFrom(...paths), fc.string({ maxLength: 8 }), hostileValue).map(([path, key, bad]) => {
        const target = valueAt(value, path);
        if (target === null || typeof target !== 'object' || Array.isArray(target)) return value;
        return replaceAt(value, path, { ...(target as object), [key || 'extra']: bad });
      }),
      weight: 1,
    },
  ];
  if (strings.length > 0) {
    variants.push({
      arbitrary: fc.tuple(fc.constantFrom(...strings), fc.constantFrom(...POISON), fc.nat()).map(([path, poison, at]) => {
        const text = valueAt(value, path) as string;
        const cut = text.length === 0 ? 0 : at % (text.length + 1);
        return replaceAt(value, path, `${text.slice(0, cut)}${poison}${text.slice(cut)}`);
      }),
      weight: 4,
    });
  }
  if (containers.length > 0) {
    // Arrays are where recursive schemas (filters) are: a deep value goes inside one.
    variants.push({
      arbitrary: fc.tuple(fc.constantFrom(...containers), deepValue).map(([path, deep]) => replaceAt(value, path, [...(valueAt(value, path) as unknown[]), deep])),
      weight: 2,
    });
  }
  return fc.oneof(...variants);
}
