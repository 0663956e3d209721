// Binding a value to the right field when two dimensions share a value domain under opposite roles:
// origin/destination city, seller/buyer, home/away team, or one node joined twice under two roles
// (`ship_from.city`, `ship_to.city`). "from Austin to Dallas" is two filters on two fields, never
// `IN (Austin, Dallas)` on one; "to Austin" is the destination even when Austin was only seen as an
// origin. Each dimension's role is read from its own words (field id, label, role name), never from a
// list of field names. When nothing in the question says which role a value plays, the planner
// declines naming both fields: a guess would be a wrong number stated as governed.
import type { IndexedDimension } from './catalog-index.js';
import type { QuestionWord } from './question-shape.js';
import { identifierWords, normalise, stem } from './text.js';
import type { BoundValue, ValueMatch } from './value-filters.js';
import { MOVING_VERBS, PLACE_CUES, PLACE_VERBS } from './direction-verbs.js';
import { endsVenuePhrase, venueVerb } from './venue-verbs.js';
import { ARTICLES, DIRECTION_CUE_LIST, FAMILY_OF, OPPOSITE, SIDE_WORDS, VENUE_CUE_LIST, type Cue, type RoleFamily, type RoleSide } from './value-role-words.js';

/** A dimension may carry the name of the role it plays (a role-playing join's alias) and its node. */
type RoleAwareDimension = IndexedDimension & { readonly role?: string; readonly node?: string };

export interface DimensionRole {
  readonly side: RoleSide;
  /** The dimension's words without its role words ("city" for `origin_city`): what its counterpart shares. */
  readonly rest: string;
}

export type Binding =
  | { readonly kind: 'bound'; readonly values: readonly BoundValue[]; readonly cueWords: ReadonlySet<number> }
  | { readonly kind: 'undecided'; readonly reason: string };

const MAX_ARTICLES = 2;
/** Words a cue may stand apart from its value by when the field's own words are among them. */
const MAX_SKIPPED = 4;
const TRADE_WORDS = new Set(['seller', 'vendor', 'supplier', 'buyer', 'purchaser', 'vendedor', 'comprador', 'vendeur', 'acheteur', 'verkaufer', 'kaufer']);

/** How to say which role: "sold by" / "bought by" for trading parties, "from" / "to" for places, home / away. */
function hint(family: RoleFamily, fields: readonly string[], byField: ReadonlyMap<string, IndexedDimension>): string {
  if (family === 'venue') return "say 'at home' or 'away'";
  const trading = fields.some((field) => normalise(`${identifierWords(field)} ${byField.get(field)?.label ?? ''}`).split(' ').some((word) => TRADE_WORDS.has(stem(word))));
  return trading ? "say 'sold by' or 'bought by'" : "say 'from' or 'to'";
}

const roles = new WeakMap<IndexedDimension, DimensionRole | null>();
const STEMMED_SIDES: ReadonlyMap<string, RoleSide> = new Map([...SIDE_WORDS].map(([word, side]) => [stem(word), side] as const));

/**
 * The one side that words give: a direction (from, to) before a venue (home, away), since a "guest
 * origin" country is where a hotel guest comes from, not an away team; none when they disagree.
 */
function oneSide(found: ReadonlyArray<RoleSide | undefined>): RoleSide | undefined {
  const sides = new Set(found.filter((side): side is RoleSide => side !== undefined));
  const direction = [...sides].filter((side) => FAMILY_OF[side] === 'direction');
  if (direction.length > 0) return direction.length === 1 ? direction[0] : undefined;
  return sides.size === 1 ? [...sides][0] : undefined;
}

/** The side a dimension plays, from the words of its field id, label and role name; undefined when none or both. */
export function dimensionRole(dimension: IndexedDimension): DimensionRole | undefined {
  const cached = roles.get(dimension);
  if (cached !== undefined) return cached ?? undefined;
  const { role } = dimension as RoleAwareDimension;
  const idWords = normalise(identifierWords(dimension.field.replace(/\./g, ' '))).split(' ');
  const all = [...idWords, ...normalise(dimension.label).split(' '), ...(role ? normalise(identifierWords(role)).split(' ') : [])];
  const sideOf = (word: string): RoleSide | undefined => SIDE_WORDS.get(word) ?? SIDE_WORDS.get(stem(word));
  // A role's own phrases (its join's synonyms: "guest origin", "pickup station") say which side it plays too.
  const phraseSides = role ? dimension.phrases.flat().map((word) => STEMMED_SIDES.get(word)) : [];
  const side = oneSide([...all.map(sideOf), ...phraseSides]);
  // With a role name, the path is the role itself: "pickup.city" and "delivery.city" share "city".
  const restWords = role ? normalise(identifierWords(dimension.field.split('.').pop()!)).split(' ') : idWords;
  const result = side ? { side, rest: restWords.filter((word) => sideOf(word) === undefined).map(stem).join(' ') } : undefined;
  roles.set(dimension, result ?? null);
  return result;
}

/** The dimension of the same kind playing `side` ("destination_city" for "origin_city" and `to`). */
function counterparts(fields: readonly string[], side: RoleSide, dimensions: readonly IndexedDimension[]): IndexedDimension[] {
  const rests = new Set(fields.map((field) => dimensions.find((d) => d.field === field)).map((d) => d && dimensionRole(d)?.rest).filter((rest) => rest !== undefined));
  return dimensions.filter((d) => d.type === 'string' && dimensionRole(d)?.side === side && rests.has(dimensionRole(d)!.rest));
}

/** The cue ending exactly at `end` (inclusive), longest first. */
function cueEndingAt(words: readonly QuestionWord[], end: number, list: readonly Cue[]): Cue | undefined {
  return list.find((cue) => {
    const start = end - cue.words.length + 1;
    return start >= 0 && cue.words.every((word, k) => words[start + k]!.raw === word);
  });
}

/**
 * The direction cue right before position `start`, with its positions, skipping articles ("from the
 * port") and whatever else `skip` allows (the value's own field words: "from countries other than
 * Germany", "an der Station Harbour Front").
 */
export function cueBefore(words: readonly QuestionWord[], start: number, skip: (word: QuestionWord) => boolean = isArticle): { side: RoleSide; positions: number[] } | undefined {
  let end = start - 1;
  for (let skipped = 0; end >= 0 && skipped <= MAX_SKIPPED; skipped++) {
    const cue = cueEndingAt(words, end, DIRECTION_CUE_LIST);
    if (cue) return { side: cue.side, positions: Array.from({ length: cue.words.length }, (_, k) => end - cue.words.length + 1 + k) };
    if (!skip(words[end]!) || (skip === isArticle && skipped >= MAX_ARTICLES)) return undefined;
    end--;
  }
  return undefined;
}

const isArticle = (word: QuestionWord): boolean => ARTICLES.has(word.raw);

/** Venue cues anywhere in the question ("at home", "fuera de casa"), longest first, each word once. */
function venueCues(words: readonly QuestionWord[], taken: ReadonlySet<number>): Array<{ side: RoleSide; positions: number[] }> {
  const found: Array<{ side: RoleSide; positions: number[] }> = [];
  for (let i = 0; i < words.length; i++) {
    const cue = VENUE_CUE_LIST.find((c) => c.words.every((word, k) => words[i + k]?.raw === word && !taken.has(i + k)));
    if (!cue) continue;
    found.push({ side: cue.side, positions: Array.from({ length: cue.words.length }, (_, k) => i + k) });
    i += cue.words.length - 1;
  }
  return found;
}

interface Pending {
  readonly match: ValueMatch;
  readonly family: RoleFamily;
  side?: RoleSide;
  /** Placed by a place word ("stayed in Portugal") on the one field of the value that plays no role. */
  place?: BoundValue;
  /** Placed by a bare "in": kept only when another value of the question is bound to a role by its cue. */
  weakPlace?: boolean;
  /** The place words, accounted for when the place is kept. */
  placeWords?: readonly number[];
  /** "within Texas": both sides of the pair, the value at each end. */
  within?: boolean;
}

/** The value at each end of a pair of roles (from and to), each end's own field first; undefined when one end has none. */
function bothEnds(match: ValueMatch, byField: ReadonlyMap<string, IndexedDimension>, dimensions: readonly IndexedDimension[]): Array<{ field: string; value: string }> | undefined {
  const fields = match.candidates.map((c) => c.field);
  const ends: Array<{ field: string; value: string }> = [];
  for (const side of ['from', 'to'] as const) {
    const own = match.candidates.find((c) => byField.has(c.field) && dimensionRole(byField.get(c.field)!)?.side === side);
    const field = own?.field ?? counterparts(fields, side, dimensions)[0]?.field;
    if (!field) return undefined;
    ends.push({ field, value: own?.value ?? match.candidates[0]!.value });
  }
  return ends;
}

/** Words that put both ends of a trip or a trade in one place: "shipments within Texas". */
const WITHIN = new Set(['within', 'inside']);

/** The position of "within" right before `start` (articles and the value's field words aside), if there is one. */
function withinBefore(words: readonly QuestionWord[], start: number, skip: (word: QuestionWord) => boolean): number | undefined {
  for (let at = start - 1; at >= 0 && start - at <= MAX_SKIPPED; at--) {
    if (WITHIN.has(words[at]!.raw)) return at;
    if (!skip(words[at]!)) return undefined;
  }
  return undefined;
}

// "from countries other than Germany": a negation between the cue and its value.
const BETWEEN_CUE_AND_VALUE = new Set(['other', 'than', 'except', 'excluding', 'but', 'not', 'outside', 'without']);

/** Words a cue may stand apart from `match` by: articles, "other than", and the words of the fields that hold it. */
function skippable(match: ValueMatch, byField: ReadonlyMap<string, IndexedDimension>): (word: QuestionWord) => boolean {
  const stems = new Set(match.candidates.flatMap((candidate) => byField.get(candidate.field)?.phrases.flat() ?? []));
  return (word) => ARTICLES.has(word.raw) || BETWEEN_CUE_AND_VALUE.has(word.raw) || stems.has(word.stem);
}

/**
 * The place words right before `start` ("stayed in", "in", "visited"), skipping as `skip` allows.
 * `strong` when a verb says so or the words before name the plain field ("hotels in Germany"); a bare
 * "in" ("parcels in Austin") may as well mean where something came from.
 */
function placeBefore(words: readonly QuestionWord[], start: number, skip: (word: QuestionWord) => boolean, plainWords: ReadonlySet<string>): { positions: number[]; strong: boolean } | undefined {
  let end = start - 1;
  for (let skipped = 0; end >= 0 && skipped <= MAX_SKIPPED; skipped++) {
    const cue = PLACE_CUES.find((phrase) => {
      const first = end - phrase.length + 1;
      return first >= 0 && phrase.every((word, k) => words[first + k]!.raw === word);
    });
    if (cue) {
      const first = end - cue.length + 1;
      let before = first - 1;
      while (before >= 0 && ARTICLES.has(words[before]!.raw)) before--;
      // "hotels in Germany", "at hotels outside Spain": the plain field's own words beside the place word.
      const named = (before >= 0 && plainWords.has(words[before]!.stem)) || words.slice(end + 1, start).some((word) => plainWords.has(word.stem));
      const strong = cue.some((word) => PLACE_VERBS.has(word)) || named;
      return { positions: Array.from({ length: cue.length }, (_, k) => first + k), strong };
    }
    if (!skip(words[end]!)) return undefined;
    end--;
  }
  return undefined;
}

/** The value's candidate on the one field that plays no role and is reached through no role join, if it has exactly one. */
function plainCandidate(match: ValueMatch, byField: ReadonlyMap<string, IndexedDimension>): BoundValue | undefined {
  const plain = match.candidates.filter((candidate) => {
    const dimension = byField.get(candidate.field) as RoleAwareDimension | undefined;
    return dimension !== undefined && dimensionRole(dimension) === undefined && dimension.role === undefined;
  });
  return plain.length === 1 ? { field: plain[0]!.field, value: plain[0]!.value, near: match.near } : undefined;
}

/** Words of a dimension's own phrases ("hotel", "country" for the hotel's country). */
function phraseWords(field: string, byField: ReadonlyMap<string, IndexedDimension>): Set<string> {
  return new Set(byField.get(field)?.phrases.flat() ?? []);
}

/** The question's words for a value, quoted: a decline quotes only what the question says. */
export type QuoteWords = (positions: readonly number[]) => string;

function plainQuote(words: readonly QuestionWord[]): QuoteWords {
  return (positions) => `"${positions.map((p) => words[p]!.raw).join(' ')}"`;
}

/**
 * Binds every matched value to one field. Values of fields without a role keep the lookup's first
 * field (base node first); values of fields with a role are bound by the cue before them, by the
 * other value of a "from A to B" pair, or (home/away) by a venue cue anywhere in the question.
 */
export function bindValues(matches: readonly ValueMatch[], words: readonly QuestionWord[], dimensions: readonly IndexedDimension[], quote: QuoteWords = plainQuote(words), negated: ReadonlySet<number> = new Set()): Binding {
  const describe = (match: ValueMatch): string => quote(match.positions);
  const byField = new Map(dimensions.map((d) => [d.field, d]));
  // `negated`: start positions of the values the question leaves out ("excluding OTA").
  const mark = (match: ValueMatch): { negated?: true; at: number } => ({ at: match.positions[0]!, ...(negated.has(match.positions[0]!) ? { negated: true as const } : {}) });
  const values: BoundValue[] = [];
  const cueWords = new Set<number>();
  const pending: Pending[] = [];
  // Cued values of fields without a role: "from TX to CA" on one field is a range or a route, not a list.
  const plainCues = new Map<string, Set<RoleSide>>();
  for (const match of matches) {
    const sided = match.candidates.map((c) => byField.get(c.field)).filter((d) => d !== undefined && dimensionRole(d) !== undefined);
    if (sided.length === 0) {
      const { field, value } = match.candidates[0]!;
      // The same value in two fields of one level that no role word tells apart (two joins of one
      // node, or two columns of the base): the field is undecided, so no guess.
      const rival = match.candidates.find((c) => c.field !== field && c.field.includes('.') === field.includes('.'));
      if (rival) return { kind: 'undecided', reason: `${describe(match)} could be ${labels([field, rival.field], byField, 'or')}; name which one.` };
      values.push({ field, value, near: match.near, ...mark(match) });
      const cue = cueBefore(words, match.positions[0]!);
      if (cue && FAMILY_OF[cue.side] === 'direction') plainCues.set(field, new Set([...(plainCues.get(field) ?? []), cue.side]));
      continue;
    }
    const family = FAMILY_OF[dimensionRole(sided[0]!)!.side];
    const entry: Pending = { match, family };
    if (family === 'direction') {
      const skip = skippable(match, byField);
      const cue = cueBefore(words, match.positions[0]!, skip);
      const within = cue ? undefined : withinBefore(words, match.positions[0]!, skip);
      const ends = within === undefined ? undefined : bothEnds(match, byField, dimensions);
      if (cue && FAMILY_OF[cue.side] === family) {
        entry.side = cue.side;
        for (const position of cue.positions) cueWords.add(position);
      } else if (within !== undefined && ends) {
        entry.within = true;
        cueWords.add(within);
        if (MOVING_VERBS.has(words[within - 1]?.raw ?? '')) cueWords.add(within - 1);
      } else {
        // "hotels in Germany", "stayed in Portugal": where the thing counted happened, the field of no role.
        const plain = plainCandidate(match, byField);
        const place = plain && placeBefore(words, match.positions[0]!, skip, phraseWords(plain.field, byField));
        if (plain && place) {
          entry.place = plain;
          entry.weakPlace = !place.strong;
          entry.placeWords = place.positions;
        }
      }
    }
    pending.push(entry);
  }
  for (const [field, sides] of plainCues) {
    if (sides.size < 2) continue;
    const label = byField.get(field)?.label.toLowerCase() ?? field;
    const named = values.filter((v) => v.field === field).map((v) => v.value).join(' and ');
    return { kind: 'undecided', reason: `From … to … over ${named} reads as a range or a route, which the ${label} alone cannot express; name the values to include, or ask for each.` };
  }
  // "room nights in Spain booked by guests from Spain": a bare "in" places a value when another is cued to a role.
  const cued = pending.some((p) => p.side !== undefined);
  for (const entry of pending) {
    if (entry.weakPlace && !cued) entry.place = undefined;
    if (entry.place) for (const position of entry.placeWords ?? []) cueWords.add(position);
  }
  // "Austin to Dallas": in a pair, the value without a cue plays the other role.
  const direction = pending.filter((p) => p.family === 'direction' && !p.place && !p.within && !negated.has(p.match.positions[0]!));
  if (direction.length === 2) {
    const [a, b] = direction as [Pending, Pending];
    if (a.side && !b.side) b.side = OPPOSITE[a.side];
    else if (b.side && !a.side) a.side = OPPOSITE[b.side];
  }
  const venue = pending.filter((p) => p.family === 'venue');
  // "LA host POR", "when Washington Wolves visited Derby Forge", "hosted by DER": verbs around a team.
  const verbs = venue.map((entry) => ({ entry, verb: venueVerb(words, entry.match.positions) }));
  for (const { entry, verb } of verbs) {
    if (!verb?.side) continue;
    entry.side = verb.side;
    for (const position of verb.positions) cueWords.add(position);
  }
  // "LA host against POR": the team after "against" played the other side.
  for (const { entry, verb } of verbs) {
    const other = venue.find((p) => p !== entry && p.side);
    if (!verb || verb.side || entry.side || !other || venue.length !== 2) continue;
    entry.side = OPPOSITE[other.side!];
    for (const position of verb.positions) cueWords.add(position);
  }
  const unbound = venue.filter((entry) => !entry.side);
  if (unbound.length > 0) {
    const taken = new Set([...matches.flatMap((m) => m.positions), ...cueWords]);
    const found = venueCues(words, taken);
    const sides = new Set(found.map((cue) => cue.side));
    if (unbound.length === 1 && venue.length === 1 && sides.size === 1) {
      unbound[0]!.side = [...sides][0]!;
      for (const cue of found) for (const position of cue.positions) cueWords.add(position);
    }
  }
  // "sent to Africa except Morocco": a value left out of another, with no cue of its own, takes that one's role.
  let lastSide: RoleSide | undefined;
  for (const entry of [...pending].sort((a, b) => a.match.positions[0]! - b.match.positions[0]!)) {
    if (entry.side) lastSide = entry.side;
    else if (lastSide && negated.has(entry.match.positions[0]!) && !entry.place && FAMILY_OF[lastSide] === entry.family) entry.side = lastSide;
  }
  for (const entry of pending) {
    if (entry.place) {
      values.push({ ...entry.place, ...mark(entry.match) });
      continue;
    }
    const fields = entry.match.candidates.map((c) => c.field);
    const value = entry.match.candidates[0]!.value;
    const sideOfField = (field: string) => dimensionRole(byField.get(field)!)?.side;
    if (entry.within) {
      // Left out, "not within Texas" would leave out the trips with either end elsewhere: no filter per field says that.
      if (negated.has(entry.match.positions[0]!)) return { kind: 'undecided', reason: `${describe(entry.match)} left out at both ends cannot be told apart from either end; ask 'not from' or 'not to'.` };
      for (const end of bothEnds(entry.match, byField, dimensions)!) values.push({ ...end, near: entry.match.near, ...mark(entry.match) });
      continue;
    }
    if (entry.side) {
      const own = entry.match.candidates.find((c) => byField.has(c.field) && sideOfField(c.field) === entry.side);
      const other = own ? undefined : counterparts(fields, entry.side, dimensions)[0];
      const field = own?.field ?? other?.field;
      if (!field) return { kind: 'undecided', reason: `${describe(entry.match)} is known only as ${labels(fields, byField)}, which the question does not ask for.` };
      values.push({ field, value: own?.value ?? value, near: entry.match.near, ...mark(entry.match) });
      continue;
    }
    const possible = [...new Set([...fields, ...entry.match.candidates.flatMap((c) => {
      const side = byField.has(c.field) ? sideOfField(c.field) : undefined;
      return side ? counterparts([c.field], OPPOSITE[side], dimensions).map((d) => d.field) : [];
    })])];
    // Two fields where one plays a role ("origin city" and a plain "city"): they mean different things.
    if (possible.length > 1) {
      return { kind: 'undecided', reason: `${describe(entry.match)} could be ${labels(possible, byField, 'or')}; ${hint(entry.family, possible, byField)}.` };
    }
    values.push({ field: fields[0]!, value, near: entry.match.near, ...mark(entry.match) });
  }
  return { kind: 'bound', values, cueWords };
}

function labels(fields: readonly string[], byField: ReadonlyMap<string, IndexedDimension>, joiner = 'and'): string {
  const label = (field: string) => (byField.get(field)?.label ?? field).toLowerCase();
  // Two roles of one joined node share a label ("City"): the field id tells them apart.
  const names = fields.map((field) => (fields.some((other) => other !== field && label(other) === label(field)) ? `the ${label(field)} (${field})` : `the ${label(field)}`));
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${joiner} ${names[names.length - 1]}`;
}

/**
 * Breakdown markers that end a direction cue or a venue phrase before a value of a dimension with a
 * role ("sold by Acme", "nach Lyon", "vendu par Acme", "hosted by DER"): they introduce the value, not a breakdown.
 */
export function cueMarkers(words: readonly QuestionWord[], isMarker: (raw: string) => boolean, startsRoleValue: (position: number) => boolean): Set<number> {
  const markers = new Set<number>();
  words.forEach((word, position) => {
    if (!isMarker(word.raw) || !(cueEndingAt(words, position, DIRECTION_CUE_LIST) || endsVenuePhrase(words, position))) return;
    let next = position + 1;
    // An article read as a value ("hosted by DER") is no article.
    while (next < words.length && ARTICLES.has(words[next]!.raw) && words[next]!.stop && next - position <= MAX_ARTICLES) next++;
    if (next < words.length && startsRoleValue(next)) markers.add(position);
  });
  return markers;
}
