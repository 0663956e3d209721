// Values that are spelt like grammar words: state codes "OR", "IN", "ME", product codes "THE", "A",
// "UN", "DIE", "ES". Dropping such a word as a stop word would answer for the whole population at
// high confidence, so every token that matches one is read here, before stop words are set aside:
//
// - typed in capitals in a question that otherwise uses lower case, it is the code;
// - where a grammar word cannot stand (last word of the question, right before a breakdown, a top-N
//   word or "and"/"or"), position decides when case cannot: all lower case ("revenue in or") or all capitals;
// - typed in lower case where a grammar word cannot stand, in a question that does use capitals, the
//   asker may have meant either: the reading is unsure and the planner declines, naming the value;
//   unless an article comes right before it ("Revenue in the us"): then it can only be the value;
// - an article right before a ranking word or a number is grammar ("the most", "the 3 teams");
// - words joined by hyphens, each of them a word of such a value ("no-show"), are that value: a
//   hyphen makes one word of them, which grammar never does ("show me" is two); joined to any other
//   word ("walk-in") such a word is part of that word, never a code;
// - anywhere else it is grammar ("revenue in WA", "show me the revenue").
import { tokenise } from './text.js';
import { ARTICLES } from './value-role-words.js';

export type GrammarValueReading = 'value' | 'grammar' | 'ambiguous';

const CONNECTORS = new Set(['and', 'y', 'et', 'und', 'e', 'or', 'o', 'ou', 'oder']);

/** Codes are short; a longer word that is both ("total") is only a value when typed as one. */
const MAX_POSITIONAL_CODE_LENGTH = 4;

/** The question's words with their case as typed, aligned with `tokenise`; undefined when they do not align. */
function wordsAsTyped(question: string, count: number): string[] | undefined {
  const words = question
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
  return words.length === count ? words : undefined;
}

/**
 * For each token, whether a hyphen joins it to the next one ("no-show"), aligned with `tokenise`;
 * undefined when the question's words do not align with its tokens.
 */
function hyphenatedToNext(question: string, count: number): boolean[] | undefined {
  const text = question.replace(/ß/g, 'ss').normalize('NFD').replace(/\p{M}/gu, '');
  const joined: boolean[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9]+/g)) {
    const end = match.index + match[0].length;
    joined.push(text[end] === '-' && /[A-Za-z0-9]/.test(text[end + 1] ?? ''));
  }
  return joined.length === count ? joined : undefined;
}

/**
 * How the runs of tokens joined by hyphens read: a run whose every word is a word of a grammar value
 * is that value ("no-show"); in any other run ("walk-in") such a word is part of a word, never a code.
 */
function hyphenatedReadings(question: string, tokens: ReadonlyArray<{ readonly stem: string }>, valueStems: Pick<ReadonlySet<string>, 'has'>): Map<number, GrammarValueReading> {
  const found = new Map<number, GrammarValueReading>();
  const joined = hyphenatedToNext(question, tokens.length);
  if (!joined) return found;
  for (let start = 0; start < tokens.length; start++) {
    let end = start;
    while (joined[end]) end++;
    const run = tokens.slice(start, end + 1);
    const reading = run.every((token) => valueStems.has(token.stem)) ? 'value' : 'grammar';
    if (run.length > 1) for (let k = start; k <= end; k++) found.set(k, reading);
    start = end;
  }
  return found;
}

function isCapitals(word: string): boolean {
  return /[A-Z]/.test(word) && !/[a-z]/.test(word);
}

/**
 * How each token of `question` that matches a value made only of grammar words reads, by position.
 * `valueStems` are the stems of such values; `introducesGrammar` tells whether a word starts a
 * breakdown or a top-N ("by", "per", "top", a number), before which a value may stand but a
 * preposition may not.
 */
export function readGrammarValues(
  question: string,
  valueStems: Pick<ReadonlySet<string>, 'has' | 'size'>,
  introducesGrammar: (raw: string) => boolean,
  ranks: (raw: string) => boolean = () => false,
): Map<number, GrammarValueReading> {
  const readings = new Map<number, GrammarValueReading>();
  if (valueStems.size === 0) return readings;
  const tokens = tokenise(question);
  const typed = wordsAsTyped(question, tokens.length);
  // Case says something only when the question mixes it: all capitals or all lower case says nothing.
  const caseInformative = typed !== undefined && /[a-z]/.test(typed.join('')) && /[A-Z]/.test(typed.join(''));
  const hyphenated = hyphenatedReadings(question, tokens, valueStems);
  // Right to left: whether a word may be grammar depends on whether the next one is a value.
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!;
    if (!token.stop || !valueStems.has(token.stem)) continue;
    const joined = hyphenated.get(i);
    if (joined) {
      readings.set(i, joined);
      continue;
    }
    if (caseInformative && isCapitals(typed![i]!)) {
      readings.set(i, 'value');
      continue;
    }
    const next = tokens[i + 1];
    // "the most", "the 3 away teams", "the highest": an article stands before a ranking or a number.
    if (next && ARTICLES.has(token.raw) && readings.get(i + 1) !== 'value' && ranks(next.raw)) {
      readings.set(i, 'grammar');
      continue;
    }
    // Before "and"/"or" a preposition or an article cannot stand either ("revenue in or and wa").
    const grammarCannotStand = next === undefined || (readings.get(i + 1) !== 'value' && (introducesGrammar(next.raw) || CONNECTORS.has(next.raw)));
    // After an article ("the us", "el es") a grammar word cannot stand either: case does not matter.
    const afterArticle = i > 0 && ARTICLES.has(tokens[i - 1]!.raw);
    if (!grammarCannotStand || token.raw.length > MAX_POSITIONAL_CODE_LENGTH) readings.set(i, 'grammar');
    else readings.set(i, caseInformative && !afterArticle ? 'ambiguous' : 'value');
  }
  return readings;
}
