// The field a breakdown names ("by station", "per hotel"). A field of the base node wins over a joined
// node's field of the same name ("region" where an order ships and where its customer lives). Two
// joined fields that answer to the same words, such as one node joined in two roles (where a trip
// started and where it ended), are a question the words do not settle: answering for the first role
// would be a number for a question nobody asked, so the plan is declined naming both, exactly as a
// filter value held by two roles is.
import type { IndexedDimension, IndexedReveal } from './catalog-index.js';
import type { DimensionRequest } from './question-shape.js';

export type BreakdownField =
  | { readonly kind: 'field'; readonly field: string }
  | { readonly kind: 'ambiguous'; readonly reason: string }
  | { readonly kind: 'none' };

function describe(dimension: IndexedDimension, all: readonly IndexedDimension[]): string {
  const label = dimension.label.toLowerCase();
  // Two roles of one node share a label ("Station"): the field id tells them apart.
  return all.some((other) => other !== dimension && other.label.toLowerCase() === label) ? `the ${label} (${dimension.field})` : `the ${label}`;
}

export function resolveBreakdown(request: DimensionRequest, reveal: IndexedReveal): BreakdownField {
  if (request.grain) return reveal.timeField ? { kind: 'field', field: `${reveal.timeField}.${request.grain}` } : { kind: 'none' };
  const key = request.stems.join(' ');
  const matches = reveal.dimensions.filter((dimension) => dimension.phrases.some((phrase) => phrase.join(' ') === key));
  const onBase = matches.find((dimension) => dimension.onBase);
  if (onBase) return { kind: 'field', field: onBase.field };
  if (matches.length === 0) return { kind: 'none' };
  if (matches.length === 1) return { kind: 'field', field: matches[0]!.field };
  const names = matches.map((dimension) => describe(dimension, matches));
  const options = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  const example = matches.find((dimension) => dimension.role)?.role?.replaceAll('_', ' ');
  return { kind: 'ambiguous', reason: `"by ${request.words}" could be ${options}; name which one${example ? ` (for example "by ${example}")` : ''}.` };
}
