// The JSON Schemas tools/list shows, made lean: an agent reads the whole list into its context before
// it does anything, so every token there is paid for on every conversation. Inputs keep what shapes a
// call (types, properties, required, enums, defaults, numeric bounds, the recursive filter's $defs) and
// drop bounds the server enforces anyway and reports clearly when crossed (lengths, item counts,
// additionalProperties). Outputs keep their top level (each property and its type), which is what a client validates
// structured content against and what an agent needs to find its way; deeper detail is in the docs.
type Json = Record<string, unknown>;

const DROPPED = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'additionalProperties', 'description', 'pattern', 'format', 'propertyNames']);

function strip(value: unknown, depth: number | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, depth));
  if (!value || typeof value !== 'object') return value;
  const schema = value as Json;
  if (depth === 0) {
    // Past the depth kept: only the kind of value.
    return schema.type ? { type: schema.type } : {};
  }
  const lean: Json = {};
  for (const [key, child] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    // An empty list by default says no more than the property being optional.
    if (key === 'default' && Array.isArray(child) && child.length === 0) continue;
    if (key === 'properties' && child && typeof child === 'object') {
      lean[key] = Object.fromEntries(Object.entries(child as Json).map(([name, property]) => [name, strip(property, depth === undefined ? undefined : depth - 1)]));
    } else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === '$defs') {
      lean[key] = key === '$defs' ? Object.fromEntries(Object.entries(child as Json).map(([name, def]) => [name, strip(def, depth)])) : strip(child, depth);
    } else {
      lean[key] = child;
    }
  }
  return lean;
}

/** An input schema without the bounds the server checks anyway. */
export function leanInput(schema: Json): Json {
  return strip(schema, undefined) as Json;
}

/** An output schema to `depth` levels of properties; which are always present is for the docs to say. */
export function leanOutput(schema: Json, depth = 1): Json {
  const { required: _required, ...lean } = strip(schema, depth) as Json;
  return lean;
}
