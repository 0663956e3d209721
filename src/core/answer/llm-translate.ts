// A question in another language translated into English by the configured language model, before
// anything else reads it: the English then goes through the same period grammar, planner and gates
// as a question asked in English. The prompt gives the model the catalog's own English words (metric
// labels and synonyms, dimension labels and synonyms), so "viajes" comes back as "trips" when the
// catalog says trips, and tells it to keep names, values, numbers and dates as written.
//
// The reply is checked before it is used: a translation that adds or drops a number or a year of the
// question or a negation ("excluding", "sin", "ohne"), is empty, runs far longer than the question, or
// is not mostly English is refused, and the caller reads the question with the word list instead
// (lexicon-rewrite.ts). The model never answers anything here: every number still comes from the
// warehouse, and the answer states the English it answered (the `question_translated` assumption), so
// a translation that passes these checks yet means something else is there for the asker to see.
import type { LlmClient } from './llm-client.js';
import { hasNegationCue } from './negation.js';
import { LANGUAGE_NAMES, englishWordShare, questionLanguage, type ForeignLanguage } from './question-language.js';
import { normalise } from './text.js';

/** How the system prompt starts; a test server tells translation requests apart by it. */
export const TRANSLATION_PROMPT_START = 'You translate questions about business data into English.';
const MAX_CATALOG_WORDS = 300;
const TRANSLATION_MAX_TOKENS = 200;
/** At least this share of the translation's words must read as English. */
const MIN_ENGLISH_SHARE = 0.5;

export function translationRequest(question: string, language: ForeignLanguage, catalogWords: readonly string[]): { system: string; user: string } {
  const words = [...new Set(catalogWords.map((word) => word.trim()).filter(Boolean))].slice(0, MAX_CATALOG_WORDS);
  const system = [
    TRANSLATION_PROMPT_START,
    'Reply with the English question only: no quotes, no notes, no answer to the question.',
    'Where a word of the question means one of the catalog words below, use the catalog word.',
    'Keep names, codes and values (places, products, channels, statuses) as they are written, and every number, year and date exactly as written; translate month names and words such as "first quarter" or "last year".',
    'Do not add words the question does not say: no period, filter or grouping of your own.',
    `Catalog words: ${words.join('; ')}`,
  ].join('\n');
  return { system, user: `Translate from ${LANGUAGE_NAMES[language]}: ${question}` };
}

/** Numbers as written (digits), in order; "2024", "3", "1.5". */
function numbersOf(text: string): string[] {
  return [...text.matchAll(/\d+(?:[.,]\d+)?/g)].map((match) => match[0].replace(',', '.')).sort();
}

export type TranslationCheck = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * Whether `reply` may stand for `question`: the same numbers, not empty, not much longer, and mostly
 * English (common words, the catalog's words, the question's own names and values).
 */
export function checkTranslation(question: string, reply: string, catalogStems: (word: string) => boolean): TranslationCheck {
  const text = reply
    .trim()
    .replace(/^(?:english|translation)\s*:\s*/i, '')
    .replace(/^["'“«]+|["'”»]+$/g, '')
    .trim();
  if (text === '') return { ok: false, reason: 'the translation is empty' };
  if (text.includes('\n') || text.length > question.length * 2.5 + 40) return { ok: false, reason: 'the translation is much longer than the question' };
  const asked = numbersOf(question);
  const given = numbersOf(text);
  if (asked.join(' ') !== given.join(' ')) {
    return { ok: false, reason: `the translation changes the numbers of the question (${asked.join(', ') || 'none'} → ${given.join(', ') || 'none'})` };
  }
  // "excluding", "sin", "ohne", "tranne": a value left out must stay left out.
  if (hasNegationCue(normalise(question).split(' ')) !== hasNegationCue(normalise(text).split(' '))) {
    return { ok: false, reason: 'the translation drops or adds a negation ("excluding", "not", "without")' };
  }
  const ownWords = new Set(normalise(question).split(' '));
  const share = englishWordShare(text, (word) => ownWords.has(word) || catalogStems(word));
  if (questionLanguage(text) !== 'en' || share < MIN_ENGLISH_SHARE) return { ok: false, reason: 'the translation is not mostly English' };
  return { ok: true, text };
}

export type TranslationOutcome =
  | { readonly ok: true; readonly text: string; readonly tokensUsed: number }
  | { readonly ok: false; readonly reason: string; readonly tokensUsed: number };

/** The question in English, by the model, checked; or why not. */
export async function translateQuestion(
  client: LlmClient,
  question: string,
  language: ForeignLanguage,
  catalog: { readonly words: readonly string[]; readonly knows: (word: string) => boolean },
): Promise<TranslationOutcome> {
  const { system, user } = translationRequest(question, language, catalog.words);
  const reply = await client.text(system, user, TRANSLATION_MAX_TOKENS);
  if (!reply.ok) return { ok: false, reason: reply.reason, tokensUsed: reply.tokensUsed };
  const checked = checkTranslation(question, reply.text, catalog.knows);
  return checked.ok ? { ok: true, text: checked.text, tokensUsed: reply.tokensUsed } : { ok: false, reason: checked.reason, tokensUsed: reply.tokensUsed };
}
