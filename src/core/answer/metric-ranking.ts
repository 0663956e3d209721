// Ranking the governed metrics against the content words of a question, and choosing among them.
// Scores are BM25-like: each matched word weighs its inverse document frequency over metrics, a phrase
// matched in full (every word of a name, label or synonym) earns a bonus, a partial phrase half. The
// description is a weak fallback only: naive full-text ranking over descriptions is what matched
// "churn rate by cohort" to average order value.
import type { CatalogIndex, IndexedMetric, IndexedReveal } from './catalog-index.js';

export interface MetricCandidate {
  readonly metric: IndexedMetric;
  readonly score: number;
  /** Every word of one of the metric's phrases is in the question. */
  readonly full: boolean;
  readonly matchedBy: 'name' | 'label' | 'synonym' | 'description';
  /** Question stems this metric accounts for. */
  readonly covered: ReadonlySet<string>;
}

export type MetricChoice =
  | { readonly kind: 'chosen'; readonly reveal: string; readonly metrics: readonly MetricCandidate[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly first: MetricCandidate; readonly second: MetricCandidate }
  | { readonly kind: 'mixed'; readonly first: MetricCandidate; readonly second: MetricCandidate };

const FULL_PHRASE_BONUS = 2;
const PARTIAL_FACTOR = 0.5;
const SYNONYM_FACTOR = 0.95;
const DESCRIPTION_FACTOR = 0.3;
/** A rival within this share of the best score, competing for the same words, makes the question ambiguous. */
const CLEAR_WIN_RATIO = 0.8;

/** Whether `phrase` appears as consecutive words of `sequence`. */
function appearsInOrder(phrase: readonly string[], sequence: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= sequence.length; start++) {
    if (phrase.every((stem, k) => sequence[start + k] === stem)) return true;
  }
  return false;
}

/** Where a phrase occurs whole, as [start, end) in the sequence. */
function occurrences(phrase: readonly string[], sequence: readonly string[]): Array<readonly [number, number]> {
  const found: Array<readonly [number, number]> = [];
  for (let start = 0; start + phrase.length <= sequence.length; start++) {
    if (phrase.every((stem, k) => sequence[start + k] === stem)) found.push([start, start + phrase.length]);
  }
  return found;
}

/** A label or name of several words spelled out whole: its words are that metric's. */
interface Claim {
  readonly metric: IndexedMetric;
  readonly start: number;
  readonly end: number;
}

function claimsOf(metrics: readonly IndexedMetric[], sequence: readonly string[]): Claim[] {
  return metrics.flatMap((metric) =>
    metric.phrases.filter((phrase) => phrase.source !== 'synonym' && phrase.stems.length > 1).flatMap((phrase) => occurrences(phrase.stems, sequence).map(([start, end]) => ({ metric, start, end }))),
  );
}

/**
 * Whether every place the words of `metric`'s phrase stand in the question lies strictly inside
 * another metric's spelled-out label: "reads" inside "estimated reads" is not Meter reads' synonym
 * "readings", wherever else Meter reads is named. A phrase that matches the whole label competes.
 */
function insideOthersLabel(metric: IndexedMetric, phrase: readonly string[], full: boolean, sequence: readonly string[], claims: readonly Claim[]): boolean {
  const others = claims.filter((claim) => claim.metric !== metric);
  if (others.length === 0) return false;
  const inside = (start: number, end: number) => others.some((claim) => claim.start <= start && end <= claim.end && end - start < claim.end - claim.start);
  if (full) return occurrences(phrase, sequence).every(([start, end]) => inside(start, end));
  const positions = sequence.flatMap((stem, at) => (phrase.includes(stem) ? [at] : []));
  return positions.every((at) => inside(at, at + 1));
}

function scoreMetric(metric: IndexedMetric, sequence: readonly string[], index: CatalogIndex, claims: readonly Claim[]): MetricCandidate | undefined {
  const available = new Set(sequence);
  let best: MetricCandidate | undefined;
  // Every phrase matched in full explains its words: "average basket size" is "average basket" and "basket size".
  const explained = new Set<string>();
  for (const phrase of metric.phrases) {
    const matched = phrase.stems.filter((stem) => available.has(stem));
    if (matched.length === 0) continue;
    // In full only when the words are adjacent: "enterprise customers and business share" does not
    // name "business customers".
    const full = appearsInOrder(phrase.stems, sequence);
    if (insideOthersLabel(metric, full ? phrase.stems : matched, full, sequence, claims)) continue;
    if (full) for (const stem of matched) explained.add(stem);
    const weight = matched.reduce((sum, stem) => sum + index.metricWeight(stem), 0);
    const sourceFactor = phrase.source === 'synonym' ? SYNONYM_FACTOR : 1;
    const score = sourceFactor * (full ? weight + FULL_PHRASE_BONUS : PARTIAL_FACTOR * weight * (matched.length / phrase.stems.length));
    if (!best || score > best.score) best = { metric, score, full, matchedBy: phrase.source, covered: new Set(matched) };
  }
  if (best) return best.full ? { ...best, covered: explained } : best;
  const described = [...available].filter((stem) => metric.descriptionStems.has(stem));
  if (described.length === 0) return undefined;
  const score = DESCRIPTION_FACTOR * described.reduce((sum, stem) => sum + index.descriptionWeight(stem), 0);
  return { metric, score, full: false, matchedBy: 'description', covered: new Set(described) };
}

/** Every metric of `reveals` that matches the content stems `sequence` (in question order), best first. */
export function rankMetrics(sequence: readonly string[], reveals: readonly IndexedReveal[], index: CatalogIndex): MetricCandidate[] {
  const metrics = reveals.flatMap((reveal) => reveal.metrics);
  const claims = claimsOf(metrics, sequence);
  const candidates: MetricCandidate[] = [];
  for (const metric of metrics) {
    const candidate = scoreMetric(metric, sequence, index, claims);
    if (candidate) candidates.push(candidate);
  }
  // Ties keep catalog order, so the result never depends on the engine's sort.
  return candidates.sort((a, b) => b.score - a.score);
}

function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const stem of a) if (b.has(stem)) return true;
  return false;
}

function isStrictSubset(small: ReadonlySet<string>, large: ReadonlySet<string>): boolean {
  if (small.size >= large.size) return false;
  for (const stem of small) if (!large.has(stem)) return false;
  return true;
}

/**
 * The headline metric is the best candidate. Candidates matching other words in full join it
 * ("revenue and orders") when they belong to the same reveal; a rival competing for the same words
 * with a close score makes the question ambiguous. Description matches never join another metric.
 */
export function chooseMetrics(candidates: readonly MetricCandidate[]): MetricChoice {
  const [best, ...rest] = candidates;
  if (!best) return { kind: 'none' };
  const chosen: MetricCandidate[] = [best];
  for (const candidate of rest) {
    const rival = chosen.find((c) => overlaps(c.covered, candidate.covered));
    if (rival) {
      // "gross revenue" also contains "revenue": the metric that explains fewer words is no rival.
      if (isStrictSubset(candidate.covered, rival.covered)) continue;
      if (candidate.score >= CLEAR_WIN_RATIO * rival.score) return { kind: 'ambiguous', first: rival, second: candidate };
      continue;
    }
    if (!candidate.full || best.matchedBy === 'description') continue;
    if (candidate.metric.reveal !== best.metric.reveal) return { kind: 'mixed', first: best, second: candidate };
    chosen.push(candidate);
  }
  return { kind: 'chosen', reveal: best.metric.reveal, metrics: chosen };
}
