// The question's words as the person typed them (case, accents), aligned with the planner's tokens.
// A decline quotes the question only through these: a person reads double quotes in a refusal as
// their own words, so "jugó" is quoted as typed, never as the planner's "jugo", and a phrase is
// quoted as the stretch of the question it spans ("across all deliveries"). Case tells the planner
// something too: "Reading" typed with a capital in a question that otherwise uses lower case is a name.
import { normalise, tokenise } from './text.js';

export interface TypedWord {
  /** As typed. */
  readonly text: string;
  /** Offsets in the question: [start, end). */
  readonly start: number;
  readonly end: number;
}

export interface QuestionText {
  readonly question: string;
  /** One per token; undefined when the question's words could not be aligned with its tokens. */
  readonly words: readonly TypedWord[] | undefined;
  /** The question mixes lower case and capitals: a capital says something. */
  readonly caseInformative: boolean;
}

/** Splits `question` where `normalise` would, keeping each word as typed. */
export function readQuestionText(question: string, tokenCount = tokenise(question).length): QuestionText {
  const words: TypedWord[] = [];
  let start = -1;
  let offset = 0;
  for (const char of question) {
    const inWord = normalise(char) !== '' || (start >= 0 && /\p{M}/u.test(char));
    if (inWord && start < 0) start = offset;
    if (!inWord && start >= 0) {
      words.push({ text: question.slice(start, offset), start, end: offset });
      start = -1;
    }
    offset += char.length;
  }
  if (start >= 0) words.push({ text: question.slice(start), start, end: question.length });
  const aligned = words.length === tokenCount ? words : undefined;
  const letters = question.replace(/[^\p{L}]/gu, '');
  return { question, words: aligned, caseInformative: /\p{Ll}/u.test(letters) && /\p{Lu}/u.test(letters) };
}

/** The words at `positions` (token positions, in order) as the question has them, with what stands between. */
export function typedSpan(text: QuestionText, positions: readonly number[], fallback: (position: number) => string): string {
  if (positions.length === 0) return '';
  const first = text.words?.[positions[0]!];
  const last = text.words?.[positions[positions.length - 1]!];
  if (!first || !last) return positions.map(fallback).join(' ');
  return text.question.slice(first.start, last.end);
}

/** Whether the word at `position` was typed with a capital first letter. */
export function typedCapitalised(text: QuestionText, position: number): boolean {
  const word = text.words?.[position];
  return word !== undefined && /^\p{Lu}/u.test(word.text);
}

/** Whether the word at `position` was typed all in capitals in a question that also uses lower case: a code ("POR", "PAR"). */
export function typedAsCode(text: QuestionText, position: number): boolean {
  const word = text.words?.[position];
  return text.caseInformative && word !== undefined && /^\p{Lu}{2,}$/u.test(word.text);
}
