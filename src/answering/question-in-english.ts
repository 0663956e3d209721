// The first step of a question in another language: the English text the pipeline reads instead
// (period, planning, gates, all as for an English question), the assumption that tells the asker what
// was answered, and how a decline of that text is put back in the asker's words. With a language
// model configured the model translates (llm-translate.ts, checked); otherwise, or when its
// translation is refused, the analytical lexicon rewrites the question word by word
// (lexicon-rewrite.ts) and the words it does not know stay as typed. An English question is passed
// through untouched and never sent anywhere.
import type { CatalogIndex } from '../core/answer/catalog-index.js';
import { rewriteWithLexicon, type LexiconRewrite } from '../core/answer/lexicon-rewrite.js';
import type { LlmClient } from '../core/answer/llm-client.js';
import { translateQuestion } from '../core/answer/llm-translate.js';
import type { NoMatch } from '../core/answer/plan.js';
import { LANGUAGE_NAMES, isGrammarOfAnyLanguage, questionLanguage, type ForeignLanguage } from '../core/answer/question-language.js';
import { normalise, tokenise } from '../core/answer/text.js';
import type { SemanticModel } from '../core/semantic/model.js';
import { questionTranslated, type Assumption } from './assumptions.js';

export interface EnglishQuestion {
  /** What the pipeline reads. */
  readonly text: string;
  /** For a governed answer: the English that was answered. */
  readonly assumptions: readonly Assumption[];
  readonly tokensUsed: number;
  /**
   * A decline of `text` as the asker should read it. `knownStem`: whether a stem is a word of a stored
   * value (the catalog's own words are known here already).
   */
  restate(noMatch: Pick<NoMatch, 'reason' | 'suggestions'>, knownStem?: (stem: string) => boolean): Pick<NoMatch, 'reason' | 'suggestions'>;
}

export interface EnglishQuestionContext {
  readonly model: SemanticModel;
  readonly index: CatalogIndex;
  readonly now: Date;
  readonly timezone: string;
  /** The configured language model, when there is one. */
  readonly client?: LlmClient;
  readonly onNote: (note: string) => void;
}

const QUOTED = /["“]([^"”]*)["”]/g;

/** The catalog's English words for the translation prompt: metric labels and synonyms, dimension labels and synonyms. */
export function catalogWords(model: SemanticModel): string[] {
  const englishSynonyms = (synonyms: readonly string[], byLanguage?: ReadonlyMap<string, readonly string[]>): readonly string[] =>
    byLanguage ? [...(byLanguage.get('en') ?? []), ...(byLanguage.get('') ?? [])] : synonyms;
  const metrics = [...model.reveals.values()].flatMap((reveal) => [...reveal.metrics.values()].flatMap((metric) => [metric.label, ...englishSynonyms(metric.synonyms, metric.synonymsByLanguage)]));
  const dimensions = [...model.nodes.values()].flatMap((node) => [...node.dimensions.values()].filter((dimension) => !dimension.hidden).flatMap((dimension) => [dimension.label, ...(dimension.synonyms ?? [])]));
  return [...new Set([...metrics, ...dimensions])];
}

/** Whether a word (as `normalise` writes it) is one the catalog knows. */
function catalogKnows(index: CatalogIndex): (word: string) => boolean {
  return (word) => {
    const token = tokenise(word)[0];
    return token !== undefined && index.vocabulary.has(token.stem);
  };
}

const untouched = (text: string): EnglishQuestion => ({ text, assumptions: [], tokensUsed: 0, restate: (noMatch) => noMatch });

export async function questionInEnglish(question: string, context: EnglishQuestionContext): Promise<EnglishQuestion> {
  const language = questionLanguage(question);
  if (language === 'en') return untouched(question);
  let tokensUsed = 0;
  if (context.client) {
    const translated = await translateQuestion(context.client, question, language, { words: catalogWords(context.model), knows: catalogKnows(context.index) });
    tokensUsed += translated.tokensUsed;
    if (translated.ok) return byModel(language, translated.text, tokensUsed);
    context.onNote(`Translation not used (${translated.reason}); the question was read with the word list`);
  }
  const knows = catalogKnows(context.index);
  const rewrite = rewriteWithLexicon(question, language, { keep: knows, now: context.now, timezone: context.timezone });
  return { ...byWordList(rewrite, knows), tokensUsed };
}

/** Quotes in a decline of the model's translation are the translation's words, not the asker's: single quotes say so. */
function byModel(language: ForeignLanguage, english: string, tokensUsed: number): EnglishQuestion {
  return {
    text: english,
    assumptions: [questionTranslated(LANGUAGE_NAMES[language], english, 'model')],
    tokensUsed,
    restate: ({ reason, suggestions }) => ({
      reason: `The question was translated into English as ‘${english}’. ${reason.replace(QUOTED, '‘$1’')}`,
      ...(suggestions ? { suggestions } : {}),
    }),
  };
}

/**
 * The words the question kept as typed that the model does not know: no grammar of any language, no
 * catalog word, no word of a stored value, no number.
 */
function unknownWords(rewrite: LexiconRewrite, catalog: (word: string) => boolean, knownStem: (stem: string) => boolean): string[] {
  const unknown = rewrite.kept.filter((typed) => {
    const word = normalise(typed);
    const token = tokenise(word)[0];
    if (!token || token.stop || !/\p{L}/u.test(word) || isGrammarOfAnyLanguage(word)) return false;
    return !catalog(word) && !knownStem(token.stem);
  });
  return [...new Set(unknown)];
}

function byWordList(rewrite: LexiconRewrite, catalog: (word: string) => boolean): Omit<EnglishQuestion, 'tokensUsed'> {
  const language = LANGUAGE_NAMES[rewrite.language];
  return {
    text: rewrite.text,
    assumptions: rewrite.changed ? [questionTranslated(language, rewrite.text, 'word_list')] : [],
    restate: ({ reason, suggestions }, knownStem = () => false) => {
      const restated = reason.replace(QUOTED, (_quote, phrase: string) => {
        const typed = rewrite.typed(phrase);
        // Not one stretch of the rewritten text: say it without claiming the asker's words.
        return typed === undefined ? `‘${phrase}’` : `"${typed}"`;
      });
      const mapped = suggestions?.map((suggestion) => ({ ...suggestion, synonym: (rewrite.typed(suggestion.synonym) ?? suggestion.synonym).toLowerCase() }));
      return { reason: `${restated}${synonymHint(language, unknownWords(rewrite, catalog, knownStem))}`, ...(mapped ? { suggestions: mapped } : {}) };
    },
  };
}

/** Words of another language reach the model only through its synonyms: say which, and how. */
function synonymHint(language: string, words: readonly string[]): string {
  if (words.length === 0) return '';
  const list = words.map((word) => `"${word}"`).join(', ');
  const example = words[0]!.toLowerCase();
  return (
    ` The question is in ${language} and the model's words are English: ${list} ${words.length === 1 ? 'is' : 'are'} not among them.` +
    ` A synonym in the CML model makes such a word known: add it to the synonyms of the metric, dimension or value it names (synonyms: [..., "${example}"]), and the question can be answered without a language model.`
  );
}
