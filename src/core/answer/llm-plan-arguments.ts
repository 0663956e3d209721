// Reading the model's `plan_query` arguments into a plan, strictly: every name must be one of the
// candidates it was shown, metrics must share one reveal, filter values must be known values when the
// field's values are known. Anything else is an error, and the caller falls back to the offline planner.
import type { AnswerPlan, GovernedPlan, NoMatch } from './plan.js';
import type { CandidateReveal, Retrieval } from './llm-candidates.js';
import { MAX_LIMIT } from './llm-prompt.js';

export type ReadPlan = { readonly plan: AnswerPlan } | { readonly error: string };

const CLOSEST_COUNT = 3;
const MAX_REASON_LENGTH = 300;

class InvalidArguments extends Error {}

function fail(message: string): never {
  throw new InvalidArguments(message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) fail(`${what} is not a list of strings`);
  return [...new Set(value as string[])];
}

export function closestOf(retrieval: Retrieval): NoMatch['closest'] {
  return retrieval.metrics.slice(0, CLOSEST_COUNT).map((metric) => ({ reveal: metric.reveal, metric: metric.name, label: metric.label }));
}

/** A value of `field` as stored, when the field's values are known; a value the data does not hold would silently match nothing. */
function storedValue(reveal: CandidateReveal, field: string, given: string): string {
  if (!reveal.filterFields.includes(field)) fail(`"${field}" is not a filterable field of ${reveal.name}`);
  const known = reveal.values.get(field) ?? [];
  const stored = known.length > 0 ? known.find((candidate) => candidate.toLowerCase() === given.toLowerCase()) : given;
  return stored ?? fail(`"${given}" is not a known value of ${field}`);
}

function readFilters(value: unknown, reveal: CandidateReveal): GovernedPlan['filters'] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail('filters is not a list');
  // Values kept and values left out of one field are two filters: "web or app" and "not OTA".
  const byField = new Map<string, { field: string; exclude: boolean; values: string[] }>();
  for (const filter of value) {
    if (!isRecord(filter) || typeof filter['field'] !== 'string' || typeof filter['value'] !== 'string') fail('a filter is not {field, value}');
    const exclude = filter['exclude'] === true;
    const stored = storedValue(reveal, filter['field'], filter['value']);
    const key = `${exclude ? '!' : ''}${filter['field']}`;
    const entry = byField.get(key) ?? { field: filter['field'], exclude, values: [] };
    if (!entry.values.includes(stored)) entry.values.push(stored);
    byField.set(key, entry);
  }
  return [...byField.values()].map(({ field, exclude, values }) =>
    values.length === 1
      ? { field, operator: exclude ? ('notEquals' as const) : ('equals' as const), value: values[0]! }
      : { field, operator: exclude ? ('notIn' as const) : ('in' as const), value: values },
  );
}

/** `per`: a candidate metric of the reveal, not the headline itself, dividing one metric. */
function readPer(value: unknown, reveal: CandidateReveal, metrics: readonly string[], retrieval: Retrieval): GovernedPlan['per'] {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') fail('per is not a metric name');
  if (!retrieval.metrics.some((metric) => metric.reveal === reveal.name && metric.name === value)) fail(`"${value}" is not a candidate metric of ${reveal.name}`);
  if (metrics.length !== 1) fail('per divides one metric');
  if (metrics[0] === value) fail('per divides a metric by itself');
  return { by: value };
}

function readShare(value: unknown, reveal: CandidateReveal, dimensions: readonly string[]): GovernedPlan['share'] {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) fail('share is not an object');
  const { field, value: given } = value;
  if (field === undefined && given === undefined) {
    if (dimensions.length === 0) fail('a share without a part needs a dimension');
    return {};
  }
  if (typeof field !== 'string' || typeof given !== 'string') fail('share is not {field, value}');
  return { part: { field, value: storedValue(reveal, field, given) } };
}

function readGoverned(args: Record<string, unknown>, retrieval: Retrieval): GovernedPlan {
  const revealName = args['reveal'];
  if (typeof revealName !== 'string') fail('reveal is missing');
  const reveal = retrieval.reveals.find((candidate) => candidate.name === revealName) ?? fail(`"${revealName}" is not a candidate reveal`);

  const metrics = stringList(args['metrics'], 'metrics');
  if (metrics.length === 0) fail('no metric');
  const picked = metrics.map(
    (name) => retrieval.metrics.find((metric) => metric.reveal === reveal.name && metric.name === name) ?? fail(`"${name}" is not a candidate metric of ${reveal.name}`),
  );

  const dimensions = stringList(args['dimensions'], 'dimensions');
  for (const field of dimensions) if (!reveal.dimensions.includes(field)) fail(`"${field}" is not a field of ${reveal.name}`);

  const filters = readFilters(args['filters'], reveal);

  let sort: GovernedPlan['sort'];
  if (args['sort'] !== undefined && args['sort'] !== null) {
    const given = args['sort'];
    if (!isRecord(given) || typeof given['field'] !== 'string') fail('sort is not {field, direction}');
    const direction = given['direction'];
    if (direction !== 'asc' && direction !== 'desc') fail('sort direction is not asc or desc');
    if (!metrics.includes(given['field']) && !dimensions.includes(given['field'])) fail(`cannot sort by "${given['field']}": not a chosen metric or dimension`);
    sort = { field: given['field'], direction };
  }

  let limit: number | undefined;
  if (args['limit'] !== undefined && args['limit'] !== null) {
    const given = args['limit'];
    if (typeof given !== 'number' || !Number.isInteger(given) || given < 1 || given > MAX_LIMIT) fail(`limit ${String(given)} is not an integer from 1 to ${MAX_LIMIT}`);
    limit = given;
  }

  const per = readPer(args['per'], reveal, metrics, retrieval);
  const share = readShare(args['share'], reveal, dimensions);
  if (per && share) fail('a share of a ratio is not one query');
  if ((per || share) && sort) fail('a ranking by a ratio or a share is not one query');
  return {
    kind: 'governed',
    reveal: reveal.name,
    metrics,
    dimensions,
    filters,
    ...(per ? { per } : {}),
    ...(share ? { share } : {}),
    ...(sort ? { sort } : {}),
    ...(limit !== undefined ? { limit } : {}),
    // A pick nothing in the question names (a description or look-alike candidate) is never high confidence.
    matchedBy: picked[0]!.namedInQuestion ? 'synonym' : 'description',
  };
}

export function readPlanArguments(raw: string, retrieval: Retrieval): ReadPlan {
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    return { error: 'arguments are not JSON' };
  }
  if (!isRecord(args)) return { error: 'arguments are not an object' };
  if (args['no_match'] === true) {
    const reason = typeof args['reason'] === 'string' && args['reason'].trim() !== '' ? args['reason'].trim().slice(0, MAX_REASON_LENGTH) : 'No governed metric answers the question.';
    return { plan: { kind: 'no_match', reason, closest: closestOf(retrieval) } };
  }
  try {
    return { plan: readGoverned(args, retrieval) };
  } catch (error) {
    if (error instanceof InvalidArguments) return { error: error.message };
    throw error;
  }
}
