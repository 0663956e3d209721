// A question in another language rewritten with the analytical lexicon (analytical-lexicon.ts), word
// by word, into the English the planner reads: "Quanti viaggi sono partiti da Central Station nel
// 2024?" → "how many viaggi were partiti da Central Station nel 2024?". Left as typed: the periods the
// period grammar reads in every language (so "nel 2024" and "primo trimestre del 2025" resolve as
// they are tested to), words the catalog knows (a synonym "durée moyenne" keeps "moyenne"), names
// typed with a capital (German aside: its nouns all have one), and every word the lexicon does not
// know, domain words first ("viaggi"), which the model's synonyms must name.
//
// The rewrite remembers where each of its words came from, so that a decline of the rewritten text
// quotes the question as typed, never an English word the lexicon put there.
import { analyticalLexicon, type LexiconEntry } from './analytical-lexicon.js';
import { findPeriod } from './periods.js';
import type { ForeignLanguage } from './question-language.js';
import { readQuestionText, type TypedWord } from './question-text.js';
import { normalise } from './text.js';

/** Where a stretch of the rewritten text came from in the question. */
interface Segment {
  readonly outStart: number;
  readonly outEnd: number;
  readonly inStart: number;
  readonly inEnd: number;
  /** English the lexicon put in, rather than the question's own words. */
  readonly replaced: boolean;
}

export interface LexiconRewrite {
  readonly language: ForeignLanguage;
  readonly question: string;
  /** The text to plan. */
  readonly text: string;
  /** Whether the lexicon changed any word. */
  readonly changed: boolean;
  /** The question's words left as typed, period phrases aside: the ones the model must know. */
  readonly kept: readonly string[];
  /**
   * A phrase of `text` (as a planner quotes it) as the question typed it, or undefined when it is no
   * single stretch of the rewritten text.
   */
  typed(phrase: string): string | undefined;
}

export interface RewriteOptions {
  /** Words to keep as typed: the catalog knows them. */
  readonly keep?: (normalised: string) => boolean;
  /** For the period phrases, which are kept as typed. */
  readonly now: Date;
  readonly timezone: string;
}

const MAX_PERIODS = 4;

/** Offsets [start, end) of every period phrase of the question, leftmost first. */
export function periodSpans(question: string, options: { now: Date; timezone: string }): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  let rest = question;
  for (let i = 0; i < MAX_PERIODS; i++) {
    const period = findPeriod(rest, options);
    const at = period ? rest.indexOf(period.phrase) : -1;
    if (!period || at < 0 || period.phrase.trim() === '') break;
    spans.push([at, at + period.phrase.length]);
    rest = `${rest.slice(0, at)}${' '.repeat(period.phrase.length)}${rest.slice(at + period.phrase.length)}`;
  }
  return spans;
}

function entryAt(lexicon: readonly LexiconEntry[], words: readonly string[], at: number, free: (position: number) => boolean): LexiconEntry | undefined {
  return lexicon.find((entry) => {
    if (!entry.words.every((word, k) => words[at + k] === word && free(at + k))) return false;
    if (entry.after && !words.slice(0, at).some((word) => entry.after!.has(word))) return false;
    if (entry.notBeforeNumber && /^\d/.test(words[at + entry.words.length] ?? '')) return false;
    return true;
  });
}

export function rewriteWithLexicon(question: string, language: ForeignLanguage, options: RewriteOptions): LexiconRewrite {
  const typedWords: readonly TypedWord[] = readQuestionText(question).words ?? [];
  const words = typedWords.map((word) => normalise(word.text));
  const periods = periodSpans(question, options);
  const inPeriod = (word: TypedWord): boolean => periods.some(([start, end]) => word.start < end && word.end > start);
  const free = (position: number): boolean => {
    const word = typedWords[position]!;
    if (inPeriod(word) || words[position]!.includes(' ')) return false;
    if (language !== 'de' && position > 0 && /^\p{Lu}/u.test(word.text)) return false;
    return !options.keep?.(words[position]!);
  };
  const lexicon = analyticalLexicon(language);
  const replacements: Array<{ start: number; end: number; english: string }> = [];
  const replacedWords = new Set<number>();
  for (let at = 0; at < words.length; ) {
    const entry = entryAt(lexicon, words, at, free);
    if (!entry) {
      at++;
      continue;
    }
    const last = typedWords[at + entry.words.length - 1]!;
    replacements.push({ start: typedWords[at]!.start, end: last.end, english: entry.english });
    for (let k = at; k < at + entry.words.length; k++) replacedWords.add(k);
    at += entry.words.length;
  }

  const segments: Segment[] = [];
  let text = '';
  let cursor = 0;
  const copy = (until: number): void => {
    if (until <= cursor) return;
    segments.push({ outStart: text.length, outEnd: text.length + until - cursor, inStart: cursor, inEnd: until, replaced: false });
    text += question.slice(cursor, until);
    cursor = until;
  };
  for (const { start, end, english } of replacements) {
    copy(start);
    segments.push({ outStart: text.length, outEnd: text.length + english.length, inStart: start, inEnd: end, replaced: true });
    text += english;
    cursor = end;
  }
  copy(question.length);

  const locate = (phrase: string): readonly [number, number] | undefined => {
    const needle = phrase.trim().toLowerCase();
    if (needle === '') return undefined;
    const haystack = text.toLowerCase();
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
      const before = haystack[at - 1];
      const after = haystack[at + needle.length];
      // Whole words only: "the" is not inside "there".
      if ((before === undefined || !/[\p{L}\p{N}]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}]/u.test(after))) return [at, at + needle.length];
    }
    return undefined;
  };
  const segmentAt = (offset: number): Segment | undefined => segments.find((segment) => offset >= segment.outStart && offset < segment.outEnd);

  return {
    language,
    question,
    text,
    changed: replacements.length > 0,
    kept: typedWords.filter((word, position) => !replacedWords.has(position) && !inPeriod(word)).map((word) => word.text),
    typed(phrase) {
      const found = locate(phrase);
      if (!found) return undefined;
      const first = segmentAt(found[0]);
      const last = segmentAt(found[1] - 1);
      if (!first || !last) return undefined;
      const start = first.replaced ? first.inStart : first.inStart + (found[0] - first.outStart);
      const end = last.replaced ? last.inEnd : last.inStart + (found[1] - last.outStart);
      return question.slice(start, end);
    },
  };
}
